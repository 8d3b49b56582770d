"""A test set's declared public part (Kaggle's public leaderboard): open to everyone in the
test phase, while the headline on every item stays each team's own, rounded, until
publication. It holds 30 items at least (fewer are per-item figures in all but name) and half
the test set at most, however it is declared; a bundled baseline is scored again on it."""

from __future__ import annotations

import csv
import io
import json

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Item, ItemSubset, Score, Submission, SubmissionStatus, System
from app.data.storage import storage_for
from app.data.testsets import PUBLIC_PART
from app.web.errors import BundleError, DomainError
from app.web.services.bundles import Bundle, import_bundle
from app.web.services.public_part import declare_public_part
from app.web.services.submissions import submit_output
from app.web.services.track_imports import import_items
from app.web.services.tracks import create_challenge, get_track
from baselines import manifest, registry
from tests.support.board import API, bearer, set_track, upload
from tests.support.factories import demo_track, participant, run_queue
from tests.support.paths import e2e_file

ITEMS = 60


def _mr(k: int) -> str:
    return f"name[Place {k}], eatType[pub], area[riverside]"


def _sentence(k: int) -> str:
    return f"Place {k} is a pub by the river."


def _sized_track(settings, items: int = ITEMS) -> None:
    """The demo challenge's ``main`` track on ``items`` invented MRs (one reference each)."""
    refs = "mr,ref\n" + "".join(f'"{_mr(k)}",{_sentence(k)}\n' for k in range(items))
    with session_scope(settings.database_url) as session:
        challenge = create_challenge(session, "demo", "Challenge demo")
        import_items(session, challenge, "main", "e2e", references=(refs.encode(), "refs.csv"))


def _outputs(items: int = ITEMS, text: str | None = None) -> bytes:
    return "".join(f"{text or _sentence(k)}\n" for k in range(items)).encode()


def _declare(app, settings, share: float = 0.5, seed: int = 0):
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        return declare_public_part(
            session, app.extensions["nlgboard.queue"], track, "en", share, seed
        )


def test_a_public_part_is_open_to_everyone_in_the_test_phase_and_the_headline_is_not(
    app, client, settings
):
    _sized_track(settings)
    assert _declare(app, settings).items == 30
    tokens = {team: participant(settings, f"{team}@x.org", team=team) for team in "AB"}
    assert upload(client, tokens["A"], "marlin", _outputs()).status_code == 202
    assert upload(client, tokens["B"], "quokka", _outputs(text="a restaurant")).status_code == 202
    run_queue(app)
    with session_scope(settings.database_url) as session:
        public = session.scalars(select(Score).where(Score.subset == PUBLIC_PART)).all()
        assert {s.submission.system.name for s in public} == {"marlin", "quokka"}
        exact = {s.submission.system.name: s.value for s in public if s.metric == "BLEU"}
    set_track(settings, phase="test")
    rows = client.get(f"{API}/leaderboard", headers=bearer(tokens["A"])).json["rows"]
    by_name = {row["system"]: row for row in rows}
    assert set(by_name) == {"marlin", "quokka"}
    assert by_name["quokka"]["scores"] == {}  # B's headline: B's own until publication
    assert by_name["quokka"]["subsets"][PUBLIC_PART]["BLEU"] == exact["quokka"]
    assert by_name["marlin"]["scores"]  # A's own, rounded
    anonymous = client.get(f"{API}/leaderboard").json["rows"]
    assert {r["system"]: r["subsets"][PUBLIC_PART]["BLEU"] for r in anonymous} == exact
    assert all(r["scores"] == {} for r in anonymous)


def test_a_public_part_is_declared_before_the_first_upload_and_once(app, client, settings):
    _sized_track(settings)
    with pytest.raises(DomainError, match="between 0 and 1"):
        _declare(app, settings, share=1.0)
    assert _declare(app, settings, seed=7).items == 30
    with session_scope(settings.database_url) as session:
        drawn = sorted(s.item.position for s in session.scalars(select(ItemSubset)))
    with pytest.raises(DomainError, match="already has a public part"):
        _declare(app, settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "marlin", _outputs()).status_code == 202
    with session_scope(settings.database_url) as session:
        session.execute(ItemSubset.__table__.delete())
    with pytest.raises(DomainError, match="before the first upload"):
        _declare(app, settings)
    assert len(drawn) == 30


@pytest.mark.parametrize(
    ("items", "share", "message"),
    [
        (10, 0.3, "--share 0.3 draws 3 of 10 items: a public part holds at least 30 items and "
                  "at most half the test set (a test set of 10 items is too small for one)"),
        (ITEMS, 0.3, "--share 0.3 draws 18 of 60 items: a public part holds at least 30 items "
                     "and at most half the test set (choose 30 to 30 of its 60)"),
        (100, 0.6, "--share 0.6 draws 60 of 100 items: a public part holds at least 30 items "
                   "and at most half the test set (choose 30 to 50 of its 100)"),
    ],
)  # fmt: skip
def test_a_public_part_under_30_items_or_over_half_the_test_set_is_refused(
    app, settings, items, share, message
):
    """A 12-item public part gave a hidden item's exact figure in the test phase."""
    _sized_track(settings, items)
    with pytest.raises(DomainError) as refused:
        _declare(app, settings, share=share)
    assert str(refused.value) == message
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(ItemSubset)).all() == []


def test_a_public_part_under_30_items_already_stored_opens_nothing(app, client, settings):
    """The rule itself holds where a board has a small public part from before the check:
    its figures are those of a subset of a few items, shown with the test results."""
    demo_track(settings)
    with session_scope(settings.database_url) as session:
        for item in session.scalars(select(Item).order_by(Item.position).limit(5)):
            session.add(ItemSubset(item_id=item.id, name=PUBLIC_PART))
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "marlin").status_code == 202
    run_queue(app)
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Score).where(Score.subset == PUBLIC_PART)).first()
    set_track(settings, phase="test")
    for headers in ({}, bearer(participant(settings, "b@x.org", team="B")), bearer(token)):
        rows = client.get(f"{API}/leaderboard", headers=headers).json["rows"]
        assert all(PUBLIC_PART not in row.get("subsets", {}) for row in rows)


def _items_bundle(items: int, public: int) -> Bundle:
    rows = [
        {"input": _mr(k), "references": [_sentence(k)], "subsets": [PUBLIC_PART] * (k < public)}
        for k in range(items)
    ]
    definition = {
        "format": 1,
        "challenge": {"slug": "c", "title": "C"},
        "tracks": [
            {"slug": "t", "kind": "e2e", "test_sets": [{"language": "en", "items": "t.jsonl"}]}
        ],
    }
    lines = "".join(json.dumps(row) + "\n" for row in rows)
    return Bundle(
        {"challenge.yaml": yaml.safe_dump(definition).encode(), "t.jsonl": lines.encode()}
    )


def _import(app, settings, bundle: Bundle) -> None:
    with session_scope(settings.database_url) as session:
        import_bundle(session, app.extensions["nlgboard.queue"], storage_for(settings), bundle)


def test_a_bundle_brings_a_public_part_within_the_bounds_or_is_refused(app, settings):
    with pytest.raises(BundleError) as refused:
        _import(app, settings, _items_bundle(40, public=12))
    assert str(refused.value) == (
        "t.jsonl: subset 'public' (the public part) is 12 of 40 items: a public part holds at "
        "least 30 items and at most half the test set (a test set of 40 items is too small for "
        "one)"
    )
    _import(app, settings, _items_bundle(ITEMS, public=30))  # as an export writes one
    with session_scope(settings.database_url) as session:
        assert len(session.scalars(select(ItemSubset)).all()) == 30


def test_a_kinds_subset_attribute_cannot_make_a_small_public_part(app, settings):
    """A kind whose subset attribute is valued ``public`` declares a public part at import."""
    kind = {
        "name": "split-kind",
        "reader": {"name": "jsonl", "references": "refs", "attributes": ["split"]},
        "metrics": ["chrF"],
        "subsets": ["split"],
    }
    lines = "".join(
        json.dumps({"input": _mr(k), "refs": [_sentence(k)],
                    "split": PUBLIC_PART if k < 12 else "private"}) + "\n"
        for k in range(40)
    )  # fmt: skip
    definition = {
        "format": 1,
        "challenge": {"slug": "c", "title": "C"},
        "kinds": [kind],
        "tracks": [
            {
                "slug": "t",
                "kind": "split-kind",
                "test_sets": [{"language": "en", "references": "t.jsonl"}],
            }
        ],
    }
    bundle = Bundle(
        {"challenge.yaml": yaml.safe_dump(definition).encode(), "t.jsonl": lines.encode()}
    )
    with pytest.raises(DomainError, match=r"subset 'public' \(its public part\) would be 12 of 40"):
        _import(app, settings, bundle)


def test_the_cli_declares_a_public_part_or_says_why_not(app, runner, settings):
    demo_track(settings)
    args = ["track", "public-part", "demo", "main", "--language", "en", "--share", "0.5"]
    refused = runner.invoke(args=args)
    assert refused.exit_code == 1
    assert "Error: --share 0.5 draws 5 of 10 items: a public part holds at least 30" in (
        refused.output
    )
    with session_scope(settings.database_url) as session:
        challenge = create_challenge(session, "more", "More")
        refs = "mr,ref\n" + "".join(f'"{_mr(k)}",{_sentence(k)}\n' for k in range(ITEMS))
        import_items(session, challenge, "main", "e2e", references=(refs.encode(), "refs.csv"))
    result = runner.invoke(args=["track", "public-part", "more", *args[3:]])
    assert result.exit_code == 0, result.output
    assert "30 items of main (en) are its public part" in result.output


def test_a_baseline_scored_before_the_declaration_is_scored_again_on_the_public_part(
    app, client, settings
):
    """A baseline is not a team's upload: it does not stop a declaration, and the worker that
    scored it (its copy of the test set held) scores it again with the public part."""
    _sized_track(settings)
    with session_scope(settings.database_url) as session:
        (baseline,) = submit_output(
            session, app.extensions["nlgboard.queue"], storage_for(settings), user=None,
            team=None, track=get_track(session, "demo", "main"), system_name="template",
            filename="template.txt", data=_outputs(), max_bytes=10_000_000, is_baseline=True,
        )  # fmt: skip
        baseline_id = baseline.id
    run_queue(app)
    assert _declare(app, settings).rescored == (baseline_id,)
    run_queue(app)
    with session_scope(settings.database_url) as session:
        submission = session.get(Submission, baseline_id)
        assert submission.status == SubmissionStatus.SCORED
        assert {s.metric for s in submission.scores if s.subset == PUBLIC_PART} >= {"BLEU"}
    set_track(settings, phase="test")
    (row,) = client.get(f"{API}/leaderboard").json["rows"]
    assert row["system"] == "template" and row["subsets"][PUBLIC_PART]["BLEU"] == 1.0


E2E_SLICE = ITEMS
"""The first MRs of the E2E dev set: a real E2E track small enough to score twice."""


@pytest.fixture
def tgen_slice(tmp_path, monkeypatch):
    """The E2E dev set's first ``E2E_SLICE`` MRs with their references, and the bundled TGen
    run's outputs for them, registered in a manifest of their own."""
    rows = list(csv.reader(io.StringIO(e2e_file("devset.csv").read_text("utf-8"))))
    header, rows = rows[0], rows[1:]
    mrs = list(dict.fromkeys(mr for mr, _ in rows))[:E2E_SLICE]
    refs = tmp_path / "refs.csv"
    with refs.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([header, *(row for row in rows if row[0] in set(mrs))])
    (dev_run,) = [r for r in manifest.read_manifest() if r.file == "tgen-e2e-dev.txt"]
    lines = dev_run.path.read_text("utf-8").splitlines()[:E2E_SLICE]
    runs = tmp_path / "runs"
    runs.mkdir()
    monkeypatch.setattr(manifest, "MANIFEST", runs / "manifest.json")
    (runs / "tgen-slice.txt").write_text("\n".join(lines) + "\n", "utf-8")
    manifest.write_entry(
        manifest.BundledRun(
            file="tgen-slice.txt", system=registry.TGEN_SYSTEM, baseline="tgen",
            track_kind="e2e", language="en", test_set=f"E2E dev, first {E2E_SLICE} MRs",
            items=E2E_SLICE, inputs_sha256=manifest.inputs_digest(mrs), produced_by="test",
        )
    )  # fmt: skip
    return refs


def test_an_e2e_track_imported_with_its_bundled_baseline_takes_a_public_part(
    app, runner, settings, tgen_slice
):
    runner.invoke(args=["challenge", "create", "e2e", "--title", "E2E"])
    imported = runner.invoke(
        args=["track", "import", "e2e", "dev", "--kind", "e2e", "--refs", str(tgen_slice)]
    )
    assert f"{registry.TGEN_SYSTEM} added as a baseline" in imported.output, imported.output
    result = runner.invoke(
        args=["track", "public-part", "e2e", "dev", "--language", "en", "--share", "0.5"]
    )
    assert result.exit_code == 0, result.output
    assert "30 items of dev (en) are its public part" in result.output
    assert "baseline submissions scored again: scored" in result.output
    with session_scope(settings.database_url) as session:
        (submission,) = session.scalars(select(Submission).join(System)).all()
        assert submission.system.is_baseline and submission.status == SubmissionStatus.SCORED
        public = {s.metric for s in submission.scores if s.subset == PUBLIC_PART}
        assert {"BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr"} <= public
