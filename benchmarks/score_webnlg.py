"""Wall time of ``nlg-score --profile webnlg2017`` (cold) and of a warm scorer (the worker)
beside the official 2017 scripts', in the same run, on a test-sized set.

The test references are held back, and the official evaluation.py needs entries of all 15
categories, so the benchmark is the dev set (872 entries) plus training entries relabelled into
the 5 categories training lacks, as many as make the test set's size (1,862 entries, sizes 1-7;
tests/support/webnlg_cases.py), with generated outputs (copies, dropped, swapped and repeated
words, blanks, odd characters).

* ours: ``nlg-score --profile webnlg2017 --json`` in a new process: BLEU, METEOR and TER for all,
  seen and unseen entries;
* warm: the worker's path in a long-lived process whose profile is warmed up at start
  (``Profile.warm_up``; METEOR's JVM-free port and references prepared by a first job): per-item
  statistics of new outputs, then all / seen / unseen from them, as a job stores them;
* official: ``evaluation.py`` (it normalises the 9 submissions it hard-codes: one output file
  copied 9 times), then, for one team, ``multi-bleu.perl -lc`` and the METEOR jar
  (``-l en -norm -r 3``) on all / seen / unseen as the shell scripts run them. tercom 7.25 is
  not available here, so the official TER is not timed (our TER, sacreBLEU's tercom port
  reproduced, is timed alone instead; benchmarks/ter_speed.py times it beside sacreBLEU's).

Usage: python benchmarks/score_webnlg.py [--runs 3] [--warm-runs 5] [--official-runs 1]
                                        [--items 1862]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from score_e2e import cold_run

from scorer.io.items import subsets_by
from scorer.kinds import Profile, get_profile
from scorer.metrics import get_metric
from scorer.references import ReferenceSet
from tests.support.webnlg_cases import ORACLE_2017, lex_texts, outputs, test_like_xml, write_lines
from tests.support.webnlg_oracle import NATSORT_STAND_IN, SUBMISSIONS

SUBSETS = ("all-cat", "old-cat", "new-cat")
TEST_ENTRIES = 1862
DEV_ENTRIES = 872


def warm_runs(xml: bytes, folder: Path, runs: int) -> None:
    """The worker's scoring path in this long-lived process, after its start-up warm-up."""
    profile = get_profile("webnlg2017")
    start = time.perf_counter()
    profile.warm_up()
    items = profile.read_references(xml, "testdata_with_lex.xml")
    inputs = [item.input for item in items]
    references = ReferenceSet.from_items(items)
    subsets = {"": list(range(len(items)))}
    subsets.update(subsets_by(items, "seen"))
    texts = lex_texts(xml)
    first = _read(profile, write_lines(folder / "warm0.txt", outputs(texts, 100)), inputs)
    profile.subset_scores(profile.statistics(first, references), subsets)
    print(f"warm-up (start-up and a first job): {time.perf_counter() - start:.1f} s")
    warm = []
    for run in range(runs):
        path = write_lines(folder / f"warm{run + 1}.txt", outputs(texts, 101 + run))
        new = _read(profile, path, inputs)
        start = time.perf_counter()
        scores = profile.subset_scores(profile.statistics(new, references), subsets)
        warm.append(time.perf_counter() - start)
    print(
        f"warm scorer (worker path, all/seen/unseen from per-item statistics): median "
        f"{statistics.median(warm):.2f} s  (runs: {', '.join(f'{t:.2f}' for t in warm)})"
    )
    print("  " + "  ".join(f"{s.metric} {s.value:.4f}" for s in scores[""]))


def _read(profile: Profile, path: Path, inputs: list[str]) -> list[str]:
    """A team's file as the worker reads it (new outputs each run: no per-item cache answers)."""
    return profile.read_outputs(path.read_bytes(), inputs, path.name)


def official(folder: Path, xml: bytes, lines: list[str], jar: Path) -> dict[str, float]:
    """Seconds of each official step, in a fresh copy of the scripts' folder."""
    for name in ("evaluation.py", "benchmark_reader.py", "multi-bleu.perl"):
        (folder / name).write_bytes((ORACLE_2017 / name).read_bytes())
    (folder / "natsort.py").write_text(NATSORT_STAND_IN)
    for sub in ("data-challenge", "submissions", "references", "teams", "eval"):
        (folder / sub).mkdir()
    (folder / "data-challenge" / "testdata_with_lex.xml").write_bytes(xml)
    for file_name, _ in SUBMISSIONS:
        (folder / "submissions" / f"{file_name}.txt").write_text("".join(f"{x}\n" for x in lines))
    times = {}
    start = time.perf_counter()
    subprocess.run([sys.executable, "evaluation.py"], cwd=folder, check=True, capture_output=True)
    times["evaluation.py"] = time.perf_counter() - start
    team = SUBMISSIONS[0][1]
    start = time.perf_counter()
    for param in SUBSETS:
        refs = [str(folder / "references" / f"gold-{param}-reference{k}.lex") for k in range(3)]
        with (folder / "teams" / f"{team}_{param}.txt").open("rb") as hyp:
            command = ["perl", "multi-bleu.perl", "-lc", *refs]
            subprocess.run(command, cwd=folder, stdin=hyp, check=True, capture_output=True)
    times["multi-bleu.perl x3"] = time.perf_counter() - start
    start = time.perf_counter()
    for param in SUBSETS:
        hyp = folder / "teams" / f"{team}_{param}.txt"
        ref = folder / "references" / f"gold-{param}-reference-3ref.meteor"
        command = ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref)]
        command += ["-l", "en", "-norm", "-r", "3"]
        subprocess.run(command, cwd=jar.parent, check=True, capture_output=True)
    times["METEOR jar x3"] = time.perf_counter() - start
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--official-runs", type=int, default=1)
    parser.add_argument("--items", type=int, default=TEST_ENTRIES)
    args = parser.parse_args()
    from scorer.java.jars import coco_file

    jar = coco_file("meteor/meteor-1.5.jar")
    xml = test_like_xml(2017, unseen_per_category=max(1, (args.items - DEV_ENTRIES) // 5))
    references = lex_texts(xml)
    print(f"benchmark: {len(references)} entries (2017 dev + relabelled train entries)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        refs = folder / "testdata_with_lex.xml"
        refs.write_bytes(xml)
        hyps = []
        for run in range(max(args.runs, args.official_runs)):
            path = folder / f"out{run}.txt"
            path.write_text("".join(f"{x}\n" for x in outputs(references, run)), encoding="utf-8")
            hyps.append(path)
        cold = [cold_run(refs, hyps[run], "webnlg2017")[0] for run in range(args.runs)]
        print(
            f"nlg-score --profile webnlg2017 (cold, all/seen/unseen): median "
            f"{statistics.median(cold):.1f} s  (runs: {', '.join(f'{t:.1f}' for t in cold)})"
        )
        warm_runs(xml, folder, args.warm_runs)
        steps: dict[str, list[float]] = {}
        for run in range(args.official_runs):
            lines = hyps[run].read_text(encoding="utf-8").splitlines()
            work = folder / f"official{run}"
            work.mkdir()
            for step, seconds in official(work, xml, lines, jar).items():
                steps.setdefault(step, []).append(seconds)
        total = sum(statistics.median(values) for values in steps.values())
        print(
            "official scripts (median per step): "
            + ", ".join(f"{step} {statistics.median(v):.1f} s" for step, v in steps.items())
            + f"; together {total:.1f} s, TER (tercom) not timed"
        )
        profile = get_profile("webnlg2017")
        items = profile.read_references(xml, "testdata_with_lex.xml")
        texts = hyps[0].read_bytes()
        normalised = profile.read_outputs(texts, [item.input for item in items], "out.txt")
        start = time.perf_counter()
        get_metric("TER").segment_statistics(normalised, ReferenceSet.from_items(items))
        print(
            f"of which TER (tercom as sacreBLEU's port counts it, scoring processes): "
            f"{time.perf_counter() - start:.1f} s"
        )


if __name__ == "__main__":
    main()
