"""``nlgboard-submit`` against a board that sends what it likes (a local HTTP server serving
canned answers): what a board sends reaches the terminal without control characters or
escape sequences, and an answer it cannot read (a kind nested 100,000 deep, a definition of
the wrong shape, a field of another type) is one line on stderr with a non-zero status, never
a traceback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from scorer.cli.submit import EXIT_FAILED, EXIT_REFUSED, main, plain
from scorer.kinds import build_profile

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\x1b[0m\x9b1;1H\rback\x07\x00\x7f\x85"
"""A window title set, the screen erased, a colour, an 8-bit cursor move, a carriage return,
a bell, NUL, DEL and NEL: only ``red`` and ``back`` are text."""
KIND = {
    "name": "own",
    "reader": "lines",
    "metrics": ["chrF++"],
    "title": f"Own {HOSTILE} kind",
    "submit": {"layout": f"one line per input\n\tplain text {HOSTILE}", "example": "x"},
}


class Board:
    """Canned JSON answers by path (without the query); what is not listed is a 404."""

    def __init__(self) -> None:
        self.answers: dict[str, tuple[int, bytes]] = {}

    def answer(self, path: str, body: object, status: int = 200) -> None:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.answers[f"/api/v1{path}"] = (status, raw)


@pytest.fixture
def board() -> Iterator[tuple[Board, str]]:
    canned = Board()

    class Handler(BaseHTTPRequestHandler):
        def _send(self) -> None:
            status, body = canned.answers.get(self.path.partition("?")[0], (404, b"{}"))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            self._send()

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._send()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield canned, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def serve_track(board: Board, kind: object, inputs: object = ("a", "b")) -> None:
    """The track ``c/t``: its inputs, scored by the organiser's ``kind``."""
    name = build_profile(kind).name if isinstance(kind, dict) else "own@0000000000"
    board.answer("/challenges/c/tracks/t/inputs", {
        "profile": name, "inputs": list(inputs), "language": "en"})  # fmt: skip
    board.answer("/challenges/c/tracks/t/kind", {"definition": kind})


def submit(url: str, tmp_path: Path, text: bytes = b"one\ntwo\n", *extra: str) -> Result:
    outputs = tmp_path / "outputs.txt"
    outputs.write_bytes(text)
    args = ["--url", url, "--token", "t", "--challenge", "c", "--track", "t", "--system", "s"]
    return CliRunner().invoke(main, [*args, "--interval", "0", *extra, str(outputs)])


def assert_nothing_raw(result: Result) -> None:
    assert not any(c in result.output for c in "\x1b\x9b\x07\x00\x7f\x85\r"), repr(result.output)


def assert_one_line_error(result: Result, *said: str) -> None:
    assert result.exit_code == EXIT_REFUSED, result.output
    assert isinstance(result.exception, SystemExit)  # a ClickException, not a crash
    *before, line = result.output.strip().splitlines()
    assert line.startswith("Error: ") and "Traceback" not in result.output
    assert all(earlier.startswith(("checked: ", "uploaded: ")) for earlier in before), result.output
    assert all(words in line for words in said), line
    assert_nothing_raw(result)


@pytest.mark.parametrize(
    ("sent", "one_line", "lines"),
    [
        ("BLEU \x1b[1mbold\x1b[0m", "BLEU bold", "BLEU bold"),
        ("a\nb\tc\r\n", "a b c ", "a\nb\tc\n"),
        ("\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\", "link", "link"),
        ("\x9d0;title\x9cok \x1bcreset \x1b7saved", "ok reset saved", "ok reset saved"),
        ("unterminated \x1b]0;title", "unterminated ", "unterminated "),
        ("café · 東京 — ok", "café · 東京 — ok", "café · 東京 — ok"),
    ],
)
def test_plain_takes_out_escape_sequences_and_controls(sent, one_line, lines):
    assert plain(sent) == one_line
    assert plain(sent, lines=True) == lines


def test_a_board_s_title_layout_and_errors_reach_the_terminal_plain(board, tmp_path):
    canned, url = board
    serve_track(canned, KIND)
    refused = submit(url, tmp_path, b"only one line\n")
    assert refused.exit_code == EXIT_REFUSED
    assert_nothing_raw(refused)
    assert "(Own redback kind): one line per input\n\tplain text redback" in refused.output
    canned.answer("/challenges/c/tracks/t/submissions", {"error": f"no {HOSTILE}"}, status=403)
    forbidden = submit(url, tmp_path)
    assert_one_line_error(forbidden, "Error: no redback")


def test_a_board_s_status_answer_is_printed_plain(board, tmp_path):
    canned, url = board
    serve_track(canned, KIND)
    canned.answer("/challenges/c/tracks/t/submissions", {"id": 7, "status": "queued"})
    status = {"id": 7, "language": "en", "system": f"sys{HOSTILE}", "status": "scored",
              "error": None, "metrics": [f"chrF{HOSTILE}"], "scores": {f"chrF{HOSTILE}": 0.5},
              "signatures": {f"chrF{HOSTILE}": f"chrF|{HOSTILE}"}}  # fmt: skip
    canned.answer("/submissions/7", status)
    scored = submit(url, tmp_path)
    assert scored.exit_code == 0, scored.output
    assert_nothing_raw(scored)
    assert "submission 7 (en, sysredback): scored" in scored.output
    assert "chrFredback  0.5000" in scored.output and "# chrFredback: chrF|redback" in scored.output
    canned.answer("/submissions/7", status | {"status": "failed", "error": f"line 2:\n{HOSTILE}"})
    failed = submit(url, tmp_path)
    assert failed.exit_code == EXIT_FAILED
    assert_nothing_raw(failed)
    assert "scored" not in failed.output and ": line 2:\nredback" in failed.output


def test_a_kind_nested_100000_deep_is_a_one_line_error(board, tmp_path):
    canned, url = board
    serve_track(canned, KIND)
    depth = 100_000
    deep = b'{"definition": {"name": "own", "title": ' + b"[" * depth + b"]" * depth + b"}}"
    canned.answer("/challenges/c/tracks/t/kind", deep)
    assert_one_line_error(submit(url, tmp_path), "/kind", "nested too deeply to read")


def test_a_kind_deeper_than_a_definition_goes_is_refused_before_it_is_walked(board, tmp_path):
    """Deep enough to build a Python value, too deep for any definition: refused by depth
    (printing its title, or digesting it, would recurse through all of it)."""
    canned, url = board
    serve_track(canned, KIND)
    nested: object = []
    for _ in range(900):
        nested = [nested]
    canned.answer("/challenges/c/tracks/t/kind", {"definition": KIND | {"title": nested}})
    assert_one_line_error(submit(url, tmp_path), "nested deeper than 32 levels")


BUILD = "cannot build c/t's kind here"


@pytest.mark.parametrize(
    ("definition", "said"),
    [
        (["own"], ["its definition is not a JSON object"]),
        (KIND | {"reader": ["lines"]}, [BUILD, "unknown reader ['lines']"]),
        (KIND | {"normalisation": {"a": 1}}, [BUILD, "normalisation: unknown {'a': 1}"]),
        (KIND | {"metrics": [{"metric": "BLEU", "tokens": [1]}]}, [BUILD, "tokens: unknown [1]"]),
        (KIND | {"title": {"a": HOSTILE}}, [BUILD, "title: the kind's title"]),
        (KIND | {"submit": {"layout": 3}}, [BUILD, "submit.layout"]),
    ],
)
def test_a_malformed_kind_definition_is_a_one_line_error(board, tmp_path, definition, said):
    canned, url = board
    serve_track(canned, KIND)
    canned.answer("/challenges/c/tracks/t/kind", {"definition": definition})
    assert_one_line_error(submit(url, tmp_path), *said)


@pytest.mark.parametrize(
    ("path", "answer", "said"),
    [
        ("/challenges/c/tracks/t/inputs", b"[1, 2]", "not a JSON object"),
        ("/challenges/c/tracks/t/inputs", b"<html>", "not JSON"),
        ("/challenges/c/tracks/t/inputs", {"profile": "own", "inputs": [[1]], "language": "en"},
         "'inputs' are not all texts"),
        ("/challenges/c/tracks/t/inputs", {"profile": 1, "inputs": ["a"], "language": "en"},
         "no 'profile' of type str"),
        ("/challenges/c/tracks/t/submissions", {"id": "7"}, "no 'id' of type int"),
        ("/challenges/c/tracks/t/submissions", {"submissions": {"id": 7}}, "not a list"),
        ("/submissions/7", {"id": 7, "status": "scored"}, "no 'language' of type str"),
    ],
)  # fmt: skip
def test_an_answer_of_another_shape_is_a_one_line_error(board, tmp_path, path, answer, said):
    canned, url = board
    serve_track(canned, KIND)
    canned.answer("/challenges/c/tracks/t/submissions", {"id": 7, "status": "queued"})
    canned.answer(path, answer)
    assert_one_line_error(submit(url, tmp_path), said)


def test_scores_that_are_not_numbers_are_a_one_line_error(board, tmp_path):
    canned, url = board
    serve_track(canned, KIND)
    canned.answer("/challenges/c/tracks/t/submissions", {"id": 7, "status": "queued"})
    canned.answer("/submissions/7", {"id": 7, "language": "en", "system": "s",
                  "status": "scored", "error": None, "metrics": ["chrF"],
                  "scores": {"chrF": "high"}, "signatures": {}})  # fmt: skip
    assert_one_line_error(submit(url, tmp_path), "'scores' are not all numbers")
