"""The bad-upload corpus (tests/data/bad_uploads/, plus the big ones made here): each file is
refused with a message naming the file and the rule, through the API and the web form, and
nothing is stored; HTML in outputs is stored and always shown escaped. Never a 500."""

from __future__ import annotations

import io
import zipfile

import pytest
from sqlalchemy import func, select
from werkzeug.test import EnvironBuilder

from app.data.db import session_scope
from app.data.models import Submission
from tests.support.board import upload
from tests.support.factories import GOOD_OUTPUT, demo_track, login, participant, run_queue
from tests.support.paths import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "tests" / "data" / "bad_uploads"
LINES = GOOD_OUTPUT.decode().splitlines()

REFUSED = {
    "latin1.txt": "is not valid UTF-8 (byte 0xe9",
    "utf16.txt": "looks like UTF-16: save it as UTF-8",
    "nul-bytes.txt": "contains a NUL byte",
    "binary.png": "contains a NUL byte",
    "empty.txt": "is empty",
    "one-line-short.txt": "9",
    "one-line-long.txt": "11",
    "zip-slip.zip": "points outside the archive",
    "zip-absolute.zip": "points outside the archive",
    "zip-symlink.zip": "is a symbolic link",
    "zip-empty.zip": "contains no file",
    "not-a-zip.zip": "is not a readable zip archive",
}


def zip_bomb() -> bytes:
    """11 MB of zeros per entry (over the 10 MB limit) in a ~11 kB archive."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("en.txt", b"\0" * (11 * 1024 * 1024))
    return buffer.getvalue()


LONG_FIELD = "x" * 140_000
"""Past the csv module's field limit (131,072 characters): an HTTP 500 before issue 34."""


def generated() -> dict[str, tuple[bytes, str]]:
    long_line = "\n".join([*LINES[:9], "word " * 2000]) + "\n"
    long_field = f"MR\toutput\nname[X]\t{LONG_FIELD}\n"
    return {
        "zip-bomb.zip": (zip_bomb(), "unpacks to 11,534,336 bytes"),
        "very-long-line.txt": (long_line.encode(), "output 10 is 9,999 characters long"),
        "long-field.tsv": (long_field.encode(), "line 2: a field of more than 131,072 characters"),
        "long-first-line.txt": (
            "\n".join([LONG_FIELD, *LINES[1:]]).encode(),
            "output 1 is 140,000 characters long",
        ),
    }


def stored(settings) -> tuple[int, int]:
    with session_scope(settings.database_url) as session:
        rows = session.scalar(select(func.count(Submission.id)))
    files = (
        [p for p in settings.uploads_path.rglob("*") if p.is_file()]
        if settings.uploads_path.exists()
        else []
    )
    return rows, len(files)


def cases() -> list[tuple[str, bytes, str]]:
    found = [(name, (CORPUS / name).read_bytes(), message) for name, message in REFUSED.items()]
    return found + [(name, data, message) for name, (data, message) in generated().items()]


@pytest.mark.parametrize(("name", "data", "message"), cases(), ids=[c[0] for c in cases()])
def test_each_bad_file_is_refused_clearly_and_nothing_is_stored(
    client, settings, name, data, message
):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    response = client.post(
        "/api/v1/challenges/demo/tracks/main/submissions",
        data={"file": (io.BytesIO(data), name), "system": "s"},
        headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400, response.data[:300]
    error = response.json["error"]
    assert message in error and "nothing was stored" in error
    assert name in error or "entry" in error or "output 10" in error
    login(client, "a@x.org")
    page = client.post(
        "/challenges/demo/tracks/main/submit",
        data={"system": "s", "file": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
    )
    assert page.status_code == 200 and "Nothing was stored" in page.get_data(as_text=True)
    assert stored(settings) == (0, 0)


def test_fifty_megabytes_are_refused_before_reading(client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    builder = EnvironBuilder(
        path="/api/v1/challenges/demo/tracks/main/submissions",
        method="POST",
        data={"file": (io.BytesIO(b"x" * (50 * 1024 * 1024)), "big.txt"), "system": "s"},
        headers={"Authorization": f"Bearer {token}"},
    )
    environ = builder.get_environ()
    try:
        response = client.open(environ)
    finally:  # the test client spools big bodies to a temporary file it leaves open
        environ["wsgi.input"].close()
        builder.close()
    assert response.status_code == 413
    assert "larger than the 10,485,760-byte limit. Nothing was stored." in response.json["error"]
    assert stored(settings) == (0, 0)


def test_html_in_outputs_is_stored_and_shown_escaped(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "s", (CORPUS / "html-script.txt").read_bytes()).status_code == 202
    run_queue(app)
    login(client, "a@x.org")
    page = client.get("/submissions/1/outputs").get_data(as_text=True)
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
    assert "<script>alert" not in page


def test_formula_looking_outputs_and_names_are_neutralised_in_csv(app, client, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="=HYPERLINK(1)")
    data = (CORPUS / "csv-injection.txt").read_bytes()
    assert upload(client, token, "@SUM(1)", data).status_code == 202
    run_queue(app)
    csv_text = client.get("/challenges/demo/tracks/main/export.csv").get_data(as_text=True)
    row = csv_text.splitlines()[-1]
    assert ",'@SUM(1),'=HYPERLINK(1)," in row


def test_a_csv_field_past_the_csv_limit_is_refused_at_every_track_import(
    client, runner, settings, tmp_path
):
    """Issue 34: a reference field over 131,072 characters was an HTTP 500 in the organisers'
    track import (and a traceback in the CLI's); now the file and line are named."""
    from tests.support.factories import organiser

    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    refs = f"mr,ref\nname[X],a reference\nname[Y],{LONG_FIELD}\n".encode()
    login(client, "org@x.org")
    page = client.post(
        "/organise/demo",
        data={
            "action": "track",
            "track-slug": "other",
            "track-kind": "e2e",
            "track-references": (io.BytesIO(refs), "refs.csv"),
        },
        content_type="multipart/form-data",
    )
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "refs.csv, line 3: a field of more than 131,072" in text
    path = tmp_path / "refs.csv"
    path.write_bytes(refs)
    args = ["track", "import", "demo", "other", "--kind", "e2e", "--refs", str(path)]
    result = runner.invoke(args=args)
    assert result.exit_code == 1 and "refs.csv, line 3: a field of more than" in result.output


def test_nlg_score_names_the_line_of_a_field_past_the_csv_limit(tmp_path):
    from click.testing import CliRunner

    from scorer.cli.score import main

    refs = tmp_path / "refs.csv"
    refs.write_text(f"mr,ref\nname[X],{LONG_FIELD}\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a text\n")
    result = CliRunner().invoke(main, ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp)])
    assert result.exit_code == 2 and "refs.csv, line 2: a field of more than" in result.output


def test_the_upload_page_shows_an_accepted_files_warnings(client, settings):
    """An empty line is accepted (and scored as no text), but the page names it."""
    demo_track(settings)
    participant(settings, "a@x.org", team="A")
    lines = GOOD_OUTPUT.decode().splitlines()
    lines[4] = ""
    login(client, "a@x.org")
    page = client.post(
        "/challenges/demo/tracks/main/submit",
        data={"system": "s", "file": (io.BytesIO(("\n".join(lines) + "\n").encode()), "o.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "queued for scoring" in text
    assert "Warning: o.txt, line 5: output 5 is empty" in text and "[empty-output]" in text
