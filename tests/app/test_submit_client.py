"""``nlgboard-submit`` against the app served over real HTTP: offline check, upload, wait,
scores printed; refusals said in one line with exit status 2."""

from __future__ import annotations

from click.testing import CliRunner

from scorer.submit import EXIT_REFUSED, main
from tests.support.factories import GOOD_OUTPUT, demo_track, participant
from tests.support.servers import serve_app


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
    assert [line.split()[0] for line in result.output.splitlines() if line.startswith("  BLEU ")]


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
        checked = run(url, "not-needed-offline", good, "--check-only")
    assert checked.exit_code == 0 and "checked: 10 outputs" in checked.output
    from app.db import session_scope
    from app.models import Submission

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
        assert "no track 'nope' in challenge 'demo'" in result.output
        bad_token = run(url, "bad", good)
    assert bad_token.exit_code == EXIT_REFUSED and "send a valid API token" in bad_token.output
