"""Metric registry: one module per metric, looked up by the name the leaderboard shows."""

from __future__ import annotations

from collections.abc import Callable

from scorer.metrics.base import Metric

_FACTORIES: dict[str, Callable[[], Metric]] = {}


def register(name: str) -> Callable[[Callable[[], Metric]], Callable[[], Metric]]:
    """Register a metric factory under its public name (``BLEU``, ``NIST`` ...)."""

    def decorate(factory: Callable[[], Metric]) -> Callable[[], Metric]:
        _FACTORIES[name] = factory
        return factory

    return decorate


def get_metric(name: str) -> Metric:
    """Build the metric called ``name``; raise KeyError listing the known names otherwise."""
    _load_builtin()
    try:
        return _FACTORIES[name]()
    except KeyError:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(_FACTORIES))}") from None


def _load_builtin() -> None:
    # Imported lazily so that `import scorer` stays fast (no sacrebleu, no JVM).
    from scorer.metrics import (  # noqa: F401
        bleu,
        chrf,
        cider,
        dist,
        f_bert,
        f_cont,
        f_disc,
        meteor,
        nist,
        rouge_l,
        sacrebleu_bleu,
        scaled,
        ser,
        sr18_bleu,
        sr18_nist,
    )
