"""Reading uploaded zip archives safely: one output file per language, nothing else trusted.

Refused, with the entry named: paths that are absolute or climb out of the archive (``..``),
symbolic links, encrypted entries, more entries than a submission can need, entries or totals
whose *uncompressed* size exceeds the limit (zip bombs), and names that appear twice. Entries are
read with a hard cap, so a lying size header cannot make us inflate more than the limit.
"""

from __future__ import annotations

import io
import lzma
import stat
import zipfile
import zlib
from pathlib import PurePosixPath

from scorer.errors import InputError

ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
"""An archive with no entry at all is only its end-of-archive record."""
MAX_ENTRIES = 64


def is_zip(data: bytes) -> bool:
    return data.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC))


def read_zip(
    data: bytes,
    filename: str,
    max_total_bytes: int,
    keep_folders: bool = False,
    max_entries: int = MAX_ENTRIES,
) -> dict[str, bytes]:
    """Return ``{entry name: content}`` for the archive's regular files (folders skipped): by
    file name (an upload of one file per language), or with ``keep_folders`` by path inside
    the archive (a challenge bundle)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise InputError(f"is not a readable zip archive ({error})", filename=filename) from None
    files: dict[str, bytes] = {}
    total = 0
    with archive:
        infos = archive.infolist()
        if len(infos) > max_entries:
            raise InputError(
                f"has {len(infos)} entries; at most {max_entries} are accepted", filename=filename
            )
        for info in infos:
            where = f"{filename}: entry {info.filename!r}"
            _check_entry(info, where)
            if info.is_dir():
                continue
            if info.file_size > max_total_bytes - total:
                raise InputError(
                    f"{where} unpacks to {info.file_size:,} bytes; the whole upload may unpack "
                    f"to at most {max_total_bytes:,} bytes"
                )
            try:
                with archive.open(info) as handle:
                    content = handle.read(max_total_bytes - total + 1)
            except (
                zipfile.BadZipFile,
                RuntimeError,
                NotImplementedError,
                EOFError,
                zlib.error,
                lzma.LZMAError,
                OSError,
                ValueError,
            ) as error:
                raise InputError(
                    f"{where} cannot be read: its compressed data is corrupt ({error})"
                ) from None
            if content.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC)):
                raise InputError(
                    f"{where} is itself a zip archive; put the output files directly in one archive"
                )
            total += len(content)
            if total > max_total_bytes:
                raise InputError(
                    f"{where}: the archive unpacks to more than {max_total_bytes:,} bytes"
                )
            path = PurePosixPath(info.filename.replace("\\", "/"))
            name = str(path) if keep_folders else path.name
            if name in files:
                raise InputError(f"{where}: two entries are called {name!r}")
            files[name] = content
    if not files:
        raise InputError("the zip archive contains no file", filename=filename)
    return files


def _check_entry(info: zipfile.ZipInfo, where: str) -> None:
    path = PurePosixPath(info.filename.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise InputError(f"{where} points outside the archive; use plain file names")
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise InputError(f"{where} is a symbolic link; links are not accepted")
    if info.flag_bits & 0x1:
        raise InputError(f"{where} is encrypted; upload an unencrypted archive")
