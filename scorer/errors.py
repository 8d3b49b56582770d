"""Errors a person sees when an input or output file is refused."""

from __future__ import annotations


class InputError(ValueError):
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
