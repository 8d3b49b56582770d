"""``nlgboard-submit``: a participant's upload from the command line, through the JSON API.

Checks the file against the track's test inputs first, with the very reader the server uses
(line count, encoding, NUL bytes...), so a bad file is caught before it costs an upload; then
uploads with the team's API token, waits for the score with a spinner on stderr and prints the
scores with their signatures.

    nlgboard-submit --url https://board.example --challenge e2e --track main \\
        --system my-seq2seq outputs.txt          # token from $NLGBOARD_TOKEN

FILE holds one output per test input, laid out as the track's kind says (its Submit page on
the board; a refused check prints it); a multilingual track also takes a zip with one file per
language, named by its code.

The board at --url is not trusted: whatever it sends is printed only after ``plain`` has
taken the terminal's control characters out of it (an escape sequence in a track's title
could recolour, rewrite or retitle the participant's terminal), and an answer that is not
what this client reads (not JSON, nested past reading, a field of another type, a kind's
definition that does not build) is said in one line, never a traceback.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import click
import requests

from scorer.errors import InputError, KindError
from scorer.io.archive import is_zip
from scorer.kinds import BUILT_IN, Profile, build_profile, get_profile

SPINNER = "|/-\\"
TOKEN_ENV = "NLGBOARD_TOKEN"
EXIT_FAILED = 1
EXIT_REFUSED = 2


_ESCAPE = re.compile(
    r"""
      (?:\x1b\[|\x9b) [0-?]* [ -/]* [@-~]           # CSI: colours, cursor moves, erasing
    | (?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f])     # OSC, DCS, PM, APC, SOS: a string ...
      [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)?        # ... to BEL or ST (or the text's end)
    | \x1b [ -/]* [0-~]                              # any other escape (ESC c resets)
    """,
    re.VERBOSE,
)
"""Terminal escape sequences, 7-bit and 8-bit, taken out whole (not their ESC alone, which
would leave ``[31m`` behind)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""C0 controls, DEL and C1 controls: what is left of a control after the sequences."""


def plain(text: object, lines: bool = False) -> str:
    """``text`` from a board, safe to print: escape sequences and control characters taken
    out. With ``lines`` (an error, a file layout: texts of several lines) line breaks and
    tabs are kept; in a one-line field (a title, a name) they become spaces."""

    def replace(control: re.Match[str]) -> str:
        char = control.group()
        if char in "\n\t":
            return char if lines else " "
        return ""

    return _CONTROL.sub(replace, _ESCAPE.sub("", str(text)))


class SubmitError(click.ClickException):
    """A refusal or a transport problem, said in one line; exit status 2. The message is
    printed ``plain``: it often quotes what the board sent."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str):
        super().__init__(plain(message, lines=True))


def _api(url: str, path: str) -> str:
    return f"{url.rstrip('/')}/api/v1{path}"


def _answer(response: requests.Response) -> dict[str, Any]:
    """The board's JSON object, or SubmitError naming the request: not JSON, nested too
    deeply for Python's parser, or not an object."""
    where = f"{response.request.method} {plain(response.url)}: HTTP {response.status_code}"
    try:
        body = json.loads(response.content)
    except RecursionError:
        raise SubmitError(f"{where}, JSON nested too deeply to read") from None
    except ValueError:
        raise SubmitError(f"{where}, not JSON") from None
    if response.status_code >= 400:
        error = body.get("error") if isinstance(body, dict) else None
        raise SubmitError(plain(error, lines=True) if error else where)
    if not isinstance(body, dict):
        raise SubmitError(f"{where}, not a JSON object")
    return body


def _field(body: dict[str, Any], key: str, kinds: tuple[type, ...], where: str) -> Any:
    """``body[key]`` if it is one of ``kinds`` (a number is never a bool), else SubmitError:
    a board that answers other fields is not one this client can read."""
    value = body.get(key)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        expected = " or ".join(kind.__name__ for kind in kinds)
        raise SubmitError(
            f"{where}: the board's answer has no {key!r} of type {expected}: "
            "is this an nlgboard of this client's version?"
        )
    return value


def _texts(body: dict[str, Any], key: str, where: str) -> list[str]:
    value = _field(body, key, (list,), where)
    if not all(isinstance(text, str) for text in value):
        raise SubmitError(f"{where}: the board's {key!r} are not all texts")
    return value


def check_offline(url: str, challenge: str, track: str, language: str | None, file: Path) -> str:
    """Validate the file against the track's inputs as the server will; return what was checked."""
    data = file.read_bytes()
    if is_zip(data):
        return "a zip archive: each language's file is checked by the server"
    params = {"language": language} if language else {"filename": file.name}
    where = f"GET {challenge}/{track}'s inputs"
    found = _answer(
        requests.get(
            _api(url, f"/challenges/{challenge}/tracks/{track}/inputs"), params=params, timeout=60
        )
    )
    inputs = _texts(found, "inputs", where)
    language_found = _field(found, "language", (str,), where)
    profile = track_profile(url, challenge, track, _field(found, "profile", (str,), where))
    try:
        outputs = profile.read_outputs(data, inputs, file.name)
    except InputError as error:
        raise SubmitError(
            f"not uploaded: {plain(error, lines=True)}\nan output file of {challenge}/{track} "
            f"({plain(profile.title)}): {plain(profile.submit.layout, lines=True)}"
        ) from None
    for warning in profile.output_warnings(data, outputs, file.name):
        click.echo(f"warning: {plain(warning, lines=True)}", err=True)
    return f"{len(outputs)} outputs for the {len(inputs)} {plain(language_found)} inputs"


def verify_token(url: str, token: str) -> None:
    """SubmitError when the board refuses ``token``: ``--check-only`` promises the upload
    would go through, so it asks an authenticated route (a submission's status; no
    submission 0 exists, so a valid token is answered 404, a bogus one 401)."""
    response = requests.get(
        _api(url, "/submissions/0"), headers={"Authorization": f"Bearer {token}"}, timeout=60
    )
    if response.status_code in (401, 403):
        raise SubmitError(
            f"the board at {plain(url)} refused the API token (--token or ${TOKEN_ENV}, HTTP "
            f"{response.status_code}): copy your token from the account page, or make a new one"
        )


def fetch_kind(url: str, challenge: str, track: str) -> dict[str, Any]:
    """The board's ``GET .../tracks/T/kind`` answer, read as any answer of an untrusted board
    (``_answer``); ``nlg-score --board`` scores with it too."""
    return _answer(
        requests.get(_api(url, f"/challenges/{challenge}/tracks/{track}/kind"), timeout=60)
    )


def track_profile(url: str, challenge: str, track: str, name: str) -> Profile:
    """The profile the board scores the track with: a built-in one by name, an organiser's
    built from the definition the board serves (its name, a digest of the definition, proves
    it is the board's own)."""
    if name in BUILT_IN:
        return get_profile(name)
    definition = fetch_kind(url, challenge, track).get("definition")
    if not definition:
        raise SubmitError(
            f"the board scores {challenge}/{track} with {plain(name)!r}, which this nlgboard "
            "does not know and the board did not define: upgrade nlgboard to the board's version"
        )
    if not isinstance(definition, dict):
        raise SubmitError(f"GET {challenge}/{track}'s kind: its definition is not a JSON object")
    try:
        profile = build_profile(definition, f"{challenge}/{track}'s kind")
    except KindError as error:
        raise SubmitError(
            f"cannot build {challenge}/{track}'s kind here ({plain(error)}): upgrade nlgboard "
            "to the board's version"
        ) from None
    if profile.name != name:
        raise SubmitError(
            f"{challenge}/{track}'s kind builds as {plain(profile.name)!r} here, not as the "
            f"board's {plain(name)!r}: upgrade nlgboard to the board's version"
        )
    return profile


STATUS_FIELDS: dict[str, tuple[type, ...]] = {
    "id": (int,),
    "status": (str,),
    "language": (str,),
    "system": (str,),
    "error": (str, type(None)),
    "scores": (dict,),
    "signatures": (dict,),
    "metrics": (list,),
}
"""What a submission's answer must hold for ``wait_for`` and ``_report`` to read it."""


def _status(body: dict[str, Any], submission_id: int) -> dict[str, Any]:
    """A submission's answer, checked before anything in it is read or printed."""
    where = f"GET submission {submission_id}"
    for key, kinds in STATUS_FIELDS.items():
        _field(body, key, kinds, where)
    if not all(
        isinstance(value, (int, float)) and not isinstance(value, bool)
        for value in body["scores"].values()
    ):
        raise SubmitError(f"{where}: the board's 'scores' are not all numbers")
    return body


def wait_for(url: str, token: str, submission_id: int, interval: float, timeout: float) -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    started = time.monotonic()
    spinner = itertools.cycle(SPINNER)
    interactive = sys.stderr.isatty()
    while True:
        status = _status(
            _answer(
                requests.get(
                    _api(url, f"/submissions/{submission_id}"), headers=headers, timeout=60
                )
            ),
            submission_id,
        )
        if status["status"] in ("scored", "failed"):
            if interactive:
                click.echo("\r" + " " * 60 + "\r", nl=False, err=True)
            return status
        elapsed = time.monotonic() - started
        if elapsed > timeout:
            raise SubmitError(
                f"submission {submission_id} still {plain(status['status'])} after "
                f"{timeout:.0f} s; "
                "it is stored and will be scored: check again later"
            )
        if interactive:
            click.echo(
                f"\r{next(spinner)} submission {submission_id}: {plain(status['status'])} "
                f"({elapsed:.0f} s)",
                nl=False,
                err=True,
            )
        time.sleep(interval)


@click.command(help=__doc__)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--url", required=True, envvar="NLGBOARD_URL", help="The board, e.g. https://board.example"
)
@click.option("--token", envvar=TOKEN_ENV, required=True, help=f"API token (or ${TOKEN_ENV}).")
@click.option("--challenge", required=True)
@click.option("--track", required=True)
@click.option("--system", required=True, help="Your system's name on this track.")
@click.option("--language", default=None, help="Test set of a multilingual track.")
@click.option(
    "--check-only",
    is_flag=True,
    help="Validate the file against the inputs and the token with the board; do not upload.",
)
@click.option("--no-wait", is_flag=True, help="Upload and print the id; do not wait.")
@click.option("--timeout", default=1800.0, show_default=True, help="Seconds to wait for the score.")
@click.option("--interval", default=2.0, show_default=True, help="Seconds between polls.")
def main(
    file: Path,
    url: str,
    token: str,
    challenge: str,
    track: str,
    system: str,
    language: str | None,
    check_only: bool,
    no_wait: bool,
    timeout: float,
    interval: float,
) -> None:
    try:
        checked = check_offline(url, challenge, track, language, file)
        if check_only:
            verify_token(url, token)
    except requests.RequestException as error:
        raise SubmitError(unreachable(url, error)) from None
    click.echo(f"checked: {checked}", err=True)
    if check_only:
        click.echo("token: accepted by the board", err=True)
        return
    try:
        with file.open("rb") as handle:
            created = _answer(
                requests.post(
                    _api(url, f"/challenges/{challenge}/tracks/{track}/submissions"),
                    headers={"Authorization": f"Bearer {token}"},
                    data={"system": system, **({"language": language} if language else {})},
                    files={"file": (file.name, handle)},
                    timeout=300,
                )
            )
        ids = _created_ids(created)
        click.echo(f"uploaded: submission {', '.join(map(str, ids))} queued", err=True)
        if no_wait:
            return
        failed = False
        for submission_id in ids:
            status = wait_for(url, token, submission_id, interval, timeout)
            failed |= _report(status)
    except requests.RequestException as error:
        raise SubmitError(unreachable(url, error)) from None
    if failed:
        sys.exit(EXIT_FAILED)


def _created_ids(created: dict[str, Any]) -> list[int]:
    """The ids of the submissions an upload created (a zip of languages creates several)."""
    where = "POST a submission"
    listed = created.get("submissions", [created])
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        raise SubmitError(f"{where}: the board's 'submissions' are not a list of objects")
    return [_field(item, "id", (int,), where) for item in listed]


def unreachable(url: str, error: requests.RequestException) -> str:
    """What went wrong talking to the board, in words (not urllib3's connection-pool text)."""
    if isinstance(error, requests.ConnectionError) and not isinstance(error, requests.Timeout):
        return f"cannot reach the board at {url}: nothing answered there (is the URL right?)"
    if isinstance(error, requests.Timeout):
        return f"the board at {url} did not answer in time; try again later"
    return f"talking to the board at {url} failed ({type(error).__name__})"


def _report(status: dict) -> bool:
    """Print one submission's outcome; True when it failed."""
    head = (
        f"submission {status['id']} ({plain(status['language'])}, {plain(status['system'])}): "
        f"{plain(status['status'])}"
    )
    if status["status"] == "failed":
        click.echo(f"{head}: {plain(status['error'], lines=True)}")
        return True
    click.echo(head + (" (late)" if status.get("late") else ""))
    if status.get("scores_hidden"):
        click.echo("  scores hidden until the organisers publish the test results")
    metrics = _in_column_order(status)
    width = max((len(plain(m)) for m in metrics), default=0)
    for metric in metrics:
        click.echo(f"  {plain(metric):<{width}}  {status['scores'][metric]:.4f}")
    for metric in metrics:
        if metric in status["signatures"]:
            click.echo(f"  # {plain(metric)}: {plain(status['signatures'][metric])}")
    return False


def _in_column_order(status: dict) -> list[str]:
    """The track's column order (BLEU, NIST, METEOR...) as the board lists it in ``metrics``:
    a JSON object's keys come back sorted by the alphabet."""
    listed = [m for m in status["metrics"] if isinstance(m, str) and m in status["scores"]]
    return listed + [m for m in status["scores"] if m not in listed]


if __name__ == "__main__":
    main()
