"""What every command module shares: the app's settings and one way to fail."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, NoReturn

import click
from flask import Flask, current_app

from app.data.config import Settings
from app.data.queue import SubmissionQueue


def board_settings() -> Settings:
    settings: Settings = current_app.extensions["nlgboard.settings"]
    return settings


def fail(error: Exception) -> NoReturn:
    """A command's error as the CLI answers every refusal (``BoardGroup.invoke``): the message
    on stderr after "Error:", exit status 1."""
    raise click.ClickException(str(error))


def score_if_embedded(queue: SubmissionQueue, settings: Settings, ids: list[int]) -> list[str]:
    """On the embedded default nobody else will score them: do it here; else say queued."""
    from app.entry.root import is_embedded, score_now

    return score_now(settings, ids) if is_embedded(queue) else ["queued"] * len(ids)


def analyse_if_embedded(queue: SubmissionQueue, settings: Settings, ids: list[int]) -> list[str]:
    """Human evaluations' analyses (campaign ids), the same way: here on the embedded
    default, else queued for the workers."""
    from app.entry.root import analyse_now, is_embedded

    return analyse_now(settings, ids) if is_embedded(queue) else ["queued"] * len(ids)


def this_app() -> Flask:
    """The app itself, not its context-local proxy (to serve it, or hand it to the seeding)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app


class Deadline(click.ParamType):
    """A moment in UTC as organisers write it: ``2017-10-31T23:59``, with seconds, with a
    space for the ``T``, or with a time zone (``Z``, ``+02:00``: converted to UTC). A date
    alone is refused: it would not say whether the day's start or its end is meant."""

    name = "deadline"
    FORMAT = re.compile(
        r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?"
    )

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> datetime:
        if isinstance(value, datetime):
            return value
        text = str(value).strip()
        try:
            if not self.FORMAT.fullmatch(text):
                raise ValueError
            moment = datetime.fromisoformat(text)
        except ValueError:
            self.fail(
                f"{value!r} is not a date and time such as 2017-10-31T23:59 (UTC; seconds, a "
                "space instead of T and a zone such as +02:00 or Z are allowed)",
                param,
                ctx,
            )
        from app.web.errors import DomainError
        from app.web.services.tracks import DEADLINE_YEARS, check_deadline

        try:
            moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
            return check_deadline(moment) or moment
        except (OverflowError, DomainError):
            self.fail(
                f"{value!r} is out of range: give a deadline between {DEADLINE_YEARS[0]} and "
                f"{DEADLINE_YEARS[1]} (UTC)",
                param,
                ctx,
            )
