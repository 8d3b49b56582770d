import io

import pytest
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import Output, Submission, SubmissionStatus, System, Track
from app.data.models import TestSet as StoredTestSet
from tests.support.factories import DEMO_REFS, GOOD_OUTPUT, demo_track, participant, run_queue
from tests.support.paths import require_link_parser

URL = "/api/v1/challenges/demo/tracks/main/submissions"


def post(client, token, data=GOOD_OUTPUT, system="sys-a", url=URL):
    return client.post(
        url,
        data={"file": (io.BytesIO(data), "out.txt"), "system": system},
        headers={"Authorization": f"Bearer {token}"} if token else {},
        content_type="multipart/form-data",
    )


def count_submissions(settings) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(func.count(Submission.id)))


def test_submit_poll_and_leaderboard(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    response = post(client, token)
    assert response.status_code == 202
    assert response.json == {
        "id": 1,
        "status": "queued",
        "submissions": [{"id": 1, "language": "en", "status": "queued"}],
        "warnings": [],
    }

    queue = app.extensions["nlgboard.queue"]
    queue.start()
    queue.join()

    status = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {token}"})
    assert status.json["status"] == "scored"
    assert 0 < status.json["scores"]["BLEU"] <= 1
    assert "tok:13a" in status.json["signatures"]["BLEU"]

    board = client.get("/api/v1/challenges/demo/tracks/main/leaderboard").json
    assert [(row["system"], row["team"], row["baseline"]) for row in board["rows"]] == [
        ("sys-a", "A", False)
    ]


def test_no_token_is_401_and_bad_token_too(client, settings):
    demo_track(settings)
    assert post(client, None).status_code == 401
    assert post(client, "wrong").status_code == 401


def test_refused_file_says_why_and_stores_nothing(client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    response = post(client, token, data=b"only one line\n")
    assert response.status_code == 400
    assert "expected 10 outputs (one per test MR, in test order), found 1" in response.json["error"]
    assert count_submissions(settings) == 0
    assert not any(path.is_file() for path in settings.uploads_path.rglob("*"))


def test_an_mr_mismatch_shows_the_teams_mr_and_the_public_input_never_a_reference(client, settings):
    """The refusal quotes the uploaded MR and the test input it should have been (both public
    to the team), around where they differ; no hidden reference reaches the message."""
    from scorer.io import e2e
    from tests.support.factories import DEMO_REFS

    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    items = e2e.read_dataset_csv(DEMO_REFS)
    mrs = [item.input for item in items]
    swapped = [mrs[1], mrs[0], *mrs[2:]]
    table = "MR\toutput\n" + "".join(f"{mr}\tsome output\n" for mr in swapped)
    error = post(client, token, data=table.encode()).json["error"]
    assert "line 2: the MR" in error and "differs from test MR 1" in error
    assert "it is test MR 2" in error
    references = [ref for item in items for ref in item.references]
    assert not any(ref in error for ref in references)
    assert count_submissions(settings) == 0


def test_participant_without_team_is_refused(client, settings):
    demo_track(settings)
    token = participant(settings, "solo@x.org")
    response = post(client, token)
    assert response.status_code == 400
    assert "create or join a team" in response.json["error"]


def test_other_team_cannot_read_a_submission(client, settings):
    demo_track(settings)
    token_a = participant(settings, "a@x.org", team="A")
    token_b = participant(settings, "b@x.org", team="B")
    assert post(client, token_a).status_code == 202
    other = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {token_b}"})
    assert other.status_code == 404
    team_mate = participant(settings, "a2@x.org", team="A")
    mine = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {team_mate}"})
    assert mine.json["status"] == SubmissionStatus.QUEUED.value


def test_system_names_are_each_teams_own(client, settings):
    """Issue 34: "the system name is taken" told team B that another team had a system of that
    name (anonymised, or hidden until publication); now B simply gets its own system."""
    demo_track(settings)
    assert post(client, participant(settings, "a@x.org", team="A")).status_code == 202
    response = post(client, participant(settings, "b@x.org", team="B"))
    assert response.status_code == 202 and response.json["id"] == 2
    with session_scope(settings.database_url) as session:
        systems = session.scalars(select(System).order_by(System.id)).all()
        assert [(s.name, s.team.name) for s in systems] == [("sys-a", "A"), ("sys-a", "B")]


def test_unknown_track_is_404_json(client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    response = post(client, token, url="/api/v1/challenges/demo/tracks/nope/submissions")
    assert response.status_code == 404
    assert "no track 'nope'" in response.json["error"]


def test_daily_limit_counts_only_non_failed(client, settings):
    demo_track(settings, daily_limit=1)
    token = participant(settings, "a@x.org", team="A")
    assert post(client, token).status_code == 202
    second = post(client, token, system="sys-b")
    assert second.status_code == 400
    assert "used its 1 submissions" in second.json["error"]
    with session_scope(settings.database_url) as session:
        session.get(Submission, 1).status = SubmissionStatus.FAILED
    assert post(client, token).status_code == 202


def test_submission_after_deadline_is_accepted_and_marked_late(client, settings):
    from datetime import datetime

    demo_track(settings, deadline=datetime(2017, 10, 31, 23, 59))
    token = participant(settings, "a@x.org", team="A")
    assert post(client, token).status_code == 202
    status = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {token}"})
    assert status.json["late"] is True


def score_good_and(app, client, settings, system: str, line: bytes) -> None:
    """Team A's demo baseline as "good" and team B's ``line`` on every item as ``system``, scored."""
    demo_track(settings)
    token_a = participant(settings, "a@x.org", team="A")
    token_b = participant(settings, "b@x.org", team="B")
    other = b"\n".join(line for _ in range(10)) + b"\n"
    assert post(client, token_a, system="good").status_code == 202
    assert post(client, token_b, data=other, system=system).status_code == 202
    queue = app.extensions["nlgboard.queue"]
    queue.start()
    queue.join()


def test_leaderboard_columns_follow_the_paper_and_sort_by_normalised_average(app, client, settings):
    score_good_and(app, client, settings, "worse", b"A place.")

    board = client.get("/api/v1/challenges/demo/tracks/main/leaderboard").json
    overlap = ["BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "norm_avg"]
    assert board["metrics"] == [*overlap, "SER", "OK%", "A%", "M%", "A+M%"]
    assert [row["system"] for row in board["rows"]] == ["good", "worse"]
    worse_row = board["rows"][1]["scores"]
    assert worse_row["SER"] > board["rows"][0]["scores"]["SER"]
    assert worse_row["OK%"] == 0 and worse_row["M%"] == 100  # names missing everywhere
    ascending = client.get("/api/v1/challenges/demo/tracks/main/leaderboard?sort=BLEU&order=asc")
    assert [row["system"] for row in ascending.json["rows"]] == ["worse", "good"]
    page = client.get("/challenges/demo/tracks/main").data.decode()
    assert 'aria-sort="descending"' in page and "norm_avg ▼" in page
    assert "sort=SER&amp;order=asc" in page and "sort=BLEU&amp;order=desc" in page  # best first
    assert "<h2>Textual statistics</h2>" in page
    assert "test set all" in page and "test set rand" in page and "MSTTR-50" in page


def test_ser_on_the_board_reads_the_file_as_the_slot_error_script_does(
    app, client, settings, tmp_path
):
    """Upload -> worker -> leaderboard: "less than  £20" (two spaces) is no price for the E2E
    slot-error script, so the board's SER and the output's findings miss it, as ``nlg-score``
    does on the same file; the other metrics see the whitespace collapsed (equal BLEU)."""
    import json

    from click.testing import CliRunner

    from scorer.cli.score import main as nlg_score

    demo_track(settings)
    token_a = participant(settings, "a@x.org", team="A")
    token_b = participant(settings, "b@x.org", team="B")
    spaced = GOOD_OUTPUT.replace("less than £20".encode(), "less than  £20".encode())
    assert spaced != GOOD_OUTPUT
    assert post(client, token_a, system="single").status_code == 202
    assert post(client, token_b, data=spaced, system="double").status_code == 202
    run_queue(app)

    board = client.get("/api/v1/challenges/demo/tracks/main/leaderboard").json
    rows = {row["system"]: row["scores"] for row in board["rows"]}
    assert rows["double"]["SER"] > rows["single"]["SER"]
    assert rows["double"]["BLEU"] == rows["single"]["BLEU"]
    (tmp_path / "out.txt").write_bytes(spaced)
    refs = tmp_path / "references.csv"
    refs.write_bytes(DEMO_REFS)
    args = ["--profile", "e2e", "--refs", str(refs), "--hyp", str(tmp_path / "out.txt")]
    offline = CliRunner().invoke(nlg_score, [*args, "--metrics", "SER", "--json"])
    assert offline.exit_code == 0, offline.output
    assert rows["double"]["SER"] == pytest.approx(json.loads(offline.stdout)["SER"])
    with session_scope(settings.database_url) as session:
        last = {}
        for system in ("single", "double"):
            submission = session.scalars(
                select(Submission).join(System).where(System.name == system)
            ).one()
            outputs = session.scalars(
                select(Output).where(Output.submission_id == submission.id).order_by(Output.item_id)
            ).all()
            last[system] = outputs[-1]
        assert last["double"].text == last["single"].text  # stored normalised, for the others
        missed = "missed priceRange[less than £20]"
        assert missed in last["double"].annotations and missed not in last["single"].annotations


def test_track_page_compares_d_level_distributions(app, client, settings):
    require_link_parser()
    score_good_and(app, client, settings, "simple", b"It is a pub.")

    with session_scope(settings.database_url) as session:
        test_set = session.scalars(select(StoredTestSet)).one()
        assert "dlevel:linkgrammar" in test_set.described_signature
        assert test_set.described.reveal()["test set all"]["D-level sentences"] > 0
    board = client.get("/api/v1/challenges/demo/tracks/main/leaderboard").json
    assert board["references"]["test set rand"]["D-level sentences"] > 0
    simple_row = next(row for row in board["rows"] if row["system"] == "simple")
    assert simple_row["described"]["D-level 0 %"] == 100.0
    page = client.get("/challenges/demo/tracks/main").data.decode()
    assert "Syntactic complexity (D-level)" in page and 'id="ks-tests"' in page
    ks_table = page[page.index('id="ks-tests"') :]
    assert ks_table.count("<tr><td>") == 4  # test set all, test set rand, good, simple


def test_outputs_page_shows_slot_errors_once_published(app, client, settings):
    """The team reads its outputs at once, but what the scorer found per item only once the
    test results are out (then everyone does): a per-item figure probes its reference."""
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    participant(settings, "b@x.org", team="B")
    lines = GOOD_OUTPUT.decode().splitlines()
    lines[0] = "The Copper Kettle is a pub in the city centre."  # MR: coffee shop, riverside
    assert post(client, token, data=("\n".join(lines) + "\n").encode()).status_code == 202
    queue = app.extensions["nlgboard.queue"]
    queue.start()
    queue.join()

    assert client.get("/submissions/1/outputs").status_code == 404
    client.post("/login", data={"email": "b@x.org", "password": "password123"})
    assert client.get("/submissions/1/outputs").status_code == 404
    client.post("/logout")
    client.post("/login", data={"email": "a@x.org", "password": "password123"})
    page = client.get("/submissions/1/outputs?errors=1").data.decode()
    assert "The Copper Kettle is a pub in the city centre." in page
    assert "wrong eatType" not in page and "slot errors" not in page

    _set_track(settings, phase="test", is_published=True)
    client.post("/logout")
    page = client.get("/submissions/1/outputs?errors=1").data.decode()
    assert "wrong eatType: [coffee shop] said as &#39;pub&#39;" in page
    assert "wrong area: [riverside] said as &#39;city centre&#39;" in page


def _set_track(settings, **values) -> None:
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        for name, value in values.items():
            setattr(track, name, value)
        session.commit()


def test_published_layouts_upload_and_score_as_nlg_score_does(app, client, settings, tmp_path):
    """The official test references' layout (quoted header, every field quoted) imported, an
    output file as the published E2E outputs are (quoted MRs, BOM, \\r\\r\\n, trailing spaces,
    lower-cased) uploaded through the API: accepted, and every figure equals nlg-score's."""
    import csv
    import json

    from click.testing import CliRunner

    from app.web.services.track_imports import import_items
    from app.web.services.tracks import create_challenge
    from scorer.cli.score import main as nlg_score
    from scorer.io.e2e import read_dataset_csv
    from tests.support.factories import DEMO_REFS

    items = read_dataset_csv(DEMO_REFS)
    quoted = io.StringIO()
    writer = csv.writer(quoted, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerows([("mr", "ref"), *((i.input, r) for i in items for r in i.references)])
    refs = quoted.getvalue().encode()
    outputs = "\ufeffMR\toutput  \r\r\n" + "".join(
        f'"{item.input}"\t{item.references[0].lower()}  \r\r\n' for item in items
    )
    with session_scope(settings.database_url) as session:
        challenge = create_challenge(session, "e2e", "E2E")
        import_items(session, challenge, "test", "e2e", references=(refs, "testset_w_refs.csv"))
    token = participant(settings, "a@x.org", team="A")
    url = "/api/v1/challenges/e2e/tracks/test/submissions"
    assert post(client, token, data=outputs.encode(), url=url).status_code == 202
    queue = app.extensions["nlgboard.queue"]
    queue.start()
    queue.join()
    status = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {token}"})
    assert status.json["status"] == "scored", status.json

    (tmp_path / "testset_w_refs.csv").write_bytes(refs)
    (tmp_path / "output.tsv").write_bytes(outputs.encode())
    offline = CliRunner().invoke(
        nlg_score,
        ["--profile", "e2e", "--refs", str(tmp_path / "testset_w_refs.csv"), "--hyp",
         str(tmp_path / "output.tsv"), "--json"],
    )  # fmt: skip
    assert offline.exit_code == 0, offline.output
    expected = json.loads(offline.output)
    for metric in ("BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "SER", "OK%"):
        assert status.json["scores"][metric] == pytest.approx(expected[metric], abs=1e-9), metric
