import pytest

from scorer.errors import InputError
from scorer.io.text import decode_text, split_lines


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"a\nb\n", ["a", "b"]),
        (b"a\r\nb\r\n", ["a", "b"]),
        (b"a\rb\r", ["a", "b"]),
        (b"a\r\r\nb\r\r\n", ["a", "b"]),
        (b"\xef\xbb\xbfa\nb", ["a", "b"]),
        (b"a\n\nb\n", ["a", "", "b"]),
        (b"", []),
        ("£ é\n".encode(), ["£ é"]),
    ],
)
def test_line_endings_bom_and_final_newline(raw, expected):
    assert split_lines(decode_text(raw)) == expected


def test_nul_byte_is_refused_with_its_line():
    with pytest.raises(InputError) as error:
        decode_text(b"ok\nbad\x00line\n", "out.txt")
    assert error.value.line == 2
    assert "out.txt, line 2: contains a NUL byte" in str(error.value)


def test_utf16_is_named():
    with pytest.raises(InputError, match="UTF-16"):
        decode_text("hello\n".encode("utf-16"), "out.txt")


def test_latin1_is_refused_with_line_and_offset():
    with pytest.raises(InputError) as error:
        decode_text("first\ncaf\xe9\n".encode("latin-1"), "out.txt")
    assert error.value.line == 2
    assert "not valid UTF-8 (byte 0xe9 at offset 9)" in str(error.value)
