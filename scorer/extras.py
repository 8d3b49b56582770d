"""Optional packages, loaded where they are used.

The participants' install (``pip install nlgboard``) carries what the leaderboards' metrics
need and nothing heavier: SciPy, POT, matplotlib and wordfreq come with the extra of the one
feature that uses them (``human``: nlg-human's statistics and heatmaps; ``describe``: E2E
textual statistics and D-level tests; ``semantic``: the embedding metrics; ``server``: all of
them). A missing one is a sentence naming the extra, not an ImportError from deep inside.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from scorer.errors import MissingExtra


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """``module`` imported, or MissingExtra: "<purpose> needs <package>: pip install ..."."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        package = (error.name or module).split(".")[0]
        raise MissingExtra(
            f"{purpose} needs {package}, which is not installed: pip install 'nlgboard[{extra}]'"
        ) from error
