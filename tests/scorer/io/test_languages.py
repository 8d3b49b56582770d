"""The language a file name names, as the server and nlgboard-submit both read it."""

import pytest

from scorer.io.languages import language_from_filename

LANGUAGES = ["en", "fr", "es", "it"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("en_out.txt", "en"),
        ("T1_fr_out.txt", "fr"),
        ("linearise_en_out.txt", "en"),
        ("system.es.txt", "es"),
        ("out/dir/it-run2.conllu", "it"),
        ("FR_OUT.TXT", "fr"),
        ("outputs.txt", None),
        ("en_fr_out.txt", None),
        ("english_out.txt", None),
        ("de_out.txt", None),
    ],
)
def test_language_from_filename(name, expected):
    assert language_from_filename(name, LANGUAGES) == expected
