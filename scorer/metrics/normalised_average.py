"""The E2E challenge's "normalised average" (E2E paper, Table 8, column "norm. avg.").

    norm_avg = mean(BLEU, NIST / 10, METEOR, ROUGE_L, CIDEr / 10)

The paper says only "the average of all metrics' values normalised into the 0-1 range"; dividing
NIST and CIDEr by 10 (CIDEr-D's maximum is 10) and leaving the other three as they are reproduces
every row of Table 8 to the 4th decimal (tested), e.g. TGen 0.6593 8.6094 0.4483 0.6850 2.2338
-> 0.5754.

Citation: Dušek, Novikova & Rieser (2020), Evaluating the state-of-the-art of End-to-End Natural
Language Generation: The E2E NLG Challenge, Computer Speech & Language, Table 8.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorer import __version__
from scorer.metrics.base import WORD_OVERLAP

NAME = "norm_avg"
SCALES = {"BLEU": 1.0, "NIST": 10.0, "METEOR": 1.0, "ROUGE_L": 1.0, "CIDEr": 10.0}
GLOSSARY = (
    "E2E Table 8's normalised average of the word-overlap metrics: "
    "mean(BLEU, NIST/10, METEOR, ROUGE_L, CIDEr/10)."
)
GROUP = WORD_OVERLAP
"""The table group of the column: it averages word-overlap metrics."""
SIGNATURE = f"norm_avg|mean(BLEU,NIST/10,METEOR,ROUGE_L,CIDEr/10)|nlgboard:{__version__}"


def normalised_average(scores: Mapping[str, float]) -> float:
    missing = sorted(set(SCALES) - set(scores))
    if missing:
        raise KeyError(f"norm_avg needs {', '.join(missing)}")
    return sum(scores[name] / scale for name, scale in SCALES.items()) / len(SCALES)
