"""The vectorised NLTK-2018 pass against a plain transcription of NLTK's 2018 loops, on random
multi-reference corpora with the edge cases (empty outputs, items shorter than n, repeats)."""

import math
import random
from collections import Counter

import pytest

from scorer.metrics import get_metric


def ngrams(words, n):
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def nltk_corpus_bleu(hyps, refs):
    """nltk.translate.bleu_score.corpus_bleu (3.2.5-3.3), smoothing method 2, x 100."""
    numerators, denominators, hyp_len, ref_len = Counter(), Counter(), 0, 0
    for hyp, item_refs in zip(hyps, refs, strict=True):
        for n in range(1, 5):
            counts = ngrams(hyp, n)
            max_counts = Counter()
            for ref in item_refs:
                for gram, count in ngrams(ref, n).items():
                    max_counts[gram] = max(max_counts[gram], count)
            numerators[n] += sum(min(c, max_counts[g]) for g, c in counts.items())
            denominators[n] += max(1, sum(counts.values()))
        hyp_len += len(hyp)
        ref_len += min((len(r) for r in item_refs), key=lambda r: (abs(r - len(hyp)), r))
    if numerators[1] == 0:
        return 0.0
    bp = 1.0 if hyp_len > ref_len else (0.0 if hyp_len == 0 else math.exp(1 - ref_len / hyp_len))
    logs = [math.log((numerators[n] + 1) / (denominators[n] + 1)) for n in range(1, 5)]
    return 100 * bp * math.exp(sum(logs) / 4)


def nltk_corpus_nist(hyps, refs):
    """nltk.translate.nist_score.corpus_nist, n = 4."""
    counts, total = Counter(), 0
    for item_refs in refs:
        for ref in item_refs:
            for n in range(1, 5):
                counts.update(ngrams(ref, n))
            total += len(ref)
    info = {g: math.log2((counts[g[:-1]] if len(g) > 1 else total) / c) for g, c in counts.items()}
    numerators, denominators, ref_len, hyp_len = Counter(), Counter(), 0, 0
    for hyp, item_refs in zip(hyps, refs, strict=True):
        for n in range(1, 5):
            hyp_counts = ngrams(hyp, n)
            best = max(
                (
                    (num / den if den else 0, num, den, len(ref))
                    for ref in item_refs
                    for num, den in [
                        (
                            sum(info[g] * c for g, c in (hyp_counts & ngrams(ref, n)).items()),
                            sum(hyp_counts.values()),
                        )
                    ]
                ),
            )
            numerators[n] += best[1]
            denominators[n] += best[2]
            ref_len += best[3]
            hyp_len += len(hyp)
    precision = sum(numerators[n] / denominators[n] for n in range(1, 5) if denominators[n])
    ratio = hyp_len / ref_len
    beta = math.log(0.5) / math.log(1.5) ** 2
    penalty = math.exp(beta * math.log(ratio) ** 2) if 0 < ratio < 1 else min(ratio, 1.0)
    return precision * penalty


@pytest.mark.parametrize("seed", range(8))
def test_vectorised_pass_equals_the_plain_nltk_loops(seed):
    rng = random.Random(seed)
    words = ["a", "b", "c", "d", "e", "f", "g"][: rng.randint(3, 7)]
    refs, hyps = [], []
    for _ in range(rng.randint(1, 40)):
        item_refs = tuple(
            " ".join(rng.choices(words, k=rng.randint(0 if k else 1, 12)))
            for k in range(rng.choice([1, 1, 2, 3]))
        )
        refs.append(item_refs)
        hyps.append(" ".join(rng.choices(words, k=rng.choice([0, 1, 2, 3, 8, 14]))))
    tokens_h = [h.split() for h in hyps]
    tokens_r = [[r.split() for r in item] for item in refs]
    bleu = get_metric("BLEU-sr18").corpus_score(hyps, refs).value
    nist = get_metric("NIST-sr18").corpus_score(hyps, refs).value
    assert bleu == pytest.approx(nltk_corpus_bleu(tokens_h, tokens_r), rel=1e-12, abs=1e-12)
    assert nist == pytest.approx(nltk_corpus_nist(tokens_h, tokens_r), rel=1e-12, abs=1e-12)
