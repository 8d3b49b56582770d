"""The Java-free PTB tokeniser and METEOR on cases that once disagreed with the jars or that
stress their corners, with the jars' answers recorded in fixtures/java_free_cases.json (the
differential tests in tests/oracles/test_java_free.py compare them with the jars at scale)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.java import implementation
from scorer.java.classfile import decode_modified_utf8
from scorer.java.lowercase import java_lower
from scorer.meteor.normalizer import normalize_english
from scorer.meteor.resources import nonbreaking_prefixes
from scorer.meteor.scoring import answer_score_line
from scorer.tokenizers.ptb_lexer import tokenize_lines

CASES = json.loads((Path(__file__).parent / "fixtures" / "java_free_cases.json").read_text("utf-8"))


@pytest.mark.parametrize(("text", "expected"), sorted(CASES["java_lower"].items()))
def test_lowercasing_is_javas_including_the_final_sigma(text, expected):
    assert java_lower(text) == expected


def test_tokeniser_gives_the_jars_output():
    assert tokenize_lines(CASES["ptb"]["input"]) == CASES["ptb"]["output"]


@pytest.mark.parametrize(("text", "expected"), sorted(CASES["meteor_normalizer"].items()))
def test_meteor_normaliser_is_the_jars(text, expected):
    assert normalize_english(text, nonbreaking_prefixes()) == expected


@pytest.mark.parametrize(("line", "expected"), CASES["meteor"])
def test_meteor_statistics_are_the_jars(line, expected):
    assert answer_score_line(line) == expected


def test_modified_utf8_keeps_nul_and_surrogates_apart():
    # NUL as C0 80; U+1F600 as two three-byte surrogates, as in class files.
    assert decode_modified_utf8(b"a\xc0\x80\xed\xa0\xbd\xed\xb8\x80") == [0x61, 0, 0xD83D, 0xDE00]


def test_signatures_name_the_implementation_and_compare_without_it(monkeypatch):
    from scorer.metrics import get_metric

    monkeypatch.setenv(implementation.VARIABLE, "jar")
    jar = get_metric("METEOR").signature
    monkeypatch.setenv(implementation.VARIABLE, "python")
    python = get_metric("METEOR").signature
    assert "impl:jar" in jar and "impl:python" in python
    assert implementation.comparable(jar) == implementation.comparable(python)
    monkeypatch.setenv(implementation.VARIABLE, "java")
    with pytest.raises(ValueError, match="choose one of python, jar"):
        implementation.current()


def _lines(count: int) -> list[str]:
    from scorer.meteor.jar import score_line

    words = [
        "the",
        "eagle",
        "is",
        "a",
        "cheap",
        "restaurant",
        "near",
        "the",
        "river",
        "serving",
        "french",
        "food",
    ]
    return [
        score_line(" ".join(words[k % 5 :]), [" ".join(words[: 6 + k % 6]), " ".join(words[2:])])
        for k in range(count)
    ]


def test_a_large_batch_is_split_over_scoring_processes_with_the_same_statistics():
    from scorer import parallel
    from scorer.meteor import scoring

    lines = _lines(parallel.PARALLEL_FROM + 50)
    assert scoring.start_scoring(lines)() == [answer_score_line(line) for line in lines]


def test_a_scoring_process_that_dies_costs_time_not_scores(monkeypatch):
    """A killed scoring process (out of memory, say): the batch is scored in this process and
    new scoring processes start for the next one."""
    import os
    import signal
    import time

    from scorer import parallel
    from scorer.meteor import scoring

    monkeypatch.setenv(parallel.PROCESSES_VARIABLE, "2")
    lines = _lines(parallel.PARALLEL_FROM + 10)
    expected = [answer_score_line(line) for line in lines]
    assert scoring.start_scoring(lines)() == expected  # the processes are up
    pools = parallel.pools_for(scoring.answer_score_line)
    for pool in pools:
        for process in list(pool._processes.values()):  # fault injection: kill them
            os.kill(process.pid, signal.SIGKILL)
    assert scoring.start_scoring(lines)() == expected  # found broken when submitting or after
    time.sleep(0.5)  # the executors notice the deaths
    assert scoring.start_scoring(lines)() == expected
    assert parallel.pools_for(scoring.answer_score_line) != pools


def test_a_read_only_cache_folder_is_used_and_a_missing_file_is_named(tmp_path, monkeypatch):
    """As in the Docker image: files built at image build time, a folder the user cannot
    write (root writes anywhere, so the writes are made to fail)."""
    from scorer import cache

    source = tmp_path / "resource.txt"
    source.write_text("data")
    monkeypatch.setenv("NLGBOARD_CACHE", str(tmp_path / "cache"))
    built = cache.built_file("thing", [source], ".bin", lambda target: target.write_text("x"))
    (tmp_path / "cache" / "hashes.json").unlink()  # the hash memo must be written again

    def read_only(target, write):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache, "write_atomically", read_only)
    assert cache.built_file("thing", [source], ".bin", lambda target: None) == built
    with pytest.raises(RuntimeError, match="point NLGBOARD_CACHE at a writable folder"):
        cache.built_file("other", [source], ".bin", lambda target: None)


def test_a_line_break_inside_a_text_does_not_spoil_the_tokeniser_memo():
    """U+2028 ends a line for the tokeniser: that batch's later lines answer the wrong texts,
    as in COCO's script, but that must not be remembered for the next call."""
    from scorer.tokenizers.ptb import ptb_tokenize

    first = ptb_tokenize(["Alpha\u2028Beta.", "Gamma delta.", "Epsilon."])
    assert first[1] != "gamma delta"  # shifted, as COCO's script has it
    assert ptb_tokenize(["Gamma delta.", "Epsilon."]) == ["gamma delta", "epsilon"]


def test_the_embedding_encoder_is_an_implementation_part_of_a_signature():
    """F_BERT computed by transformers (older scores) or by the plain torch encoder on the
    same weights stays comparable; the model, its weights or the layer do not."""
    old = "F_BERT|model:m|sha256:abc|layer:6|torch:2.5.1|transformers:5.23.0|refs:max"
    new = "F_BERT|model:m|sha256:abc|layer:6|torch:2.5.1|encoder:bert-torch|refs:max"
    assert implementation.comparable(old) == implementation.comparable(new)
    assert implementation.comparable(new) != implementation.comparable(new.replace("abc", "abd"))
