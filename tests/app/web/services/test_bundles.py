"""Challenge bundles: import from a YAML definition and data files, export, and the round trip
(export, import into an empty board: every leaderboard the same)."""

from __future__ import annotations

import io
import zipfile

import pytest
import yaml
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import Challenge, Item, Submission, Track
from app.data.storage import storage_for
from app.web.errors import BundleError
from app.web.services.access import ORGANISERS, PUBLIC
from app.web.services.bundles import Bundle, export_bundle, import_bundle
from app.web.services.leaderboard import leaderboard
from tests.conftest import make_app, make_settings
from tests.support.factories import run_queue
from tests.support.paths import DEMO_DATA

DEMO_SLUGS = ("demo-e2e", "demo-sr18", "demo-drs")


def _boards(settings, slug: str) -> dict:
    """Every leaderboard of a challenge as organisers and as the public see it."""
    boards = {}
    with session_scope(settings.database_url) as session:
        challenge = session.scalars(select(Challenge).where(Challenge.slug == slug)).one()
        for track in challenge.tracks:
            for language in track.languages:
                for label, viewer in (("org", ORGANISERS), ("public", PUBLIC)):
                    metrics, rows = leaderboard(
                        session, track, viewer=viewer, language=language, include_secondary=True
                    )
                    boards[(track.slug, language, label)] = (
                        metrics,
                        [
                            (
                                r.system,
                                r.team,
                                r.is_baseline,
                                r.is_primary,
                                r.rank,
                                r.scores,
                                r.signatures,
                                r.subsets,
                                r.is_late,
                            )
                            for r in rows
                        ],
                    )
    return boards


def _export(settings, slug: str, with_submissions: bool = True) -> bytes:
    with session_scope(settings.database_url) as session:
        challenge = session.scalars(select(Challenge).where(Challenge.slug == slug)).one()
        return export_bundle(session, storage_for(settings), challenge, with_submissions)


def _import(app, settings, data: bytes):
    with session_scope(settings.database_url) as session:
        return import_bundle(
            session,
            app.extensions["nlgboard.queue"],
            storage_for(settings),
            Bundle.from_zip(data),
        )


@pytest.fixture
def demo_board(app, settings):
    from app.entry.demo import seed_demo

    seed_demo(app)
    run_queue(app)
    with session_scope(settings.database_url) as session:  # a finished test phase, too
        track = session.scalars(select(Track).join(Challenge).where(Challenge.slug == "demo-sr18"))
        for found in track:
            found.phase, found.is_published = "test", True
        session.commit()
    return settings


def test_the_demo_challenges_round_trip_with_identical_leaderboards(demo_board, tmp_path):
    other = make_settings(tmp_path / "other")
    other_app = make_app(other, WTF_CSRF_ENABLED=False)
    for slug in DEMO_SLUGS:
        data = _export(demo_board, slug)
        report = _import(other_app, other, data)
        assert report.challenge == slug and report.submissions
    run_queue(other_app)
    for slug in DEMO_SLUGS:
        before, after = _boards(demo_board, slug), _boards(other, slug)
        assert before and after == before, slug
    again = _export(other, "demo-drs")
    assert _definition(again) == _definition(_export(demo_board, "demo-drs"))


def _definition(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        definition = yaml.safe_load(archive.read("challenge.yaml"))
        items = {n: archive.read(n) for n in archive.namelist() if n.endswith(".jsonl")}
    for system in definition.get("systems", []):
        for upload in system["submissions"]:
            upload.pop("file"), upload.pop("created_at")
    return {"definition": definition, "items": items}


def test_a_bundle_of_official_files_creates_the_challenge(app, settings):
    drs = DEMO_DATA / "drs"
    definition = {
        "format": 1,
        "challenge": {"slug": "gen", "title": "DRS", "description": "See [the data](https://x)."},
        "tracks": [
            {
                "slug": "en",
                "kind": "drs",
                "settings": {"phase": "test", "daily_limit": 3},
                "test_sets": [
                    {
                        "language": "en",
                        "inputs": "test.txt",
                        "references": "test.txt.raw",
                        "challenge_sets": [
                            {"name": "tense", "inputs": "tense.txt", "references": "tense.txt.raw"}
                        ],
                    }
                ],
            },
            {
                "slug": "e2e",
                "kind": "e2e",
                "test_sets": [{"language": "en", "references": "refs.csv"}],
            },
        ],
    }
    files = {
        "challenge.yaml": yaml.safe_dump(definition).encode(),
        "refs.csv": (DEMO_DATA / "references.csv").read_bytes(),
        **{name: (drs / name).read_bytes() for name in ("test.txt", "test.txt.raw")},
        **{name: (drs / name).read_bytes() for name in ("tense.txt", "tense.txt.raw")},
    }
    with session_scope(settings.database_url) as session:
        report = import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), Bundle(files)
        )
    assert report.tracks == ["en", "e2e"] and report.items == 4 + 2 + 10
    with session_scope(settings.database_url) as session:
        tracks = {t.slug: t for t in session.scalars(select(Track))}
        assert (tracks["en"].phase, tracks["en"].daily_limit) == ("test", 3)
        assert tracks["e2e"].daily_limit == 5  # the default of a new track
        paired = session.scalar(select(func.count(Item.id)).where(Item.original_id.isnot(None)))
        assert paired == 2


def _bundle(**changes) -> Bundle:
    definition = {
        "format": 1,
        "challenge": {"slug": "c", "title": "C"},
        "tracks": [
            {"slug": "t", "kind": "e2e", "test_sets": [{"language": "en", "references": "r.csv"}]}
        ],
    }
    files = {"r.csv": (DEMO_DATA / "references.csv").read_bytes()}
    for key, value in changes.items():
        if key == "files":
            files.update(value)
        else:
            definition[key] = value
    return Bundle({"challenge.yaml": yaml.safe_dump(definition).encode(), **files})


@pytest.mark.parametrize(
    ("bundle", "message"),
    [
        (
            _bundle(tracks=[{"slug": "t", "kind": "webnlg9", "test_sets": []}]),
            "challenge.yaml: tracks[0].kind: unknown kind 'webnlg9'",
        ),
        (
            _bundle(
                tracks=[
                    {
                        "slug": "t",
                        "kind": "e2e",
                        "test_sets": [{"language": "en", "references": "missing.csv"}],
                    }
                ]
            ),
            "challenge.yaml: tracks[0].test_sets[0].references: no file 'missing.csv'",
        ),
        (
            _bundle(
                tracks=[
                    {
                        "slug": "t",
                        "kind": "e2e",
                        "colour": "red",
                        "test_sets": [{"language": "en", "references": "r.csv"}],
                    }
                ]
            ),
            "challenge.yaml: tracks[0].colour: unknown key",
        ),
        (
            _bundle(files={"r.csv": b'mr,ref\n"name[A]","x\n'}),
            "challenge.yaml: tracks[0].test_sets[0]: r.csv",
        ),
        (
            _bundle(
                tracks=[
                    {
                        "slug": "t",
                        "kind": "e2e",
                        "settings": {"daily_limit": 2**63},
                        "test_sets": [{"language": "en", "references": "r.csv"}],
                    }
                ]
            ),
            "challenge.yaml: tracks[0].settings.daily_limit: must be 0 (none) to 10,000",
        ),
        (
            Bundle({"challenge.yaml": b"format: 1\nchallenge: [unclosed\n"}),
            "challenge.yaml line 3: not valid YAML",
        ),
        (
            _bundle(
                tracks=[
                    {
                        "slug": "t",
                        "kind": "sr-shallow",
                        "test_sets": [{"language": "en", "items": "t.jsonl"}],
                    }
                ],
                files={"t.jsonl": b'{"input": "x", "references": ["y"]}\n{"input": 3}\n'},
            ),
            't.jsonl line 2: expected an object with an "input" text',
        ),
    ],
)
def test_a_bad_bundle_is_refused_naming_file_and_key_and_stores_nothing(
    app, settings, bundle, message
):
    with session_scope(settings.database_url) as session, pytest.raises(BundleError) as refused:
        import_bundle(session, app.extensions["nlgboard.queue"], storage_for(settings), bundle)
    assert message in str(refused.value)
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count(Challenge.id))) == 0
        assert session.scalar(select(func.count(Submission.id))) == 0


def test_the_cli_exports_and_imports_a_bundle(demo_board, runner, tmp_path):
    out = tmp_path / "demo-e2e.zip"
    result = runner.invoke(args=["challenge", "export", "demo-e2e", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as archive:
        assert "systems" not in yaml.safe_load(archive.read("challenge.yaml"))
    other = make_settings(tmp_path / "other")
    other_runner = make_app(other, WTF_CSRF_ENABLED=False).test_cli_runner()
    result = other_runner.invoke(args=["challenge", "import", str(out)])
    assert result.exit_code == 0, result.output
    assert "challenge demo-e2e: 1 track(s) (main), 10 items" in result.output
    again = other_runner.invoke(args=["challenge", "import", str(out)])
    assert again.exit_code != 0 and "already exists" in again.output


def test_the_readmes_example_bundle_imports_and_scores(app, runner, settings):
    result = runner.invoke(args=["challenge", "import", str(DEMO_DATA)])
    assert result.exit_code == 0, result.output
    assert "challenge example: 3 track(s) (e2e, shallow, drs), 23 items" in result.output
    with session_scope(settings.database_url) as session:
        statuses = {s.status.value for s in session.scalars(select(Submission))}
        track = session.scalars(select(Track).where(Track.slug == "e2e")).one()
        assert statuses == {"scored"} and track.phase == "test"
        _, rows = leaderboard(session, track, viewer=ORGANISERS)
        assert [row.system for row in rows] == ["Template baseline"]
        assert leaderboard(session, track, viewer=PUBLIC)[1] == []  # test phase


def _zip(folder) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"example/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()


def test_an_organiser_imports_a_bundle_on_the_web_and_organises_it(app, client, settings):
    from tests.support.factories import login

    with session_scope(settings.database_url) as session:
        from app.data.models import Role
        from app.web.services.accounts import create_user

        create_user(session, "org@x.org", "password123", Role.ORGANISER)
    login(client, "org@x.org")
    broken = {"bundle-bundle": (io.BytesIO(b"PK\x05\x06" + b"\0" * 18), "b.zip")}
    page = client.post("/organise/bundle", data=broken, follow_redirects=True)
    assert "Bundle refused, nothing stored" in page.text
    upload = {"bundle-bundle": (io.BytesIO(_zip(DEMO_DATA)), "example.zip")}
    page = client.post("/organise/bundle", data=upload, follow_redirects=True)
    assert page.status_code == 200 and "Imported challenge example: 3 track(s)" in page.text
    assert "nlgboard challenge teams example --need-approval" in page.text  # e2e: test phase
    assert client.get("/organise/example/audit").status_code == 200
    assert "challenge import" in client.get("/organise/example/audit").text


@pytest.mark.parametrize("train", [None, "train.xml", "train"])
def test_a_webnlg_bundle_round_trips_with_identical_leaderboards(
    app, client, settings, tmp_path, train
):
    """With the 2017 split, and with the seen categories of a training file (``train:``)."""
    from tests.support.factories import participant

    webnlg = DEMO_DATA / "webnlg"
    test_set = {"language": "en", "inputs": "no_lex.xml", "references": "with_lex.xml"}
    if train:
        test_set["train"] = train
    definition = {
        "format": 1,
        "challenge": {"slug": "webnlg", "title": "WebNLG 2017-style"},
        "tracks": [{"slug": "test", "kind": "webnlg", "test_sets": [test_set]}],
    }
    lex = (webnlg / "test" / "test_with_lex.xml").read_bytes()
    files = {
        "challenge.yaml": yaml.safe_dump(definition).encode(),
        "no_lex.xml": (webnlg / "test_no_lex.xml").read_bytes(),
        "with_lex.xml": lex,
        "train.xml": lex.replace(b'category="Airport"', b'category="Elsewhere"'),
        # the same as the releases have a training set: a folder of files (train: train)
        "train/1triples/1triple_Elsewhere.xml": lex.replace(
            b'category="Airport"', b'category="Elsewhere"'
        ),
        "train/README.txt": b"not read\n",
    }
    with session_scope(settings.database_url) as session:
        import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), Bundle(files)
        )
    token = participant(settings, "a@x.org", team="A")
    response = client.post(
        "/api/v1/challenges/webnlg/tracks/test/submissions",
        data={"file": (io.BytesIO((webnlg / "team_output.txt").read_bytes()), "o.txt"),
              "system": "t2t"},
        headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == 202
    run_queue(app)
    other = make_settings(tmp_path / "other")
    other_app = make_app(other, WTF_CSRF_ENABLED=False)
    _import(other_app, other, _export(settings, "webnlg"))
    run_queue(other_app)
    before, after = _boards(settings, "webnlg"), _boards(other, "webnlg")
    assert before[("test", "en", "org")][1][0][7].keys() == {"seen", "unseen"}
    assert after == before
    profiles = []
    for board in (settings, other):
        with session_scope(board.database_url) as session:
            profiles.append(session.scalars(select(Track)).one().profile)
    assert profiles[0] == profiles[1]
    assert profiles[0].startswith("webnlg2017-split@" if train else "webnlg2017")
    if train:  # the file and the folder give the same split
        with session_scope(settings.database_url) as session:
            definition = session.scalars(select(Track.kind_definition)).one()
        assert "Elsewhere" in definition["reader"]["seen_categories"]
        assert "Airport" not in definition["reader"]["seen_categories"]


def test_a_bundle_defines_its_kind_from_registry_parts_and_scores_with_them(app, runner, settings):
    """WebNLG+ 2020's scoring as a definition: the leaderboard's figures are those of the
    registry's metrics run on the same texts, METEOR and TER on ``nltk.word_tokenize``'s tokens
    (punkt untrained)."""
    from scorer.kinds.parts import TOKENISERS
    from scorer.metrics import get_metric
    from scorer.references import ReferenceSet

    result = runner.invoke(args=["challenge", "import", str(DEMO_DATA / "webnlg")])
    assert result.exit_code == 0, result.output
    webnlg = DEMO_DATA / "webnlg"
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        assert track.kind == "webnlg2020-en" and track.profile.startswith("webnlg2020-en@")
        _, (row,) = leaderboard(session, track, viewer=ORGANISERS)
    from scorer.io.by_track import read_webnlg_outputs
    from scorer.kinds.parts import webnlg_references

    items = webnlg_references((webnlg / "test" / "test_with_lex.xml").read_bytes(), "refs.xml")
    outputs = read_webnlg_outputs(
        (webnlg / "team_output.txt").read_bytes(), [i.input for i in items], "out.txt"
    )
    refs = [list(item.references[:4]) for item in items]
    nltk = TOKENISERS["nltk35-punkt"]
    expected = {
        "BLEU": get_metric("BLEU-multibleu-detok", references=4).corpus_score(outputs, refs),
        "chrF++": get_metric("chrF++").corpus_score(outputs, refs),
        "TER": get_metric("TER-pyter", references=4).corpus_score(
            [nltk(o) for o in outputs], ReferenceSet([[nltk(r) for r in rs] for rs in refs])
        ),
    }
    for column, score in expected.items():
        assert row.scores[column] == pytest.approx(score.value, abs=1e-12), column
    assert set(row.scores) == {"BLEU", "chrF++", "TER", "METEOR"}
    assert set(row.subsets) == {"seen categories", "unseen entities", "unseen categories"}


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        (
            {"name": "k", "reader": "csv-of-sorts", "metrics": ["chrF++"]},
            "kinds[0].reader: unknown reader 'csv-of-sorts' (known: conllu, csv, drs, e2e-csv, json-lists, jsonl, lines, parallel, webnlg-xml)",
        ),
        (
            {"name": "k", "reader": "webnlg-xml", "metrics": ["BLEU-magic"]},
            "kinds[0].metrics[0].metric: unknown metric 'BLEU-magic'",
        ),
        (
            {
                "name": "k",
                "reader": "webnlg-xml",
                "metrics": [{"metric": "chrF++", "options": {"beta": 2, "gamma": 1}}],
            },
            "kinds[0].metrics[0].options.gamma: not an option of chrF++",
        ),
        (
            {"name": "k", "reader": "webnlg-xml", "normalisation": "shout", "metrics": ["chrF++"]},
            "kinds[0].normalisation: unknown 'shout'",
        ),
        (
            {"name": "e2e", "reader": "webnlg-xml", "metrics": ["chrF++"]},
            "kinds[0].name: 'e2e' is taken by a built-in kind",
        ),
        (
            {"name": "k", "reader": {"name": "webnlg-xml", "colour": 1}, "metrics": ["chrF++"]},
            "kinds[0].reader.colour: not an option of webnlg-xml",
        ),
    ],
)
def test_a_kind_built_from_unknown_parts_is_refused_naming_the_key(app, settings, kind, message):
    bundle = _bundle(kinds=[kind])
    queue, storage = app.extensions["nlgboard.queue"], storage_for(settings)
    with session_scope(settings.database_url) as session, pytest.raises(BundleError) as refused:
        import_bundle(session, queue, storage, bundle)
    assert f"challenge.yaml: {message}" in str(refused.value)


def test_a_defined_kind_is_found_by_any_process_and_round_trips(app, runner, settings, tmp_path):
    from scorer.kinds import PROFILES, get_profile

    assert runner.invoke(args=["challenge", "import", str(DEMO_DATA / "webnlg")]).exit_code == 0
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        built = PROFILES.pop(track.profile)  # as a worker process that never saw the bundle
        assert track.scoring_profile.metrics == built.metrics  # the track builds it again
        assert get_profile(track.profile) is track.scoring_profile  # once, then looked up
    other = make_settings(tmp_path / "other")
    other_app = make_app(other, WTF_CSRF_ENABLED=False)
    _import(other_app, other, _export(settings, "webnlg-plus-example"))
    run_queue(other_app)
    assert _boards(other, "webnlg-plus-example") == _boards(settings, "webnlg-plus-example")


@pytest.mark.parametrize(
    ("bundle", "kind", "references"),
    [
        ("webnlg", "webnlg2020-en", "test"),  # the XML and the instance types beside it
        ("webnlg-ru", "webnlg2020-ru", "test_with_lex.xml"),
    ],
)
def test_nlg_score_gives_a_defined_kinds_leaderboard_numbers_offline(
    app, runner, settings, bundle, kind, references
):
    import json

    from click.testing import CliRunner

    from scorer.cli.score import main as nlg_score

    webnlg = DEMO_DATA / bundle
    assert runner.invoke(args=["challenge", "import", str(webnlg)]).exit_code == 0
    offline = CliRunner().invoke(
        nlg_score,
        ["--profile", kind, "--kinds", str(webnlg / "challenge.yaml"), "--json",
         "--refs", str(webnlg / references), "--hyp", str(webnlg / "team_output.txt")],
    )  # fmt: skip
    assert offline.exit_code == 0, offline.output
    expected = json.loads(offline.stdout)
    with session_scope(settings.database_url) as session:
        _, (row,) = leaderboard(session, session.scalars(select(Track)).one(), viewer=ORGANISERS)
    assert row.scores == {k: v for k, v in expected.items() if k in row.scores}
    assert row.signatures == expected["signature"]
    assert row.subsets == expected.get("subsets", {})
    if kind == "webnlg2020-en":
        assert "note: BLEURT left out: needs the bleurt package" in offline.stderr
        assert "tokens:nltk35_punkt_untrained_words" in row.signatures["METEOR"]
        assert set(row.subsets) == {"seen categories", "unseen entities", "unseen categories"}
    else:
        assert set(row.scores) == {"BLEU", "chrF++", "TER"}
        assert "tokens:razdel_words" in row.signatures["TER"]


def test_a_kind_on_parallel_reference_files_scores_as_multi_bleu_detok(
    app, client, settings, tmp_path
):
    """A WebNLG+ 2020-style task from plain files: inputs one per line, references as parallel
    files (an empty line where an item has fewer), a team's upload, the leaderboard's BLEU and
    chrF++ as the registry's metrics give them; and an export round-trips."""
    from scorer.io.webnlg import read_references
    from tests.support.factories import participant

    entries = read_references(
        (DEMO_DATA / "webnlg" / "test" / "test_with_lex.xml").read_bytes(), "x.xml"
    )
    count = max(len(entry.references) for entry in entries)
    files = {
        f"reference{k}": "".join(
            (e.references[k] if k < len(e.references) else "") + "\n" for e in entries
        ).encode()
        for k in range(count)
    }
    references = sorted(files)
    files["inputs.txt"] = "".join(f"{e.input}\n" for e in entries).encode()
    definition = {
        "format": 1,
        "challenge": {"slug": "plain", "title": "Plain files"},
        "kinds": [{"name": "plain-d2t", "reader": "parallel", "metrics": [
            {"metric": "BLEU-multibleu-detok", "options": {"references": count}}, "chrF++"]}],
        "tracks": [{"slug": "t", "kind": "plain-d2t", "test_sets": [
            {"language": "en", "inputs": "inputs.txt", "references": references}]}],
    }  # fmt: skip
    files["challenge.yaml"] = yaml.safe_dump(definition).encode()
    with session_scope(settings.database_url) as session:
        import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), Bundle(files)
        )
    token = participant(settings, "a@x.org", team="A")
    output = (DEMO_DATA / "webnlg" / "team_output.txt").read_bytes()
    response = client.post(
        "/api/v1/challenges/plain/tracks/t/submissions",
        data={"file": (io.BytesIO(output), "o.txt"), "system": "s"},
        headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == 202, response.json
    run_queue(app)
    from scorer.metrics import get_metric

    hyps = output.decode().splitlines()
    refs = [list(entry.references) for entry in entries]
    bleu = get_metric("BLEU-multibleu-detok", references=count).corpus_score(hyps, refs).value
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        _, (row,) = leaderboard(session, track, viewer=ORGANISERS)
        stored = [len(item.references) for item in track.test_sets[0].items]
    assert stored == [len(entry.references) for entry in entries]
    assert row.scores["BLEU"] == pytest.approx(bleu, abs=1e-12)
    assert row.scores["chrF++"] == pytest.approx(
        get_metric("chrF++").corpus_score(hyps, refs).value, abs=1e-12
    )
    other = make_settings(tmp_path / "other")
    other_app = make_app(other, WTF_CSRF_ENABLED=False)
    _import(other_app, other, _export(settings, "plain"))
    run_queue(other_app)
    assert _boards(other, "plain") == _boards(settings, "plain")


@pytest.mark.parametrize("deadline", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+01:00"])
def test_a_deadline_out_of_range_is_refused_naming_the_key(app, settings, deadline):
    """The attack's 500: a deadline past year 9999 in UTC overflowed converting it."""
    bundle = _bundle(
        tracks=[
            {"slug": "t", "kind": "e2e", "settings": {"deadline": deadline},
             "test_sets": [{"language": "en", "references": "r.csv"}]}
        ]
    )  # fmt: skip
    queue, storage = app.extensions["nlgboard.queue"], storage_for(settings)
    with session_scope(settings.database_url) as session, pytest.raises(BundleError) as refused:
        import_bundle(session, queue, storage, bundle)
    assert "tracks[0].settings.deadline" in str(refused.value) and "out of range" in str(
        refused.value
    )


def _short_bundle(declared: int, listed: int) -> Bundle:
    """A kind on parallel reference files that declares ``declared`` references, with
    ``listed`` reference files."""
    files = {f"reference{k}": b"".join(b"ref %d of item %d\n" % (k, n) for n in range(3))
             for k in range(listed)}  # fmt: skip
    files["inputs.txt"] = b"".join(b"input %d\n" % n for n in range(3))
    definition = {
        "format": 1,
        "challenge": {"slug": "short", "title": "Short"},
        "kinds": [{"name": "plain-3", "reader": "parallel", "metrics": [
            {"metric": "BLEU-multibleu-detok", "options": {"references": declared}}]}],
        "tracks": [{"slug": "t", "kind": "plain-3", "test_sets": [
            {"language": "en", "inputs": "inputs.txt", "references": sorted(files)[:-1]}]}],
    }  # fmt: skip
    files["challenge.yaml"] = yaml.safe_dump(definition).encode()
    return Bundle(files)


@pytest.mark.parametrize(("declared", "listed", "warned"), [(3, 2, True), (2, 2, False)])
def test_a_bundle_with_fewer_reference_files_than_its_kind_declares_warns(
    app, settings, declared, listed, warned
):
    """As ``nlg-score`` does: the import goes on (a test set may really have so few), and the
    organiser is told the scores are not the official ones."""
    with session_scope(settings.database_url) as session:
        report = import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings),
            _short_bundle(declared, listed),
        )  # fmt: skip
    said = [n for n in report.notices if "scores each item on 3 references" in n]
    assert said == ([
        "track t (en): kind plain-3 scores each item on 3 references (its official evaluation "
        "reads 3 reference files), but no item here has more than 2: scored on 2, as if the "
        "other 1 were empty; these are not the official figures unless the test set really "
        "has so few. Give every reference file (or the references file with all of them)."
    ] if warned else []), report.notices  # fmt: skip
    assert report.items == 3
