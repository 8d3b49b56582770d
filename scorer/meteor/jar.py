"""METEOR 1.5's jar, kept warm: the JVMs that run ``meteor-1.5.jar`` (``NLGBOARD_METEOR=jar``,
for cross-checks; the Python port in this package is the default), the request and statistics
lines both speak (COCO meteor.py's ``SCORE ||| refs ||| hypothesis``), and METEOR's score from
summed statistics. The jar loads its paraphrase table in ~10 s, so its JVMs are started once per
process and kept warm; items are split over two JVMs (two cores)."""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
from collections.abc import Sequence

import numpy as np

from scorer.java import implementation
from scorer.java.jars import coco_file, java_binary
from scorer.meteor import formula

STATS_LENGTH = 23
JVM_PROCESSES = int(os.environ.get("NLGBOARD_METEOR_JVMS", "2"))
"""METEOR JVMs per process, each scoring a share of the outputs (2 GB each)."""
JVM_OPTIONS = tuple(
    os.environ.get("NLGBOARD_METEOR_JVM_OPTIONS", "-Xms2G -Xmx2G -XX:+UseParallelGC").split()
)


class MeteorProcess:
    """One ``meteor-1.5.jar -stdio`` JVM: SCORE lines in, statistics lines out."""

    def __init__(self) -> None:
        jar = coco_file("meteor/meteor-1.5.jar")
        self._process = subprocess.Popen(
            [
                java_binary(),
                *JVM_OPTIONS,
                "-jar",
                str(jar),
                "-",
                "-",
                "-stdio",
                "-l",
                "en",
                "-norm",
            ],
            cwd=jar.parent,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self._process.stdin and self._process.stdout  # both piped above
        self._stdin, self._stdout = self._process.stdin, self._process.stdout
        self._lock = threading.Lock()

    def statistics(self, score_lines: Sequence[str]) -> list[str]:
        """Send every SCORE line at once (a writer thread) and read the answers in order."""
        with self._lock:
            writer = threading.Thread(target=self._write, args=(score_lines,), daemon=True)
            writer.start()
            stats = [self._readline() for _ in score_lines]
            writer.join()
            return stats

    def evaluate(self, stats: Sequence[str]) -> tuple[list[float], float]:
        """The jar's own aggregate (``EVAL``): per-item scores and the corpus score."""
        with self._lock:
            self._write(["EVAL ||| " + " ||| ".join(stats)])
            segments = [float(self._readline()) for _ in stats]
            return segments, float(self._readline())

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._stdin.close()
        self._stdout.close()

    def _write(self, lines: Sequence[str]) -> None:
        stdin = self._stdin
        for line in lines:
            stdin.write(line.encode() + b"\n")
        stdin.flush()

    def _readline(self) -> str:
        line = self._stdout.readline()
        if not line:
            raise RuntimeError("the METEOR JVM stopped (is Java able to allocate 2 GB?)")
        return line.decode().strip()


class MeteorPool:
    """Warm METEOR JVMs shared by every scoring call of this process."""

    def __init__(self, size: int = JVM_PROCESSES) -> None:
        self.processes = [MeteorProcess() for _ in range(size)]
        atexit.register(self.close)

    def statistics(self, score_lines: Sequence[str]) -> list[str]:
        size = len(self.processes)
        chunk = -(-len(score_lines) // size) if score_lines else 0
        parts: list[list[str]] = [[] for _ in range(size)]
        chunks = [score_lines[i * chunk : (i + 1) * chunk] for i in range(size)]

        def run(index: int) -> None:
            parts[index] = self.processes[index].statistics(chunks[index])

        threads = [threading.Thread(target=run, args=(i,)) for i in range(size) if chunks[i]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return [stat for part in parts for stat in part]

    def close(self) -> None:
        for process in self.processes:
            process.close()


_POOL: MeteorPool | None = None
_POOL_LOCK = threading.Lock()


def pool() -> MeteorPool:
    """The process-wide warm pool, started on first use (or by ``warm_up``)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = MeteorPool()
        return _POOL


WARM_UP_WORDS = [
    "restaurant",
    "pub",
    "coffee",
    "shop",
    "serves",
    "serving",
    "cheap",
    "expensive",
    "moderately",
    "priced",
    "italian",
    "french",
    "chinese",
    "english",
    "food",
    "near",
    "the",
    "river",
    "city",
    "centre",
    "riverside",
    "family",
    "friendly",
    "children",
    "kids",
    "welcome",
    "rated",
    "highly",
    "average",
    "low",
    "customer",
    "rating",
    "located",
    "area",
    "place",
    "offers",
    "cuisine",
]


def warm_up(segments: int = 2000) -> None:
    """Load the resources now (worker start-up), so that the first real submissions are as fast
    as the later ones: the Python port's lexicon (built into the cache folder on a machine's
    first run) here and in the scoring processes, or the JVMs, their paraphrase table and their JIT-compiled matchers."""
    if not implementation.uses_jar():
        from scorer.meteor import scoring

        sample = " ".join(WARM_UP_WORDS[:12])
        scoring.warm_up(score_line(sample, [" ".join(WARM_UP_WORDS[6:18])]))
        return
    lines = []
    words = WARM_UP_WORDS
    for i in range(segments):
        hypothesis = " ".join(words[(i * k + 3) % len(words)] for k in range(1, 14))
        references = [
            " ".join(words[(i * k + j) % len(words)] for k in range(2, 15)) for j in range(6)
        ]
        lines.append(score_line(hypothesis, references))
    pool().statistics(lines)


def score_line(hypothesis: str, references: Sequence[str]) -> str:
    """COCO meteor.py's ``_stat`` request line, verbatim."""
    hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
    return " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))


def parse_stats(line: str) -> list[float]:
    values = [float(x) for x in line.split()]
    if len(values) != STATS_LENGTH:
        raise RuntimeError(f"unexpected METEOR statistics line: {line[:200]!r}")
    return values


def meteor_from_totals(total: Sequence[float] | np.ndarray) -> float:
    """METEOR's score from summed statistics (MeteorScorer.computeMetrics)."""
    return formula.score([float(value) for value in total])


def additive_row(stats: Sequence[float]) -> list[float]:
    """A statistics row as MeteorStats.addStats adds it: a perfect item contributes no chunk."""
    row = list(stats)
    if formula.is_perfect(row):
        row[formula.CHUNKS] = 0.0
    return row
