"""``nlg-human``: the board's human-evaluation analysis, offline, on judgement files."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import click

from scorer.errors import InputError, MissingExtra
from scorer.human import (
    agreement,
    clusters,
    correlation,
    direct_assessment,
    likert,
    pairwise,
    rose,
    trueskill_rank,
)
from scorer.human.judgements import (
    WEBNLG2017_ATTRIBUTES,
    read_judgement_table,
    read_judgements,
    read_judgements_at,
    read_ratings,
)
from scorer.io.table import read_table, require_columns

FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
FILE_OR_FOLDER = click.Path(exists=True, path_type=Path)
CLUSTERS = click.option(
    "--clusters",
    "procedure",
    type=click.Choice(list(clusters.OVER_OUTPUTS)),
    default=clusters.DEFAULT,
    show_default=True,
    help="How significance clusters are formed: "
    + "; ".join(f"{name}: {p.summary}" for name, p in clusters.OVER_OUTPUTS.items())
    + ".",
)


def _fail(error: Exception) -> None:
    click.echo(f"error: {error}", err=True)
    sys.exit(2)


def _emit(payload: dict, as_json: bool, lines: list[str]) -> None:
    click.echo(json.dumps(payload, indent=2, ensure_ascii=False) if as_json else "\n".join(lines))


class _Commands(click.Group):
    """nlg-human's commands; a missing optional package ends one with the extra to install."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MissingExtra as error:
            _fail(error)


@click.group(cls=_Commands)
def main() -> None:
    """Rank systems from human judgements as the E2E, SR'18 and DRS organisers did."""


@main.command()
@click.option("--ratings", "path", required=True, type=FILE, help="E2E RankME CSV or long CSV.")
@click.option("--criterion", default=None, help="quality or naturalness (or a long-CSV name).")
@click.option(
    "--runs",
    default=trueskill_rank.RUNS,
    show_default=True,
    type=click.IntRange(trueskill_rank.MIN_RUNS),
)
@click.option("--seed", default=2018, show_default=True, type=int)
@click.option(
    "--procedure",
    type=click.Choice(trueskill_rank.PROCEDURES),
    default="wmt",
    show_default=True,
    help="wmt: the WMT/E2E procedure that made E2E Table 11; bootstrap: the older resampling one.",
)
@click.option(
    "--draw-probability",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    help="bootstrap only (default: the share of tied comparisons); wmt fixes it at 0.25.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def trueskill(
    path: Path,
    criterion: str | None,
    runs: int,
    seed: int,
    procedure: str,
    draw_probability: float | None,
    as_json: bool,
) -> None:
    """TrueSkill over RankME with rank ranges and significance clusters (E2E Table 11)."""
    try:
        ratings = read_ratings(path.read_bytes(), path.name, criterion)
        comparisons = trueskill_rank.pairwise(r.scores for r in ratings.rankings)
        result = trueskill_rank.rank(
            comparisons,
            procedure=procedure,
            runs=runs,
            seed=seed,
            draw_probability=draw_probability,
        )
    except (InputError, ValueError) as error:
        _fail(error)
    for note in ratings.out_of_scale[:5]:
        click.echo(f"note: outside 0-100, kept as given (only the order counts): {note}", err=True)
    for note in ratings.skipped[:5]:
        click.echo(f"note: not a number, output left out: {note}", err=True)
    lines = [
        (
            f"{ratings.criterion}: {len(ratings.rankings)} rankings, "
            f"{len(comparisons)} comparisons, {runs} runs ({procedure}), "
            f"draw probability {result.draw_probability:.3f}"
        ),
        f"{'#':>2} {'TrueSkill':>9} {'Rank':>7}  System",
    ]
    previous = None
    for row in result.rows:
        if previous is not None and row.cluster != previous:
            lines.append("   " + "·" * 24)
        lines.append(
            f"{row.cluster:>2} {row.mu:>9.3f} {f'{row.best_rank}-{row.worst_rank}':>7}  {row.system}"
        )
        previous = row.cluster
    _emit({"criterion": ratings.criterion, **ratings.notes(), **result.to_dict()}, as_json, lines)


@main.command()
@click.option(
    "--judgements",
    "path",
    required=True,
    type=FILE_OR_FOLDER,
    help="Long CSV (with ``kind``), or a folder of <system>/primary.json (WebNLG+ 2020's).",
)
@click.option("--criterion", required=True, help="e.g. meaning-similarity or readability.")
@click.option("--heatmap", type=click.Path(dir_okay=False, path_type=Path), help="SVG to write.")
@click.option(
    "--quality-control",
    "controls",
    default=",".join(direct_assessment.RULES),
    show_default=True,
    help="The controls the judgements had: some of damaged,repeat,reference, or none.",
)
@CLUSTERS
@click.option("--json", "as_json", is_flag=True)
def da(
    path: Path,
    criterion: str,
    heatmap: Path | None,
    controls: str,
    procedure: str,
    as_json: bool,
) -> None:
    """Direct Assessment: QC filter, raw and z averages, Wilcoxon rank-sum (SR'18 Tables 6-8)."""
    try:
        required = direct_assessment.required_for(direct_assessment.parse_controls(controls))
        judgements = read_judgements_at(path)
        result = direct_assessment.analyse(judgements, criterion, required, procedure)
    except (InputError, ValueError) as error:
        _fail(error)
    if not result.systems:
        _fail(ValueError(_nothing_kept(result, criterion, controls)))
    if heatmap:
        from scorer.human.heatmap import heatmap_svg

        names = [row.system for row in result.systems]
        heatmap.write_text(heatmap_svg(names, result.p_values, criterion), encoding="utf-8")
    kept = sum(check.kept for check in result.annotators)
    alpha = agreement.of_judgements(judgements, "interval", criterion)
    lines = [
        f"{criterion}: {kept} of {len(result.annotators)} annotators passed quality control "
        f"{controls}; dropped by rule: {result.dropped()}; clusters: {result.cluster_procedure}",
        f"{'#':>2} {'%':>6} {'z':>7} {'n':>6} {'Assess.':>8}  System",
    ]
    lines += [
        f"{cluster:>2} {row.raw:>6.1f} {row.z:>7.3f} {row.n:>6} {row.assessments:>8}  {row.system}"
        for row, cluster in zip(result.systems, result.clusters, strict=True)
    ]
    lines.append(_agreement_line(alpha))
    _emit(result.to_dict() | {"agreement": alpha.to_dict()}, as_json, lines)


@main.command("likert")
@click.option(
    "--judgements",
    "path",
    required=True,
    type=FILE,
    help="Long CSV, one point a row, or WebNLG 2017's per-judgement file "
    "(all_data_final_scores_anonymised.csv: one row per output and judge).",
)
@click.option(
    "--criterion",
    required=True,
    help="e.g. semantics, grammar or fluency (WebNLG 2017's file also answers to its columns' "
    "names: semantic_adequacy, grammaticality).",
)
@click.option(
    "--scale",
    "scale_text",
    help="LOW-HIGH (1-3, 1-5, 1-7) or named points lowest first (bad,fair,good); default: "
    "the lowest to the highest point the criterion's judgements give.",
)
@click.option(
    "--direction",
    type=click.Choice(likert.DIRECTIONS),
    default="higher",
    show_default=True,
    help="Which end of the scale is better.",
)
@click.option(
    "--aggregate",
    type=click.Choice(list(likert.AGGREGATES)),
    default="mean",
    show_default=True,
    help="An output's score from its judges' points.",
)
@click.option(
    "--by",
    "attributes",
    multiple=True,
    metavar="COLUMN",
    help="Means by an item attribute, a column with one value per item (repeat for several; "
    "the first is printed, the JSON has all). Default: none in the long layout; "
    + ", ".join(WEBNLG2017_ATTRIBUTES)
    + " in WebNLG 2017's.",
)
@CLUSTERS
@click.option("--json", "as_json", is_flag=True)
def likert_command(
    path: Path,
    criterion: str,
    scale_text: str | None,
    direction: str,
    aggregate: str,
    attributes: tuple[str, ...],
    procedure: str,
    as_json: bool,
) -> None:
    """Likert ratings: output = mean (or median) of its judges, system = mean of its outputs."""
    try:
        scale = likert.Scale.parse(scale_text) if scale_text else None
        read = scale.read if scale else likert.read_number
        table = read_judgement_table(path.read_bytes(), path.name, read, attributes or None)
        criterion = table.criterion(criterion)
        judgements = [dataclasses.replace(j, system=j.label) for j in table.judgements]
        result = likert.analyse(
            judgements,
            criterion,
            scale,
            higher_is_better=direction == "higher",
            aggregate=aggregate,
            clusters=procedure,
            filename=path.name,
            attributes=table.attributes,
        )
    except (InputError, ValueError) as error:
        _fail(error)
    notes = table.notes(criterion)
    _likert_notes(notes)
    alpha = agreement.of_judgements(judgements, "interval", criterion)
    lines = _likert_lines(result, notes, direction, aggregate)
    lines.append(_agreement_line(alpha))
    _emit(result.to_dict() | {"agreement": alpha.to_dict(), "read": notes}, as_json, lines)


def _likert_notes(notes: dict[str, Any]) -> None:
    """What was left out or kept that changes what the means are over, on stderr."""
    if notes["missing_cells"]:
        click.echo(
            f"note: empty (or NA) {notes['column']} cells, no judgement: "
            + _counted(notes["missing_cells"], notes["missing_lines"]),
            err=True,
        )
    if notes["golden_rows"]:
        click.echo(
            "note: rows marked golden (CrowdFlower's test questions), kept as judgements: "
            + _counted(notes["golden_rows"], notes["golden_lines"]),
            err=True,
        )
    for attribute, items in notes["split"].items():
        click.echo(
            f"note: {attribute}: {items} item(s) with two values left out of its means", err=True
        )


def _counted(count: int, lines: list[int]) -> str:
    """``3 (lines 5, 9, 12)``, the first ten lines of many."""
    listed = ", ".join(str(line) for line in lines[:10])
    return f"{count} (lines {listed}{', ...' if count > 10 else ''})"


def _likert_lines(
    result: likert.Likert, notes: dict[str, Any], direction: str, aggregate: str
) -> list[str]:
    """The table: cluster, mean, n, the subsets' means, the first attribute's, system."""
    column = f" (column {notes['column']})" if notes["column"] else ""
    lines = [
        f"{result.criterion}{column}: scale {result.scale}"
        f"{' (from the data)' if result.scale_from_data else ''}, {direction} is better; "
        f"output = {aggregate} of its judges, system = mean of its outputs; clusters: "
        f"{result.cluster_procedure}"
    ]
    subsets = sorted({name for row in result.systems for name in row.subsets})
    names = list(dict.fromkeys(name for row in result.systems for name in row.by or {}))
    values: list[str] = []
    if names:
        found = {value for row in result.systems for value in (row.by or {})[names[0]]}
        values = sorted(found, key=likert.value_order)
        lines[0] += f"; means by {names[0]} beside n (the JSON has by {', '.join(names)})"
    lines.append(
        f"{'#':>2} {'mean':>6} {'n':>6} "
        + "".join(f"{name[:8]:>9}" for name in [*subsets, *values])
        + " System"
    )
    for row, cluster in zip(result.systems, result.clusters, strict=True):
        beside = [row.subsets.get(name) for name in subsets]
        beside += [(row.by or {})[names[0]].get(value) for value in values]
        figures = "".join(f"{s.mean:>9.3f}" if s else f"{'-':>9}" for s in beside)
        lines.append(f"{cluster:>2} {row.mean:>6.3f} {row.n:>6} {figures} {row.system}")
    return lines


def _agreement_line(found: agreement.Agreement) -> str:
    """Krippendorff's alpha as every human evaluation reports it, with its level."""
    alpha = found.krippendorff_alpha
    value = f"{alpha:.3f}" if alpha is not None else f"undefined ({found.note})"
    return (
        f"agreement: Krippendorff's alpha ({found.level}) {value} over "
        f"{found.pairable_units} outputs judged twice or more; "
        f"{100 * found.complete_share:.1f}% of {found.units} outputs judged by {found.judges}"
    )


def _nothing_kept(result: direct_assessment.DirectAssessment, criterion: str, controls: str) -> str:
    """Why no judgement is left: none of the criterion, or every annotator dropped (by rule)."""
    if not result.annotators:
        return f"no judgements for criterion {criterion!r}"
    return (
        f"none of the {len(result.annotators)} annotators passed quality control {controls} "
        f"(dropped by rule: {result.dropped()}); judgements collected without some of these "
        "controls need --quality-control naming only those they had (or none)"
    )


@main.command("rose")
@click.option("--judgements", "path", required=True, type=FILE, help="Long CSV with ``subset``.")
@click.option("--json", "as_json", is_flag=True)
def rose_command(path: Path, as_json: bool) -> None:
    """ROSE = semantics x grammaticality x phenomenon per system and subset (Wang et al. Table 4)."""
    try:
        rows = rose.analyse(read_judgements(path.read_bytes(), path.name))
    except InputError as error:
        _fail(error)
    lines = [f"{'Sem.':>6} {'Gram.':>6} {'Phen.':>6} {'ROSE':>6} {'n':>5}  System / subset"]
    lines += [
        f"{r.semantics:>6.1f} {r.grammaticality:>6.1f} {r.phenomenon:>6.1f} {r.rose:>6.1f} "
        f"{r.outputs:>5}  {r.system} / {r.subset or '(all)'}"
        for r in rows
    ]
    _emit({"rows": [r.__dict__ for r in rows]}, as_json, lines)


@main.command()
@click.option(
    "--scores", "path", required=True, type=FILE, help="CSV: system, the human score, metrics."
)
@click.option("--human", "human_column", required=True, help="Column holding the human score.")
@click.option("--json", "as_json", is_flag=True)
def correlate(path: Path, human_column: str, as_json: bool) -> None:
    """Pearson r of each metric with the human score, Williams test between metrics (Table 9)."""
    try:
        header, records = read_table(path.read_bytes(), path.name)
        require_columns(header, ("system", human_column), path.name)
        metrics = [c for c in header if c not in ("system", human_column)]
        table: dict[str, dict[str, float]] = {name: {} for name in [human_column, *metrics]}
        for record in records:
            for name, column in table.items():
                try:
                    column[record.values["system"]] = float(record.values[name])
                except ValueError:
                    raise InputError(
                        f"{name} {record.values[name]!r} is not a number",
                        filename=path.name,
                        line=record.line,
                    ) from None
        human = table.pop(human_column)
        result = correlation.correlate(human, table)
    except (InputError, ValueError) as error:
        _fail(error)
    best = set(result.best)
    lines = [f"{len(result.systems)} systems; * = not significantly worse than any other metric"]
    lines += [
        f"{metric:>12} r = {r:.3f}{' *' if metric in best else ''}"
        for metric, r in result.pearson.items()
    ]
    _emit(result.to_dict(), as_json, lines)


@main.command("pairwise")
@click.option(
    "--judgements",
    "path",
    required=True,
    type=FILE,
    help="Long CSV: item,system_a,system_b,winner (a, b or tie),annotator.",
)
@click.option(
    "--ties",
    type=click.Choice(pairwise.TIES),
    default="half",
    show_default=True,
    help="half: a tie is half a win each way; drop: ties left out of win rates and scores.",
)
@click.option(
    "--runs", default=pairwise.RUNS, show_default=True, type=click.IntRange(trueskill_rank.MIN_RUNS)
)
@click.option("--seed", default=pairwise.SEED, show_default=True, type=int)
@click.option(
    "--judges",
    type=click.IntRange(1),
    help="Annotators the campaign asked per pair and item (default: the most any had).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def pairwise_command(
    path: Path, ties: str, runs: int, seed: int, judges: int | None, as_json: bool
) -> None:
    """Pairwise preference: win rates, Bradley-Terry scores, bootstrap ranks and clusters."""
    try:
        judgements = pairwise.read_pairwise(path.read_bytes(), path.name)
        result = pairwise.analyse(judgements, ties=ties, runs=runs, seed=seed, judges=judges)
    except (InputError, ValueError) as error:
        _fail(error)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    alpha = result.agreement.krippendorff_alpha
    lines = [
        f"{result.judgements} judgements ({result.counted} counted, ties {ties}), {runs} runs; "
        f"scores: {pairwise.SCALE}",
        f"{'#':>2} {'Score':>7} {'95% interval':>17} {'Rank':>7} {'Win %':>6}  System",
    ]
    previous = None
    for row in result.rows:
        if previous is not None and row.cluster != previous:
            lines.append("   " + "·" * 24)
        low, high = row.interval
        lines.append(
            f"{row.cluster:>2} {row.score:>7.3f} {f'[{low:.3f}, {high:.3f}]':>17} "
            f"{f'{row.rank_range[0]}-{row.rank_range[1]}':>7} {100 * row.win_rate:>6.1f}  "
            f"{row.system}"
        )
        previous = row.cluster
    lines.append(
        f"agreement: Krippendorff's alpha ({result.agreement.level}) "
        + (f"{alpha:.3f}" if alpha is not None else f"undefined: {result.agreement.note}")
        + f" over {result.agreement.pairable_units} pairs judged twice or more; "
        f"{100 * result.agreement.complete_share:.1f}% of the {result.agreement.units} pairs "
        f"judged by {result.agreement.judges} annotators"
    )
    _emit(result.to_dict(), as_json, lines)


@main.command("judge")
@click.option("--judgements", "path", required=True, type=FILE, help="The humans' long CSV.")
@click.option("--judge", "judge_path", required=True, type=FILE, help="The judge's, same layout.")
@click.option(
    "--spec",
    "spec_path",
    required=True,
    type=FILE,
    help="JSON: model, prompt_sha256, decoding, date (what was run).",
)
@click.option("--criterion", required=True)
@click.option("--json", "as_json", is_flag=True)
def judge_command(
    path: Path, judge_path: Path, spec_path: Path, criterion: str, as_json: bool
) -> None:
    """An automatic judge beside the humans: correlation and agreement, never mixed in."""
    from scorer.human import judge
    from scorer.io.bounded_json import load_json

    try:
        spec = judge.JudgeSpec.parse(load_json(_utf8(spec_path), spec_path.name), spec_path.name)
        result = judge.compare(
            read_judgements(path.read_bytes(), path.name),
            read_judgements(judge_path.read_bytes(), judge_path.name),
            spec,
            criterion,
        )
    except (InputError, ValueError) as error:
        _fail(error)

    def figure(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    lines = [
        f"{criterion}: judge {spec.model} (prompt {spec.prompt_sha256[:12]}, {spec.date}) "
        f"beside the humans on {sum(row['outputs'] for row in result.systems)} outputs",
        f"system level: Pearson r {figure(result.pearson)}, Spearman rho {figure(result.spearman)}"
        f"; output level: Pearson r {figure(result.output_pearson)}",
        f"alpha (interval): humans {figure(result.humans.krippendorff_alpha)}, humans and judge "
        f"{figure(result.with_judge.krippendorff_alpha)}",
        f"{'human':>7} {'judge':>7} {'n':>5}  System",
    ]
    lines += [
        f"{row['human']:>7.3f} {row['judge']:>7.3f} {row['outputs']:>5}  {row['system']}"
        for row in result.systems
    ]
    _emit(result.to_dict(), as_json, lines)


def _utf8(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"is not UTF-8 (byte {error.start})", filename=path.name) from None
