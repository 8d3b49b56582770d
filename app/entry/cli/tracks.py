"""Tracks and their test sets: ``nlgboard track``."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from app.data.db import session_scope
from app.data.disclosure import Figure, Sealed
from app.data.models import DEFAULT_DAILY_LIMIT
from app.data.storage import storage_for
from app.entry.cli.common import Deadline, board_settings, fail, score_if_embedded
from app.web.errors import DomainError
from app.web.services.access import ORGANISERS
from app.web.services.analyses import stored_similarity, when_public
from app.web.services.bundled import describe as describe_bundled
from app.web.services.bundled import register_bundled_runs
from app.web.services.drs import import_challenge_set
from app.web.services.kind_choices import chosen_kind
from app.web.services.leaderboard import default_language, leaderboard_outputs
from app.web.services.organising import LIMIT_MAX
from app.web.services.public_part import declare_public_part
from app.web.services.track_imports import import_track
from app.web.services.tracks import get_challenge, get_track, store_split_report
from scorer.compare.similarity import similarity_matrix
from scorer.errors import Refused
from scorer.io.folders import folder_as_zip
from scorer.kinds import TRACK_KINDS, get_profile


@click.group(cls=AppGroup)
def track() -> None:
    """Tracks and their hidden test sets."""


@track.command("import")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option(
    "--kind",
    required=True,
    help="A built-in kind (" + ", ".join(sorted(TRACK_KINDS)) + ") or one a bundle defined on "
    "this board (its name, or name@digest where two share a name; the Add a track form lists "
    "them).",
)
@click.option(
    "--language", default=None, help="Test-set language (required by kinds with one per language)."
)
@click.option("--inputs", "inputs_path", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--refs",
    "refs_path",
    type=click.Path(exists=True, path_type=Path),
    help="Hidden references (DRS: the .raw sentences; not needed for SBN, which carries them).",
)
@click.option(
    "--subset",
    default=None,
    help="For a kind whose test sets grow by named subsets (its import.grows_by: DRS's "
    "standard, the default, long, compositional-substitution, compositional-extension): tag "
    "the items with this subset.",
)
@click.option(
    "--train",
    "train_path",
    type=click.Path(exists=True, path_type=Path),
    help="A training file, or its folder as released (train/), for a kind whose reader takes "
    "one: it sets the reader's options (the WebNLG XML reader: its categories are the seen "
    "ones; default: the 2017 split).",
)
@click.option("--title", default=None)
@click.option("--deadline", type=Deadline(), default=None, help="UTC, e.g. 2017-10-31T23:59")
@click.option(
    "--daily-limit",
    type=click.IntRange(0, LIMIT_MAX),
    default=DEFAULT_DAILY_LIMIT,
    show_default=True,
    help="uploads per team, test set and day on a new track; 0: no limit",
)
def track_import(
    challenge_slug: str,
    track_slug: str,
    kind: str,
    language: str | None,
    inputs_path: Path | None,
    refs_path: Path | None,
    subset: str | None,
    train_path: Path | None,
    title: str | None,
    deadline: datetime | None,
    daily_limit: int | None,
) -> None:
    """Create a track (or add a language's test set) from test inputs and hidden references.

    A kind with one test set per language adds each language to the same track; where its
    test sets grow by subsets, importing again with --subset appends items tagged with that
    subset (before any submission). A bundled baseline run decoded from exactly these
    inputs (baselines/runs/manifest.json) is added as a baseline system."""
    settings = board_settings()
    queue = current_app.extensions["nlgboard.queue"]
    try:
        with session_scope(settings.database_url) as session:
            found = get_challenge(session, challenge_slug)
            name, definition = chosen_kind(session, kind)
            test_set, report = import_track(
                session,
                None,
                found,
                track_slug,
                name,
                definition=definition,
                language=language,
                inputs=_file_or_folder(inputs_path, kind, "--inputs"),
                references=_file_or_folder(refs_path, kind, "--refs"),
                subset=subset,
                title=title,
                deadline=deadline,
                daily_limit=daily_limit or None,
                train=_file_or_folder(train_path, kind, "--train"),
            )
            registered = register_bundled_runs(
                session, queue, storage_for(settings), test_set,
                current_app.config["UPLOAD_MAX_BYTES"],
            )  # fmt: skip
    except Refused as error:
        fail(error)
    click.echo(report)
    if registered:
        click.echo(describe_bundled(registered))
    score_if_embedded(queue, settings, [i for r in registered for i in r.submissions])


def _file_or_folder(path: Path | None, kind: str, option: str) -> tuple[bytes, str] | None:
    """A file's bytes and name; a folder as the release has it (WebNLG: one XML file per size
    and category) where the kind's reader reads one, as a zip of its files in the release's
    order (``scorer.io.folders``)."""
    if path is None:
        return None
    profile = get_profile(TRACK_KINDS[kind]) if kind in TRACK_KINDS else None
    return _read_path(path, profile.folder_suffix if profile else None, f"kind {kind}", option)


def _read_path(path: Path, suffix: str | None, reader: str, option: str) -> tuple[bytes, str]:
    if not path.is_dir():
        return path.read_bytes(), path.name
    if suffix is None:
        raise click.BadParameter(
            f"{path} is a folder; {reader} reads one file here: give the file", param_hint=option
        )
    return folder_as_zip(path, suffix)


@track.command("challenge-set")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", required=True, help="The test set the challenge items pair with.")
@click.option(
    "--name",
    required=True,
    help="The set's name: tense, polarity, number, names or quantity (the published files "
    "name the polarity set test-neg and the number set test-polarity: name it here).",
)
@click.option(
    "--inputs", "inputs_path", required=True, type=click.Path(exists=True, path_type=Path)
)
@click.option("--refs", "refs_path", required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--allow-unmatched",
    is_flag=True,
    help="Import items whose original is not in the test set (scored as Chal, unpaired).",
)
def track_challenge_set(
    challenge_slug: str,
    track_slug: str,
    language: str,
    name: str,
    inputs_path: Path,
    refs_path: Path,
    allow_unmatched: bool,
) -> None:
    """Append a DRS challenge set (Wang et al. 2021) to a test set, pairing each item with its
    original test item through the sentence on its third %%% line."""
    try:
        with session_scope(board_settings().database_url) as session:
            report = import_challenge_set(
                session,
                get_track(session, challenge_slug, track_slug),
                language,
                name,
                inputs_path.read_bytes(),
                refs_path.read_bytes(),
                inputs_name=inputs_path.name,
                sentences_name=refs_path.name,
                allow_unmatched=allow_unmatched,
            )
    except Refused as error:
        fail(error)
    click.echo(report.describe())


@track.command("public-part")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", required=True, help="The test set to declare a public part of.")
@click.option("--share", type=float, required=True, help="Share of its items, e.g. 0.3.")
@click.option("--seed", type=int, default=0, show_default=True, help="Which items are drawn.")
def track_public_part(
    challenge_slug: str, track_slug: str, language: str, share: float, seed: int
) -> None:
    """Declare a random share of a test set's items its public part (a public leaderboard in
    the test phase, as Kaggle's): at least 30 items and at most half the test set. The final
    ranking stays on every item, hidden until the results are published. Only before the
    first upload; the baselines already there are scored again, on the public part too."""
    settings = board_settings()
    queue = current_app.extensions["nlgboard.queue"]
    with session_scope(settings.database_url) as session:
        track = get_track(session, challenge_slug, track_slug)
        declared = declare_public_part(session, queue, track, language, share, seed)
    click.echo(f"{declared.items} items of {track_slug} ({language}) are its public part")
    if declared.rescored:
        outcomes = score_if_embedded(queue, settings, list(declared.rescored))
        click.echo(f"baseline submissions scored again: {', '.join(outcomes)}")


@track.command("split-report")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", default=None, help="Test set (default: the track's language).")
@click.option(
    "--train",
    "train_path",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="The training file (E2E mr,ref CSV; DRS SBN file or .raw sentences).",
)
def track_split_report(
    challenge_slug: str, track_slug: str, language: str | None, train_path: Path
) -> None:
    """How close each test reference is to its nearest training text (Zhang et al. 2024,
    Eq. 3, Fig. 3): the word-overlap histogram and the near-duplicate share, kept for the
    organisers' view of the track page."""
    with session_scope(board_settings().database_url) as session:
        found = get_track(session, challenge_slug, track_slug)
        suffix = found.scoring_profile.folder_suffix
        data, name = _read_path(train_path, suffix, f"track {found.slug}", "--train")
        report = store_split_report(
            session, found, language or default_language(found) or found.language, data, name
        )
        public = when_public(found, Figure.QUOTING)
    click.echo(
        f"{report['test_items']} test texts vs {report['train_items']} training texts: "
        f"mean nearest overlap {report['mean']:.3f}, median {report['median']:.3f}; "
        f"{report['near_duplicates']} near-duplicates (>= {report['near_duplicate_threshold']}, "
        f"{100 * report['near_duplicate_share']:.1f}%), {report['identical']} identical"
    )
    peak = max(count for _, _, count in report["bins"]) or 1
    for low, high, count in report["bins"]:
        click.echo(f"{low:.1f}-{high:.1f} {count:6d} {'#' * round(40 * count / peak)}")
    click.echo(f"Stored on the test set: {public}.")


@track.command("similarity")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", default=None, help="Test set of a multilingual track.")
@click.option("--all", "include_secondary", is_flag=True, help="Secondary systems too.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def track_similarity(
    challenge_slug: str,
    track_slug: str,
    language: str | None,
    include_secondary: bool,
    as_json: bool,
) -> None:
    """How similar the systems' outputs are to each other (E2E paper Sect. 8.3, Figure 5).

    Scores every pair of systems' latest scored outputs with the overlap metrics (minutes for
    twenty systems: run it on the worker host, not in a request). The matrix is kept on the test
    set, for the track page's heatmap."""
    settings = board_settings()
    with session_scope(settings.database_url) as session:
        found = get_track(session, challenge_slug, track_slug)
        outputs = leaderboard_outputs(
            session, found, language, include_secondary, viewer=ORGANISERS
        )
    if len(outputs.systems) < 2:
        fail(DomainError(f"similarity needs two scored systems, {len(outputs.systems)} found"))
    try:
        matrix = similarity_matrix(outputs.profile, outputs.systems, outputs.references)
    except ValueError as error:
        fail(error)
    with session_scope(settings.database_url) as session:
        found = get_track(session, challenge_slug, track_slug)
        test_set = found.test_set_for(language or default_language(found))
        if test_set is None:
            fail(ValueError(f"track {track_slug!r} has no {language!r} test set"))
        test_set.similarity = Sealed(stored_similarity(matrix), Figure.ANALYSIS)
        public = when_public(found)
    if as_json:
        labelled = stored_similarity(matrix) | {"labels": outputs.labels}
        click.echo(json.dumps(labelled, ensure_ascii=False))
        return
    names = {name: outputs.labels.get(name, name) for name in matrix.rows}
    width = max(len(name) for name in names.values())
    click.echo(
        "reference / tested".ljust(width)
        + "  "
        + "  ".join(f"{names[t]:>8.8}" for t in matrix.tested)
    )
    for name, row in zip(matrix.rows, matrix.values, strict=True):
        cells = "  ".join(f"{'-':>8}" if v is None else f"{v:8.4f}" for v in row)
        click.echo(f"{names[name]:<{width}}  {cells}")
    click.echo("mean similarity to the other systems:")
    for name in sorted(matrix.tested, key=lambda n: -(matrix.mean(n) or 0.0)):
        click.echo(f"  {names[name]:<{width}}  {matrix.mean(name):.4f}")
    click.echo(f"# {matrix.signature}")
    click.echo(f"Stored on the test set: {public}.")
