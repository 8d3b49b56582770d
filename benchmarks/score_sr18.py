"""Wall time of scoring a full SR'18 submission: 13 (track, language) test sets.

The SR'18 test references are held back, so each test set is built from the dev references of
its language (../shared/data/sr18/dev/Sentences, all ten languages) at the size of the test set
in Table 2 of the SR'18 overview (dev sentences repeated or cut): shallow ar cs en es fi fr it nl
pt ru and deep en es fr, 28,476 sentences in all. The outputs are the references with a word
dropped and two words swapped per sentence (so no metric is at its ceiling).

* scorer: read + validate + score each file with the SR'18 profile in one process (cold: the
  first pass, reference statistics included; warm: later passes with new outputs);
* worker: the whole path through the app -- test sets imported into a fresh SQLite instance,
  one zip per track uploaded, then every submission scored by the worker's job function
  (reads the stored file, scores, writes a score row per metric and per-item scores).

Usage: python benchmarks/score_sr18.py [--runs 5]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.io.sr18 import read_sentences
from scorer.kinds import get_profile
from scorer.references import LastResult, PreparedCache

DEV = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "sr18" / "dev"
TEST_SIZES = {  # SR'18 overview, Table 2, test column
    "ar": 676,
    "cs": 9876,
    "en": 2061,
    "es": 1719,
    "fi": 1525,
    "fr": 416,
    "it": 480,
    "nl": 685,
    "pt": 476,
    "ru": 6366,
}
DEV_FILES = {"es": "es_ancora", "ru": "ru_syntagrus"}
TEST_SETS = [("shallow", lang) for lang in TEST_SIZES] + [
    ("deep", lang) for lang in ("en", "es", "fr")
]


def references(language: str) -> list[str]:
    name = DEV_FILES.get(language, language)
    dev = read_sentences((DEV / "Sentences" / f"{name}-ud-dev_sentences.txt").read_bytes())
    return [dev[k % len(dev)] for k in range(TEST_SIZES[language])]


def perturbed(sentences: list[str], seed: int) -> bytes:
    """Each reference with one word dropped and two neighbours swapped, as ``# text`` blocks."""
    lines = []
    for k, sentence in enumerate(sentences):
        words = sentence.split()
        if len(words) > 2:
            del words[(k + seed) % len(words)]
            at = (k * 7 + seed) % (len(words) - 1)
            words[at], words[at + 1] = words[at + 1], words[at]
        lines.append(f"# sent_id = {k + 1}\n# text = {' '.join(words)}\n")
    return "\n".join(lines).encode()


def score_all(profile, sets: dict, seed: int) -> tuple[float, dict]:
    start = time.perf_counter()
    results = {}
    for key, refs in sets.items():
        data = perturbed(refs, seed)
        outputs = profile.read_outputs(data, refs, f"{key[1]}_out.txt")
        results[key] = {s.metric: s.value for s in profile.score(outputs, [(r,) for r in refs])}
    return time.perf_counter() - start, results


def scorer_benchmark(sets: dict, runs: int) -> None:
    profile = get_profile("sr18")
    cold, results = score_all(profile, sets, seed=0)
    warm = [score_all(profile, sets, seed=run)[0] for run in range(1, runs + 1)]
    print(f"scorer, cold (first pass, reference statistics built): {cold:.2f} s")
    print(
        f"scorer, warm: median {statistics.median(warm):.2f} s for all 13 test sets "
        f"(runs: {', '.join(f'{t:.2f}' for t in warm)})"
    )
    print("  " + " ".join(f"{t}/{lang}:BLEU={r['BLEU']:.2f}" for (t, lang), r in results.items()))


def worker_benchmark(sets: dict, runs: int) -> None:
    from app.data.config import Settings, default_database_url
    from app.data.db import session_scope
    from app.data.migrate import upgrade
    from app.data.models import Submission
    from app.data.storage import LocalStorage
    from app.web.services.accounts import find_or_create_team
    from app.web.services.submissions import submit_output
    from app.web.services.track_imports import import_items
    from app.web.services.tracks import create_challenge
    from scorer.metrics import nltk2018
    from worker.embedded import EmbeddedQueue
    from worker.jobs import score_submission

    nltk2018._PREPARED = PreparedCache(size=16)  # the first worker run starts cold again
    nltk2018._LAST = LastResult()
    timings = []
    for run in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            instance = Path(tmp)
            settings = Settings(instance_path=instance, database_url=default_database_url(instance))
            upgrade(settings.database_url)
            with session_scope(settings.database_url) as session:
                challenge = create_challenge(session, "sr18", "SR'18")
                tracks = {}
                for track, language in TEST_SETS:
                    refs = sets[(track, language)]
                    conll = b"\n\n".join(b"1\tx\t_\tX\t_\t_\t0\troot\t_\t_" for _ in refs) + b"\n"
                    text = "".join(f"# text = {r}\n\n" for r in refs).encode()
                    kind = "sr-shallow" if track == "shallow" else "sr-deep"
                    test_set, _ = import_items(
                        session, challenge, track, kind, language=language,
                        inputs=(conll, "inputs.conllu"), references=(text, "references.txt"),
                    )  # fmt: skip
                    tracks[track] = test_set.track
                team = find_or_create_team(session, "Bench")
                ids = []
                for track_slug, track in tracks.items():
                    buffer = io.BytesIO()
                    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                        for t, language in TEST_SETS:
                            if t == track_slug:
                                data = perturbed(sets[(t, language)], run)
                                archive.writestr(f"{language}_out.txt", data)
                    ids += [
                        s.id
                        for s in submit_output(
                            session,
                            EmbeddedQueue(settings),
                            LocalStorage(settings.uploads_path),
                            user=None,
                            team=team,
                            track=track,
                            system_name="bench",
                            filename=f"{track_slug}.zip",
                            data=buffer.getvalue(),
                            max_bytes=50 * 2**20,
                        )
                    ]
            start = time.perf_counter()
            outcomes = [score_submission(submission_id, settings) for submission_id in ids]
            timings.append(time.perf_counter() - start)
            if set(outcomes) != {"scored"} or len(ids) != 13:
                raise SystemExit(f"expected 13 scored submissions, got {outcomes}")
            with session_scope(settings.database_url) as session:
                assert session.get(Submission, ids[-1]).scores
    print(
        f"worker (job function, SQLite, 13 submissions from 2 zips): median "
        f"{statistics.median(timings):.2f} s; first (cold, reference statistics built) "
        f"{timings[0]:.2f} s (runs: {', '.join(f'{t:.2f}' for t in timings)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not DEV.exists():
        raise SystemExit(f"needs the SR'18 dev data at {DEV}")
    sets = {(track, language): references(language) for track, language in TEST_SETS}
    print(f"13 test sets, {sum(map(len, sets.values())):,} sentences (SR'18 Table 2 test sizes)")
    scorer_benchmark(sets, args.runs)
    worker_benchmark(sets, args.runs)


if __name__ == "__main__":
    main()
