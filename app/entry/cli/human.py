"""Human evaluation campaigns: ``nlgboard human``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click
from flask.cli import AppGroup

from app.data.db import session_scope
from app.entry.cli.common import board_settings, fail
from app.web.errors import DomainError
from app.web.services.annotation import create_links
from app.web.services.campaigns import CampaignSpec, create_campaign, get_campaign
from app.web.services.human_import import (
    NameMatch,
    confirmed_mapping,
    import_judgements,
    parse_mapping,
    read_import,
)
from app.web.services.human_results import analyse, export_csv
from app.web.services.tracks import get_track
from scorer.errors import InputError
from scorer.human.protocols import PROTOCOLS


def protocol_options(command: Callable) -> Callable:
    """The protocols' own options (the chosen method reads its own and refuses another's)."""
    for option in reversed(
        (
            click.option(
                "--criteria",
                default=None,
                help="Likert: the criteria asked, 'NAME SCALE [higher|lower]' separated by ';' "
                "(e.g. 'fluency 1-5; adequacy 1-7; clarity bad,fair,good'); default: "
                "semantics, grammar and fluency on 1-3, higher is better.",
            ),
            click.option(
                "--aggregate",
                type=click.Choice(["mean", "median"]),
                default=None,
                help="Likert: an output's score from its judges' points (default: mean).",
            ),
            click.option(
                "--ties",
                type=click.Choice(["half", "drop"]),
                default=None,
                help="Pairwise: a tie as half a win for each side (default) or left out.",
            ),
        )
    ):
        command = option(command)
    return command


@click.group(cls=AppGroup)
def human() -> None:
    """Human evaluation: campaigns, one-time links, imports, results."""


@human.command("create")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--method", required=True, type=click.Choice(list(PROTOCOLS)))
@click.option(
    "--criterion",
    default=None,
    help="The criterion results are ranked by (default: the first asked).",
)
@click.option("--language", default=None)
@click.option("--systems", default=None, help="Comma-separated names (default: primary systems).")
@click.option("--baselines", is_flag=True, help="Include the baselines.")
@click.option("--human-references", is_flag=True, help="Evaluate the references as a system.")
@click.option("--items", default=100, show_default=True, type=click.IntRange(1))
@click.option("--subset", default=None, help="ROSE: a challenge set, judged beside its originals.")
@click.option("--annotators-per-hit", default=3, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=2018, show_default=True, type=int)
@click.option(
    "--quality-control",
    default="damaged,repeat,reference",
    show_default=True,
    help="DA: the controls each HIT holds (some of damaged,repeat,reference, or none).",
)
@click.option(
    "--clusters",
    default=None,
    help="The cluster procedure the results are published by (DA, Likert: wmt or webnlg2020); "
    "default: the protocol's own (wmt for DA).",
)
@protocol_options
def human_create(
    challenge_slug: str,
    track_slug: str,
    name: str,
    method: str,
    criterion: str | None,
    language: str | None,
    systems: str | None,
    baselines: bool,
    human_references: bool,
    items: int,
    subset: str | None,
    annotators_per_hit: int,
    seed: int,
    quality_control: str,
    clusters: str | None,
    criteria: str | None,
    aggregate: str | None,
    ties: str | None,
) -> None:
    """Set up a campaign NAME on a track from its systems' stored outputs."""
    spec = CampaignSpec(
        name=name,
        method=method,
        criterion=criterion or "",
        language=language,
        systems=[s.strip() for s in systems.split(",") if s.strip()] if systems else None,
        include_baselines=baselines,
        include_human=human_references,
        items=items,
        subset=subset,
        annotators_per_hit=annotators_per_hit,
        seed=seed,
        quality_control=quality_control,
        clusters=clusters,
        options={"criteria": criteria, "aggregate": aggregate, "ties": ties},
    )
    try:
        with session_scope(board_settings().database_url) as session:
            campaign = create_campaign(
                session, get_track(session, challenge_slug, track_slug), spec
            )
            hits = len({unit.hit for unit in campaign.units})
            click.echo(f"campaign {name}: {len(campaign.units)} units in {hits} HITs")
    except DomainError as error:
        fail(error)


@human.command("links")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--count", default=5, show_default=True, type=click.IntRange(1, 10000))
@click.option("--base-url", default="http://127.0.0.1:5000", show_default=True)
def human_links(challenge_slug: str, track_slug: str, name: str, count: int, base_url: str) -> None:
    """Print one-time annotation links (each good for one HIT; shown once)."""
    try:
        with session_scope(board_settings().database_url) as session:
            campaign = get_campaign(session, get_track(session, challenge_slug, track_slug), name)
            for token in create_links(session, campaign, count):
                click.echo(f"{base_url.rstrip('/')}/annotate/link/{token}")
    except DomainError as error:
        fail(error)


HOW_TO_MAP = (
    "accept the exact matches with --confirm and the unmatched names as systems on no system of "
    "this board with --unmatched-external; map any name with --map NAME=SYSTEM_ID, "
    "--map NAME=references or --map NAME=external"
)


@human.command("import")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--method", required=True, type=click.Choice(list(PROTOCOLS)))
@click.option("--criterion", required=True, help="e.g. quality, naturalness, readability.")
@click.option("--file", "path", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--language", default=None)
@click.option(
    "--map",
    "pairs",
    multiple=True,
    metavar="NAME=TARGET",
    help="What a name of the file stands for: a system id, 'references' or 'external' (on no "
    "system of this board: shown under its name). Repeat for each name.",
)
@click.option("--confirm", is_flag=True, help="Accept the exact matches the preview lists.")
@click.option(
    "--unmatched-external",
    is_flag=True,
    help="Every unmatched name (no system's name is like it) is on no system of this board.",
)
@click.option(
    "--quality-control",
    default=None,
    help="DA: the controls the judgements had (some of damaged,repeat,reference, or none); "
    "default: the kinds of row the file holds.",
)
@click.option(
    "--clusters",
    default=None,
    help="The cluster procedure the results are published by (DA, Likert: wmt or webnlg2020); "
    "default: the protocol's own (wmt for DA).",
)
@protocol_options
def human_import(
    challenge_slug: str,
    track_slug: str,
    name: str,
    method: str,
    criterion: str,
    path: Path,
    language: str | None,
    pairs: tuple[str, ...],
    confirm: bool,
    unmatched_external: bool,
    quality_control: str | None,
    clusters: str | None,
    criteria: str | None,
    aggregate: str | None,
    ties: str | None,
) -> None:
    """Import judgements collected elsewhere (E2E RankME CSV, long CSV, pairwise CSV) as NAME.

    Prints how the file's system names match the track's systems; stores nothing until every
    ranked name is mapped: --confirm accepts the exact matches, --unmatched-external the names
    no system's name is like, --map NAME=TARGET any name.
    """
    data = path.read_bytes()
    try:
        with session_scope(board_settings().database_url) as session:
            track = get_track(session, challenge_slug, track_slug)
            read = read_import(session, track, method, criterion, data, path.name)
            _print_preview(read.names)
            mapping = confirmed_mapping(
                read.names, parse_mapping(pairs), confirm, unmatched_external
            )
            campaign = import_judgements(
                session, track, name, method, criterion, data, path.name, mapping, language,
                quality_control, clusters,
                {"criteria": criteria, "aggregate": aggregate, "ties": ties},
            )  # fmt: skip
            notes = campaign.imported or {}
    except DomainError as error:
        fail(DomainError(f"{error}; nothing was stored ({HOW_TO_MAP})"))
    except InputError as error:
        fail(error)
    click.echo(
        f"imported {notes['judgements']} judgements into {name} "
        f"(quality control: {campaign.quality_control})"
    )
    for key, says in (("out_of_scale", "outside 0-100, kept as given"), ("skipped", "skipped")):
        if notes.get(key):
            click.echo(f"{says}: {notes[key]} values ({', '.join(notes[key + '_values'][:5])} ...)")


def _print_preview(names: list[NameMatch]) -> None:
    """One line per name of the file: its status and the systems it may stand for."""
    for match in names:
        like = ", ".join(f"{system} (id {system_id})" for system_id, system in match.candidates)
        click.echo(
            f"{match.status:>15}  {match.name!r}: {match.judgements} judgements"
            + (f"; system {like}" if like else "")
        )


@human.command("judge")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("campaign_name")
@click.option("--name", required=True, help="The judge's short name on the campaign's pages.")
@click.option(
    "--scores",
    "scores_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The judge's scores: the long CSV the campaign's import takes.",
)
@click.option(
    "--spec",
    "spec_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="What was run: JSON with model, prompt_sha256, decoding, date.",
)
def human_judge(
    challenge_slug: str,
    track_slug: str,
    campaign_name: str,
    name: str,
    scores_path: Path,
    spec_path: Path,
) -> None:
    """Import an automatic judge's scores of CAMPAIGN_NAME's outputs, kept apart from the
    humans' and compared with them; the board calls no model."""
    from app.web.services.human_judges import import_judge_by

    try:
        with session_scope(board_settings().database_url) as session:
            track = get_track(session, challenge_slug, track_slug)
            campaign = get_campaign(session, track, campaign_name)
            run = import_judge_by(
                session, None, campaign, name, scores_path.read_bytes(), scores_path.name,
                spec_path.read_bytes(), spec_path.name,
            )  # fmt: skip
            found = run.comparison or {}
    except (DomainError, InputError) as error:
        fail(error)
    system, output = found["system_level"], found["output_level"]
    agreement = found["agreement"]
    click.echo(
        f"judge {name} imported into {campaign_name}: {len(found['systems'])} systems; "
        f"system-level Pearson {_figure(system['pearson'])}, Spearman "
        f"{_figure(system['spearman'])}; output-level Pearson {_figure(output['pearson'])}; "
        f"alpha humans {_figure(agreement['humans']['krippendorff_alpha'])}, with the judge "
        f"{_figure(agreement['humans_and_judge']['krippendorff_alpha'])}"
    )


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


@human.command("analyse")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--publish", is_flag=True, help="Also show the results on the track page.")
@click.option("--json", "as_json", is_flag=True)
def human_analyse(
    challenge_slug: str, track_slug: str, name: str, publish: bool, as_json: bool
) -> None:
    """Compute (and store) a campaign's results."""
    try:
        with session_scope(board_settings().database_url) as session:
            campaign = get_campaign(session, get_track(session, challenge_slug, track_slug), name)
            results = analyse(session, campaign)
            campaign.is_published = campaign.is_published or publish
    except DomainError as error:
        fail(error)
    click.echo(json.dumps(results, indent=2) if as_json else f"{name}: results stored")
    if not as_json and (annotators := results.get("annotators")):
        click.echo(
            f"quality control {results.get('quality_control')}: {annotators['kept']} of "
            f"{annotators['total']} annotators kept; dropped by rule: {annotators['dropped']}"
        )


@human.command("export")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
def human_export(challenge_slug: str, track_slug: str, name: str) -> None:
    """Print every judgement of a campaign as the long CSV ``nlg-human`` reads."""
    try:
        with session_scope(board_settings().database_url) as session:
            campaign = get_campaign(session, get_track(session, challenge_slug, track_slug), name)
            click.echo(export_csv(session, campaign), nl=False)
    except DomainError as error:
        fail(error)
