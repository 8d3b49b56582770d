"""WebNLG+ 2020 English, held back: each team's primary output scored by ``nlg-score`` with the
example bundle's kind (app/demo_data/webnlg/challenge.yaml, the board's own) gives the TER the
organisers published, to the printed digit (the kind's 3 decimals).

What it needs in ``../shared/data/webnlg/2020`` (none of it is there today, and it skips saying
which is missing):
- the teams' outputs in the challenge repository's layout,
  ``submissions/rdf2text/en/<team>/primary.en`` (one output a line, in test order);
- the test set with its references, ``en/test/rdf-to-text-generation-test-data-with-refs-en.xml``
  (beside the inputs and the instance-types file);
- the published figures, ``submissions/rdf2text/en/published.csv`` (``team,metric,value``, the
  value as the organisers printed it). No table of published English TERs is in ``../shared``
  (its READMEs and papers give none), so none is written here: every TER row of that file is
  compared, for whichever teams it names.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli.score import main as nlg_score
from tests.support.paths import DEMO_DATA
from tests.support.webnlg2020 import WEBNLG_2020

SUBMISSIONS = WEBNLG_2020 / "submissions" / "rdf2text" / "en"
PUBLISHED = SUBMISSIONS / "published.csv"
REFERENCES = WEBNLG_2020 / "en" / "test" / "rdf-to-text-generation-test-data-with-refs-en.xml"
KINDS = DEMO_DATA / "webnlg" / "challenge.yaml"


def published_ter() -> dict[str, str]:
    """Team -> its TER as printed, or a skip naming what is held back."""
    missing = [str(path) for path in (PUBLISHED, REFERENCES) if not path.is_file()]
    if missing:
        pytest.skip(
            f"WebNLG+ 2020's English outputs, test references and published figures are held "
            f"back (no {' and no '.join(missing)})"
        )
    with PUBLISHED.open(encoding="utf-8", newline="") as table:
        rows = [row for row in csv.DictReader(table) if row["metric"].strip() == "TER"]
    assert rows, f"{PUBLISHED} has no TER row (columns team,metric,value)"
    return {row["team"].strip(): row["value"].strip() for row in rows}


def printed_ter(output: Path) -> str:
    """TER as ``nlg-score --json`` prints it with the board's kind (its ``printed`` value)."""
    result = CliRunner().invoke(
        nlg_score,
        ["--kinds", str(KINDS), "--metrics", "TER", "--json",
         "--refs", str(REFERENCES), "--hyp", str(output)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)["printed"]["TER"])


def test_each_teams_published_ter_is_the_one_nlg_score_prints():
    published = published_ter()
    differing = []
    for team, value in sorted(published.items()):
        output = SUBMISSIONS / team / "primary.en"
        assert output.is_file(), f"{PUBLISHED} names team {team!r}, but {output} is not there"
        assert len(value.partition(".")[2]) == 3, f"{team}: {value!r} is not printed to 3 decimals"
        ours = printed_ter(output)
        if ours != value:
            differing.append((team, ours, value))
    assert not differing, f"(team, ours, published): {differing}"
