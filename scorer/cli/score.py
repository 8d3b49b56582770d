"""``nlg-score``: score a system output offline exactly as the leaderboard does."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import click
import numpy as np

from scorer.compare.breakdown import buckets, item_attributes
from scorer.compare.significance import Comparison
from scorer.errors import InputError, JavaMissing, MissingExtra, SubsetsMissing
from scorer.io.e2e import ReferenceItem
from scorer.io.folders import folder_as_zip
from scorer.java import implementation
from scorer.kinds import BUILT_IN, PROFILES, Profile, described_signature, get_profile, metric_id
from scorer.metrics.base import MetricScore
from scorer.references import ReferenceSet


def _board_kind(board: str, track: str | None) -> tuple[bytes, str]:
    """The board's ``GET .../tracks/T/kind`` answer for ``--track C/T``, fetched as
    ``nlgboard-submit`` fetches it (an untrusted board: bounded JSON, plain messages)."""
    import requests

    from scorer.cli.submit import SubmitError, fetch_kind, plain, unreachable

    challenge, _, slug = (track or "").partition("/")
    if not challenge or not slug or "/" in slug:
        raise click.BadParameter("--board needs --track CHALLENGE/TRACK", param_hint="--track")
    try:
        answer = fetch_kind(board, challenge, slug)
    except SubmitError as error:
        raise click.UsageError(str(error)) from None
    except requests.RequestException as error:
        raise click.UsageError(unreachable(board, error)) from None
    return json.dumps(answer).encode(), f"{plain(board)} {plain(track)}'s kind"


def _find_profile(
    name: str | None, kinds_path: Path | None, served: tuple[bytes, str] | None = None
) -> Profile:
    """A built-in profile, or the kind ``name`` defined in ``kinds_path`` (a bundle's YAML or
    the board's kind JSON) or served by the board (``--board``); without ``name``, the one
    kind the board serves or the file defines. ``name`` may be the board's ``name@digest``,
    which must be the file's definition."""
    if served is not None:
        answer = json.loads(served[0])
        if answer.get("definition") is None and isinstance(answer.get("profile"), str):
            name = name or answer["profile"]  # a built-in kind: by its name
        else:
            return _served_profile(name, served)
    defined = _defined_kinds(kinds_path) if kinds_path is not None else {}
    if kinds_path is not None:
        found = _defined_profile(name, defined, kinds_path.name, "--kinds")
        if found is not None:
            return found
    if name is None:
        raise click.UsageError("give --profile (or --kinds FILE, or --board URL --track C/T)")
    if name not in PROFILES:
        message = _unknown_profile(name, kinds_path, defined)
        raise click.BadParameter(message, param_hint="--profile")
    return get_profile(name)


def _served_profile(name: str | None, served: tuple[bytes, str]) -> Profile:
    """The kind the board serves (``--board``), which ``name``, if given, must be."""
    from scorer.errors import KindError
    from scorer.kinds import read_kinds

    try:
        defined = read_kinds(*served)
    except KindError as error:
        raise click.UsageError(str(error)) from None
    found = _defined_profile(name, defined, served[1], "--board")
    if found is None:
        raise click.BadParameter(
            f"the board scores the track with kind {next(iter(defined))!r}, not {name!r}",
            param_hint="--profile",
        )
    return found


def _defined_kinds(kinds_path: Path) -> dict[str, Mapping[str, object]]:
    """The kinds ``--kinds`` defines, by name (its errors are the option's)."""
    from scorer.errors import KindError
    from scorer.kinds import read_kinds

    try:
        return dict(read_kinds(kinds_path.read_bytes(), kinds_path.name))
    except KindError as error:
        raise click.BadParameter(str(error), param_hint="--kinds") from None


def _defined_profile(
    name: str | None, defined: Mapping[str, Mapping[str, object]], where: str, option: str
) -> Profile | None:
    """The profile of the kind ``name`` (``kind`` or ``kind@digest``, as the board's answer
    gives it) among ``defined``; without ``name``, the only one (a file of several needs
    --profile); ``None`` when ``defined`` has no such kind. A digest that is not the
    definition's is refused: the file is not the kind the board scores with, and its
    numbers would not be the board's."""
    from scorer.errors import KindError
    from scorer.kinds import build_profile

    if name is None:
        if len(defined) != 1:
            raise click.UsageError(
                f"{where} defines {len(defined) or 'no'} kind{'s' * (len(defined) != 1)}"
                + (f" ({', '.join(sorted(defined))})" if defined else "")
                + ": give --profile NAME"
            )
        name = next(iter(defined))
    plain, _, digest = name.partition("@")
    if plain not in defined:
        return None
    try:
        profile = build_profile(defined[plain], f"{where}: kind {plain}")
    except KindError as error:
        raise click.BadParameter(str(error), param_hint=option) from None
    if digest and profile.name != name:
        raise click.BadParameter(
            f"{name}: {where} defines kind {plain} as {profile.name}, another definition (its "
            f"digest is {profile.name.partition('@')[2]}, not {digest}): the numbers would not "
            "be the board's; fetch the track's kind again (GET .../tracks/T/kind)",
            param_hint="--profile",
        )
    return profile


def _unknown_profile(
    name: str, kinds_path: Path | None, defined: Mapping[str, Mapping[str, object]]
) -> str:
    """Which kinds there are to choose from: the file's, then the built-in ones."""
    message = f"unknown profile {name!r}; "
    if kinds_path is not None:
        message += f"{kinds_path.name} defines: {', '.join(sorted(defined)) or 'no kind'}; "
    message += f"built in: {', '.join(sorted(BUILT_IN))}"
    if kinds_path is None:
        message += "; a kind defined in a bundle needs --kinds FILE"
    return message


def _restrict(profile: Profile, metrics: str | None) -> Profile:
    if not metrics:
        return profile
    wanted = [name.strip() for name in metrics.split(",") if name.strip()]
    ids = {name: metric_id(profile, name) for name in wanted}
    unknown = [name for name, found in ids.items() if found is None]
    if unknown:
        raise click.BadParameter(
            f"{', '.join(unknown)} not in profile {profile.name} ({', '.join(profile.columns)})",
            param_hint="--metrics",
        )
    return dataclasses.replace(
        profile, metrics=tuple(dict.fromkeys(i for i in ids.values() if i is not None))
    )


@click.command()
@click.option(
    "--profile",
    "profile_name",
    default=None,
    help=f"A built-in kind ({', '.join(sorted(PROFILES))}) or one of --kinds FILE (by its "
    "name, or as the board's answer gives it, NAME@DIGEST); not needed when FILE defines one.",
)
@click.option(
    "--kinds",
    "kinds_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A challenge bundle's challenge.yaml (or any YAML file with a kinds: list), or the "
    "board's GET .../tracks/T/kind answer (JSON), whose kinds PROFILE may name: the "
    "leaderboard's numbers for a kind organisers defined.",
)
@click.option("--board", "board_url", default=None, help="A board's URL: score with its kind.")
@click.option(
    "--track", "board_track", default=None, help="With --board: the track, CHALLENGE/TRACK."
)
@click.option(
    "--refs",
    "refs_path",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="The test set's references file; for WebNLG also a folder of its XML files as the "
    "release has them (e.g. 2017's dev/, one file per size and category), read in its order.",
)
@click.option(
    "--hyp",
    "hyp_path",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="The system's output file: one output per test item, in the order of REFS.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--metrics", default=None, help="Comma-separated subset of the profile's metrics.")
@click.option(
    "--compare",
    "compare_path",
    type=click.Path(exists=True, path_type=Path),
    help="A second output file: paired bootstrap (1,000 resamples) of HYP minus this one.",
)
@click.option(
    "--describe",
    is_flag=True,
    help="Also the textual statistics and D-levels of HYP (E2E Tables 9-10; a few seconds).",
)
@click.option(
    "--breakdown",
    "breakdowns",
    multiple=True,
    metavar="ATTRIBUTE",
    help="Also score each value of an item attribute on its own (webnlg2017: category, size; "
    "e2e: slots, slot:food...); with --compare, compare on each value.",
)
@click.option(
    "--meteor",
    "meteor_implementation",
    type=click.Choice(implementation.CHOICES),
    default=None,
    help="Who computes METEOR and the PTB tokenisation: the Python port (default, no Java) "
    "or the official jars (needs Java; same numbers, for cross-checks).",
)
def main(
    profile_name: str | None,
    kinds_path: Path | None,
    board_url: str | None,
    board_track: str | None,
    refs_path: Path,
    hyp_path: Path,
    as_json: bool,
    metrics: str | None,
    compare_path: Path | None,
    describe: bool,
    breakdowns: tuple[str, ...],
    meteor_implementation: str | None,
) -> None:
    """Score HYP against REFS with the track profile PROFILE."""
    if meteor_implementation:
        implementation.use(meteor_implementation)
    try:
        implementation.current()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    served = _board_kind(board_url, board_track) if board_url else None
    profile = _restrict(_find_profile(profile_name, kinds_path, served), metrics)
    unknown = [name for name in breakdowns if name not in profile.breakdown_attributes]
    if unknown:
        raise click.BadParameter(
            f"{', '.join(unknown)}: profile {profile.name} breaks down by "
            f"{', '.join(profile.breakdown_attributes) or 'nothing'}",
            param_hint="--breakdown",
        )
    notes: list[str] = []
    warnings: list[str] = []
    try:
        items, skipped = _read_references(profile, refs_path, notes)
        profile = _without_subsets(profile, skipped)
        inputs = [item.input for item in items]
        outputs = _read_outputs(profile, hyp_path, "--hyp", inputs, warnings)
        other = (
            _read_outputs(profile, compare_path, "--compare", inputs, warnings)
            if compare_path
            else None
        )
    except InputError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    references = ReferenceSet.from_items(items)
    shortfall = profile.reference_shortfall(references)
    if shortfall:
        click.echo(f"warning: {refs_path}: {shortfall}", err=True)
    attributes = item_attributes(profile, items)
    if other is not None:
        by_bucket = {a: buckets(attributes, a) for a in breakdowns}
        _print_comparison(profile, outputs, other, references, by_bucket, as_json)
        return
    groups = _groups(profile, attributes, breakdowns)
    try:
        by_group = profile.score_subsets(outputs, references, groups)
    except JavaMissing as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    scores = by_group.pop("")
    for column, reason in profile.absent_reasons().items():
        click.echo(f"note: {column} left out: {reason}", err=True)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    try:
        described = _described(profile, outputs, references) if describe else {}
    except MissingExtra as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    if as_json:
        result: dict[str, object] = {score.metric: score.value for score in scores}
        result["signature"] = {score.metric: score.signature for score in scores}
        result["printed"] = {score.metric: _printed(profile, score) for score in scores}
        if described:
            result["described"] = described
            result["described_signature"] = described_signature()
        result.update(_subset_json(profile, breakdowns, groups, by_group))
        if skipped:  # the kind's subsets object stays, empty: the interface others read
            result.setdefault("subsets", {})
            result.setdefault("items", {"all": len(outputs)})
            result["skipped_subsets"] = list(skipped)
        if notes or warnings:
            result["notes"] = [*notes, *(f"warning: {warning}" for warning in warnings)]
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    width = max(len(name) for name in [*(score.metric for score in scores), *described])
    for score in scores:
        click.echo(f"{score.metric:<{width}}  {_shown(profile, score)}")
    for name, value in described.items():
        click.echo(f"{name:<{width}}  {value:.4f}")
    _print_subsets(profile, by_group, {name: len(positions) for name, positions in groups.items()})
    for score in scores:
        click.echo(f"# {score.metric}: {score.signature}")
    if described:
        click.echo(f"# described: {described_signature()}")


def _read_references(
    profile: Profile, path: Path, notes: list[str]
) -> tuple[list[ReferenceItem], tuple[str, ...]]:
    """REFS's items, and the kind's subset attributes the set does not give (a dev folder
    without the test set's instance-types file): those subsets are left out, noted in
    ``notes``; the kind, and so every signature, stays the board's."""
    try:
        return profile.read_references(*_references_file(profile, path)), ()
    except SubsetsMissing as missing:
        notes.append(
            f"{path}: subsets of {', '.join(missing.missing)} left out: the items have no "
            f"such attribute (the kind's file for it is not in this set; the test set has it). "
            "The figures on all items and the signatures are the leaderboard's."
        )
        return missing.items, missing.missing


def _without_subsets(profile: Profile, skipped: Sequence[str]) -> Profile:
    """The profile scoring no subset of ``skipped`` (its name, and so its digest, unchanged)."""
    if not skipped:
        return profile
    kept = tuple(name for name in profile.subsets if name not in skipped)
    return dataclasses.replace(profile, subsets=kept)


def _references_file(profile: Profile, path: Path) -> tuple[bytes, str]:
    """REFS as the profile's reader takes it: a file, or a folder of the release's files (read
    in the release's order) where the kind's reader reads one (WebNLG: its XML files)."""
    if not path.is_dir():
        return _read(path, "--refs"), path.name
    if profile.folder_suffix is None:
        raise click.BadParameter(
            f"{path} is a folder; profile {profile.name} reads its references from one file: "
            f"give that file{_example(path)}. (A folder is read only where a release splits "
            "its references into files, as WebNLG's XML files.)",
            param_hint="--refs",
        )
    try:
        return folder_as_zip(path, profile.folder_suffix)
    except OSError as error:
        raise click.BadParameter(
            f"{path}: a file in the folder cannot be read ({error.strerror or error})",
            param_hint="--refs",
        ) from None


def _read_outputs(
    profile: Profile, path: Path, option: str, inputs: Sequence[str], warnings: list[str]
) -> list[str]:
    """The outputs of ``path`` as the board reads them; what is odd about them (an empty
    output, another language's script) is added to ``warnings``, as the board's upload says it."""
    if path.is_dir():
        raise click.BadParameter(
            f"{path} is a folder; {option} takes one file: the system's outputs, one per test "
            f"item in the order of REFS (profile {profile.name}). Give that "
            f"file{_example(path)}.",
            param_hint=option,
        )
    data = _read(path, option)
    outputs = profile.read_outputs(data, inputs, path.name)
    warnings.extend(str(found) for found in profile.output_warnings(data, outputs, path.name))
    return outputs


def _read(path: Path, option: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise click.BadParameter(
            f"{path} cannot be read ({error.strerror or error})", param_hint=option
        ) from None


def _example(folder: Path) -> str:
    """`` (this folder holds 3 files: folder/a, ...)``: what to pick from, for the messages."""
    try:
        files = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name[0] != ".")
    except OSError:
        return ""
    if not files:
        return f" (the folder {folder} holds no file)"
    shown = ", ".join(str(folder / name) for name in files[:3])
    return f" (this folder holds {len(files)} file{'s' * (len(files) != 1)}: {shown}" + (
        ", ...)" if len(files) > 3 else ")"
    )


def _groups(
    profile: Profile, attributes: Sequence[Mapping[str, str]], breakdowns: Sequence[str]
) -> dict[str, Sequence[int]]:
    """All items (``""``), the profile's subsets, then each breakdown's values, as
    ``attribute=value`` -> item positions."""
    groups: dict[str, Sequence[int]] = {"": range(len(attributes))}
    for attribute in (*profile.subsets, *breakdowns):
        for value, positions in buckets(attributes, attribute).items():
            groups[f"{attribute}={value}"] = positions
    return groups


def _subset_json(
    profile: Profile,
    breakdowns: Sequence[str],
    groups: dict[str, Sequence[int]],
    by_group: dict[str, list[MetricScore]],
) -> dict[str, object]:
    """``subsets`` (value -> figures, for the profile's subset attributes), ``breakdown``
    (attribute -> value -> figures) and how many items each holds."""
    if not profile.subsets and not breakdowns:
        return {}

    def of(attribute: str) -> list[tuple[str, str]]:
        prefix = f"{attribute}="
        return [(group, group[len(prefix) :]) for group in by_group if group.startswith(prefix)]

    def figures(group: str) -> dict[str, float]:
        return {score.metric: score.value for score in by_group[group]}

    def counted(group: str) -> dict[str, float]:
        return figures(group) | {"n": len(groups[group])}

    result: dict[str, object] = {
        "subsets": {value: figures(group) for a in profile.subsets for group, value in of(a)},
        "items": {"all": len(groups[""])}
        | {value: len(groups[group]) for a in profile.subsets for group, value in of(a)},
    }
    if breakdowns:
        result["breakdown"] = {a: {value: counted(g) for g, value in of(a)} for a in breakdowns}
        result["breakdown_items"] = {
            a: {value: len(groups[g]) for g, value in of(a)} for a in breakdowns
        }
    return result


def _printed(profile: Profile, score: MetricScore) -> str:
    """The figure as the kind's published table prints it (its ``scale`` and ``decimals``:
    WebNLG+ 2020's BLEU 94.3997 is ``0.944``), what the leaderboard shows."""
    try:
        return profile.printed(score.metric, score.value)
    except (TypeError, ValueError):  # not a finite number: as it is
        return str(score.value)


def _shown(profile: Profile, score: MetricScore) -> str:
    """The printed figure, with the stored one beside it where the kind prints it on another
    scale (``--json`` keeps every stored digit)."""
    printed = _printed(profile, score)
    if profile.scale.get(score.metric, 1) == 1:
        return printed
    return f"{printed}  ({score.value:.4f} stored)"


def _print_subsets(
    profile: Profile, by_group: dict[str, list[MetricScore]], sizes: dict[str, int]
) -> None:
    for group, scores in by_group.items():
        figures = "  ".join(f"{score.metric} {_printed(profile, score)}" for score in scores)
        attribute, value = group.split("=", 1)
        click.echo(f"{attribute:<9} {value:<20} {sizes[group]:>6} items  {figures}")


def _described(profile: Profile, outputs: list[str], references: ReferenceSet) -> dict[str, float]:
    if profile.describe is None or references.inputs is None:
        raise click.UsageError(
            f"--describe needs a profile with textual statistics and MRs in REFS "
            f"(profile {profile.name} has {'none' if profile.describe is None else 'no MRs'})"
        )
    return profile.describe(outputs, references) or {}


def _print_comparison(
    profile: Profile,
    outputs: list[str],
    other: list[str],
    references: ReferenceSet,
    by_bucket: dict[str, dict[str, list[int]]],
    as_json: bool,
) -> None:
    """HYP minus COMPARE on every metric, then on each bucket of each ``--breakdown``."""
    from scorer.compare.significance import SAMPLES, p_resolution, paired_bootstrap, printed_p

    resolution = p_resolution(SAMPLES)

    statistics_a = profile.statistics(outputs, references)
    statistics_b = profile.statistics(other, references)
    comparisons = paired_bootstrap(profile, statistics_a, statistics_b)
    per_bucket = {
        attribute: {
            value: (
                len(positions),
                paired_bootstrap(
                    profile, _rows(statistics_a, positions), _rows(statistics_b, positions)
                ),
            )
            for value, positions in groups.items()
        }
        for attribute, groups in by_bucket.items()
    }
    if as_json:

        def listed(found: Sequence[Comparison]) -> list[dict[str, object]]:
            """Each comparison with its metric's signature and the resampling's resolution
            (the smallest p-value it can give: ``p_value`` equal to it means at most that)."""
            return [
                dataclasses.asdict(c)
                | {"signature": profile.column_signature(c.metric), "p_resolution": resolution}
                for c in found
            ]

        if not per_bucket:
            click.echo(json.dumps(listed(comparisons)))
            return
        breakdown = {
            attribute: {
                value: {"n": n, "comparisons": listed(found)}
                for value, (n, found) in groups.items()
            }
            for attribute, groups in per_bucket.items()
        }
        click.echo(json.dumps({"comparisons": listed(comparisons), "breakdown": breakdown}))
        return
    click.echo(
        f"paired bootstrap, {SAMPLES} resamples: HYP - COMPARE, 95% interval, p "
        f"({printed_p(resolution)}: no resample as far from 0 as the difference; the resampling "
        f"resolves p down to 1/{SAMPLES + 1})"
    )
    _print_comparisons(comparisons)
    for attribute, groups in per_bucket.items():
        for value, (n, found) in groups.items():
            click.echo(f"{attribute}={value} ({n} items)")
            _print_comparisons(found)
    for c in comparisons:
        click.echo(f"# {c.metric}: {profile.column_signature(c.metric)}")


def _rows(statistics: dict[str, np.ndarray], positions: Sequence[int]) -> dict[str, np.ndarray]:
    index = np.asarray(positions, dtype=int)
    return {metric: rows[index] for metric, rows in statistics.items()}


def _print_comparisons(comparisons: Sequence[Comparison]) -> None:
    from scorer.compare.significance import printed_p

    for c in comparisons:
        mark = "*" if c.significant else " "
        click.echo(
            f"{c.metric:<9} {c.score_a:9.4f} {c.score_b:9.4f} {c.difference:+9.4f} "
            f"[{c.low:+.4f}, {c.high:+.4f}] {printed_p(c.p_value)}{mark}"
        )


if __name__ == "__main__":
    main()
