"""Regression tests for the red-team findings (issue 22): each attack as it was run, refused."""

from __future__ import annotations

import io
import zipfile

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.web.errors import DomainError
from app.web.services.tracks import create_challenge
from scorer.errors import InputError
from scorer.io.archive import read_zip
from tests.support.factories import demo_track, login, organiser

HUGE = 2**63


def corrupt_zip(method: int) -> bytes:
    """A valid archive whose compressed stream is damaged (headers intact, CRC not reached)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("en_out.txt", "The cat sat on the mat.\n" * 200)
    data = bytearray(buffer.getvalue())
    start = 30 + len("en_out.txt")
    for offset in range(start + 2, start + 40):
        data[offset] ^= 0xA5
    return bytes(data)


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_corrupt_compressed_stream_is_refused_with_its_reason(method):
    with pytest.raises(InputError, match=r"en_out\.txt.*cannot be read: its compressed data"):
        read_zip(corrupt_zip(method), "all.zip", 10_000_000)


def test_an_empty_or_nested_zip_says_what_it_is():
    with pytest.raises(InputError, match="contains no file"):
        read_zip(b"PK\x05\x06" + b"\x00" * 18, "empty.zip", 1000)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("en_out.txt", "x\n")
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("en.zip", inner.getvalue())
    with pytest.raises(InputError, match="is itself a zip archive"):
        read_zip(outer.getvalue(), "nested.zip", 10_000)


def test_ids_past_the_databases_integers_are_404_not_500(app, client, settings):
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    for url in (f"/submissions/{HUGE}", f"/systems/{HUGE}/anonymous", f"/annotate/{HUGE}"):
        response = client.get(url)
        assert response.status_code in (404, 405), (url, response.status_code)
    response = client.get(f"/api/v1/submissions/{HUGE}")
    assert response.status_code in (401, 404)


@pytest.mark.parametrize(
    "slug",
    ["demo\n", "demo\r\n", "de\tmo", "demo\x00", "Demo", "de mo", "-demo", "demo_1", "d" * 65, ""],
)
def test_slugs_are_checked_whole(app, settings, slug):
    with session_scope(settings.database_url) as session, pytest.raises(DomainError, match="slug"):
        create_challenge(session, slug, "Look-alike")


def test_the_judgement_export_neutralises_spreadsheet_formulas(app, settings):
    """Finding 10: a system name like '=HYPERLINK(...)' reached the human-judgement CSV as is."""
    import csv

    from app.web.services.human_import import import_judgements
    from app.web.services.human_results import export_csv
    from app.web.services.tracks import get_track

    demo_track(settings)
    rows = (
        "item,system,annotator,criterion,score\n"
        '1,"=HYPERLINK(""http://x.example"",""click"")",@ann,quality,30\n'
        "1,tgen,+ann,quality,50\n"
    )
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        mapping = {'=HYPERLINK("http://x.example","click")': "external", "tgen": "external"}
        campaign = import_judgements(
            session, track, "quality", "rankme", "quality", rows.encode(), "j.csv", mapping
        )
        exported = list(csv.reader(io.StringIO(export_csv(session, campaign))))
    cells = [cell for row in exported[1:] for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells), cells
    assert '\'=HYPERLINK("http://x.example","click")' in cells and "30" in cells


def race(app, token: str, systems: list[str], outputs: list[bytes]) -> list[int]:
    """POST every (system, output) at once through a real server; their status codes."""
    import threading

    import requests

    from tests.support.board import API
    from tests.support.servers import serve_app

    barrier = threading.Barrier(len(systems))
    codes: list[int] = []

    def send(url: str, system: str, output: bytes) -> None:
        barrier.wait()
        response = requests.post(
            f"{url}{API}/submissions",
            files={"file": ("out.txt", output)},
            data={"system": system},
            headers={"Authorization": f"Bearer {token}"},
            timeout=120,
        )
        codes.append(response.status_code)

    with serve_app(app) as url:
        threads = [
            threading.Thread(target=send, args=(url, system, output))
            for system, output in zip(systems, outputs, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return codes


def variants(count: int) -> list[bytes]:
    from tests.support.factories import GOOD_OUTPUT

    return [GOOD_OUTPUT.replace(b"\n", f" v{n}\n".encode(), 1) for n in range(count)]


def stored_files(settings) -> int:
    uploads = settings.instance_path / "uploads"
    return len(list(uploads.glob("??/*"))) if uploads.exists() else 0


def test_twenty_parallel_new_systems_respect_the_team_limits(app, settings):
    """Finding 3: with max_systems=1, 20 parallel uploads under new names made 5 systems, 4 of
    them primary. Finding 4: the 19 refused ones each left a file behind."""
    from sqlalchemy import select

    from app.data.models import System
    from tests.support.board import set_track
    from tests.support.factories import participant

    demo_track(settings)
    set_track(settings, max_systems=1)
    token = participant(settings, "a@x.org", team="A")
    codes = race(app, token, [f"sys-{n}" for n in range(20)], variants(20))
    assert sorted(codes) == [202] + [400] * 19, codes
    with session_scope(settings.database_url) as session:
        systems = session.scalars(select(System)).all()
        assert len(systems) == 1 and sum(s.is_primary for s in systems) == 1
    assert stored_files(settings) == 1


def test_parallel_uploads_for_the_last_daily_slot_store_one_file(app, settings):
    from tests.support.board import set_track
    from tests.support.factories import participant

    demo_track(settings)
    set_track(settings, daily_limit=1, max_systems=5)
    token = participant(settings, "a@x.org", team="A")
    codes = race(app, token, ["same"] * 20, variants(20))
    assert sorted(codes) == [202] + [400] * 19, codes
    assert stored_files(settings) == 1


def person_in_a_second_team(app, settings) -> str:
    """Issue 42.3: one person, daily limit 2, one upload made for team A, now in team B (whose
    own allowance is untouched): the person has one upload left. Returns their token."""
    from sqlalchemy import delete

    from app.data.models import Membership, User
    from app.web.services.accounts import create_team
    from tests.support.board import set_track, upload
    from tests.support.factories import participant

    demo_track(settings)
    set_track(settings, daily_limit=2, max_systems=5)
    token = participant(settings, "p@x.org", team="A")
    assert upload(app.test_client(), token, "first", variants(21)[20]).status_code == 202
    with session_scope(settings.database_url) as session:
        user = session.scalar(select(User).where(User.email == "p@x.org"))
        session.execute(delete(Membership).where(Membership.user_id == user.id))
        session.commit()
        session.expire_all()
        create_team(session, user, "B")
    return token


def test_parallel_uploads_of_one_person_in_a_second_team_take_one_personal_slot(app, settings):
    """The per-person count runs under the same track lock as the team's: of 20 parallel
    uploads for team B (2 free team slots), only the person's last slot is taken."""
    token = person_in_a_second_team(app, settings)
    codes = race(app, token, ["same"] * 20, variants(20))
    assert sorted(codes) == [202] + [400] * 19, codes
    assert stored_files(settings) == 2


def test_the_sweeper_removes_old_orphans_only(app, settings):
    import os
    from datetime import timedelta

    from app.data.models import utcnow
    from app.data.storage import LocalStorage
    from tests.support.board import upload
    from tests.support.factories import GOOD_OUTPUT, participant
    from worker.recovery import ORPHAN_AGE, sweep_orphans

    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(app.test_client(), token, "kept").status_code == 202
    storage = LocalStorage(settings.instance_path / "uploads")
    old_orphan, young_orphan = storage.put(b"refused\n"), storage.put(b"in flight\n")
    kept = storage.put(GOOD_OUTPUT)
    an_hour_ago = (utcnow() - ORPHAN_AGE - timedelta(minutes=1)).timestamp()
    for digest in (old_orphan, kept):
        os.utime(storage._path(digest), (an_hour_ago, an_hour_ago))
    assert sweep_orphans(settings, storage) == [old_orphan]
    assert storage.get(kept) == GOOD_OUTPUT and storage.get(young_orphan) == b"in flight\n"


def test_a_new_api_token_is_shown_on_the_page_never_in_the_cookie(app, client, settings):
    """Finding 11: the token travelled in the signed (readable) session cookie's flash."""
    from tests.support.factories import participant

    participant(settings, "a@x.org", team="A")
    login(client, "a@x.org")
    page = client.post("/account/token")
    token = page.get_data(as_text=True).split('<code class="token">')[1].split("</code>")[0]
    assert page.status_code == 200 and len(token) > 30
    assert "no-store" in page.headers["Cache-Control"]
    assert all(token not in value for value in page.headers.getlist("Set-Cookie"))
    cookie = client.get_cookie("session")
    session = app.session_interface.get_signing_serializer(app).loads(cookie.value)
    assert token not in repr(session)


def test_annotation_tokens_are_redacted_in_access_logs():
    import logging

    from app.data.logs import RedactTokens

    record = logging.LogRecord(
        "werkzeug", logging.INFO, __file__, 1, '%s - "%s" %s', ("::1", "GET /annotate/link/Zx9-_a HTTP/1.1", 200), None
    )  # fmt: skip
    assert RedactTokens().filter(record)
    assert record.getMessage() == '::1 - "GET /annotate/link/[redacted] HTTP/1.1" 200'
    gunicorn = logging.LogRecord(
        "gunicorn.access", logging.INFO, __file__, 1, "%(r)s", ({"r": "POST /annotate/link/abc?x=1"},), None
    )  # fmt: skip
    RedactTokens().filter(gunicorn)
    assert gunicorn.getMessage() == "POST /annotate/link/[redacted]?x=1"


def test_the_servers_access_loggers_carry_the_redaction():
    import logging

    from app.data.logs import SERVER_LOGGERS, RedactTokens, configure_logging

    configure_logging()
    for name in SERVER_LOGGERS:
        assert any(isinstance(f, RedactTokens) for f in logging.getLogger(name).filters)


def test_zip_entry_names_are_stored_sanitised(app, client, settings):
    """Finding 12: entry names were stored as the archive gave them."""
    from app.data.models import Submission
    from tests.support.board import API
    from tests.support.factories import participant, sr18_tracks

    sr18_tracks(settings)
    token = participant(settings, "a@x.org", team="A")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("en_out\x07<b>.txt", "the cat sat .\n" * 4)
    response = client.post(
        API.replace("demo/tracks/main", "sr18/tracks/shallow") + "/submissions",
        data={"file": (io.BytesIO(archive.getvalue()), "all.zip"), "system": "s"},
        headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 202, response.json
    with session_scope(settings.database_url) as session:
        (stored,) = [s.filename for s in session.query(Submission)]
    assert stored == "en_out__b_.txt"


def test_twenty_parallel_new_systems_name_at_most_the_primary_limit(app, settings):
    """The primary limit (2, as E2E) under the same race: 5 systems allowed, 20 new names."""
    from sqlalchemy import select

    from app.data.models import System
    from tests.support.board import set_track
    from tests.support.factories import participant

    demo_track(settings)
    set_track(settings, max_systems=5, max_primary=2)
    token = participant(settings, "a@x.org", team="A")
    codes = race(app, token, [f"sys-{n}" for n in range(20)], variants(20))
    assert sorted(codes) == [202] * 5 + [400] * 15, codes
    with session_scope(settings.database_url) as session:
        systems = session.scalars(select(System)).all()
        assert len(systems) == 5 and 1 <= sum(s.is_primary for s in systems) <= 2
    assert stored_files(settings) == 5


@pytest.mark.parametrize("field", ["daily_limit", "max_systems", "max_primary"])
def test_track_settings_past_the_databases_integers_are_refused_not_500(
    app, client, settings, field
):
    """Issue 34: a limit of 2**63 in the track settings was an HTTP 500 (integer overflow)."""
    from app.data.models import DEFAULT_DAILY_LIMIT, Track

    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    data = {"settings-title": "Main", "settings-phase": "test", "settings-max_primary": "2"}
    data[f"settings-{field}"] = str(HUGE)
    page = client.post("/organise/demo/tracks/main", data=data)
    assert page.status_code == 200 and b"10000" in page.data.replace(b",", b"")
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        unchanged = ("development", DEFAULT_DAILY_LIMIT, None)
        assert (track.phase, track.daily_limit, track.max_systems) == unchanged


def test_cli_daily_limit_past_the_databases_integers_is_refused(runner, settings):
    from tests.support.paths import DEMO_DATA

    assert runner.invoke(args=["challenge", "create", "c", "--title", "C"]).exit_code == 0
    refs = str(DEMO_DATA / "references.csv")
    args = ["track", "import", "c", "t", "--kind", "e2e", "--refs", refs]
    result = runner.invoke(args=[*args, "--daily-limit", str(HUGE)])
    assert result.exit_code == 2 and "--daily-limit" in result.output


def test_the_join_code_is_shown_on_the_team_page_never_in_the_cookie(app, client, settings):
    """Issue 34: creating a team flashed its join code, which the (signed, readable) session
    cookie then carried."""
    from app.data.models import Team
    from tests.support.factories import participant

    participant(settings, "a@x.org")
    login(client, "a@x.org")
    client.post("/team/create", data={"create-name": "Uni NLG"})
    with session_scope(settings.database_url) as session:
        code = session.scalars(select(Team)).one().join_code
    cookie = client.get_cookie("session")
    session = app.session_interface.get_signing_serializer(app).loads(cookie.value)
    assert "created" in repr(session) and code not in repr(session)
    assert code in client.get("/team").get_data(as_text=True)
