"""Every metric option has declared bounds (issue 42): a kind with an option out of its range
or of the wrong type is refused naming the key and the range, before anything is scored in
the worker every challenge shares (chrF++ char_order 30000 took 9.6 s and 432 MB on 40 items)."""

from __future__ import annotations

import inspect

import pytest

from scorer.errors import KindError
from scorer.kinds import build_profile
from scorer.metrics import _FACTORIES, known_metrics, metric_bounds


def _kind(metric: str, **options) -> dict:
    return {
        "name": "bounded",
        "reader": "lines",
        "metrics": [{"metric": metric, "options": options}],
    }


@pytest.mark.parametrize(
    ("metric", "options", "message"),
    [
        ("chrF++", {"char_order": 30000}, "options.char_order: expected an integer from 1 to 10"),
        ("chrF++", {"word_order": -1}, "options.word_order: expected an integer from 0 to 10"),
        ("chrF++", {"beta": 1e9}, "options.beta: expected a number from 0 to 10"),
        ("chrF++", {"char_order": "6"}, "options.char_order: expected an integer from 1 to 10"),
        (
            "BLEU-multibleu",
            {"references": 200000},
            "options.references: expected an integer from 1 to 100",
        ),
        ("BLEU-multibleu", {"lowercase": "yes"}, "options.lowercase: expected true or false"),
        ("TER-pyter", {"references": 0}, "options.references: expected an integer from 1 to 100"),
        ("BLEURT", {"references": [4]}, "options.references: expected an integer from 1 to 100"),
        ("METEOR-files", {"language": "xx"}, "options.language: expected one of en, got 'xx'"),
        (
            "METEOR-files",
            {"language": "ru"},
            "options.language: 'ru' cannot be scored here: METEOR 1.5's Russian (exact stem "
            "paraphrase) needs its paraphrase table paraphrase-ru.gz, which pycocoevalcap does "
            "not ship (available: en)",
        ),
    ],
)
def test_an_option_out_of_range_or_of_the_wrong_type_is_refused_naming_key_and_range(
    metric, options, message
):
    with pytest.raises(KindError) as refused:
        build_profile(_kind(metric, **options), "kinds[0]")
    assert f"kinds[0].metrics[0].{message}" in str(refused.value)


def test_options_within_their_ranges_are_accepted():
    build_profile(_kind("chrF++", char_order=10, word_order=0, beta=0.5), "kinds[0]")
    build_profile(_kind("BLEU-multibleu", references=100, lowercase=True), "kinds[0]")
    english = build_profile(_kind("METEOR-files", language="en", references=4), "kinds[0]")
    assert "|l:en|" in english.column_signature("METEOR")


def test_every_metric_option_declares_its_bounds():
    known_metrics()  # every built-in module registered
    for name, factory in _FACTORIES.items():
        options = {
            p.name
            for p in inspect.signature(factory).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY
        }
        assert set(metric_bounds(name)) == options, name


def _printed(**printing) -> dict:
    return {"name": "printed", "reader": "lines", "metrics": ["chrF++", "BLEU"], **printing}


@pytest.mark.parametrize(
    ("printing", "message"),
    [
        ({"decimals": 8}, "kinds[0].decimals: 0 to 4 decimals, got 8"),
        ({"column_decimals": {"chrF++": 5}}, "kinds[0].column_decimals.chrF++: 0 to 4 decimals"),
        ({"scale": {"chrF++": 1e308}}, "kinds[0].scale.chrF++: a power of ten from 0.001 to 1000"),
        ({"scale": {"BLEU": 1e-4}}, "kinds[0].scale.BLEU: a power of ten from 0.001 to 1000"),
        ({"scale": {"BLEU": 0.5}}, "kinds[0].scale.BLEU: a power of ten from 0.001 to 1000"),
        ({"scale": {"BLEU": True}}, "kinds[0].scale.BLEU: a power of ten from 0.001 to 1000"),
        (
            {"decimals": 2, "scale": {"BLEU": 1000}},
            "kinds[0].scale.BLEU: x1000 with 2 decimals prints 5 decimals of the stored score",
        ),
        (
            {"column_decimals": {"BLEU": 4}, "scale": {"BLEU": 10}},
            "kinds[0].scale.BLEU: x10 with 4 decimals prints 5 decimals of the stored score",
        ),
    ],
)
def test_a_printing_rule_that_would_print_the_exact_score_is_refused_naming_the_key(
    printing, message
):
    """Before publication a team reads its own scores as the published table prints them:
    8 decimals, or chrF++ printed x1e308, would be the exact score."""
    with pytest.raises(KindError) as refused:
        build_profile(_printed(**printing), "kinds[0]")
    assert message in str(refused.value)


def test_a_printing_rule_within_the_bounds_keeps_its_rounding():
    profile = build_profile(
        _printed(decimals=1, column_decimals={"chrF++": 4}, scale={"BLEU": 1000}), "kinds[0]"
    )
    assert profile.published("BLEU", 12.345678) == pytest.approx(12.3457)
    assert profile.published("chrF++", 12.345678) == pytest.approx(12.3457)
    assert build_profile(_printed(scale={"BLEU": 0.001}), "kinds[0]").printed("BLEU", 45.6) == (
        "0.0456"
    )
