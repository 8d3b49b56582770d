"""``nlgboard``: run and administer the NLG shared-task board.

One module per command group, imported only when its command runs: ``nlgboard --help`` and
the commands that do not score never load the scorer, scipy or the human-evaluation code.
"""

from __future__ import annotations

import importlib
from typing import Any

import click
from flask import Flask
from flask.cli import FlaskGroup, routes_command, shell_command

COMMANDS: dict[str, tuple[str, str]] = {
    "baseline": ("app.entry.cli.baseline:baseline", "Baseline runs from files."),
    "baselines": ("app.entry.cli.baselines:baselines", "Train and run the bundled baselines."),
    "challenge": ("app.entry.cli.challenges:challenge", "Challenges."),
    "db": ("app.entry.cli.database:db", "Database schema."),
    "demo": ("app.entry.cli.operations:demo_command", "Seed the demo challenges."),
    "human": ("app.entry.cli.human:human", "Human evaluation campaigns."),
    "run": (
        "app.entry.cli.operations:run_command",
        "Serve the site (embedded worker without Redis).",
    ),
    "status": ("app.entry.cli.operations:status_command", "Readiness, queue and workers."),
    "track": ("app.entry.cli.tracks:track", "Tracks and their test sets."),
    "user": ("app.entry.cli.users:user", "Accounts."),
    "worker": ("app.entry.cli.operations:worker_command", "Run a scoring worker on REDIS_URL."),
}
"""Command name: (where it lives, its one-line help for ``--help``)."""


def load_command(name: str) -> click.Command:
    module, attribute = COMMANDS[name][0].split(":")
    command: click.Command = getattr(importlib.import_module(module), attribute)
    return command


class BoardGroup(FlaskGroup):
    """Flask's group, with our commands loaded on first use instead of with the app."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            return load_command(cmd_name)
        return click.Group.get_command(self, ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a refusal it did not answer itself (``scorer.errors.Refused``: a
        bad file, a kind, a board rule) is answered here for every command, as ``fail`` does:
        its message on stderr after "Error:", exit status 1, no traceback."""
        from scorer.errors import Refused

        try:
            return super().invoke(ctx)
        except Refused as error:
            raise click.ClickException(str(error)) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in sorted(COMMANDS)]
        rows += [(name, command.get_short_help_str()) for name, command in self.commands.items()]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


PAGES_COMMANDS = {"run", "routes", "shell"}
"""The commands that need the site's pages; the others get an app without them (fast start)."""


def _create_app(*_args: Any) -> Flask:
    from app.data.config import Settings
    from app.entry.root import submission_queue
    from app.web import create_app

    command = click.get_current_context().find_root().invoked_subcommand
    settings = Settings.from_env()
    return create_app(settings, queue=submission_queue(settings), pages=command in PAGES_COMMANDS)


cli = BoardGroup(
    create_app=_create_app,
    add_default_commands=False,
    help="Run and administer the NLG shared-task board.",
)
cli.add_command(shell_command)
cli.add_command(routes_command)


def main() -> None:
    cli.main(prog_name="nlgboard")
