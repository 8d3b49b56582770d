"""``nlg-score`` takes the kind as the board serves it: the ``GET .../tracks/T/kind`` JSON
given to ``--kinds``, or fetched with ``--board URL --track C/T`` (through nlgboard-submit's
untrusted-board reading), and gives the numbers and signatures of the bundle's own kind."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scorer.cli.score import main
from scorer.kinds import build_profile, read_kinds
from tests.scorer.cli.test_submit_untrusted_board import board  # noqa: F401 (fixture)
from tests.support.paths import DEMO_DATA

WEBNLG = DEMO_DATA / "webnlg"
DEFINITION = read_kinds((WEBNLG / "challenge.yaml").read_bytes(), "challenge.yaml")["webnlg2020-en"]
PROFILE = build_profile(dict(DEFINITION))
SERVED = {
    "challenge": "c",
    "track": "en",
    "profile": PROFILE.name,
    "built_in": False,
    "definition": dict(DEFINITION),
    "title": "WebNLG+ 2020",
    "submit": {},
}
FILES = ["--refs", str(WEBNLG / "test"), "--hyp", str(WEBNLG / "team_output.txt")]
FILES += ["--metrics", "BLEU,chrF++", "--json"]


def scored(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, *FILES])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_boards_kind_json_is_a_kinds_file(tmp_path):
    served = tmp_path / "kind.json"
    served.write_text(json.dumps(SERVED))
    from_json = scored("--profile", "webnlg2020-en", "--kinds", str(served))
    from_yaml = scored("--profile", "webnlg2020-en", "--kinds", str(WEBNLG / "challenge.yaml"))
    assert from_json == from_yaml
    assert from_json["signature"]["BLEU"] == PROFILE.column_signature("BLEU")


def test_board_and_track_fetch_the_kind(board):  # noqa: F811
    canned, url = board
    canned.answer("/challenges/c/tracks/en/kind", SERVED)
    fetched = scored("--board", url, "--track", "c/en")
    assert fetched == scored(
        "--profile", "webnlg2020-en", "--kinds", str(WEBNLG / "challenge.yaml")
    )


def test_a_board_kind_nested_past_reading_is_one_line_not_a_traceback(board):  # noqa: F811
    canned, url = board
    canned.answer("/challenges/c/tracks/en/kind", b"[" * 100_000 + b"]" * 100_000)
    result = CliRunner().invoke(main, ["--board", url, "--track", "c/en", *FILES])
    assert result.exit_code == 2 and "nested too deeply" in result.output
    assert "Traceback" not in result.output
