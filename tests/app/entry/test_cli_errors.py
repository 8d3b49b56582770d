"""How ``nlgboard`` answers a refusal: one class of refusal per case, its message on stderr
after "Error:" and exit status 1, from the one place that maps them (``BoardGroup.invoke``);
and the refusals a real command meets on its way there."""

from __future__ import annotations

import click
import pytest

from app.data.errors import MailError
from app.entry.cli import cli
from app.web.errors import BundleError, DomainError, TooManyRequests
from scorer.errors import InputError, KindError

REFUSALS = {
    "input": InputError("expected 10 outputs", filename="out.txt", line=3),
    "kind": KindError("kinds[0].metrics: unknown 'XYZ'"),
    "domain": DomainError("the deadline has passed"),
    "bundle": BundleError("challenge.yaml: no tracks"),
    "mail": MailError("e-mail address 'a@b' is not one plain address"),
    "too-many": TooManyRequests("this address has used its hour of requests"),
}


@pytest.fixture
def refusing(runner, monkeypatch):
    """The board's CLI with one command that raises the refusal it is given by name (a
    command that does not catch it itself)."""

    @click.command("refuse")
    @click.argument("name")
    def refuse(name: str) -> None:
        raise REFUSALS[name]

    monkeypatch.setitem(cli.commands, "refuse", refuse)
    return runner


@pytest.mark.parametrize("name", REFUSALS)
def test_a_refusal_exits_1_with_its_message_on_stderr(refusing, name):
    result = refusing.invoke(args=["refuse", name])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {REFUSALS[name]}\n" and result.stdout == ""


def test_a_bug_is_not_answered_as_a_refusal(runner, monkeypatch):
    @click.command("broken")
    def broken() -> None:
        raise ValueError("internal detail")

    monkeypatch.setitem(cli.commands, "broken", broken)
    result = runner.invoke(args=["broken"])
    assert result.exit_code == 1 and isinstance(result.exception, ValueError)
    assert "Error:" not in result.stderr


def test_a_command_that_no_longer_catches_a_refusal_still_answers_it(runner):
    """``track public-part`` leaves an unknown track to the group's answer."""
    args = ["track", "public-part", "nope", "main", "--language", "en", "--share", "0.3"]
    result = runner.invoke(args=args)
    assert result.exit_code == 1
    assert result.stderr == "Error: no track 'main' in challenge 'nope'\n"
