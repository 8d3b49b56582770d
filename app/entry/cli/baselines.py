"""``nlgboard baselines``: train the bundled baselines, decode with them, record their runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from baselines import manifest, registry
from scorer.errors import InputError
from scorer.kinds import TRACK_KINDS, get_profile
from scorer.references import ReferenceSet

NAMES = click.Choice(sorted(registry.BASELINES))


@click.group(cls=AppGroup)
def baselines() -> None:
    """The bundled TGen (E2E) and char bi-LSTM (DRS) baselines (needs the 'semantic' extra)."""


@baselines.command("list")
def baselines_list() -> None:
    """Each baseline, whether it is trained here, and the committed runs."""
    for name, baseline in registry.BASELINES.items():
        trained = _model_dir(name) / registry.REPORT_FILE
        click.echo(f"{name}: {baseline.system} ({baseline.track_kind}); model: "
                   f"{_model_dir(name) if trained.exists() else 'not trained here'}")  # fmt: skip
    for run in manifest.read_manifest():
        click.echo(f"  run {run.file}: {run.system}, {run.test_set}, {run.items} items")


@baselines.command("train")
@click.argument("name", type=NAMES)
@click.option("--train", "train_file", type=click.Path(exists=True, path_type=Path))
@click.option("--dev", "dev_file", type=click.Path(exists=True, path_type=Path))
@click.option("--passes", type=click.IntRange(min=1), help="At most this many passes.")
@click.option("--limit", type=click.IntRange(min=1), help="Train on the first N items only.")
@click.option("--threads", type=click.IntRange(min=1), help="CPU threads for torch (default: all).")
@click.option(
    "--reranker-only",
    is_flag=True,
    help="tgen: train only the reranker again, for the generator already trained here.",
)
def baselines_train(
    name: str,
    train_file: Path | None,
    dev_file: Path | None,
    passes: int | None,
    limit: int | None,
    threads: int | None,
    reranker_only: bool,
) -> None:
    """Train NAME (fixed seed) into the instance folder; the files default to ../shared/data."""
    baseline = registry.BASELINES[name]
    train_file = train_file or _shared(baseline.train_file)
    dev_file = dev_file or _shared(baseline.dev_file)
    target = _model_dir(name)
    if reranker_only and (name != "tgen" or not (target / registry.REPORT_FILE).exists()):
        raise click.ClickException("--reranker-only needs a trained tgen generator")
    _need_torch(threads)
    try:
        if reranker_only:
            report = registry.read_json(target / registry.REPORT_FILE)
            report.update(registry.retrain_tgen_reranker(train_file, target, limit))
            report["total_seconds"] = report["generator_seconds"] + report["reranker_seconds"]
        else:
            report = baseline.train(train_file, dev_file, target, passes, limit)
    except InputError as error:
        raise click.ClickException(str(error)) from None
    report.update(train_file=train_file.name, dev_file=dev_file.name, commit=_git_revision())
    registry.write_json(target / registry.REPORT_FILE, report)
    click.echo(f"{name}: trained in {report['total_seconds']:.0f} s; model in {target}")


@baselines.command("decode")
@click.argument("name", type=NAMES)
@click.option(
    "--inputs", "inputs_file", required=True, type=click.Path(exists=True, path_type=Path)
)
@click.option("--output", "output_file", type=click.Path(path_type=Path), help="Default: stdout.")
@click.option(
    "--references",
    "references_file",
    type=click.Path(exists=True, path_type=Path),
    help="Score the run against these (the track's scorer, as nlg-score) and keep the scores.",
)
@click.option(
    "--record",
    "test_set",
    help="Add the run to baselines/runs/manifest.json under this test-set label "
    "(the output must be in baselines/runs/).",
)
@click.option("--threads", type=click.IntRange(min=1), help="CPU threads for torch (default: all).")
def baselines_decode(
    name: str,
    inputs_file: Path,
    output_file: Path | None,
    references_file: Path | None,
    test_set: str | None,
    threads: int | None,
) -> None:
    """Decode INPUTS with the trained NAME: one output per input, in order."""
    baseline = registry.BASELINES[name]
    target = _model_dir(name)
    if not (target / registry.REPORT_FILE).exists():
        raise click.ClickException(
            f"{name} is not trained here ({target}); run 'nlgboard baselines train {name}'"
        )
    if test_set and (output_file is None or output_file.resolve().parent != manifest.RUNS_DIR):
        raise click.ClickException(f"--record needs --output inside {manifest.RUNS_DIR}")
    _need_torch(threads)
    try:
        inputs = baseline.read_inputs(inputs_file)
    except InputError as error:
        raise click.ClickException(str(error)) from None
    outputs = baseline.decode(target, inputs)
    text = "".join(f"{line}\n" for line in outputs)
    if output_file:
        output_file.write_text(text, "utf-8")
        click.echo(f"{len(outputs)} outputs written to {output_file}", err=True)
    else:
        click.echo(text, nl=False)
    if references_file:
        scored = _score(TRACK_KINDS[baseline.track_kind], references_file, outputs)
        scored["references"] = references_file.name
        registry.write_json(target / registry.SCORES_FILE, scored)
    if test_set and output_file is not None:  # checked above: a test-set run has its file
        _record(baseline, target, output_file, inputs, inputs_file, test_set)


def _score(profile_name: str, references_file: Path, outputs: list[str]) -> dict:
    """Score as nlg-score does (same reader, same profile) and print the figures."""
    profile = get_profile(profile_name)
    try:
        items = profile.read_references(references_file.read_bytes(), references_file.name)
    except InputError as error:
        raise click.ClickException(str(error)) from None
    scores = profile.score(outputs, ReferenceSet.from_items(items))
    for score in scores:
        click.echo(f"{score.metric:<12} {score.value:.4f}", err=True)
    return {
        "scores": {score.metric: round(score.value, 4) for score in scores},
        "signatures": {score.metric: score.signature for score in scores},
    }


def _record(
    baseline: registry.Baseline,
    target: Path,
    output_file: Path,
    inputs: list[str],
    inputs_file: Path,
    test_set: str,
) -> None:
    report = registry.read_json(target / registry.REPORT_FILE)
    dev = registry.read_json(target / registry.SCORES_FILE)
    run = manifest.BundledRun(
        file=output_file.name,
        system=baseline.system,
        baseline=baseline.name,
        track_kind=baseline.track_kind,
        language=baseline.language,
        test_set=test_set,
        items=len(inputs),
        inputs_sha256=manifest.inputs_digest(inputs),
        produced_by=(
            f"nlgboard baselines train {baseline.name} && nlgboard baselines decode "
            f"{baseline.name} --inputs {inputs_file.name} --output {output_file.name}"
        ),
        note=baseline.note,
        dev_scores=dev.get("scores", {}),
        dev_signatures=dev.get("signatures", {}),
        training={k: v for k, v in report.items() if k != "history"},
    )
    manifest.write_entry(run)
    click.echo(f"recorded {output_file.name} in {manifest.MANIFEST}", err=True)


def _model_dir(name: str) -> Path:
    return registry.model_dir(current_app.instance_path, name)


def _shared(relative: str) -> Path:
    path = registry.SHARED_DATA / relative
    if not path.exists():
        raise click.ClickException(
            f"{path} not found: give the file, or set NLGBOARD_SHARED_DATA to the shared data folder"
        )
    return path


def _need_torch(threads: int | None) -> None:
    try:
        import torch
    except ImportError:
        raise click.ClickException(
            "the baselines need torch: pip install -e '.[semantic]'"
        ) from None
    if threads:
        torch.set_num_threads(threads)


def _git_revision() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=registry.PROJECT_ROOT, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
