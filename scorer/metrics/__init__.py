"""Metric registry: one module per metric, looked up by id (``BLEU``, ``BLEU-multibleu`` ...).

Options. A factory takes a metric's options as keyword-only arguments with defaults::

    @register("BLEU-multibleu")
    def make_multibleu(*, lowercase: bool = False, references: int | None = None) -> MultiBLEU:

and ``get_metric("BLEU-multibleu", lowercase=True)`` builds that variant; ``metric_options(id)``
lists what an id accepts, with the defaults (what a track definition is checked against); an
unknown id or option raises ``UnknownMetric`` naming the known ones. A fixed choice of options
can have an id of its own, for profiles that list metrics by id
(``register_preset("BLEU-webnlg2017", "BLEU-multibleu", lowercase=True, references=3)``);
a preset's options are fixed. Every metric's signature spells out its options, so two scores
computed with different options never pass for comparable.

Bounds. Every option declares its type and range where the metric registers
(``@register("chrF++", char_order=Bound(int, 1, 10), ...)``; registering a factory with an
option left undeclared is an error): an option is checked against it before the metric is
built, so a kind definition cannot make the worker every challenge shares compute n-grams of
order 30,000 or hold 200,000 references (``option_problem``; a definition names the key).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorer.errors import UnknownMetric
from scorer.metrics.base import Metric

_FACTORIES: dict[str, Callable[..., Metric]] = {}
_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {}
_PRESET_GLOSSARY: dict[str, str] = {}


@dataclass(frozen=True)
class Bound:
    """An option's type (``int``, ``float``: any number, ``bool``, ``str``) and, for numbers,
    its range (inclusive); for text, the ``choices`` it may be and, in ``missing``, values
    known but not to be had here with the reason (METEOR's ``language: ru``: its paraphrase
    table); ``none``: ``None`` is accepted too (``references: None``, all of them)."""

    kind: type
    low: float = 0
    high: float = 0
    none: bool = False
    choices: tuple[str, ...] = ()
    missing: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.kind is str:
            return f"one of {', '.join(self.choices)}"
        what = "an integer" if self.kind is int else "a number"
        return f"{what} from {self.low:g} to {self.high:g}"

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value``, or None."""
        if value is None and self.none:
            return None
        if self.kind is bool:
            fits = isinstance(value, bool)
        elif self.kind is str:
            why = dict(self.missing).get(value) if isinstance(value, str) else None
            if why is not None:
                return (
                    f"{value!r} cannot be scored here: {why} (available: {', '.join(self.choices)})"
                )
            fits = value in self.choices
        elif (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (self.kind is int and not isinstance(value, int))
        ):
            fits = False
        else:
            fits = self.low <= value <= self.high  # NaN fits nowhere
        return None if fits else f"expected {self.describe()}, got {value!r}"


FLAG = Bound(bool)
REFERENCES = Bound(int, 1, 100, none=True)
"""How many of an item's references count: the shared tasks have up to a few dozen."""

_BOUNDS: dict[str, dict[str, Bound]] = {}


def built_in() -> dict[str, str]:
    """The module that registers each built-in id, read from the modules' source (each
    ``register("ID", ...)`` or ``register_preset("ID", ...)`` with its id written out): a
    profile's metrics load their own modules only (all of them bring sacreBLEU, rouge-score,
    pyter's and the learned metrics' code: about twice what the E2E metrics import), and a new
    metric is its module alone. ``tests/scorer/metrics/test_registry.py`` holds it to the
    modules' own registrations."""
    with _INDEXING:
        return dict(_index())


_INDEXING = threading.Lock()
"""One thread reads the modules' source at a time: CPython 3.11's ``ast.parse`` in two threads
at once can fail ("AST constructor recursion depth mismatch"), as a gunicorn worker's first
requests drawing pages together did."""


@functools.cache
def _index() -> tuple[tuple[str, str], ...]:
    found = []
    for module in _modules():
        source = (Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8")
        if "register" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("register", "register_preset")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append((node.args[0].value, module))
    return tuple(sorted(found))


def _modules() -> list[str]:
    """The metric modules' names: those with Python source (a compiled helper such as
    ``_tercom``, TER's shift search, registers nothing)."""
    folder = Path(__file__).parent
    found = pkgutil.iter_modules([str(folder)])
    return sorted(m.name for m in found if (folder / f"{m.name}.py").exists())


def register(
    name: str, **bounds: Bound
) -> Callable[[Callable[..., Metric]], Callable[..., Metric]]:
    """Register a metric factory under its id; its keyword-only arguments are its options,
    each with its ``Bound`` given here."""

    def decorate(factory: Callable[..., Metric]) -> Callable[..., Metric]:
        options = set(_keyword_options(factory))
        if options != set(bounds):
            raise TypeError(f"metric {name}: declare the bounds of exactly its options {options}")
        _FACTORIES[name] = factory
        _BOUNDS[name] = dict(bounds)
        return factory

    return decorate


def register_preset(name: str, base: str, *, glossary: str = "", **options: Any) -> None:
    """Give ``base`` with ``options`` the id ``name``; ``glossary``: what its figure means, where
    it says more than the base's (``Traits.glossary``)."""
    _PRESETS[name] = (base, options)
    if glossary:
        _PRESET_GLOSSARY[name] = glossary


def glossary_of(name: str) -> str:
    """What the figure of the metric ``name`` means (its preset's words, or its traits')."""
    _load(name)
    return _PRESET_GLOSSARY.get(name) or get_metric(name).traits.glossary


def get_metric(name: str, **options: Any) -> Metric:
    """Build the metric ``name`` with ``options``."""
    _load(name)
    if name in _PRESETS:
        if options:
            raise UnknownMetric(
                f"{name} is a preset ({_describe_preset(name)}); its options are fixed"
            )
        base, fixed = _PRESETS[name]
        return get_metric(base, **fixed)
    accepted = metric_options(name)
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise UnknownMetric(
            f"metric {name} has no option {', '.join(unknown)}; "
            f"options: {', '.join(accepted) or 'none'}"
        )
    for option, value in options.items():
        problem = option_problem(name, option, value)
        if problem:
            raise ValueError(f"metric {name}: option {option}: {problem}")
    return _FACTORIES[name](**options)


def metric_bounds(name: str) -> dict[str, Bound]:
    """Each option of ``name`` and its bound (a preset has none left to choose)."""
    metric_options(name)
    return {} if name in _PRESETS else dict(_BOUNDS[name])


def option_problem(name: str, option: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the option ``option`` of ``name`` (a known option),
    e.g. ``expected an integer from 1 to 10, got 30000``; None when it is within bounds."""
    return metric_bounds(name)[option].problem(value)


def metric_options(name: str) -> dict[str, Any]:
    """The options of ``name`` and their defaults (a preset has none left to choose)."""
    _load(name)
    if name in _PRESETS:
        return {}
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise UnknownMetric(
            f"unknown metric {name!r}; known: {', '.join(known_metrics())}"
        ) from None
    return _keyword_options(factory)


def _keyword_options(factory: Callable[..., Metric]) -> dict[str, Any]:
    return {
        parameter.name: parameter.default
        for parameter in inspect.signature(factory).parameters.values()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    }


def base_metric(name: str) -> str:
    """The registered factory behind ``name`` (a preset's base; a factory is its own)."""
    return _PRESETS[name][0] if name in _PRESETS else name


def known_metrics() -> list[str]:
    """Every id, presets included."""
    _load_builtin()
    return sorted({*_FACTORIES, *_PRESETS})


def _describe_preset(name: str) -> str:
    base, fixed = _PRESETS[name]
    return f"{base} with " + ", ".join(f"{key}={value!r}" for key, value in fixed.items())


def _load(name: str) -> None:
    """Register ``name`` by importing its module (every built-in one for an id none has, so
    that the error lists them all)."""
    if name in _FACTORIES or name in _PRESETS:
        return
    module = built_in().get(name)
    if module is None:
        _load_builtin()
    else:
        importlib.import_module(f"scorer.metrics.{module}")


def _load_builtin() -> None:
    # Imported when asked for, so that `import scorer` stays fast (no sacrebleu, no JVM).
    for module in sorted(set(built_in().values())):
        importlib.import_module(f"scorer.metrics.{module}")
