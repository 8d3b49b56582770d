"""Per-item metric statistics as stored bytes: numpy's compressed ``.npz``, no pickling."""

from __future__ import annotations

import io
from typing import Any

import numpy as np


def pack_statistics(statistics: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    arrays: dict[str, Any] = {name: np.asarray(rows) for name, rows in statistics.items()}
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


def unpack_statistics(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}
