"""Decoding of uploaded text files: the part every format shares."""

from __future__ import annotations

from scorer.errors import InputError

UTF8_BOM = "\ufeff"


def decode_text(data: bytes, filename: str = "upload") -> str:
    """Decode UTF-8 bytes into text with ``\\n`` line ends.

    Real submissions arrive with a BOM, CRLF, old-Mac CR or the ``\\r\\r\\n`` that a CRLF file
    gets from a second CRLF conversion; all of them are accepted. NUL bytes and other encodings
    are refused, naming the line, because guessing an encoding silently changes scores.
    """
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        hint = " (the file looks like UTF-16: save it as UTF-8)" if _looks_utf16(data) else ""
        raise InputError(
            f"contains a NUL byte{hint}; upload a plain-text UTF-8 file",
            filename=filename,
            line=line,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            f"is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start}); "
            "save the file as UTF-8",
            filename=filename,
            line=line,
        ) from None
    text = text.removeprefix(UTF8_BOM)
    return text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")


def split_lines(text: str) -> list[str]:
    """Split normalised text into lines; one final line end is a terminator, not an empty line."""
    if text == "":
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _looks_utf16(data: bytes) -> bool:
    return data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[1:2] == b"\x00"
