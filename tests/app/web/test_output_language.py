"""English outputs on the Russian track: the line count fits, so only the letters tell, and
every gate says it as a warning beside an accepted file: the API's 202 answer, the upload
page, ``nlg-score`` (and ``nlgboard-submit --check-only``, in api/test_submit_client.py);
Russian outputs draw no warning."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from scorer.cli.score import main as nlg_score
from tests.support.board import bearer
from tests.support.factories import login, participant
from tests.support.paths import DEMO_DATA

RUSSIAN = DEMO_DATA / "webnlg-ru"
TRACK = "/challenges/webnlg-plus-ru-example/tracks/ru"
ENGLISH = (DEMO_DATA / "webnlg" / "team_output.txt").read_bytes().splitlines(True)[0] * 5
SAID = "english.txt, line 1: 0% of the letters are Cyrillic and 100% Latin"


@pytest.fixture
def russian_track(runner):
    imported = runner.invoke(args=["challenge", "import", str(RUSSIAN)])
    assert imported.exit_code == 0, imported.output


def test_the_api_accepts_english_outputs_on_the_russian_track_with_a_warning(
    client, settings, russian_track
):
    token = participant(settings, "a@x.org", team="A")
    answers = {
        name: client.post(
            f"/api/v1{TRACK}/submissions",
            data={"file": (io.BytesIO(data), name), "system": name},
            headers=bearer(token),
            content_type="multipart/form-data",
        )
        for name, data in (
            ("english.txt", ENGLISH),
            ("russian.txt", (RUSSIAN / "team_output.txt").read_bytes()),
        )
    }
    assert answers["english.txt"].status_code == 202, answers["english.txt"].json
    (warning,) = answers["english.txt"].json["warnings"]
    assert warning.startswith(SAID) and "[script-of-language]" in warning
    assert answers["russian.txt"].status_code == 202
    assert answers["russian.txt"].json["warnings"] == []


def test_the_upload_page_shows_the_language_warning(client, settings, russian_track):
    participant(settings, "a@x.org", team="A")
    login(client, "a@x.org")
    page = client.post(
        f"{TRACK}/submit",
        data={"system": "s", "file": (io.BytesIO(ENGLISH), "english.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "queued for scoring" in text
    assert f"Warning: {SAID}" in text and "[script-of-language]" in text


def test_nlg_score_warns_of_english_outputs_with_the_russian_kind(tmp_path):
    english = tmp_path / "english.txt"
    english.write_bytes(ENGLISH)
    args = ["--kinds", str(RUSSIAN / "challenge.yaml"), "--metrics", "chrF++"]
    args += ["--refs", str(RUSSIAN / "test_with_lex.xml"), "--json"]
    warned = CliRunner().invoke(nlg_score, [*args, "--hyp", str(english)])
    assert warned.exit_code == 0, warned.output
    assert f"warning: {SAID}" in warned.stderr and "[script-of-language]" in warned.stderr
    quiet = CliRunner().invoke(nlg_score, [*args, "--hyp", str(RUSSIAN / "team_output.txt")])
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
