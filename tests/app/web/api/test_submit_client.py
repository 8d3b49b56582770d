"""``nlgboard-submit`` against the app served over real HTTP: offline check, upload, wait,
scores printed; refusals said in one line with exit status 2."""

from __future__ import annotations

import requests
from click.testing import CliRunner

from scorer.cli.submit import EXIT_REFUSED, main
from scorer.kinds import get_profile
from tests.support.factories import GOOD_OUTPUT, demo_track, participant, sr18_tracks
from tests.support.paths import DEMO_DATA
from tests.support.servers import free_port, serve_app


def run(url: str, token: str, file, *extra: str):
    args = ["--url", url, "--token", token, "--challenge", "demo", "--track", "main"]
    return CliRunner().invoke(main, [*args, "--system", "cli-sys", *extra, str(file)])


def test_submit_checks_uploads_waits_and_prints_scores(app, settings, tmp_path):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    app.extensions["nlgboard.queue"].start()
    good = tmp_path / "outputs.txt"
    good.write_bytes(GOOD_OUTPUT)
    with serve_app(app) as url:
        result = run(url, token, good, "--interval", "0.2")
    assert result.exit_code == 0, result.output
    assert "checked: 10 outputs for the 10 en inputs" in result.output
    assert "submission 1 (en, cli-sys): scored" in result.output
    assert "# BLEU: BLEU|mteval-v13a" in result.output
    printed = [line.split() for line in result.output.splitlines() if line.startswith("  ")]
    columns = list(get_profile("e2e").columns)  # the track's order, not the JSON's alphabet
    assert [words[0] for words in printed if words[0] != "#"] == columns
    assert [words[1].rstrip(":") for words in printed if words[0] == "#"] == columns


def test_a_bad_file_is_refused_before_upload(app, settings, tmp_path):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    short = tmp_path / "short.txt"
    short.write_text("only one line\n")
    good = tmp_path / "outputs.txt"
    good.write_bytes(GOOD_OUTPUT)
    with serve_app(app) as url:
        result = run(url, token, short)
        assert result.exit_code == EXIT_REFUSED
        assert "not uploaded: short.txt" in result.output and "10" in result.output
        checked = run(url, token, good, "--check-only")
        bogus = run(url, "not-a-token", good, "--check-only")
    assert checked.exit_code == 0 and "checked: 10 outputs" in checked.output
    assert "token: accepted by the board" in checked.output
    assert bogus.exit_code == EXIT_REFUSED and "checked:" not in bogus.output
    assert bogus.output.strip().splitlines() == [
        f"Error: the board at {url} refused the API token (--token or $NLGBOARD_TOKEN, HTTP "
        "401): copy your token from the account page, or make a new one"
    ]
    from app.data.db import session_scope
    from app.data.models import Submission

    with session_scope(settings.database_url) as session:
        assert session.query(Submission).count() == 0


def test_unknown_track_and_bad_token_are_one_line_errors(app, settings, tmp_path):
    demo_track(settings)
    good = tmp_path / "outputs.txt"
    good.write_bytes(GOOD_OUTPUT)
    with serve_app(app) as url:
        result = CliRunner().invoke(
            main,
            [
                "--url",
                url,
                "--token",
                "bad",
                "--challenge",
                "demo",
                "--track",
                "nope",
                "--system",
                "s",
                str(good),
            ],
        )
        assert result.exit_code == EXIT_REFUSED
        assert "no track 'nope' in challenge 'demo'; its tracks: main" in result.output
        bad_token = run(url, "bad", good)
    assert bad_token.exit_code == EXIT_REFUSED and "send a valid API token" in bad_token.output


def sr18_run(url: str, token: str, file, *extra: str):
    args = ["--url", url, "--token", token, "--challenge", "sr18", "--track", "shallow"]
    return CliRunner().invoke(main, [*args, "--system", "wol", *extra, str(file)])


def test_the_client_and_the_server_read_the_language_from_the_name_alike(app, settings, tmp_path):
    """One detector: a file named for French is checked against the French inputs, and a
    language anywhere in the name counts (linearise_en_out.txt) on both sides."""
    sr18_tracks(settings)
    token = participant(settings, "a@x.org", team="A")
    french = tmp_path / "fr_out.txt"
    french.write_bytes(b"Le chat dort .\nMarie lit un livre .\nIl pleut .\n")
    english = tmp_path / "linearise_en_out.txt"
    english.write_bytes(b"The chef cooks pasta .\nOur cat sleeps .\nWe liked it .\nIt rained .\n")
    unnamed = tmp_path / "outputs.txt"
    unnamed.write_bytes(english.read_bytes())
    with serve_app(app) as url:
        checked = sr18_run(url, token, french, "--check-only")
        assert checked.exit_code == 0, checked.output
        assert "checked: 3 outputs for the 3 fr inputs" in checked.output
        uploaded = sr18_run(url, token, english, "--no-wait")
        assert uploaded.exit_code == 0, uploaded.output
        assert "4 outputs for the 4 en inputs" in uploaded.output
        refused = sr18_run(url, token, unnamed, "--check-only")
    assert refused.exit_code == EXIT_REFUSED
    assert "say which language 'outputs.txt' is for (en, fr)" in refused.output


def test_an_unreachable_board_is_said_in_words(tmp_path):
    good = tmp_path / "outputs.txt"
    good.write_bytes(GOOD_OUTPUT)
    result = run(f"http://127.0.0.1:{free_port()}", "token", good)
    assert result.exit_code == EXIT_REFUSED
    assert "cannot reach the board at http://127.0.0.1:" in result.output
    assert "urllib3" not in result.output and "HTTPConnectionPool" not in result.output


def test_a_track_whose_kind_a_bundle_defined_is_checked_with_the_boards_own_profile(
    app, runner, settings, tmp_path, monkeypatch
):
    """The client knows no organiser's kind: it builds the profile from the definition the
    board serves (``/kind``), and the digest in its name proves it is the board's."""
    from scorer.kinds import PROFILES

    webnlg = DEMO_DATA / "webnlg"
    assert runner.invoke(args=["challenge", "import", str(webnlg)]).exit_code == 0
    token = participant(settings, "a@x.org", team="A")
    with serve_app(app) as url:
        kind = requests.get(f"{url}/api/v1/challenges/webnlg-plus-example/tracks/en/kind").json()
        assert kind["built_in"] is False and kind["profile"].startswith("webnlg2020-en@")
        # as a participant's process that never saw the bundle (the scorer asks no database)
        monkeypatch.delitem(PROFILES, kind["profile"])
        args = ["--url", url, "--token", token, "--challenge", "webnlg-plus-example"]
        args += ["--track", "en", "--system", "t", "--check-only"]
        checked = CliRunner().invoke(main, [*args, str(webnlg / "team_output.txt")])
        short = tmp_path / "short.txt"
        short.write_text("one line\n")
        refused = CliRunner().invoke(main, [*args, str(short)])
    assert checked.exit_code == 0, checked.output
    assert "checked: 6 outputs for the 6 en inputs" in checked.output
    assert PROFILES[kind["profile"]].metrics  # built here from the served definition
    assert refused.exit_code == EXIT_REFUSED and "not uploaded: short.txt" in refused.output
    assert "one output per line: line k answers entry k of the test XML" in refused.output


def test_a_built_in_track_serves_its_kind_by_name(app, settings):
    demo_track(settings)
    with serve_app(app) as url:
        kind = requests.get(f"{url}/api/v1/challenges/demo/tracks/main/kind").json()
        missing = requests.get(f"{url}/api/v1/challenges/demo/tracks/nope/kind")
    submit = kind.pop("submit")
    assert kind == {"challenge": "demo", "track": "main", "profile": "e2e", "built_in": True,
                    "definition": None, "title": "E2E NLG Challenge (MR to text)"}  # fmt: skip
    assert "`MR<TAB>output`" in submit["layout"] and submit["example"].startswith("MR\toutput\n")
    assert missing.status_code == 404


def test_an_empty_output_line_is_named_by_the_check_and_the_boards_answer(app, settings, tmp_path):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    lines = GOOD_OUTPUT.decode().splitlines()
    lines[2] = ""
    gappy = tmp_path / "gappy.txt"
    gappy.write_text("\n".join(lines) + "\n")
    with serve_app(app) as url:
        checked = run(url, token, gappy, "--check-only")
        with gappy.open("rb") as handle:
            answer = requests.post(
                f"{url}/api/v1/challenges/demo/tracks/main/submissions",
                headers={"Authorization": f"Bearer {token}"},
                data={"system": "gappy"},
                files={"file": ("gappy.txt", handle)},
                timeout=30,
            )
    assert checked.exit_code == 0, checked.output
    assert "warning: gappy.txt, line 3: output 3 is empty" in checked.output
    assert answer.status_code == 202
    (warning,) = answer.json()["warnings"]
    assert (
        warning.startswith("gappy.txt, line 3: output 3 is empty") and "[empty-output]" in warning
    )


def test_english_outputs_on_the_russian_track_are_warned_about(app, runner, settings, tmp_path):
    """The line count fits, so only the letters tell: the check says it (the upload, the
    upload page and nlg-score: tests/app/web/test_output_language.py)."""
    assert runner.invoke(args=["challenge", "import", str(DEMO_DATA / "webnlg-ru")]).exit_code == 0
    token = participant(settings, "a@x.org", team="A")
    english = tmp_path / "english.txt"
    english.write_bytes(
        (DEMO_DATA / "webnlg" / "team_output.txt").read_bytes().splitlines(True)[0] * 5
    )
    args = ["--url", "", "--token", token, "--challenge", "webnlg-plus-ru-example", "--track", "ru"]
    with serve_app(app) as url:
        args[1] = url
        checked = CliRunner().invoke(main, [*args, "--system", "t", "--check-only", str(english)])
        russian = CliRunner().invoke(
            main,
            [
                *args,
                "--system",
                "t",
                "--check-only",
                str(DEMO_DATA / "webnlg-ru" / "team_output.txt"),
            ],
        )
    assert checked.exit_code == 0, checked.output
    assert (
        "warning: english.txt, line 1: 0% of the letters are Cyrillic and 100% Latin"
        in checked.output
    )
    assert "[script-of-language]" in checked.output
    assert russian.exit_code == 0 and "warning" not in russian.output


def test_nlg_score_board_names_the_challenges_tracks_for_an_unknown_one(app, settings, tmp_path):
    from scorer.cli.score import main as nlg_score

    demo_track(settings)
    good = tmp_path / "outputs.txt"
    good.write_bytes(GOOD_OUTPUT)
    with serve_app(app) as url:
        result = CliRunner().invoke(
            nlg_score,
            ["--board", url, "--track", "demo/nope", "--refs", str(good), "--hyp", str(good)],
        )
    assert result.exit_code != 0
    assert "no track 'nope' in challenge 'demo'; its tracks: main" in result.output
