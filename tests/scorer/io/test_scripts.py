"""The language check: a file's letters against the script of the kind's language."""

from __future__ import annotations

from scorer.io.scripts import language_warning, script_of
from scorer.kinds import build_profile, read_kinds
from tests.support.paths import DEMO_DATA

ENGLISH = [
    "Tarn Valley Airport serves Tarnford, Lowmark.",
    "Plum dumpling is from the Lowmark region.",
    "Old Mill House is in Tarnford and has 4 floors.",
]
RUSSIAN = [
    "Аэропорт Тарн-Вэлли обслуживает Тарнфорд, Лоумарк.",
    "Сливовые клёцки из региона Лоумарк (Lowmark).",
    "Дом Old Mill находится в Тарнфорде.",
]


def test_letters_have_scripts_and_the_rest_none():
    assert [script_of(c) for c in "aЖ1 ,é"] == ["Latin", "Cyrillic", None, None, None, "Latin"]


def test_english_on_a_russian_track_names_the_share_and_the_script():
    warning = language_warning(ENGLISH, "ru", "out.txt", [1, 2, 3])
    assert warning is not None and warning.line == 1
    assert str(warning).startswith("out.txt, line 1: 0% of the letters are Cyrillic and 100% Latin")
    assert "outputs in 'ru' are written in Cyrillic letters" in str(warning)
    assert "[script-of-language]" in str(warning)


def test_russian_on_an_english_track_is_warned_about():
    warning = language_warning(RUSSIAN, "en", "out.txt")
    assert warning is not None and "are Latin and" in str(warning) and "Cyrillic" in str(warning)


def test_the_right_script_with_some_names_in_another_passes():
    assert language_warning(RUSSIAN, "ru", "out.txt") is None
    assert language_warning(ENGLISH, "en", "out.txt") is None


def test_no_language_or_too_few_letters_say_nothing():
    assert language_warning(ENGLISH, None, "out.txt") is None
    assert language_warning(ENGLISH, "sr", "out.txt") is None  # written in two scripts
    assert language_warning(["ok"], "ru", "out.txt") is None


def test_a_kind_knows_its_language_from_its_parts():
    for bundle, language in (("webnlg", "en"), ("webnlg-ru", "ru")):
        kinds = read_kinds((DEMO_DATA / bundle / "challenge.yaml").read_bytes(), "challenge.yaml")
        ((definition),) = kinds.values()
        assert build_profile(dict(definition)).language == language


def test_the_profile_warns_on_another_languages_file():
    kinds = read_kinds((DEMO_DATA / "webnlg-ru" / "challenge.yaml").read_bytes(), "c.yaml")
    profile = build_profile(dict(next(iter(kinds.values()))))
    data = ("\n".join(ENGLISH) + "\n").encode()
    outputs = profile.read_outputs(data, ["i1", "i2", "i3"], "out.txt")
    (warning,) = profile.output_warnings(data, outputs, "out.txt")
    assert warning.rule == "script-of-language" and warning.line == 1
