"""Organiser pages: scoped to their own challenges, the same readers as the CLI, phases and
publication, rescoring, baselines and the submissions archive."""

from __future__ import annotations

import csv
import io
import re
import zipfile

from sqlalchemy import update

from app.data.db import session_scope
from app.data.models import Score, Submission, SubmissionStatus, Track
from tests.support.board import API, board_systems, upload
from tests.support.factories import (
    DEMO_REFS,
    GOOD_OUTPUT,
    demo_track,
    login,
    organiser,
    participant,
    run_queue,
    sr18_tracks,
)

ORG = "/organise/demo/tracks/main"


def test_organiser_pages_are_scoped_to_their_challenges(client, settings):
    demo_track(settings)
    demo_track(settings, challenge="other")
    participant(settings, "p@x.org", team="A")
    organiser(settings, "org@x.org", "other")
    assert "/login" in client.get("/organise/demo").location
    assert "/login" in client.get(f"{ORG}/submissions.zip").location
    for email in ("p@x.org", "org@x.org"):
        login(client, email)
        assert client.get("/organise/demo").status_code == 404, email
        assert client.get(f"{ORG}/submissions.zip").status_code == 404, email
        assert client.post(f"{ORG}/publish", data={"published": "1"}).status_code == 404, email
        client.post("/logout")
    login(client, "org@x.org")
    assert client.get("/organise/other/tracks/main").status_code == 200
    assert b"Challenge demo" not in client.get("/organise").data


def test_create_a_challenge_and_import_a_track_from_the_form(client, settings):
    from app.data.models import Role
    from app.web.services.accounts import create_user

    with session_scope(settings.database_url) as session:
        create_user(session, "new@x.org", "password123", Role.ORGANISER)
    login(client, "new@x.org")
    page = client.post(
        "/organise", data={"slug": "e2e-2017", "title": "E2E NLG", "description": ""}
    )
    assert page.status_code == 302 and page.location.endswith("/organise/e2e-2017")
    bad = client.post(
        "/organise/e2e-2017",
        data={
            "action": "track",
            "track-slug": "main",
            "track-kind": "e2e",
            "track-references": (io.BytesIO(b'mr,ref\nname[X],"unclosed\n'), "refs.csv"),
        },
        content_type="multipart/form-data",
    )
    assert bad.status_code == 200
    assert b"Refused: refs.csv" in bad.data and b"Nothing was stored" in bad.data
    good = client.post(
        "/organise/e2e-2017",
        data={
            "action": "track",
            "track-slug": "main",
            "track-kind": "e2e",
            "track-references": (io.BytesIO(DEMO_REFS), "references.csv"),
        },
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert b"10 items" in good.data
    assert client.get("/challenges/e2e-2017/tracks/main").status_code == 200


def test_phase_publish_and_settings(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    organiser(settings, "org@x.org", "demo")
    upload(client, token, "marlin")
    run_queue(app)
    login(client, "org@x.org")
    refused = client.post(f"{ORG}/publish", data={"published": "1"}, follow_redirects=True)
    assert b"development phase, whose scores are public already" in refused.data
    saved = client.post(
        ORG,
        data={
            "settings-title": "Main",
            "settings-phase": "test",
            "settings-deadline": "2017-10-31T23:59",
            "settings-daily_limit": "5",
            "settings-max_systems": "",
            "settings-max_primary": "2",
        },
        follow_redirects=True,
    )
    assert b"Track settings saved" in saved.data
    client.post("/logout")
    assert board_systems(client) == []
    login(client, "org@x.org")
    client.post(f"{ORG}/publish", data={"published": "1"})
    client.post("/logout")
    assert board_systems(client) == ["marlin"]
    with session_scope(settings.database_url) as session:
        track = session.get(Track, 1)
        assert (track.phase, track.is_published, track.daily_limit) == ("test", True, 5)
        assert track.deadline.strftime("%Y-%m-%d %H:%M") == "2017-10-31 23:59"


def test_rescore_keeps_old_scores_visible_until_the_new_ones_land(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    organiser(settings, "org@x.org", "demo")
    upload(client, token, "marlin")
    run_queue(app)
    with session_scope(settings.database_url) as session:
        session.execute(update(Score).values(signature="BLEU|an older scorer"))
    assert b"older scorer" in client.get("/challenges/demo/tracks/main").data
    login(client, "org@x.org")
    question = client.get(f"{ORG}/rescore").get_data(as_text=True)
    assert "queues the track's 1 scored submission for scoring again" in question
    with session_scope(settings.database_url) as session:
        assert session.get(Submission, 1).status == SubmissionStatus.SCORED  # asking queued none
    page = client.post(f"{ORG}/rescore", follow_redirects=True)
    assert b"1 submissions queued for rescoring" in page.data
    with session_scope(settings.database_url) as session:
        assert session.get(Submission, 1).status in (SubmissionStatus.QUEUED, "running", "scored")
    assert board_systems(client) == ["marlin"]  # old or new scores, never none
    run_queue(app)
    assert b"older scorer" not in client.get("/challenges/demo/tracks/main").data
    with session_scope(settings.database_url) as session:
        assert session.get(Submission, 1).status == SubmissionStatus.SCORED


def test_submissions_zip_has_every_file_and_a_safe_manifest(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="=HYPERLINK(1)")
    organiser(settings, "org@x.org", "demo")
    upload(client, token, "marlin")
    upload(client, token, "marlin", b"too short\n")  # refused: not in the archive
    login(client, "org@x.org")
    response = client.get(f"{ORG}/submissions.zip")
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(response.data))
    manifest = list(csv.DictReader(io.StringIO(archive.read("manifest.csv").decode())))
    assert len(manifest) == 1
    (row,) = manifest
    assert row["team"] == "'=HYPERLINK(1)" and row["system"] == "marlin"
    assert archive.read(row["path"]) == GOOD_OUTPUT
    assert all(".." not in name and not name.startswith("/") for name in archive.namelist())


def test_baseline_added_from_the_page_is_scored_and_shown_apart(app, client, settings):
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    page = client.post(
        f"{ORG}/baselines",
        data={"baseline-name": "TGen", "baseline-file": (io.BytesIO(GOOD_OUTPUT), "tgen.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert b"Baseline TGen: 1 submission(s) queued" in page.data
    run_queue(app)
    (row,) = client.get(f"{API}/leaderboard").json["rows"]
    assert row["system"] == "TGen" and row["baseline"] is True and row["team"] is None
    bad = client.post(
        f"{ORG}/baselines",
        data={"baseline-name": "Bad", "baseline-file": (io.BytesIO(b"x\n"), "bad.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert b"Baseline refused" in bad.data and b"Nothing was stored" in bad.data


def _selected_kind(page: str) -> str | None:
    kinds = re.search(r'<select[^>]*name="track-kind".*?</select>', page, re.DOTALL)
    assert kinds, page
    chosen = re.search(r'<option (?:selected value="([^"]+)"|value="([^"]+)" selected)', kinds[0])
    return chosen and (chosen[1] or chosen[2])


def test_add_a_track_defaults_to_the_kind_the_challenge_already_uses(client, settings):
    sr18_tracks(settings)  # shallow, then deep
    organiser(settings, "org@x.org", "sr18")
    login(client, "org@x.org")
    assert _selected_kind(client.get("/organise/sr18").text) == "sr-deep"
    client.post("/organise", data={"slug": "fresh", "title": "Fresh"})
    assert _selected_kind(client.get("/organise/fresh").text) is None  # the list's first


def test_the_description_boxes_have_room_for_a_description(client, settings):
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    for path in ("/organise", "/organise/demo"):
        box = re.search(r"<textarea[^>]*>", client.get(path).text)
        assert box and 'class="description"' in box[0] and 'rows="12"' in box[0], (path, box)
