"""``nlg-score`` takes the kind as the board serves it: the ``GET .../tracks/T/kind`` JSON
given to ``--kinds``, or fetched with ``--board URL --track C/T`` (through nlgboard-submit's
untrusted-board reading), and gives the numbers and signatures of the bundle's own kind."""

from __future__ import annotations

import json
import subprocess
import sys

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


def served_file(tmp_path) -> str:
    path = tmp_path / "kind.json"
    path.write_text(json.dumps(SERVED))
    return str(path)


def test_a_file_that_defines_one_kind_needs_no_profile(tmp_path):
    named = scored("--profile", "webnlg2020-en", "--kinds", str(WEBNLG / "challenge.yaml"))
    assert scored("--kinds", served_file(tmp_path)) == named
    assert scored("--kinds", str(WEBNLG / "challenge.yaml")) == named


def test_the_served_profile_value_names_the_files_kind(tmp_path):
    """In a fresh process, as a participant runs it: this module has built the kind already,
    and a profile built in the process is found by its name without the file."""
    assert PROFILE.name.startswith("webnlg2020-en@")  # as GET .../kind serves it
    named = scored("--profile", "webnlg2020-en", "--kinds", served_file(tmp_path))
    for kinds in (served_file(tmp_path), str(WEBNLG / "challenge.yaml")):
        command = [sys.executable, "-m", "scorer.cli.score", "--profile", PROFILE.name]
        run = subprocess.run(
            [*command, "--kinds", kinds, *FILES], capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == named


def test_a_digest_that_is_not_the_files_kind_is_refused_saying_both(tmp_path):
    result = CliRunner().invoke(
        main, ["--profile", "webnlg2020-en@0000000000", "--kinds", served_file(tmp_path), *FILES]
    )
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert f"kind.json defines kind webnlg2020-en as {PROFILE.name}" in message
    assert "not 0000000000" in message and "fetch the track's kind again" in message


def test_an_unknown_profile_lists_the_files_kinds_and_the_built_in_ones(tmp_path):
    result = CliRunner().invoke(
        main, ["--profile", "webnlg2020", "--kinds", served_file(tmp_path), *FILES]
    )
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "unknown profile 'webnlg2020'; kind.json defines: webnlg2020-en; built in: " in message
    assert "e2e" in message and "webnlg2017" in message


def test_a_file_of_several_kinds_needs_profile_and_names_them(tmp_path):
    second = {**DEFINITION, "name": "webnlg2020-en-b"}
    path = tmp_path / "two.yaml"
    path.write_text(json.dumps({"kinds": [dict(DEFINITION), second]}))  # JSON is YAML
    result = CliRunner().invoke(main, ["--kinds", str(path), *FILES])
    assert result.exit_code == 2
    assert "two.yaml defines 2 kinds (webnlg2020-en, webnlg2020-en-b): give --profile" in (
        " ".join(result.output.split())
    )
