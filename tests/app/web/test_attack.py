"""The held-back attack, on a board of its own: the world of ``tests/support/attack_world.py``
(accounts, phases, anonymised, withdrawn and failed runs, human evaluations) built through the
CLI and the web forms, then every route of the url_map as every role with valid and hostile
parameters, and the sandbox's forms and uploads (``tests/support/attack.py`` and its
neighbours). ``python benchmarks/attack.py`` runs the same against a live server.

It must find no HTTP 500 and no unauthorised read. The whole attack (some 90,000 requests)
is slow; the quick one takes one team, one organiser and the public through the routes with
valid parameters and a sample of hostile ones.
"""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from app.entry.demo import seed_demo
from tests.conftest import make_app
from tests.support import attack
from tests.support.attack_holdings import Holdings, read_holdings
from tests.support.attack_run import attack_all
from tests.support.attack_world import Board, ClientHttp, build
from tests.support.factories import mailed_link, run_queue

QUICK_HOSTILE = [str(2**31), "²", "a\x00b", "' OR '1'='1", "../../../../etc/passwd"]
"""What each kind of error found so far needed (the whole attack sends 33 hostile values)."""


@pytest.fixture
def board(settings):
    app = make_app(settings, PUBLIC_CACHE_SECONDS=0, PROPAGATE_EXCEPTIONS=False)
    runner = app.test_cli_runner()

    def cli(*args: str) -> str:
        result = runner.invoke(args=list(args))
        assert result.exit_code == 0, (args, result.output)
        return result.output.strip()

    def sql(statement: str) -> None:
        engine = create_engine(settings.database_url)
        with engine.begin() as connection:
            connection.execute(text(statement))
        engine.dispose()

    seed_demo(app)
    run_queue(app)
    found = Board(
        cli=cli,
        browser=lambda: ClientHttp(app.test_client()),
        sql=sql,
        mailed_link=lambda email: mailed_link(settings, email),
    )
    world = build(found, lambda: run_queue(app))
    return app, found, world


def _holdings(settings) -> Holdings:
    return read_holdings(settings.database_url, "test", str(settings.instance_path))


@pytest.mark.slow  # ~17 s: make test runs it, make check (the inner loop) leaves it
def test_the_public_and_two_teams_read_nothing_hidden(board, settings, monkeypatch):
    monkeypatch.setattr(attack, "HOSTILE", QUICK_HOSTILE)
    _app, found, world = board
    report = attack.Report()
    roles = ("anonymous", "team_c", "team_d")
    attackers = attack.make_attackers(found, world, _holdings(settings), roles, report)
    all_routes = attack.routes(found)
    for attacker in attackers.values():
        attacker.thorough = False
        attacker.run(all_routes)
    assert min(report.requests[role] for role in roles) > 500
    assert report.findings == [], report.summary()


@pytest.mark.slow
@pytest.mark.exhaustive  # ~5 min; python benchmarks/attack.py runs it against a live server
def test_the_whole_attack_finds_no_500_and_no_unauthorised_read(board, settings):
    _app, found, world = board
    report = attack_all(found, world, settings.database_url, "test", str(settings.instance_path))
    assert sum(report.requests.values()) > 50_000
    assert report.findings == [], report.summary()
