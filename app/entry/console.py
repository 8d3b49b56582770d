"""The ``nlgboard`` console script: the board's server command (the ``nlgboard-server``
distribution). An environment whose server packages went missing gets a sentence, not an
ImportError."""

from __future__ import annotations

import importlib.util
import sys


def main() -> None:
    if importlib.util.find_spec("flask") is None:
        sys.exit(
            "nlgboard runs the board and needs its server dependencies: from a checkout, "
            "pip install . ./server (the scorer, nlgboard, and the board, nlgboard-server). "
            "nlg-score, nlg-human and nlgboard-submit work without them."
        )
    from app.entry.cli import main as board

    board()
