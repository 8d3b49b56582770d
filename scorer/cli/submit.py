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
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import click
import requests

from scorer.errors import InputError, KindError
from scorer.io.archive import is_zip
from scorer.kinds import BUILT_IN, Profile, build_profile, get_profile

SPINNER = "|/-\\"
TOKEN_ENV = "NLGBOARD_TOKEN"
EXIT_FAILED = 1
EXIT_REFUSED = 2


class SubmitError(click.ClickException):
    """A refusal or a transport problem, said in one line; exit status 2."""

    exit_code = EXIT_REFUSED


def _api(url: str, path: str) -> str:
    return f"{url.rstrip('/')}/api/v1{path}"


def _answer(response: requests.Response) -> dict:
    try:
        body = response.json()
    except ValueError:
        raise SubmitError(
            f"{response.request.method} {response.url}: HTTP {response.status_code}, not JSON"
        ) from None
    if response.status_code >= 400:
        raise SubmitError(body.get("error") or f"HTTP {response.status_code}")
    return body


def check_offline(url: str, challenge: str, track: str, language: str | None, file: Path) -> str:
    """Validate the file against the track's inputs as the server will; return what was checked."""
    data = file.read_bytes()
    if is_zip(data):
        return "a zip archive: each language's file is checked by the server"
    params = {"language": language} if language else {"filename": file.name}
    found = _answer(
        requests.get(
            _api(url, f"/challenges/{challenge}/tracks/{track}/inputs"), params=params, timeout=60
        )
    )
    profile = track_profile(url, challenge, track, found["profile"])
    try:
        outputs = profile.read_outputs(data, found["inputs"], file.name)
    except InputError as error:
        raise SubmitError(
            f"not uploaded: {error}\nan output file of {challenge}/{track} "
            f"({profile.title}): {profile.submit.layout}"
        ) from None
    return f"{len(outputs)} outputs for the {len(found['inputs'])} {found['language']} inputs"


def track_profile(url: str, challenge: str, track: str, name: str) -> Profile:
    """The profile the board scores the track with: a built-in one by name, an organiser's
    built from the definition the board serves (its name, a digest of the definition, proves
    it is the board's own)."""
    if name in BUILT_IN:
        return get_profile(name)
    kind = _answer(
        requests.get(_api(url, f"/challenges/{challenge}/tracks/{track}/kind"), timeout=60)
    )
    if not kind.get("definition"):
        raise SubmitError(
            f"the board scores {challenge}/{track} with {name!r}, which this nlgboard does not "
            "know and the board did not define: upgrade nlgboard to the board's version"
        )
    try:
        profile = build_profile(kind["definition"], f"{challenge}/{track}'s kind")
    except KindError as error:
        raise SubmitError(
            f"cannot build {challenge}/{track}'s kind here ({error}): upgrade nlgboard to the "
            "board's version"
        ) from None
    if profile.name != name:
        raise SubmitError(
            f"{challenge}/{track}'s kind builds as {profile.name!r} here, not as the board's "
            f"{name!r}: upgrade nlgboard to the board's version"
        )
    return profile


def wait_for(url: str, token: str, submission_id: int, interval: float, timeout: float) -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    started = time.monotonic()
    spinner = itertools.cycle(SPINNER)
    interactive = sys.stderr.isatty()
    while True:
        status = _answer(
            requests.get(_api(url, f"/submissions/{submission_id}"), headers=headers, timeout=60)
        )
        if status["status"] in ("scored", "failed"):
            if interactive:
                click.echo("\r" + " " * 60 + "\r", nl=False, err=True)
            return status
        elapsed = time.monotonic() - started
        if elapsed > timeout:
            raise SubmitError(
                f"submission {submission_id} still {status['status']} after {timeout:.0f} s; "
                "it is stored and will be scored: check again later"
            )
        if interactive:
            click.echo(
                f"\r{next(spinner)} submission {submission_id}: {status['status']} ({elapsed:.0f} s)",
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
@click.option("--check-only", is_flag=True, help="Validate against the inputs; do not upload.")
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
    except requests.RequestException as error:
        raise SubmitError(unreachable(url, error)) from None
    click.echo(f"checked: {checked}", err=True)
    if check_only:
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
        ids = [s["id"] for s in created.get("submissions", [created])]
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
        f"submission {status['id']} ({status['language']}, {status['system']}): {status['status']}"
    )
    if status["status"] == "failed":
        click.echo(f"{head}: {status['error']}")
        return True
    click.echo(head + (" (late)" if status.get("late") else ""))
    if status.get("scores_hidden"):
        click.echo("  scores hidden until the organisers publish the test results")
    metrics = _in_column_order(status)
    width = max((len(m) for m in metrics), default=0)
    for metric in metrics:
        click.echo(f"  {metric:<{width}}  {status['scores'][metric]:.4f}")
    for metric in metrics:
        if metric in status["signatures"]:
            click.echo(f"  # {metric}: {status['signatures'][metric]}")
    return False


def _in_column_order(status: dict) -> list[str]:
    """The track's column order (BLEU, NIST, METEOR...) as the board lists it in ``metrics``:
    a JSON object's keys come back sorted by the alphabet."""
    listed = [m for m in status.get("metrics", []) if m in status["scores"]]
    return listed + [m for m in status["scores"] if m not in listed]


if __name__ == "__main__":
    main()
