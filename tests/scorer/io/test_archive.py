"""Uploaded zips (runs of one file per language, bundles): entries by base name, and every unsafe
or broken archive refused naming it."""

import io
import stat
import zipfile

import pytest

from scorer.errors import InputError
from scorer.io.archive import MAX_ENTRIES, read_zip


def make_zip(entries: dict[str, bytes], *, link: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
        if link:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def test_zip_entries_by_base_name_folders_skipped():
    data = make_zip({"out/en_out.txt": b"a\n", "out/fr_out.txt": b"b\n"})
    assert read_zip(data, "run.zip", 1000) == {"en_out.txt": b"a\n", "fr_out.txt": b"b\n"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (make_zip({"../en_out.txt": b"a"}), "points outside the archive"),
        (make_zip({"/tmp/en_out.txt": b"a"}), "points outside the archive"),
        (make_zip({"C:/en_out.txt": b"a"}), "points outside the archive"),
        (make_zip({"en_out.txt": b"a"}, link="fr_out.txt"), "is a symbolic link"),
        (make_zip({"en_out.txt": b"a" * 5000}), "unpacks to 5,000 bytes"),
        (make_zip({"en.txt": b"a" * 600, "fr.txt": b"a" * 600}), "unpacks to 600 bytes"),
        (make_zip({"a/en.txt": b"a", "b/en.txt": b"b"}), "two entries are called 'en.txt'"),
        (make_zip({f"{i}.txt": b"" for i in range(MAX_ENTRIES + 1)}), "at most 64"),
        (make_zip({"folder/": b""}), "contains no file"),
        (b"PK\x03\x04 truncated", "is not a readable zip archive"),
    ],
)
def test_unsafe_or_broken_zips_are_refused(data, message):
    with pytest.raises(InputError, match=message) as error:
        read_zip(data, "run.zip", 1000)
    assert "run.zip" in str(error.value)


def test_a_lying_size_header_cannot_inflate_past_the_limit():
    data = bytearray(make_zip({"en.txt": b"a" * 5000}))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")  # claimed uncompressed size
    with pytest.raises(InputError) as error:
        read_zip(bytes(data), "run.zip", 1000)
    assert "run.zip" in str(error.value)
