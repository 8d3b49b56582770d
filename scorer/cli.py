"""``nlg-score``: score a system output offline exactly as the leaderboard does."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import click

from scorer.errors import InputError
from scorer.io import e2e
from scorer.profiles import PROFILES, get_profile


def read_references(path: Path) -> list[e2e.ReferenceItem]:
    """Read E2E references from the dataset CSV or the blank-line grouped plain-text layout."""
    data = path.read_bytes()
    if data.lstrip(b"\xef\xbb\xbf").lower().startswith(b"mr,ref"):
        return e2e.read_dataset_csv(data, path.name)
    return [
        e2e.ReferenceItem(f"item {index + 1}", tuple(refs))
        for index, refs in enumerate(e2e.read_grouped_references(data, path.name))
    ]


@click.command()
@click.option("--profile", "profile_name", required=True, type=click.Choice(sorted(PROFILES)))
@click.option("--refs", "refs_path", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--hyp", "hyp_path", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--metrics", default=None, help="Comma-separated subset of the profile's metrics.")
def main(profile_name: str, refs_path: Path, hyp_path: Path, as_json: bool, metrics: str | None):
    """Score HYP against REFS with the track profile PROFILE."""
    profile = get_profile(profile_name)
    if metrics:
        wanted = tuple(name.strip() for name in metrics.split(",") if name.strip())
        unknown = sorted(set(wanted) - set(profile.metrics))
        if unknown:
            raise click.BadParameter(
                f"{', '.join(unknown)} not in profile {profile_name} "
                f"({', '.join(profile.metrics)})",
                param_hint="--metrics",
            )
        profile = dataclasses.replace(profile, metrics=wanted)
    try:
        items = read_references(refs_path)
        inputs = [item.input for item in items]
        outputs = profile.read_outputs(hyp_path.read_bytes(), inputs, hyp_path.name)
    except InputError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    scores = profile.score(outputs, [item.references for item in items])
    if as_json:
        result: dict[str, object] = {score.metric: round(score.value, 4) for score in scores}
        result["signature"] = " ".join(f"{s.metric}:[{s.signature}]" for s in scores)
        click.echo(json.dumps(result))
        return
    width = max(len(score.metric) for score in scores)
    for score in scores:
        click.echo(f"{score.metric:<{width}}  {score.value:.4f}")
    for score in scores:
        click.echo(f"# {score.metric}: {score.signature}")
