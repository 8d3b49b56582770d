"""Track kinds defined as data: a definition names verified parts from the registries (a reader,
a normalisation, how many references count, metrics with their options, per-metric tokens,
subset attributes, the printing rule) and becomes a scoring profile like the built-in ones.

An organiser's next shared task is a definition, not code: every number still comes from a
reader, a normalisation and metrics that are checked against the official tools. A definition
is refused with the key that is wrong and what is known there.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scorer.io import webnlg
from scorer.io.by_track import (
    read_e2e_outputs,
    read_e2e_references,
    read_webnlg_inputs,
    read_webnlg_outputs,
)
from scorer.io.e2e import ReferenceItem
from scorer.io.items import Item
from scorer.metrics import UnknownMetric, get_metric, metric_options, register_preset
from scorer.normalise import NORMALISATIONS, Normalisation
from scorer.profiles import PROFILES, Profile


class KindError(ValueError):
    """A definition refused: ``str()`` names the key and says what is known there."""


@dataclass(frozen=True)
class Reader:
    """How a kind's files are read: the references file (each item's input, references and
    attributes), the inputs file teams get (checked against it), and an output file."""

    references: Callable[..., list[ReferenceItem]]
    outputs: Callable[[bytes, Sequence[str] | None, str], list[str]]
    inputs: Callable[[bytes, str], list[str]] | None = None
    options: tuple[str, ...] = ()


def _webnlg_references(
    data: bytes,
    filename: str,
    *,
    seen_categories: Sequence[str] = tuple(webnlg.SEEN_CATEGORIES_2017),
    language: str | None = None,
) -> list[ReferenceItem]:
    entries = webnlg.read_references(data, filename, language=language)
    return list(webnlg.as_items(entries, seen_categories))


READERS: dict[str, Reader] = {
    "webnlg-xml": Reader(
        _webnlg_references,
        read_webnlg_outputs,
        read_webnlg_inputs,
        options=("seen_categories", "language"),
    ),
    "e2e-csv": Reader(read_e2e_references, read_e2e_outputs),
}
"""Readers by name: WebNLG's benchmark XML (``<entry category eid size>``, ``<mtriple>``,
``<lex>``; attributes category, size, eid, seen) and the E2E ``mr,ref`` CSV."""


@lru_cache(maxsize=1 << 16)
def nltk_words(text: str) -> str:
    """Memoised: a worker tokenises the same references for every submission to a test set."""
    return " ".join(_nltk_tokenizer().tokenize(text))


@lru_cache(maxsize=1)
def _nltk_tokenizer() -> Any:
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


TOKENISERS: dict[str, Callable[[str], str]] = {"nltk": nltk_words}
"""Per-metric tokens: ``nltk`` is NLTK's word tokeniser (its Treebank rules) on the whole text,
as ``nltk.word_tokenize`` without punkt's sentence split (its data is not installed here)."""

UNCHANGED = Normalisation("none", lambda text: text, lambda text: text)

KIND_KEYS = {
    "name", "title", "reader", "normalisation", "references", "metrics", "subsets",
    "breakdowns", "primary", "decimals", "truncate",
}  # fmt: skip


def build_profile(definition: Mapping[str, Any], where: str = "kind") -> Profile:
    """The profile a definition describes, registered under its name and a digest of the
    definition (two definitions under one name never share scores or signatures); a definition
    already built is looked up, not checked and built again."""
    _known_keys(definition, KIND_KEYS, where)
    name = _text(definition, "name", where)
    if name in PROFILES or "@" in name or "/" in name:
        raise KindError(f"{where}.name: {name!r} is taken by a built-in kind or has @ or /")
    digest = definition_digest(definition)
    built = PROFILES.get(f"{name}@{digest}")
    if built is not None:  # this very definition, already checked and registered
        return built
    reader, reader_options = _reader(definition.get("reader"), f"{where}.reader")
    normalisation = _normalisation(definition.get("normalisation", "none"), where)
    keep = definition.get("references")
    if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool) or keep < 1):
        raise KindError(f"{where}.references: the number of references that count, 1 or more")
    metrics, tokenisers = _metrics(definition.get("metrics"), f"{name}@{digest}", where)
    shown = [get_metric(m).name for m in metrics]
    if len(set(shown)) != len(shown):
        raise KindError(f"{where}.metrics: two metrics show as the same column: {shown}")
    primary = definition.get("primary", shown[0])
    if primary not in shown:
        raise KindError(f"{where}.primary: {primary!r} is not one of the columns {shown}")
    subsets = tuple(_texts(definition, "subsets", where))
    truncate = frozenset(_texts(definition, "truncate", where))
    if truncate - set(shown):
        raise KindError(f"{where}.truncate: {sorted(truncate - set(shown))} are not columns")
    decimals = definition.get("decimals", 4)
    if not isinstance(decimals, int) or isinstance(decimals, bool) or not 0 <= decimals <= 8:
        raise KindError(f"{where}.decimals: 0 to 8")

    def read_references(data: bytes, filename: str) -> list[ReferenceItem]:
        items = reader.references(data, filename, **reader_options)
        return [
            Item(
                item.input,
                tuple(normalisation.reference(text) for text in item.references[:keep]),
                getattr(item, "attributes", {}),
            )
            for item in items
        ]

    label = normalisation.name + (f"|refs:first-{keep}" if keep else "") + f"|kind:{digest}"
    profile = Profile(
        name=f"{name}@{digest}",
        metrics=tuple(metrics),
        normalisation=label,
        normalise=normalisation.output,
        read_raw_outputs=reader.outputs,
        read_references=read_references,
        read_inputs=reader.inputs,
        primary_metric=primary,
        decimals=decimals,
        truncated_columns=truncate,
        subsets=subsets,
        breakdowns=tuple(_texts(definition, "breakdowns", where)),
        tokenisers=tokenisers,
    )
    PROFILES[profile.name] = profile
    return profile


def definition_digest(definition: Mapping[str, Any]) -> str:
    text = json.dumps(definition, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _known_keys(data: Any, known: set[str], where: str) -> None:
    if not isinstance(data, Mapping):
        raise KindError(f"{where}: expected a mapping")
    unknown = sorted(set(map(str, data)) - known)
    if unknown:
        raise KindError(f"{where}.{unknown[0]}: unknown key (known: {', '.join(sorted(known))})")


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise KindError(f"{where}.{key}: missing (a name)")
    return value


def _texts(data: Mapping[str, Any], key: str, where: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KindError(f"{where}.{key}: expected a list of names")
    return value


def _reader(value: Any, where: str) -> tuple[Reader, dict[str, Any]]:
    options: dict[str, Any] = {}
    if isinstance(value, Mapping):
        options = {k: v for k, v in value.items() if k != "name"}
        value = value.get("name")
    if value not in READERS:
        raise KindError(f"{where}: unknown reader {value!r} (known: {', '.join(sorted(READERS))})")
    reader = READERS[value]
    unknown = sorted(set(options) - set(reader.options))
    if unknown:
        raise KindError(
            f"{where}.{unknown[0]}: not an option of {value} "
            f"(its options: {', '.join(reader.options) or 'none'})"
        )
    return reader, options


def _normalisation(value: Any, where: str) -> Normalisation:
    if value == UNCHANGED.name:
        return UNCHANGED
    if value not in NORMALISATIONS:
        known = ", ".join(sorted([*NORMALISATIONS, UNCHANGED.name]))
        raise KindError(f"{where}.normalisation: unknown {value!r} (known: {known})")
    return NORMALISATIONS[value]


def _metrics(
    value: Any, prefix: str, where: str
) -> tuple[list[str], dict[str, Callable[[str], str]]]:
    if not isinstance(value, list) or not value:
        raise KindError(f"{where}.metrics: a list of metrics, at least one")
    ids: list[str] = []
    tokenisers: dict[str, Callable[[str], str]] = {}
    for index, entry in enumerate(value):
        at = f"{where}.metrics[{index}]"
        if isinstance(entry, str):
            entry = {"metric": entry}
        _known_keys(entry, {"metric", "options", "tokens"}, at)
        metric = entry.get("metric")
        options = entry.get("options") or {}
        if not isinstance(options, Mapping):
            raise KindError(f"{at}.options: expected a mapping")
        try:
            allowed = metric_options(str(metric))
        except UnknownMetric as error:
            raise KindError(f"{at}.metric: {error}") from None
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise KindError(
                f"{at}.options.{unknown[0]}: not an option of {metric} "
                f"(its options: {', '.join(allowed) or 'none'})"
            )
        metric_id = str(metric)
        if options:
            metric_id = f"{prefix}/{metric}"
            register_preset(metric_id, str(metric), **options)
        try:
            get_metric(metric_id)
        except (TypeError, ValueError) as error:
            raise KindError(f"{at}.options: {error}") from None
        tokens = entry.get("tokens")
        if tokens is not None:
            if tokens not in TOKENISERS:
                raise KindError(
                    f"{at}.tokens: unknown {tokens!r} (known: {', '.join(sorted(TOKENISERS))})"
                )
            tokenisers[metric_id] = TOKENISERS[tokens]
        ids.append(metric_id)
    return ids, tokenisers


def read_kinds(data: bytes, filename: str) -> dict[str, Mapping[str, Any]]:
    """The ``kinds:`` of a YAML file (a bundle's ``challenge.yaml``): name -> definition."""
    import yaml

    try:
        loaded = yaml.safe_load(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as error:
        raise KindError(f"{filename}: not a YAML file ({error})") from None
    entries = loaded.get("kinds") if isinstance(loaded, Mapping) else None
    if not isinstance(entries, list):
        raise KindError(f"{filename}: no kinds: list")
    found: dict[str, Mapping[str, Any]] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise KindError(f"{filename}: kinds[{index}].name: missing (a name)")
        found[entry["name"]] = entry
    return found
