"""The bundled runs' manifest: which decoded run belongs to which test set.

A run is matched to an imported test set by a content hash of the inputs, not by file name or
track slug: organisers name tracks as they like, but a run decoded from other inputs (another
order, a corrected MR) must never be scored against them. Pure Python (no torch), so the web
app can read it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

RUNS_DIR = Path(__file__).resolve().parent / "runs"
MANIFEST = RUNS_DIR / "manifest.json"


def inputs_digest(inputs: Sequence[str]) -> str:
    """SHA-256 of the inputs in order (JSON-encoded, so multi-line DRSs cannot collide)."""
    encoded = json.dumps([text.strip() for text in inputs], ensure_ascii=False)
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class BundledRun:
    """One committed run and how it was made."""

    file: str
    system: str
    baseline: str
    track_kind: str
    language: str
    test_set: str
    items: int
    inputs_sha256: str
    produced_by: str
    note: str = ""
    """What the run is, for the system page and exports (a run we trained, not a paper's)."""
    dev_scores: dict[str, float] = field(default_factory=dict)
    dev_signatures: dict[str, str] = field(default_factory=dict)
    training: dict = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return MANIFEST.parent / self.file


def read_manifest(path: Path | None = None) -> list[BundledRun]:
    path = path or MANIFEST
    if not path.exists():
        return []
    return [BundledRun(**entry) for entry in json.loads(path.read_text("utf-8"))["runs"]]


def write_entry(run: BundledRun, path: Path | None = None) -> None:
    """Add or replace (same file name) one run's entry; entries stay sorted by file name."""
    path = path or MANIFEST
    runs = {entry.file: entry for entry in read_manifest(path)}
    runs[run.file] = run
    entries = [asdict(runs[name]) for name in sorted(runs)]
    path.write_text(json.dumps({"runs": entries}, indent=2, ensure_ascii=False) + "\n", "utf-8")


def matching_runs(
    baselines: Collection[str], language: str, inputs: Sequence[str]
) -> list[BundledRun]:
    """The runs of the bundled ``baselines`` (those a track's kind names, ``tgen``) decoded
    from exactly these inputs."""
    digest = inputs_digest(inputs)
    return [
        run
        for run in read_manifest()
        if run.baseline in baselines and run.language == language and run.inputs_sha256 == digest
    ]
