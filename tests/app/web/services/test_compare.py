"""Breakdowns and the comparison of two systems on the board: the numbers (those of
``nlg-score``), and every visibility rule (each test fails if its rule is dropped)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Submission, System
from app.web.errors import DomainError
from app.web.services.access import ORGANISERS, PUBLIC, Viewer
from app.web.services.breakdowns import track_breakdown
from app.web.services.tracks import get_track
from scorer.cli.score import main
from tests.support.board import API, TRACK, bearer, set_track
from tests.support.factories import DEMO_REFS, GOOD_OUTPUT

QUOKKA = b"\n".join(b"a restaurant" for _ in range(10)) + b"\n"


def _ids(settings) -> dict[str, int]:
    with session_scope(settings.database_url) as session:
        return {s.name: s.id for s in session.scalars(select(System))}


def _compare(client, settings, token=None, **query):
    ids = _ids(settings)
    params = {"a": ids["marlin"], "b": ids["quokka"], **query}
    return client.get(f"{API}/compare", query_string=params, headers=bearer(token) if token else {})


def test_the_boards_comparison_has_nlg_score_compares_p_values(
    client, settings, two_teams, tmp_path
):
    (tmp_path / "refs.csv").write_bytes(DEMO_REFS)
    (tmp_path / "a.txt").write_bytes(GOOD_OUTPUT)
    (tmp_path / "b.txt").write_bytes(QUOKKA)
    result = CliRunner().invoke(
        main,
        ["--profile", "e2e", "--refs", str(tmp_path / "refs.csv"), "--hyp", str(tmp_path / "a.txt"),
         "--compare", str(tmp_path / "b.txt"), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    offline = {c["metric"]: c for c in json.loads(result.output)}
    answer = _compare(client, settings, two_teams["org"])
    assert answer.status_code == 200, answer.json
    online = {d["metric"]: d for d in answer.json["metrics"]}
    assert set(online) == set(offline)
    for metric, found in online.items():
        assert found["p_value"] == offline[metric]["p_value"], metric
        assert found["difference"] == offline[metric]["difference"], metric
        assert (found["low"], found["high"]) == (offline[metric]["low"], offline[metric]["high"])


def test_organisers_get_every_item_with_both_outputs_and_references(client, settings, two_teams):
    answer = _compare(client, settings, two_teams["org"], limit=0).json
    items = answer["items"]
    assert answer["item_metric"] == "SER" and len(items) == 10
    assert all(item["output_b"] == "a restaurant" and item["references"] for item in items)
    differences = [abs(item["difference"]) for item in items]
    assert differences == sorted(differences, reverse=True)
    assert all(item["attributes"]["slots"].isdigit() for item in items)
    rules = {
        "only-a": lambda i: i["wrong_a"] and not i["wrong_b"],
        "only-b": lambda i: i["wrong_b"] and not i["wrong_a"],
        "both": lambda i: i["wrong_a"] and i["wrong_b"],
    }
    for which, rule in rules.items():
        found = _compare(client, settings, two_teams["org"], filter=which, limit=0).json["items"]
        assert [i["position"] for i in found] == [i["position"] for i in items if rule(i)]
    assert any(rules["both"](item) for item in items)


def test_before_publication_a_team_compares_only_its_own_systems_without_item_figures(
    client, settings, two_teams
):
    set_track(settings, phase="test")
    assert _compare(client, settings, two_teams["A"]).status_code == 404  # quokka is B's
    assert _compare(client, settings).status_code == 404
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        system = System(track_id=track.id, team_id=session.get(System, _ids(settings)["marlin"]).team_id,
                        name="second", is_primary=True)  # fmt: skip
        session.add(system)
        session.flush()
        first = session.scalars(
            select(Submission).join(System).where(System.name == "marlin")
        ).one()
        _copy_submission(session, first, system)
    ids = _ids(settings)
    own = {"a": ids["marlin"], "b": ids["second"]}
    answer = client.get(f"{API}/compare", query_string=own, headers=bearer(two_teams["A"])).json
    assert answer["metrics"] and answer["items"] is None
    assert all("low" not in d for d in answer["metrics"])  # no interval: scores rounded
    page = client.get(f"{TRACK}/compare", query_string=own)
    assert page.status_code == 404  # the public sees neither
    set_track(settings, is_published=True)
    answer = _compare(client, settings).json
    assert answer["items"] and answer["items"][0]["references"]
    assert "low" in answer["metrics"][0]


def _copy_submission(session, submission: Submission, system: System) -> None:
    from app.data.models import Output, Score, SubmissionStatistics

    copy = Submission(system=system, language=submission.language, filename="o.txt",
                      file_sha256=submission.file_sha256, status=submission.status)  # fmt: skip
    session.add(copy)
    session.flush()
    session.add_all(
        Score(submission_id=copy.id, metric=s.metric, subset=s.subset, value=s.value,
              signature=s.signature) for s in submission.scores
    )  # fmt: skip
    for output in session.scalars(select(Output).where(Output.submission_id == submission.id)):
        session.add(Output(submission_id=copy.id, item_id=output.item_id, text=output.text))
    data = session.get(SubmissionStatistics, submission.id).data
    session.add(SubmissionStatistics(submission_id=copy.id, data=data))


def test_a_withdrawn_system_cannot_be_compared_by_anyone_but_organisers(
    client, settings, two_teams
):
    with session_scope(settings.database_url) as session:
        found = session.scalars(select(Submission).join(System).where(System.name == "quokka"))
        from app.data.models.base import utcnow

        found.one().withdrawn_at = utcnow()
    assert _compare(client, settings).status_code == 404
    assert _compare(client, settings, two_teams["org"]).status_code == 200


def test_an_anonymised_system_stays_anonymous_in_a_comparison(client, settings, two_teams):
    with session_scope(settings.database_url) as session:
        session.scalars(select(System).where(System.name == "quokka")).one().is_anonymous = True
    answer = _compare(client, settings).json
    assert answer["b"]["system"] == "anonymous" and answer["b"]["team"] is None
    page = client.get(f"{TRACK}/compare", query_string={"a": _ids(settings)["marlin"],
                                                        "b": _ids(settings)["quokka"]})  # fmt: skip
    assert page.status_code == 200 and "quokka" not in page.text


def test_small_buckets_wait_for_publication_and_organisers_see_them(app, settings, two_teams):
    """Before publication a team breaks down by nothing (a bucket of any size is a probe);
    after, the demo set's 10 items make every bucket one under 30, shown as published."""
    set_track(settings, phase="test")
    team_a = Viewer(team_id=_team_of(settings, "marlin"))
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        with pytest.raises(DomainError, match="breaks down by nothing"):
            track_breakdown(session, track, "slots", team_a)
        shown = track_breakdown(session, track, "slots", ORGANISERS)
        assert sum(items for _, items in shown.buckets) == 10 and shown.intervals
        row = shown.rows[0].buckets[shown.buckets[0][0]]
        assert row["BLEU"].low is not None
    set_track(settings, is_published=True)
    with session_scope(settings.database_url) as session:
        public = track_breakdown(session, get_track(session, "demo", "main"), "slots", PUBLIC)
        assert public.buckets == shown.buckets and len(public.rows) == 2


def test_a_breakdown_by_reference_attributes_waits_like_reference_statistics(
    client, settings, two_teams
):
    set_track(settings, phase="test")
    query = {"attribute": "references"}
    assert (
        client.get(
            f"{API}/breakdown", query_string=query, headers=bearer(two_teams["A"])
        ).status_code
        == 404
    )
    answer = client.get(f"{API}/breakdown", query_string=query, headers=bearer(two_teams["org"]))
    assert answer.status_code == 200 and answer.json["buckets"]
    page = client.get(TRACK, headers={})
    assert 'value="references"' not in page.text


def test_the_track_page_breaks_down_links_comparisons_and_exports_csv(app, settings, two_teams):
    from tests.support.factories import login

    client = app.test_client()
    login(client, "org@x.org")
    page = client.get(TRACK, query_string={"breakdown": "slots", "bmetric": "BLEU"})
    assert page.status_code == 200
    assert 'id="breakdown-table"' in page.text and 'id="slot-error-table"' in page.text
    assert "/compare?a=" in page.text
    csv = client.get(f"{TRACK}/breakdown.csv", query_string={"attribute": "slots"})
    assert csv.status_code == 200 and csv.text.startswith("system,team,slots,items,metric")
    compare = client.get(
        page.text.split('class="compare" href="')[1].split('"')[0].replace("&amp;", "&")
    )
    assert compare.status_code == 200 and "Item by item" in compare.text


def _team_of(settings, system: str) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalars(select(System.team_id).where(System.name == system)).one()


def _submission_of(settings, system: str) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalars(
            select(Submission.id).join(System).where(System.name == system)
        ).one()


def test_a_team_takes_its_per_item_scores_away_only_once_published(app, settings, two_teams):
    from tests.support.factories import login, participant

    set_track(settings, phase="test")
    own, other = _submission_of(settings, "marlin"), _submission_of(settings, "quokka")
    team = app.test_client()
    participant(settings, "a2@x.org", team="A")
    login(team, "a2@x.org")
    assert team.get(f"/submissions/{own}/items.csv").status_code == 404
    organisers = app.test_client()
    login(organisers, "org@x.org")
    early = organisers.get(f"/submissions/{other}/items.jsonl")
    assert early.status_code == 200 and len(early.text.splitlines()) == 10
    set_track(settings, is_published=True)
    assert team.get(f"/submissions/{other}/items.csv").status_code == 404  # not its own
    assert app.test_client().get(f"/submissions/{own}/items.csv").status_code == 404
    found = team.get(f"/submissions/{own}/items.csv")
    assert found.status_code == 200
    header = found.text.splitlines()[0].split(",")
    assert header[:3] == ["item", "input", "output"] and "slots" in header and "BLEU" in header
    records = [
        json.loads(line) for line in team.get(f"/submissions/{own}/items.jsonl").text.splitlines()
    ]
    assert records[0]["scores"]["SER"] >= 0 and records[0]["attributes"]["slot:name"] == "present"
    assert 'id="item-downloads"' in team.get(f"/submissions/{own}/outputs").text


@pytest.mark.parametrize(
    ("p_value", "shown"), [(0.2547, "0.2547"), (1.0, "1.0000"), (1 / 1001, "< 0.001")]
)
def test_the_compare_page_prints_p_as_nlg_score_does(p_value, shown):
    """A p-value at the resampling's floor (1/1001 for 1,000 resamples) says only "at most
    that": printed as a bound, never as 0.001."""
    from app.web import p_value_text

    assert p_value_text(p_value) == shown


def test_the_comparison_lists_metrics_in_the_leaderboards_order(client, settings, two_teams):
    """The E2E leaderboard puts norm_avg after CIDEr, with its group; the comparison put it
    last, where the statistics it is derived from end."""
    org = bearer(two_teams["org"])
    board = client.get(f"{API}/leaderboard", headers=org).json
    compared = [d["metric"] for d in _compare(client, settings, two_teams["org"]).json["metrics"]]
    assert compared == [m for m in board["metrics"] if m in compared]
    assert compared.index("norm_avg") == compared.index("CIDEr") + 1
