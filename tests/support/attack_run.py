"""The whole attack on a built world: every role through every route, then the sandbox."""

from __future__ import annotations

from tests.support.attack import Report, make_attackers, routes
from tests.support.attack_holdings import read_holdings
from tests.support.attack_sandbox import attack_sandbox
from tests.support.attack_world import ROLES, AttackWorld, Board


def attack_all(
    board: Board, world: AttackWorld, database_url: str, secret_key: str, instance: str
) -> Report:
    """Every role in turn through every route of the url_map, then the forms and uploads that
    change things (on the sandbox challenge, and a newcomer's registration and team)."""
    report = Report()
    holdings = read_holdings(database_url, secret_key, instance)
    attackers = make_attackers(board, world, holdings, ROLES, report)
    all_routes = routes(board)
    for attacker in attackers.values():
        attacker.run(all_routes)
    attack_sandbox(attackers, board.browser())
    return report
