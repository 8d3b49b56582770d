"""What each leaderboard column means, in a sentence, for the challenge pages' glossary (and
anyone reading ``nlg-score``'s output). The formulas and citations stay in each metric's
module; these are the words a participant needs to read a table."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.kinds import Profile

MEANINGS: dict[str, str] = {
    "BLEU": (
        "Word n-gram overlap (1 to 4) with the references: the geometric mean of the n-gram "
        "precisions times a penalty for outputs shorter than the references."
    ),
    "NIST": (
        "BLEU-like n-gram overlap in which rarer, more informative n-grams count more "
        "(no upper bound; about 8-9 on E2E)."
    ),
    "METEOR": (
        "Matches words of the output with the best reference by exact form, stem, WordNet "
        "synonym and paraphrase (METEOR 1.5): a recall-weighted F-mean with a penalty for "
        "matches in a different order."
    ),
    "ROUGE_L": (
        "F-measure (recall weighted, beta 1.2) of the longest common word subsequence with the "
        "references."
    ),
    "CIDEr": (
        "TF-IDF weighted n-gram similarity (1 to 4) with the references (COCO's CIDEr-D, 0 to "
        "10): n-grams common to all references count less."
    ),
    "norm_avg": (
        "E2E Table 8's normalised average of the word-overlap metrics: "
        "mean(BLEU, NIST/10, METEOR, ROUGE_L, CIDEr/10)."
    ),
    "SER": (
        "Slot error rate: slot values of the input MR that the output misses, adds, gets wrong "
        "or repeats, per slot of the MRs, in % (as the E2E slot-error script counts them)."
    ),
    "OK%": "Share of outputs that realise their MR exactly: nothing missed, added or wrong.",
    "A%": (
        "Share of outputs that add something (a slot or value not in the MR, a repeated low "
        "rating) and miss nothing."
    ),
    "M%": "Share of outputs that miss something of their MR and add nothing.",
    "A+M%": (
        "Share of outputs that both add and miss something (a wrong value is both: its value "
        "is missed, another added)."
    ),
    "DIST": (
        "Token-level edit-distance similarity with the reference, x 100 (SR'18's official "
        "script: lowercased, summed over the corpus)."
    ),
    "DIST_char": (
        "Character-level edit-distance similarity with the reference, averaged over sentences, "
        "x 100 (as the SR'18 overview paper describes it)."
    ),
    "coverage": "Share of inputs with a non-empty output, in % (a missing output scores 0).",
    "chrF": "Character n-gram F-score (up to 6-grams, recall weighted, beta 2), sacreBLEU's.",
    "F_BERT": (
        "F1 of greedily aligned token embeddings (all-MiniLM-L6-v2) of output and reference, x 100."
    ),
    "F_DISC": "F1 of token embeddings aligned one to one (optimal assignment), x 100.",
    "F_CONT": "F1 of token embeddings aligned by earth mover's distance, x 100.",
    "TER": (
        "Translation edit rate (tercom): the fewest word insertions, deletions, substitutions "
        "and block shifts that turn the output into its closest reference, per reference word; "
        "lower is better."
    ),
}
"""By the name a column shows; a metric a profile computes its own way has its registry id in
``BY_METRIC`` (SR'18's BLEU is NLTK's smoothed BLEU x 100, not mteval's)."""

BY_METRIC: dict[str, str] = {
    "BLEU-sr18": (
        "Word n-gram overlap (1 to 4) with the reference, x 100, as SR'18's script computed it "
        "(NLTK's corpus BLEU with smoothing 2, lowercased)."
    ),
    "NIST-sr18": "NIST n-gram overlap as SR'18's script computed it (NLTK's corpus NIST).",
    "BLEU-sacre": "Word n-gram overlap (1 to 4) with the reference, x 100 (sacreBLEU's BLEU).",
    "METEOR-x100": MEANINGS["METEOR"] + " x 100.",
    "ROUGE_L-x100": MEANINGS["ROUGE_L"] + " x 100.",
    "BLEU-webnlg2017": (
        "Word n-gram overlap (1 to 4) with the first three references, x 100, as WebNLG 2017 "
        "scored it (Moses multi-bleu.perl -lc on ASCII-folded, tokenised text)."
    ),
    "METEOR-webnlg2017": MEANINGS["METEOR"] + " WebNLG 2017: the first three references.",
}


@dataclass(frozen=True)
class Entry:
    name: str
    meaning: str
    higher_is_better: bool
    signature: str | None
    """The signature a score of this column carries here; None when this installation lacks
    the metric (the embedding metrics need the ``semantic`` extra)."""


def glossary(profile: Profile) -> list[Entry]:
    """Every column of ``profile``, in its order, with its meaning, direction and signature."""
    absent = set(profile.absent_metrics)
    return [
        Entry(
            name,
            BY_METRIC.get(profile.metric_ids.get(name, ""), MEANINGS.get(name, "")),
            profile.higher_is_better(name),
            None if name in absent else profile.column_signature(name),
        )
        for name in profile.columns
    ]
