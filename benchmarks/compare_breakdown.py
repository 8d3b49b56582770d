"""What a breakdown and a comparison of two systems cost on the board, from stored statistics.

A WebNLG 2017-sized track (1,862 entries, as the 2017 test set; its references are held back,
so the entries are the dev set's and the first training entries', categories and sizes as
given) on a migrated SQLite board, with two systems whose per-item statistics (BLEU, METEOR,
TER) are computed once and stored as the worker stores them. Timed, as the track page and the
compare page call them for an organiser (every bucket shown): the breakdown by category
(10 buckets, the seen categories: every metric, 95% bootstrap intervals) and the comparison (paired bootstrap on
every metric, per category, and the per-item table sorted by sentence chrF). Cold is the first
call (bootstrap computed, then kept in the file cache); warm is the median of the next ones.
Target: under 300 ms warm, each.

Usage: python benchmarks/compare_breakdown.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.data.config import Settings, default_database_url
from app.data.db import session_scope
from app.data.migrate import upgrade
from app.data.models import (
    Challenge,
    Item,
    Output,
    Reference,
    Score,
    Submission,
    SubmissionStatistics,
    SubmissionStatus,
    System,
    TestSet,
    Track,
)
from app.data.statistics import pack_statistics
from app.web.services.access import ORGANISERS
from app.web.services.breakdowns import track_breakdown
from app.web.services.compare import compare_systems
from app.web.services.file_cache import FileCache
from scorer.io import webnlg
from scorer.kinds import get_profile
from scorer.references import ReferenceSet

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "webnlg"
ITEMS = 1862


def entries() -> list:
    """1,862 entries: the 2017 dev set, then training entries."""
    found = []
    for part in ("dev", "train"):
        for path in sorted((DATA / "2017" / part).rglob("*.xml")):
            found.extend(webnlg.read_references(path.read_bytes(), path.name))
            if len(found) >= ITEMS:
                return found[:ITEMS]
    raise SystemExit(f"fewer than {ITEMS} entries under {DATA / '2017'}")


def dropped(text: str, every: int) -> str:
    return " ".join(w for k, w in enumerate(text.split(), 1) if k % every)


def board(instance: Path) -> tuple[Settings, dict[str, int]]:
    """The track, its items and two scored systems; returns the system ids."""
    settings = Settings(instance_path=instance, database_url=default_database_url(instance))
    upgrade(settings.database_url)
    profile = get_profile("webnlg2017")
    items = webnlg.as_items(entries(), webnlg.SEEN_CATEGORIES_2017)
    references = ReferenceSet([list(item.references[:3]) for item in items])
    systems = {
        "drop-5th": [dropped(item.references[0], 5) for item in items],
        "drop-3rd": [dropped(item.references[-1], 3) for item in items],
    }
    with session_scope(settings.database_url) as session:
        challenge = Challenge(slug="bench", title="Benchmark")
        track = Track(challenge=challenge, slug="test", title="Test", kind="webnlg",
                      language="en", profile=profile.name)  # fmt: skip
        test_set = TestSet(track=track, language="en", source_sha256="0" * 64)
        rows = [
            Item(test_set=test_set, position=k, input_text=item.input,
                 attributes=dict(item.attributes),
                 references=[Reference(position=p, text=t) for p, t in enumerate(item.references)])
            for k, item in enumerate(items)
        ]  # fmt: skip
        session.add_all([challenge, track, test_set, *rows])
        session.flush()
        ids = {}
        for name, texts in systems.items():
            outputs = [profile.normalise(text) for text in texts]
            print(f"scoring {name} once ({len(outputs)} items)...", file=sys.stderr)
            computed = profile.statistics(outputs, references)
            system = System(track=track, name=name, is_primary=True)
            submission = Submission(system=system, language="en", filename="o.txt",
                                    file_sha256="0" * 64, status=SubmissionStatus.SCORED)  # fmt: skip
            session.add_all([system, submission])
            session.flush()
            session.add_all(
                Score(submission_id=submission.id, metric=s.metric, value=s.value,
                      signature=s.signature)
                for s in profile.subset_scores(computed, {"": range(len(outputs))})[""]
            )  # fmt: skip
            session.add_all(
                Output(submission_id=submission.id, item_id=row.id, text=text)
                for row, text in zip(rows, outputs, strict=True)
            )
            session.add(
                SubmissionStatistics(submission_id=submission.id, data=pack_statistics(computed))
            )
            ids[name] = system.id
    return settings, ids


def timed(function, repeats: int) -> tuple[float, float]:
    """(cold, median of the warm calls) in ms."""
    start = time.perf_counter()
    function()
    cold = time.perf_counter() - start
    warm = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        warm.append(time.perf_counter() - start)
    return cold * 1000, statistics.median(warm) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings, ids = board(Path(folder))
        cache = FileCache(Path(folder) / "cache")
        with session_scope(settings.database_url) as session:
            track = session.query(Track).one()

            def breakdown() -> None:
                found = track_breakdown(session, track, "category", ORGANISERS, cache=cache)
                assert len(found.buckets) >= 10, found.buckets

            def comparison() -> None:
                found = compare_systems(session, track, ids["drop-5th"], ids["drop-3rd"],
                                        ORGANISERS, attribute="category", cache=cache)  # fmt: skip
                assert found.items and found.item_metric == "chrF"

            for name, function in (("breakdown", breakdown), ("comparison", comparison)):
                cold, warm = timed(function, args.repeats)
                print(f"{name:<11} {ITEMS} items, 2 systems: cold {cold:7.0f} ms, warm median "
                      f"{warm:5.0f} ms (target < 300 ms warm)")  # fmt: skip


if __name__ == "__main__":
    main()
