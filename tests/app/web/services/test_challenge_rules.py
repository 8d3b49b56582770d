"""The rules of a running challenge (E2E / SR'18 practice): phases and publication, quota,
late flags, primary and system limits, withdrawal and anonymisation, in every public view."""

from __future__ import annotations

from app.data.db import session_scope
from app.data.models import TEST, Submission, System
from tests.support.board import API, TRACK, bearer, board_systems, set_track, upload
from tests.support.factories import GOOD_OUTPUT, demo_track, login, participant, run_queue


def test_development_phase_shows_scores_to_everyone(client, two_teams):
    assert sorted(board_systems(client)) == ["marlin", "quokka"]
    page = client.get(TRACK).data.decode()
    assert "marlin" in page and "quokka" in page


def test_test_phase_hides_scores_until_published(client, settings, two_teams):
    set_track(settings, phase=TEST)
    assert board_systems(client) == []
    assert board_systems(client, two_teams["B"]) == ["quokka"]  # its own row only
    assert sorted(board_systems(client, two_teams["org"])) == ["marlin", "quokka"]
    page = client.get(TRACK).data.decode()
    assert "scores are hidden" in page and "marlin" not in page
    poll = client.get("/api/v1/submissions/1", headers=bearer(two_teams["A"])).json
    assert poll["status"] == "scored" and poll["scores"] and not poll["scores_hidden"]
    assert "BLEU" not in client.get("/systems/1").data.decode()

    set_track(settings, is_published=True)
    assert sorted(board_systems(client)) == ["marlin", "quokka"]
    assert "BLEU" in client.get("/systems/1").data.decode()


def test_organisers_can_hide_a_teams_own_test_scores_too(client, settings, two_teams):
    set_track(settings, phase=TEST, hide_own_scores=True)
    assert board_systems(client, two_teams["A"]) == []
    poll = client.get("/api/v1/submissions/1", headers=bearer(two_teams["A"])).json
    assert poll["status"] == "scored"
    assert poll["scores"] == {} and poll["scores_hidden"] is True
    login(client, "a@x.org")
    mine = client.get("/submissions").data.decode()
    assert "hidden until the organisers publish" in mine and "BLEU 0." not in mine


def test_outputs_of_other_teams_stay_private_until_test_results_are_published(
    client, settings, two_teams
):
    assert client.get("/submissions/2/outputs").status_code == 404
    login(client, "a@x.org")
    assert client.get("/submissions/2/outputs").status_code == 404
    assert client.get("/submissions/1/outputs").status_code == 200
    set_track(settings, phase=TEST, is_published=True)
    assert client.get("/submissions/2/outputs").status_code == 200


def test_withdrawn_rows_vanish_from_public_views_but_not_the_organisers(client, two_teams):
    login(client, "b@x.org")
    assert client.post("/submissions/2/withdraw").status_code == 302
    assert board_systems(client) == ["marlin"]
    assert board_systems(client, two_teams["B"]) == ["marlin"]
    organiser_rows = client.get(f"{API}/leaderboard", headers=bearer(two_teams["org"])).json
    assert sorted(row["system"] for row in organiser_rows["rows"]) == ["marlin", "quokka"]
    assert "quokka" not in client.get(TRACK).data.decode()
    poll = client.get("/api/v1/submissions/2", headers=bearer(two_teams["B"])).json
    assert poll["withdrawn"] is True


def test_withdrawal_asks_first_and_can_be_undone(client, two_teams):
    login(client, "b@x.org")
    mine = client.get("/submissions").get_data(as_text=True)
    assert 'href="/submissions/2/withdraw">Withdraw…</a>' in mine  # a link to a question
    question = client.get("/submissions/2/withdraw").get_data(as_text=True)
    assert "Withdraw submission 2?" in question and "you can restore it" in question
    assert board_systems(client) == ["marlin", "quokka"]  # asking changed nothing
    assert client.post("/submissions/2/withdraw").status_code == 302
    assert board_systems(client) == ["marlin"]
    assert "Restore</button>" in client.get("/submissions").get_data(as_text=True)
    assert client.post("/submissions/2/restore").status_code == 302
    assert board_systems(client) == ["marlin", "quokka"]
    mine = client.get("/submissions").get_data(as_text=True)
    assert "/submissions/2/outputs" in mine and "demo / main" in mine
    assert 'SER <span title="lower is better">↓</span>' in mine
    assert mine.index("<dt>BLEU") < mine.index("<dt>NIST") < mine.index("<dt>SER")


def test_a_withdrawn_submission_falls_back_to_the_systems_previous_one(app, client, two_teams):
    assert (
        upload(client, two_teams["A"], "marlin", GOOD_OUTPUT.replace(b"a", b"e")).status_code == 202
    )
    run_queue(app)
    login(client, "a@x.org")
    before = client.get(f"{API}/leaderboard").json["rows"]
    client.post("/submissions/3/withdraw")
    after = client.get(f"{API}/leaderboard").json["rows"]
    marlin = {row["system"]: row for row in after}["marlin"]
    assert marlin["scores"] != {row["system"]: row for row in before}["marlin"]["scores"]


def test_anonymised_system_is_anonymous_in_every_public_view(client, two_teams):
    login(client, "b@x.org")
    page = client.post("/systems/2/anonymous", follow_redirects=True).data.decode()
    assert "quokka now shows as &#39;anonymous&#39;" in page
    client.post("/logout")
    answer = client.get(f"{API}/leaderboard").json
    rows = {row["system"]: row for row in answer["rows"]}
    assert set(rows) == {"marlin", "anonymous"} and rows["anonymous"]["team"] is None
    for url in (TRACK, "/systems/2", f"{TRACK}?all=1"):
        page = client.get(url).data.decode()
        assert "quokka" not in page and ">B<" not in page, url
    organiser_view = client.get(f"{API}/leaderboard", headers=bearer(two_teams["org"])).json
    assert {row["system"] for row in organiser_view["rows"]} == {"marlin", "quokka"}


def test_team_names_at_most_two_primary_systems(app, client, settings, two_teams):
    for name in ("gamma", "delta"):
        assert upload(client, two_teams["A"], name).status_code == 202
    with session_scope(settings.database_url) as session:
        primary = [s.name for s in session.query(System).filter_by(team_id=1, is_primary=True)]
    assert primary == ["marlin", "gamma"]  # primary until the limit (2), then secondary
    login(client, "a@x.org")
    page = client.post("/systems/4/primary", follow_redirects=True).data.decode()
    assert "already has 2 primary systems" in page
    with session_scope(settings.database_url) as session:
        assert not session.get(System, 4).is_primary


def test_maximum_systems_per_team(client, settings, two_teams):
    set_track(settings, max_systems=2)
    assert upload(client, two_teams["A"], "gamma").status_code == 202
    refused = upload(client, two_teams["A"], "delta")
    assert refused.status_code == 400
    assert "already has 2 systems in this track, the limit is 2" in refused.json["error"]
    assert upload(client, two_teams["A"], "gamma").status_code == 202  # an existing name is fine


def test_quota_ignores_refused_and_failed_uploads(client, settings):
    demo_track(settings, daily_limit=1)
    token = participant(settings, "a@x.org", team="A")
    refused = upload(client, token, "marlin", b"one line only\n")
    assert refused.status_code == 400 and "nothing was stored" in refused.json["error"]
    assert upload(client, token, "marlin").status_code == 202
    with session_scope(settings.database_url) as session:
        session.get(Submission, 1).status = "failed"
    assert upload(client, token, "marlin").status_code == 202
    assert "used its 1 submissions" in upload(client, token, "other").json["error"]


def test_late_submissions_are_flagged_on_the_leaderboard(app, client, settings):
    from datetime import datetime

    demo_track(settings, deadline=datetime(2017, 10, 31, 23, 59))
    token = participant(settings, "a@x.org", team="A")
    upload(client, token, "marlin")
    run_queue(app)
    (row,) = client.get(f"{API}/leaderboard").json["rows"]
    assert row["late"] is True
    assert 'title="late submission">*<' in client.get(TRACK).data.decode()


def test_architecture_tags_are_the_e2e_groups_and_show_on_the_board(client, settings, two_teams):
    login(client, "a@x.org")
    client.post("/systems/1/architecture", data={"architecture": "seq2seq"})
    refused = client.post(
        "/systems/1/architecture", data={"architecture": "magic"}, follow_redirects=True
    )
    assert b"architecture must be one of seq2seq, other data-driven" in refused.data
    rows = {row["system"]: row for row in client.get(f"{API}/leaderboard").json["rows"]}
    assert rows["marlin"]["architecture"] == "seq2seq" and rows["quokka"]["architecture"] == ""
    assert '<span class="tag arch">seq2seq</span>' in client.get(TRACK).data.decode()
