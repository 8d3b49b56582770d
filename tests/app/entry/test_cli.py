"""``nlgboard`` commands on a real SQLite database, with the real E2E dev set where present."""

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Item, Score, Submission, User
from tests.support.paths import DEMO_DATA, e2e_file

DEV_LOO = pytest.param(
    "dev_loo_refs.csv", "dev_loo_output.tsv", "547 items, 4125 references", 0.5995,
    marks=[pytest.mark.slow, pytest.mark.exhaustive], id="e2e-dev",
)  # fmt: skip
"""The real dev set (~40 s cold, up to 3 min in a loaded make test): its figure is checked
through the board by tests/integration/test_pipeline.py too, so make test-all runs it here."""


@pytest.mark.parametrize(
    ("refs", "output", "imported", "bleu"),
    [("references.csv", "baseline.txt", "10 items, 23 references", None), DEV_LOO],
    ids=["demo", "e2e-dev"],
)
def test_challenge_track_user_and_baseline(
    runner, settings, no_bundled_runs, refs, output, imported, bleu
):
    refs_file = DEMO_DATA / refs if bleu is None else e2e_file(refs)
    output_file = DEMO_DATA / output if bleu is None else e2e_file(output)
    assert runner.invoke(args=["challenge", "create", "e2e", "--title", "E2E"]).exit_code == 0
    duplicate = runner.invoke(args=["challenge", "create", "e2e", "--title", "E2E"])
    assert duplicate.exit_code == 1 and "already exists" in duplicate.output

    args = ["track", "import", "e2e", "dev", "--kind", "e2e", "--refs", str(refs_file)]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert imported in result.output

    args = ["baseline", "add", "e2e", "dev", str(output_file), "--name", "leave-one-out"]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert "scored" in result.output
    if bleu is None:  # the demo files: what nlg-score gives offline
        import json

        from click.testing import CliRunner

        from scorer.cli.score import main as nlg_score

        offline = CliRunner().invoke(
            nlg_score,
            ["--profile", "e2e", "--refs", str(refs_file), "--hyp", str(output_file), "--json"],
        )
        bleu = round(json.loads(offline.stdout)["BLEU"], 4)
    with session_scope(settings.database_url) as session:
        stored = session.scalar(select(Score).where(Score.metric == "BLEU"))
        assert round(stored.value, 4) == bleu
        if refs == "dev_loo_refs.csv":
            first = session.scalar(select(Item).where(Item.position == 0))
            assert len(first.references) == 5  # 6 in devset.csv, minus the one used as output
            ser = session.scalar(select(Score).where(Score.metric == "SER", Score.subset == ""))
            assert round(ser.value, 2) == 11.47  # the slot-error script's figure for the file

    token = runner.invoke(
        args=[
            "user",
            "create",
            "p@x.org",
            "--team",
            "T",
            "--role",
            "organiser",
            "--challenge",
            "e2e",
        ]
    )
    assert token.exit_code == 0
    with session_scope(settings.database_url) as session:
        user = session.scalar(select(User))
        assert user.team.name == "T" and user.api_token_hash
        assert user.api_token_hash != token.output.strip()


def test_track_import_with_inputs_orders_items_and_reports_missing(runner, settings, tmp_path):
    runner.invoke(args=["challenge", "create", "demo", "--title", "Demo"])
    inputs = tmp_path / "inputs.csv"
    import_args = ["track", "import", "demo", "t", "--kind", "e2e", "--inputs", str(inputs)]
    import_args += ["--refs", str(DEMO_DATA / "references.csv")]
    inputs.write_text(
        'MR\n"name[Rosemary], eatType[coffee shop], priceRange[high], '
        'area[city centre]"\n"name[Nowhere]"\n'
    )
    result = runner.invoke(args=import_args)
    assert result.exit_code == 1
    assert "inputs.csv, line 3: 1 input MR(s) have no references" in result.output
    inputs.write_text(
        'MR\n"name[Rosemary], eatType[coffee shop], priceRange[high], area[city centre]"\n'
    )
    result = runner.invoke(args=import_args)
    assert result.exit_code == 0 and "1 items, 2 references" in result.output


def test_worker_without_redis_says_how_it_runs(runner):
    result = runner.invoke(args=["worker"])
    assert result.exit_code == 1
    assert "REDIS_URL is not set" in result.output


@pytest.mark.slow
def test_demo_seed_is_idempotent(runner, client):
    from app.web.services.tracks import get_track

    first = runner.invoke(args=["demo"]).output
    assert "demo-e2e created with 2 scored runs" in first
    assert "demo-sr18 created with 7 scored runs" in first
    assert "demo-drs created with 2 scored runs" in first
    assert "demo-sr18 already present" in runner.invoke(args=["demo"]).output
    matrix = client.get("/api/v1/challenges/demo-sr18/overview").json
    assert [row["team"] for row in matrix["rows"]] == ["Word Order Lab", "Linearise", "Input order"]
    drs = client.get("/challenges/demo-drs/tracks/gen").get_data(as_text=True)
    assert "char-lstm" in drs  # its 2-sentence tense set is a per-item figure until published
    assert 'id="challenge-tense"' not in drs
    settings = client.application.extensions["nlgboard.settings"]
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo-drs", "gen")
        track.phase, track.is_published = "test", True
        session.commit()
    drs = client.get("/challenges/demo-drs/tracks/gen").get_data(as_text=True)
    assert 'id="challenge-tense"' in drs
    assert "demo human evaluation: 60 RankME judgements ranked" in first
    e2e = client.get("/challenges/demo-e2e/tracks/main").get_data(as_text=True)
    human = e2e[e2e.index('id="human-evaluation"') :]
    labels = ("Demo team / demo-seq2seq", "Template baseline")  # the team's system ranks first
    ranked = [human.index(f"<td>{label}</td>") for label in labels]
    assert ranked == sorted(ranked)


def test_run_on_a_busy_port_fails_before_saying_serving(runner):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(args=["run", "--port", str(port)])
    assert result.exit_code == 1
    assert "serving" not in result.output
    assert f"cannot serve on 127.0.0.1:{port}" in result.output and "--port" in result.output


def test_demo_seeding_without_a_scorer_leaves_the_runs_to_the_queue(app, client):
    from app.entry.demo import seed_demo

    said: list[str] = []
    seed_demo(app, say=said.append)
    assert said == [
        "demo: demo-e2e created, 2 runs queued",
        "demo: demo-sr18 created, 7 runs queued",
        "demo: demo-drs created, 2 runs queued",
    ]
    with session_scope(app.extensions["nlgboard.settings"].database_url) as session:
        statuses = {s.status.value for s in session.scalars(select(Submission))}
    assert statuses == {"queued"}
    assert "demo-sr18" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("2017-10-31T23:59", "2017-10-31 23:59:00"),
        ("2017-10-31T23:59:30", "2017-10-31 23:59:30"),
        ("2017-10-31 23:59", "2017-10-31 23:59:00"),
        ("2017-11-01T01:59+02:00", "2017-10-31 23:59:00"),
        ("2017-10-31T23:59Z", "2017-10-31 23:59:00"),
    ],
)
def test_track_import_takes_the_deadline_its_help_shows(runner, settings, given, stored):
    """Issue 34: ``--deadline 2017-10-31T23:59``, the help's own example, was refused."""
    from app.web.services.tracks import get_track

    assert runner.invoke(args=["challenge", "create", "c", "--title", "C"]).exit_code == 0
    refs = str(DEMO_DATA / "references.csv")
    args = ["track", "import", "c", "t", "--kind", "e2e", "--refs", refs, "--deadline", given]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    with session_scope(settings.database_url) as session:
        deadline = get_track(session, "c", "t").deadline
        assert deadline.utcoffset().total_seconds() == 0
        assert deadline.strftime("%Y-%m-%d %H:%M:%S") == stored


@pytest.mark.parametrize("given", ["2017-10-31", "31/10/2017 23:59", "2017-10-31T23", "soon"])
def test_track_import_refuses_a_deadline_it_cannot_read_and_says_how(runner, settings, given):
    assert runner.invoke(args=["challenge", "create", "c", "--title", "C"]).exit_code == 0
    refs = str(DEMO_DATA / "references.csv")
    args = ["track", "import", "c", "t", "--kind", "e2e", "--refs", refs, "--deadline", given]
    result = runner.invoke(args=args)
    assert result.exit_code == 2 and "such as 2017-10-31T23:59" in result.output
