"""Bundled baseline runs: registered when an imported test set has exactly their inputs."""

from __future__ import annotations

import csv
import io
import shutil
from dataclasses import replace

import pytest
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import Submission, System
from app.data.models import TestSet as ImportedTestSet
from app.data.storage import LocalStorage
from app.web.services.bundled import register_bundled_runs
from app.web.services.import_rules import rule_for
from baselines import manifest, registry
from scorer.io import drs, e2e
from tests.support.paths import DEMO_DATA, e2e_file

DEMO_MRS = [
    item.input for item in e2e.read_dataset_csv((DEMO_DATA / "references.csv").read_bytes())
]


TGEN = registry.TGEN_SYSTEM


def _run(file: str, inputs: list[str], system: str = TGEN, note: str = registry.TGEN_NOTE):
    return manifest.BundledRun(
        file=file,
        system=system,
        baseline="tgen",
        track_kind="e2e",
        language="en",
        test_set="demo",
        items=len(inputs),
        inputs_sha256=manifest.inputs_digest(inputs),
        produced_by="test",
        note=note,
    )


@pytest.fixture
def runs_dir(tmp_path, monkeypatch):
    folder = tmp_path / "runs"
    folder.mkdir()
    monkeypatch.setattr(manifest, "MANIFEST", folder / "manifest.json")
    shutil.copy(DEMO_DATA / "baseline.txt", folder / "demo-run.txt")
    shutil.copy(DEMO_DATA / "baseline.txt", folder / "other-run.txt")
    manifest.write_entry(_run("demo-run.txt", DEMO_MRS))
    manifest.write_entry(_run("other-run.txt", list(reversed(DEMO_MRS)), system="other order"))
    return folder


def _import_demo_track(runner):
    runner.invoke(args=["challenge", "create", "demo", "--title", "Demo"])
    refs = str(DEMO_DATA / "references.csv")
    result = runner.invoke(args=["track", "import", "demo", "t", "--kind", "e2e", "--refs", refs])
    assert result.exit_code == 0, result.output
    return result


def test_import_registers_the_matching_run_once(runner, settings, runs_dir, app):
    result = _import_demo_track(runner)
    assert f"{TGEN} added as a baseline" in result.output
    assert "other order" not in result.output
    with session_scope(settings.database_url) as session:
        systems = session.scalars(select(System)).all()
        assert [(s.name, s.is_baseline) for s in systems] == [(TGEN, True)]
        assert session.scalar(select(Submission)).status == "scored"
        again = register_bundled_runs(
            session,
            app.extensions["nlgboard.queue"],
            LocalStorage(settings.uploads_path),
            session.scalar(select(ImportedTestSet)),
            10_000_000,
        )
        assert again == []


def test_a_broken_run_is_reported_and_the_import_stays(runner, settings, runs_dir):
    (runs_dir / "demo-run.txt").write_text("only one line\n", "utf-8")
    result = _import_demo_track(runner)
    assert f"{TGEN} not added (" in result.output
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(ImportedTestSet)) is not None
        assert session.scalars(select(System)).all() == []


def test_the_retrained_tgen_says_what_it_is_on_its_page_and_in_every_export(
    runner, client, runs_dir
):
    """Not "TGen": the E2E paper's Table 8 has a TGen row and this run is not it. Its name, its
    system page and the CSV, JSON and LaTeX exports say so."""
    _import_demo_track(runner)
    track = "/challenges/demo/tracks/t"
    page = client.get("/systems/1").get_data(as_text=True)
    assert "TGen-style (retrained here)" in page
    assert "It is not the TGen run of the E2E paper&#39;s Table 8" in page
    rows = list(csv.DictReader(io.StringIO(client.get(f"{track}/export.csv").text)))
    assert [(row["system"], row["note"]) for row in rows] == [(TGEN, registry.TGEN_NOTE)]
    table = client.get(f"{track}/export.json").json
    assert table["rows"][0]["note"] == registry.TGEN_NOTE
    latex = client.get(f"{track}/export.tex").text
    assert "TGen-style (retrained here): Retrained by this board" in latex
    assert "not the TGen run of the E2E paper's Table 8" in latex


def test_committed_tgen_runs_are_named_and_described_as_retrained_here() -> None:
    tgen = [run for run in manifest.read_manifest() if run.baseline == "tgen"]
    assert tgen and {run.system for run in tgen} == {"TGen-style (retrained here)"}
    assert all("not the TGen run of the E2E paper's Table 8" in run.note for run in tgen)
    assert all(run.note for run in manifest.read_manifest())


def test_committed_runs_match_their_manifest() -> None:
    runs = manifest.read_manifest()
    assert {run.baseline for run in runs} >= {"tgen", "bilstm"}
    for run in runs:
        lines = run.path.read_text("utf-8").splitlines()
        assert len(lines) == run.items, run.file
        assert all(line.strip() for line in lines), run.file
        assert run.dev_scores and set(run.dev_scores) == set(run.dev_signatures)


def test_committed_e2e_test_run_was_decoded_from_the_test_inputs() -> None:
    path = e2e_file("testset_inputs.csv")
    mrs = e2e.read_inputs_csv(path.read_bytes(), path.name)
    matched = manifest.matching_runs(rule_for("e2e").bundled_baselines, "en", mrs)
    assert [run.baseline for run in matched] == ["tgen"] and matched[0].items == 630


DRS_DEMO = DEMO_DATA / "drs"
DRS_IMPORT = ["track", "import", "drs", "gen", "--kind", "drs", "--language", "en",
              "--inputs", str(DRS_DEMO / "test.txt"), "--refs", str(DRS_DEMO / "test.txt.raw")]  # fmt: skip


@pytest.fixture
def drs_track_with_bundled_run(runner, runs_dir) -> None:
    """Demo DRS track drs/gen (4 items) with a bundled run decoded from exactly its inputs."""
    items = drs.read_test_set(
        (DRS_DEMO / "test.txt").read_bytes(), "test.txt",
        (DRS_DEMO / "test.txt.raw").read_bytes(), "test.txt.raw",
    )  # fmt: skip
    lines = (DRS_DEMO / "baseline_output.txt").read_text("utf-8").splitlines()[: len(items)]
    (runs_dir / "drs-run.txt").write_text("\n".join(lines) + "\n", "utf-8")
    run = _run("drs-run.txt", [item.drs for item in items], system="bi-LSTM (bundled baseline)")
    manifest.write_entry(replace(run, baseline="bilstm", track_kind="drs"))
    runner.invoke(args=["challenge", "create", "drs", "--title", "DRS"])
    result = runner.invoke(args=DRS_IMPORT)
    assert "bi-LSTM (bundled baseline) added as a baseline" in result.output


def test_extending_a_drs_test_set_takes_its_bundled_run_off(
    runner, settings, drs_track_with_bundled_run
):
    """A bundled run fits the items it was decoded from; appending a subset must not be refused
    because of it (only teams' submissions stop an append), and the run is not kept."""
    result = runner.invoke(args=[*DRS_IMPORT, "--subset", "long"])
    assert result.exit_code == 0, result.output
    assert "bundled baseline run(s) removed, decoded from the items before this import: " \
        "bi-LSTM (bundled baseline)" in result.output  # fmt: skip
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(System)).all() == []
        assert session.scalar(select(func.count(Submission.id))) == 0
        assert session.scalar(select(ImportedTestSet)).items[-1].subsets[0].name == "long"


def test_an_append_refused_for_a_team_keeps_the_bundled_run(
    runner, settings, client, runs_dir, drs_track_with_bundled_run
):
    """The removal belongs to the append: when a team's submission refuses it, it is undone."""
    from tests.support.tracks import upload_drs as upload

    upload(client, settings, (runs_dir / "drs-run.txt").read_bytes())
    result = runner.invoke(args=[*DRS_IMPORT, "--subset", "long"])
    assert "already has 1 submission(s); items cannot be added" in result.output
    with session_scope(settings.database_url) as session:
        names = sorted(s.name for s in session.scalars(select(System)))
        assert names == ["bi-LSTM (bundled baseline)", "charlstm"]
        assert session.scalar(select(func.count(Submission.id))) == 2
