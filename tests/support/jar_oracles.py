"""The official jars in pycocoevalcap (CoreNLP 3.4.1's PTBTokenizer, METEOR 1.5), run as
oracles for the Python ports: the tests compare both on the same inputs. Java is required in
CI (.ci/run installs it) and skipped elsewhere when absent."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from scorer.java.jars import coco_file
from scorer.meteor.jar import MeteorProcess, parse_stats
from tests.support.paths import require_binary


def jar_ptb_output(joined: str) -> str:
    """``PTBTokenizer -preserveLines -lowerCase``'s standard output for ``joined``."""
    command = [
        require_binary("java"),
        "-cp",
        str(coco_file("tokenizer/stanford-corenlp-3.4.1.jar")),
        "edu.stanford.nlp.process.PTBTokenizer",
        "-preserveLines",
        "-lowerCase",
    ]
    result = subprocess.run(command, input=joined.encode(), capture_output=True, check=True)
    return result.stdout.decode()


def jar_meteor(process: MeteorProcess, score_lines: Sequence[str]) -> list[list[float]]:
    """The jar's answers to ``SCORE`` lines."""
    return [parse_stats(line) for line in process.statistics(score_lines)]


def start_meteor_jar() -> MeteorProcess:
    """One METEOR JVM (its paraphrase table takes ~10 s to load: share it between tests)."""
    require_binary("java")
    return MeteorProcess()


def jar_stems(words: Sequence[str]) -> list[str]:
    """The METEOR jar's Snowball English stems (its ``Stemmer en`` tool, one word per line)."""
    command = [
        require_binary("java"),
        "-cp",
        str(coco_file("meteor/meteor-1.5.jar")),
        "Stemmer",
        "en",
    ]
    out = subprocess.run(
        command, input="\n".join(words).encode(), capture_output=True, check=True
    ).stdout.decode()
    return out.split("\n")[: len(words)]
