"""Which of a track's languages a file name names: the server (uploads, zip entries) and
``nlgboard-submit`` (its check before uploading) decide it with this one function."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

_PARTS = re.compile(r"[_.\-\s]+")


def language_from_filename(filename: str, languages: Iterable[str]) -> str | None:
    """The one track language that is a part of the file's name, split at ``_ . -`` and
    spaces: ``en_out.txt``, ``T1_fr_out.txt``, ``linearise_en_out.txt``, ``out.fr.txt``.
    None when no part, or more than one language, is a language of the track."""
    wanted = {language.lower() for language in languages}
    base = PurePosixPath(filename.replace("\\", "/")).name.lower()
    found = {part for part in _PARTS.split(base) if part in wanted}
    return found.pop() if len(found) == 1 else None
