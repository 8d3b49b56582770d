"""A set of data files read as one: a folder as the releases publish it, or a zip of one.

The WebNLG releases split a set into one XML file per triple-set size and category
(``2017/dev/1triples/1triple_allSolutions_Airport_dev_challenge.xml`` ... ``7triples/...``:
52 files each for the 2017 train and dev sets). A reader that takes such a set takes a zip of
its files; a folder is read as that zip (``folder_as_zip``), so ``nlg-score --refs DIR``, the
board's ``--train DIR``, a bundle's folder and an uploaded zip all take one path.

The files are read in the release's order (``release_order``): the size folders in number
order, the files of each by name, as the WebNLG corpus reader's ``select_files`` lists them
(``1triples`` ... ``7triples``, ``sorted(listdir(...))``); the entries of each file in its own
natural ``eid`` order. Entry ids repeat from file to file (each starts at ``Id1``): an output
file for a folder has line k for the k-th entry in that order.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

from scorer.errors import InputError
from scorer.io.archive import is_zip, read_zip
from scorer.io.items import natural_key

FOLDER_MAX_BYTES = 512 * 2**20
"""Largest a file set may inflate to (the WebNLG 2017 train folder: 7.7 MB; 2020's: ~30 MB)."""
FOLDER_MAX_FILES = 2_000
"""Most files a set may hold (WebNLG 2017: 52 per folder; WebNLG+ 2020 English train: 103)."""


def release_order(names: Iterable[str]) -> list[str]:
    """Relative paths in the release's order: each path part in natural order (``2triples``
    before ``10triples``), so size folders by number, then the files of each by name."""
    return sorted(names, key=lambda name: [natural_key(part) for part in name.split("/")])


SIDE_SUFFIX = ".json"
"""A side file a folder's data files are read with (WebNLG+ 2020's test folder: the entries'
instance types, ``rdf-to-text-generation-test-instance-types.json``): kept in the folder's zip,
looked up by name by the reader option that names it (``side_file``), never read as data."""


def wanted(path: str, suffix: str) -> bool:
    """A release file a reader reads: its name ends in ``suffix`` (any case), and neither it
    nor a folder it is in is hidden (``.DS_Store``, ``.git/``)."""
    parts = PurePosixPath(path).parts
    return path.lower().endswith(suffix.lower()) and not any(p.startswith(".") for p in parts)


def folder_files(folder: Path, suffix: str) -> dict[str, bytes]:
    """Every file under ``folder`` whose name ends in ``suffix`` (any case; hidden files and
    folders skipped), by its path relative to ``folder``, in the release's order."""
    found = {
        file.relative_to(folder).as_posix(): file
        for file in folder.rglob("*")
        if file.is_file() and wanted(file.relative_to(folder).as_posix(), suffix)
    }
    sides = {
        file.relative_to(folder).as_posix(): file
        for file in folder.rglob(f"*{SIDE_SUFFIX}")
        if file.is_file() and wanted(file.relative_to(folder).as_posix(), SIDE_SUFFIX)
    }
    if not found:
        raise InputError(
            f"is a folder with no {suffix} file in it (nor in its subfolders)",
            filename=f"{folder.name}/",
        )
    if len(found) > FOLDER_MAX_FILES:
        raise InputError(
            f"is a folder of {len(found):,} {suffix} files; at most {FOLDER_MAX_FILES:,} are read",
            filename=f"{folder.name}/",
        )
    found |= sides
    return {name: found[name].read_bytes() for name in release_order(found)}


def as_zip(files: Mapping[str, bytes]) -> bytes:
    """``files`` (path -> content) as one uncompressed zip, in the order given; the same files
    give the same bytes (no dates: what is stored or hashed of a folder is its content)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def folder_as_zip(folder: Path, suffix: str) -> tuple[bytes, str]:
    """A folder's ``suffix`` files as one zip and the name to report it by (``dev/``)."""
    return as_zip(folder_files(folder, suffix)), f"{folder.name}/"


def member_files(data: bytes, filename: str, suffix: str) -> list[tuple[str, bytes]]:
    """The files a reader reads from ``data``: the file itself, or, for a zip (a folder),
    each of its ``suffix`` files in the release's order, named ``zip name/path inside``."""
    if not is_zip(data):
        return [(filename, data)]
    files = read_zip(
        data, filename, FOLDER_MAX_BYTES, keep_folders=True, max_entries=FOLDER_MAX_FILES
    )
    chosen = [name for name in files if wanted(name, suffix)]
    if not chosen:
        raise InputError(f"holds no {suffix} file", filename=filename)
    prefix = filename if filename.endswith("/") else f"{filename}: "
    return [(f"{prefix}{name}", files[name]) for name in release_order(chosen)]


def has_side_file(data: bytes, filename: str, name: str) -> bool:
    """Whether a zip or folder of data files holds a file called ``name`` (at any depth): a
    side file a reader option names is read where the set has it (WebNLG+ 2020's instance
    types: the test folder has them, the dev folder not)."""
    if not is_zip(data):
        return False
    files = read_zip(
        data, filename, FOLDER_MAX_BYTES, keep_folders=True, max_entries=FOLDER_MAX_FILES
    )
    return any(PurePosixPath(path).name == name for path in files)


def side_file(data: bytes, filename: str, name: str) -> bytes:
    """The file called ``name`` (at any depth) in a zip or folder of data files: a side file a
    reader option names. Refused when ``data`` is one file, or holds no or two such files."""
    if not is_zip(data):
        raise InputError(
            f"is one file, but the kind reads {name} beside it: give the test set as a folder "
            f"(or a zip) holding the data file and {name}",
            filename=filename,
        )
    files = read_zip(
        data, filename, FOLDER_MAX_BYTES, keep_folders=True, max_entries=FOLDER_MAX_FILES
    )
    found = [path for path in files if PurePosixPath(path).name == name]
    if len(found) != 1:
        held = ", ".join(release_order(files)[:5]) or "nothing"
        raise InputError(
            f"holds {len(found) or 'no'} file{'s' * (len(found) > 1)} named {name} (the kind's "
            f"reader reads it beside the data; the folder holds: {held})",
            filename=filename,
        )
    return files[found[0]]
