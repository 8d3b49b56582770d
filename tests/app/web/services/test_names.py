"""Team and system names hold printable text only, at every gate (issue 34: NUL, control and
bidirectional-text characters reached HTML, CSV, LaTeX and logs), and names stored before
that rule do not break the exports."""

from __future__ import annotations

import io

import pytest
from sqlalchemy import func, select, update

from app.data.db import session_scope
from app.data.models import System, Team
from tests.support.board import API, TRACK, upload
from tests.support.factories import GOOD_OUTPUT, demo_track, login, organiser, participant
from tests.support.paths import DEMO_DATA

BAD_NAMES = {
    "nul": ("Lab\x00", "U+0000"),
    "bell": ("Lab\x07one", "U+0007"),
    "line break": ("Lab\none", "U+000A"),
    "next line (C1)": ("Lab\x85one", "U+0085"),
    "right-to-left override": ("Lab\u202eeno", "U+202E"),
    "right-to-left isolate": ("Lab\u2067eno\u2069", "U+2067"),
    "right-to-left mark": ("Lab\u200f", "U+200F"),
}
CASES = pytest.mark.parametrize(("name", "code"), BAD_NAMES.values(), ids=list(BAD_NAMES))


def counted(settings, model) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(func.count(model.id)))


@CASES
def test_team_names_are_refused_on_the_web_and_in_the_cli(client, runner, settings, name, code):
    participant(settings, "a@x.org")
    login(client, "a@x.org")
    page = client.post("/team/create", data={"create-name": name}, follow_redirects=True)
    said = page.get_data(as_text=True)
    assert f"text-direction characters: {code}" in said or f"NUL character ({code})" in said
    result = runner.invoke(args=["user", "create", "b@x.org", "--team", name])
    assert result.exit_code == 1 and code in result.output
    assert counted(settings, Team) == 0


@CASES
def test_system_names_are_refused_through_the_api_and_the_form(client, settings, name, code):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    answer = upload(client, token, name)
    assert answer.status_code == 400 and code in answer.json["error"]
    login(client, "a@x.org")
    page = client.post(
        f"{TRACK}/submit",
        data={"system": name, "file": (io.BytesIO(GOOD_OUTPUT), "out.txt")},
        content_type="multipart/form-data",
    )
    assert page.status_code == 200 and code in page.get_data(as_text=True)
    assert counted(settings, System) == 0


@CASES
def test_baseline_names_are_refused_on_the_page_and_in_the_cli(
    client, runner, settings, name, code
):
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    login(client, "org@x.org")
    page = client.post(
        "/organise/demo/tracks/main/baselines",
        data={"baseline-name": name, "baseline-file": (io.BytesIO(GOOD_OUTPUT), "tgen.txt")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert code in page.get_data(as_text=True)
    output = str(DEMO_DATA / "baseline.txt")
    result = runner.invoke(args=["baseline", "add", "demo", "main", output, "--name", name])
    assert result.exit_code == 1 and code in result.output
    assert counted(settings, System) == 0


def test_names_stored_before_the_rule_do_not_break_the_exports(app, client, settings):
    from tests.support.factories import run_queue

    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "marlin").status_code == 202
    run_queue(app)
    with session_scope(settings.database_url) as session:  # bypassing the ORM's check
        session.execute(update(System).values(name="mar\x00lin\n\u202eevil"))
        session.execute(update(Team).values(name="A\x00\u2066"))
    latex = client.get(f"{TRACK}/export.tex")
    assert latex.status_code == 200
    row = next(line for line in latex.get_data(as_text=True).splitlines() if "marlin" in line)
    assert "marlinevil" in row and not any(c in row for c in "\x00\u202e")
    for fmt in ("csv", "json"):
        assert client.get(f"{TRACK}/export.{fmt}").status_code == 200
    assert client.get(f"{API}/leaderboard").status_code == 200
