"""The example bundles' WebNLG+ 2020 kinds against eval.py (``../shared/oracles/
webnlg-2020-eval``) on the 2020 data (``../shared/data/webnlg/2020``), end to end: the kind's
reader on the release's own XML folders, its metrics with their tokens, against eval.py's
``bleu_score`` (``multi-bleu-detok.perl``), ``chrF_score``, ``ter_score`` and
``meteor_score`` run on parallel reference files written from the same XML read on its own
(ElementTree) and eval.py's ``parse`` tokens (punkt untrained: see test_webnlg2020_tokens).
English: BLEU, chrF++, TER and METEOR; Russian: BLEU, chrF++ and TER (no Russian METEOR here).

And the English test set's three-way split: the release's instance-types file read beside the
test XML gives 490 / 393 / 896 entries, and each type's BLEU is multi-bleu-detok's on that
type's lines (the test references being held back, on reference-derived texts:
``tests/support/webnlg2020.py``).
"""

from __future__ import annotations

import random
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorer.io.folders import folder_as_zip
from scorer.io.items import natural_key
from scorer.kinds import build_profile
from tests.oracles.test_webnlg2020_oracle import (
    REFERENCES,
    chrf_module,
    parsed,
    write_parallel,
)
from tests.oracles.test_webnlg2020_oracle import eval_functions as eval_metrics
from tests.oracles.test_webnlg2020_tokens import eval_functions as eval_tokenised
from tests.oracles.test_webnlg2020_tokens import eval_tokens, untrained_punkt  # noqa: F401
from tests.support.paths import require_binary, shared_file
from tests.support.webnlg2020 import (
    OFFICIAL_SPLIT,
    WEBNLG_2020,
    bundle_kind,
    english_test_folder,
)
from tests.support.webnlg_cases import ORACLE_2020, outputs, without_splitlines_breaks
from tests.support.webnlg_oracle import bleu_of, widened_copy

pytestmark = pytest.mark.oracle

SAMPLE = 120
"""Entries of a dev set scored (pyter3's search and the METEOR jar are slow)."""


def release_texts(folder: Path, language: str) -> list[list[str]]:
    """Each entry's ``<lex>`` texts in ``language`` (English: ``lang=""``), the release's files
    in its order and each file's entries by eid, read with ElementTree."""
    langs = ("", None) if language == "en" else (language,)
    found = []
    paths = sorted(
        folder.glob("*triples/*.xml"), key=lambda p: [natural_key(p.parent.name), p.name]
    )
    for path in paths:
        entries = sorted(
            ET.parse(path).getroot().iter("entry"), key=lambda e: natural_key(e.get("eid", ""))
        )
        for entry in entries:
            found.append(
                [lex.text or "" for lex in entry.findall("lex") if lex.get("lang") in langs]
            )
    return found


def dev_kind(language: str, keep: set[str]):
    kind = bundle_kind(language, keep=keep, subsets=[], name=f"dev-{language}-{len(keep)}")
    kind["reader"] = {"name": "webnlg-xml", "language": language}
    return build_profile(kind)


def scored_dev(
    tmp_path: Path, language: str, keep: set[str]
) -> tuple[dict[str, float], list, list]:
    """The kind's figures on a seeded sample of the dev set, and the texts written for eval.py."""
    folder = shared_file(WEBNLG_2020 / language / "dev")
    profile = dev_kind(language, keep)
    items = profile.read_references(*folder_as_zip(folder, ".xml"))
    texts = release_texts(folder, language)
    assert [list(item.references) for item in items] == [t[:REFERENCES] for t in texts]
    chosen = sorted(random.Random(7).sample(range(len(items)), SAMPLE))
    chosen = [k for k in chosen if not any("\n" in text for text in texts[k][:REFERENCES])]
    references = [texts[k][:REFERENCES] for k in chosen]
    hypotheses = [without_splitlines_breaks(text) for text in outputs(references, 7)]
    scores = profile.score(hypotheses, [list(refs) for refs in references])
    write_parallel(tmp_path, references, hypotheses)
    return {score.metric: score.value for score in scores}, references, hypotheses


def eval_bleu(folder: Path) -> float:
    """``multi-bleu-detok.perl`` as eval.py's ``bleu_score`` runs it, printing all digits."""
    script = widened_copy(ORACLE_2020 / "metrics" / "multi-bleu-detok.perl", folder)
    files = [str(folder / f"reference{k}") for k in range(REFERENCES)]
    with (folder / "hypothesis").open("rb") as stdin:
        out = subprocess.run(
            ["perl", str(script), *files], stdin=stdin, capture_output=True, check=True
        )
    return bleu_of(out.stdout.decode())


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # chrF.py's files
@pytest.mark.usefixtures("untrained_punkt")
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_bundle_kind_scores_the_dev_set_as_eval_py(tmp_path, monkeypatch, language):
    require_binary("perl")
    keep = {"BLEU-multibleu-detok", "chrF++", "TER-pyter"}
    if language == "en":
        require_binary("java")
        keep.add("METEOR-files")
    ours, _, _ = scored_dev(tmp_path, language, keep)
    references, hypotheses = parsed(tmp_path)
    references_tok, hypothesis_tok = eval_tokens(tmp_path, language)
    monkeypatch.chdir(tmp_path)  # chrF_score and meteor_score write temporary files here
    stem = str(tmp_path / "reference")
    rounded = eval_metrics()["bleu_score"](stem, str(tmp_path / "hypothesis"), REFERENCES)  # type: ignore[operator]
    assert ours["BLEU"] == eval_bleu(tmp_path)
    assert round(ours["BLEU"], 2) == rounded
    chrf = eval_metrics()["chrF_score"](references, hypotheses, REFERENCES, 2, 6, 2.0)[0]  # type: ignore[operator]
    assert ours["chrF++"] == chrf
    ter = eval_tokenised()["ter_score"](references_tok, hypothesis_tok, REFERENCES)  # type: ignore[operator]
    assert ours["TER"] == pytest.approx(ter, abs=1e-12)
    if language == "en":
        meteor = eval_tokenised()["meteor_score"](references_tok, hypothesis_tok, REFERENCES)  # type: ignore[operator]
        assert meteor > 0  # -1 when the jar failed
        assert ours["METEOR"] == pytest.approx(meteor, abs=1e-12)
    assert chrf_module()  # the oracle's chrF.py was the one run


def test_the_english_test_sets_three_way_split_and_each_types_bleu(tmp_path):
    require_binary("perl")
    folder = english_test_folder(tmp_path / "test")
    kind = bundle_kind("en", keep={"BLEU-multibleu-detok"}, name="split-en")
    profile = build_profile(kind)
    items = profile.read_references(*folder_as_zip(folder, ".xml"))
    types = [item.attributes["type"] for item in items]
    assert {name: types.count(name) for name in OFFICIAL_SPLIT} == OFFICIAL_SPLIT
    assert len(items) == sum(OFFICIAL_SPLIT.values()) == 1779
    references = [list(item.references) for item in items]
    hypotheses = outputs(references, 11)
    groups = {name: [k for k, t in enumerate(types) if t == name] for name in OFFICIAL_SPLIT}
    by_type = profile.score_subsets(hypotheses, references, groups)
    for name, positions in groups.items():
        part = tmp_path / name.replace(" ", "-")
        part.mkdir()
        write_parallel(part, [references[k] for k in positions], [hypotheses[k] for k in positions])
        (bleu,) = by_type[name]
        assert bleu.value == eval_bleu(part), name
