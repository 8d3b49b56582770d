"""Reading the constant strings of a compiled Java class inside a jar, without Java.

The PTB tokeniser's state machine lives in CoreNLP's ``PTBLexer.class`` as packed strings
(``static final String ZZ_TRANS_PACKED_0 = ...``): reading them from the jar the user already has
gives the Python tokeniser the jar's exact tables without shipping a copy of them.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

from scorer.errors import ClassFileError

_SIZES = {
    3: 4,
    4: 4,
    7: 2,
    8: 2,
    9: 4,
    10: 4,
    11: 4,
    12: 4,
    15: 3,
    16: 2,
    17: 4,
    18: 4,
    19: 2,
    20: 2,
}
"""Bytes of each constant-pool entry kind after its tag (Utf8, Long and Double are handled apart)."""


def decode_modified_utf8(data: bytes) -> list[int]:
    """Java's "modified UTF-8" as UTF-16 code units (NUL is two bytes, surrogates stay apart)."""
    units: list[int] = []
    i, end = 0, len(data)
    while i < end:
        byte = data[i]
        if byte < 0x80:
            units.append(byte)
            i += 1
        elif byte & 0xE0 == 0xC0:
            units.append(((byte & 0x1F) << 6) | (data[i + 1] & 0x3F))
            i += 2
        elif byte & 0xF0 == 0xE0:
            units.append(((byte & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6) | (data[i + 2] & 0x3F))
            i += 3
        else:
            raise ClassFileError(f"byte {byte:#x} at {i} is not modified UTF-8")
    return units


def string_constants(jar: Path, class_name: str) -> dict[str, list[int]]:
    """Every ``static final String`` field of ``class_name`` with a constant value, as code units.

    ``class_name`` is the path in the jar, e.g. ``edu/stanford/nlp/process/PTBLexer.class``.
    """
    with zipfile.ZipFile(jar) as archive:
        try:
            data = archive.read(class_name)
        except KeyError:
            raise ClassFileError(f"{jar} has no {class_name}") from None
    return _field_strings(data)


def _field_strings(data: bytes) -> dict[str, list[int]]:
    if data[:4] != b"\xca\xfe\xba\xbe":
        raise ClassFileError("not a Java class file")
    (count,) = struct.unpack_from(">H", data, 8)
    utf8: dict[int, bytes] = {}
    strings: dict[int, int] = {}
    pos, index = 10, 1
    while index < count:
        tag = data[pos]
        pos += 1
        if tag == 1:
            (length,) = struct.unpack_from(">H", data, pos)
            utf8[index] = data[pos + 2 : pos + 2 + length]
            pos += 2 + length
        elif tag in (5, 6):
            pos += 8
            index += 1
        elif tag == 8:
            (strings[index],) = struct.unpack_from(">H", data, pos)
            pos += 2
        elif tag in _SIZES:
            pos += _SIZES[tag]
        else:
            raise ClassFileError(f"unknown constant-pool tag {tag} at byte {pos - 1}")
        index += 1
    pos += 6  # access flags, this class, super class
    (interfaces,) = struct.unpack_from(">H", data, pos)
    pos += 2 + 2 * interfaces
    (fields,) = struct.unpack_from(">H", data, pos)
    pos += 2
    found: dict[str, list[int]] = {}
    for _ in range(fields):
        _, name, _, attributes = struct.unpack_from(">HHHH", data, pos)
        pos += 8
        for _ in range(attributes):
            attribute, length = struct.unpack_from(">HI", data, pos)
            if utf8.get(attribute) == b"ConstantValue":
                (value,) = struct.unpack_from(">H", data, pos + 6)
                if value in strings:
                    found[utf8[name].decode()] = decode_modified_utf8(utf8[strings[value]])
            pos += 6 + length
    return found
