"""METEOR 1.5 as the WebNLG scripts run the jar on files: ``-l en -norm -r N`` (2017: N = 3 on
evaluation.py's normalised text; WebNLG+ 2020: N = 4 on NLTK word tokens).

The jar's plain-text mode reads the outputs one per line and the references N lines per output
(an empty line where an item has fewer), untrimmed, and scores each output against its best
reference (the first of equal scores; every score is at least 0, so the empty lines after an
item's references are never chosen and ``references=N`` amounts to "the first N"). Each item's
23 statistics come from the Python port of the jar (``scorer.meteor``; ``NLGBOARD_METEOR=jar``
runs the jar itself on files, in its plain-text mode with ``-ssOut``); the corpus figure is
the jar's "Final score", computed from the summed statistics as ``scorer.metrics.meteor``
explains (a perfect item adds no chunk). Unlike the COCO-style ``METEOR``, no PTB tokenisation:
the text is the track's normalised text (or a kind's per-metric tokens).

``language`` is the jar's ``-l``: English only, the one language whose resources are here
(pycocoevalcap ships the English paraphrase table; the jar holds WordNet's English synonyms).
The jar's other ``-norm`` languages need their paraphrase tables (Russian, WebNLG+ 2020's
``-l ru``: ``exact stem paraphrase`` with ``paraphrase-ru.gz``), which are not to be had here:
they are refused, naming the missing file, rather than scored as English.

Citation: Denkowski & Lavie (2014), Meteor Universal: Language specific translation evaluation
for any target language, WMT.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from scorer import __version__
from scorer.java import implementation
from scorer.java.jars import coco_file, java_binary
from scorer.meteor.jar import (
    JVM_OPTIONS,
    STATS_LENGTH,
    additive_row,
    meteor_from_totals,
    parse_stats,
)
from scorer.metrics import REFERENCES, Bound, register
from scorer.metrics.base import WORD_OVERLAP, Metric, Tokeniser, Traits, tokenised
from scorer.references import ReferenceSet


class MeteorFiles(Metric):
    name = "METEOR"
    traits = Traits(
        group=WORD_OVERLAP,
        glossary=(
            "Matches words of the output with the best reference by exact form, stem, WordNet "
            "synonym and paraphrase (METEOR 1.5): a recall-weighted F-mean with a penalty for "
            "matches in a different order."
        ),
        cost="slow",
    )

    def __init__(self, *, references: int | None = None, language: str = "en") -> None:
        if references is not None and (not isinstance(references, int) or references < 1):
            raise ValueError(f"references must be a positive number (-r N), not {references!r}")
        problem = LANGUAGE.problem(language)
        if problem:
            raise ValueError(f"language: {problem}")
        self.references = references
        self.language = language
        self.signature = (
            f"METEOR|meteor-1.5|l:{language}|norm|r:{references or 'var'}|files"
            f"|{implementation.signature_part()}|nlgboard:{__version__}"
        )

    def _selected(self, references: ReferenceSet) -> list[list[str]]:
        return [list(item[: self.references]) for item in references]

    def warm_up(self) -> Callable[[], None] | None:
        from scorer.meteor.jar import warm_up

        return warm_up

    def segment_statistics(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        return self.begin_statistics(hypotheses, references)()

    def begin_statistics(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], np.ndarray]:
        """The jar in a thread, or the port in the scoring processes, each of which tokenises
        its own share of the outputs (``tokenise``)."""
        selected = self._selected(references)
        if implementation.uses_jar():
            hypotheses = tokenised(hypotheses, tokenise)
            background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jvm-metric")
            future = background.submit(jar_statistics, list(hypotheses), selected, self.language)
            background.shutdown(wait=False)
            return lambda: _rows(future.result())
        from scorer.meteor.scoring import start_scoring_segments

        finish = start_scoring_segments(list(zip(hypotheses, selected, strict=True)), tokenise)
        return lambda: _rows(finish())

    def score_from_totals(self, totals: np.ndarray) -> float:
        return meteor_from_totals(totals)


def _rows(stats: Sequence[Sequence[float]]) -> np.ndarray:
    rows = [additive_row(row) for row in stats]
    return np.asarray(rows, dtype=float).reshape(len(rows), STATS_LENGTH)


def jar_statistics(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], language: str = "en"
) -> list[list[float]]:
    """The jar's per-item statistics in its plain-text mode (``-ssOut``), on files laid out as
    the WebNLG scripts write them: N reference lines per output, empty ones for the missing."""
    if not hypotheses:
        return []
    count = max(len(refs) for refs in references)
    jar = coco_file("meteor/meteor-1.5.jar")
    with tempfile.TemporaryDirectory(prefix="nlgboard-meteor-") as folder:
        hyp_file, ref_file = Path(folder) / "hypotheses", Path(folder) / "references"
        hyp_file.write_text("".join(f"{text}\n" for text in hypotheses), encoding="utf-8")
        lines = [line for refs in references for line in [*refs, *[""] * (count - len(refs))]]
        ref_file.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        command = [java_binary(), *JVM_OPTIONS, "-jar", str(jar), str(hyp_file), str(ref_file)]
        command += ["-l", language, "-norm", "-r", str(count), "-ssOut"]
        result = subprocess.run(command, capture_output=True, cwd=jar.parent, check=False)
    out = result.stdout.decode().splitlines()
    if result.returncode != 0 or len(out) != len(hypotheses):
        raise RuntimeError(
            f"the METEOR jar gave {len(out)} lines for {len(hypotheses)} outputs: "
            f"{result.stderr.decode()[-500:]}"
        )
    return [parse_stats(line) for line in out]


def _paraphrases_missing(language: str, modules: str) -> str:
    return (
        f"METEOR 1.5's {language} ({modules}) needs its paraphrase table "
        f"paraphrase-{_CODES[language]}.gz, which pycocoevalcap does not ship"
    )


_CODES = {"Russian": "ru", "German": "de", "Spanish": "es", "French": "fr", "Czech": "cz"}
LANGUAGE = Bound(
    str,
    choices=("en",),
    missing=(
        ("ru", _paraphrases_missing("Russian", "exact stem paraphrase")),
        ("de", _paraphrases_missing("German", "exact stem paraphrase")),
        ("es", _paraphrases_missing("Spanish", "exact stem paraphrase")),
        ("fr", _paraphrases_missing("French", "exact stem paraphrase")),
        ("cz", _paraphrases_missing("Czech", "exact paraphrase")),
    ),
)
"""The jar's ``-l``: what the jar loads for each with ``-norm`` (tried on the wheel's jar: the
others have no normaliser, ``No normalizer for language``)."""


@register("METEOR-files", references=REFERENCES, language=LANGUAGE)
def make_meteor_files(*, references: int | None = None, language: str = "en") -> MeteorFiles:
    return MeteorFiles(references=references, language=language)
