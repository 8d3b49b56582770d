"""The scorer's errors, in one module: what a person is told when something they gave is refused.

``Refused`` is what every refusal shares, here and on the board (its rules refuse requests with
a subclass of it): ``str()`` is written for the person, and nothing was stored. The board answers
it in one place per interface (a 400 page or JSON, an ``nlgboard`` exit status 1).
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """Something a person gave (a file, a kind's definition, a request) that breaks a rule;
    ``str()`` says what and where, for that person."""


class InputError(Refused, ValueError):
    """A file that cannot be used, with the place and the rule it broke.

    ``str(error)`` is written for the uploader: it names the file, the line (1-based) when there
    is one, what is wrong and what to do.
    """

    def __init__(self, message: str, *, filename: str | None = None, line: int | None = None):
        self.message = message
        self.filename = filename
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ", ".join(
            part
            for part in (self.filename, f"line {self.line}" if self.line is not None else None)
            if part
        )
        return f"{where}: {self.message}" if where else self.message


class SubsetsMissing(InputError):
    """A test set read whole whose items lack an attribute the kind's ``subsets`` name (a dev
    folder has no instance-types file): ``nlg-score`` scores ``items`` without those subsets
    and says so, under the kind's own signature; the board's import does too where the
    attribute comes from a file the set lacks (``Profile.attribute_files``) and refuses it as
    any ``InputError`` otherwise (a subset its kind names that no reader gives)."""

    def __init__(
        self, message: str, *, filename: str | None, items: list[Any], missing: tuple[str, ...]
    ):
        self.items = items
        self.missing = missing
        super().__init__(message, filename=filename)


class KindError(Refused, ValueError):
    """A kind's definition refused: ``str()`` names the key and says what is known there."""


class UnknownMetric(KeyError):
    """An id or an option the metric registry does not know; ``str()`` is the message (a
    kind's definition turns it into a ``KindError`` naming the key)."""

    def __str__(self) -> str:
        return str(self.args[0])


# What this installation lacks or cannot read: not the person's input, so not a refusal.


class MissingExtra(ImportError):
    """An optional package is not installed; the message says which extra brings it."""


class JavaMissing(RuntimeError):
    """The jars were asked for (``NLGBOARD_METEOR=jar``) and Java is not installed."""


class ClassFileError(ValueError):
    """The class file is not what the reader expects (a different jar, or a damaged one)."""


class ScanError(RuntimeError):
    """The scanner matched nothing (CoreNLP throws "could not match input")."""


class ParserUnavailable(RuntimeError):
    """The link grammar parser or its English dictionary is not installed."""


class ModelUnavailable(RuntimeError):
    """The embedding model is not installed, or its weights are not the upstream ones."""
