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
import math
from collections.abc import Callable, Mapping
from typing import Any

from scorer.errors import InputError, KindError, SubsetsMissing, UnknownMetric
from scorer.io.e2e import ReferenceItem
from scorer.io.items import Item
from scorer.kinds.analyses import ANNOTATIONS, DESCRIPTIONS
from scorer.kinds.attributes import ATTRIBUTES
from scorer.kinds.instructions import READER_INSTRUCTIONS, SubmitInstructions
from scorer.kinds.parts import READERS, TOKENISERS, Reader
from scorer.kinds.profile import Profile, subsets_problem
from scorer.metrics import get_metric, metric_options, option_problem, register_preset
from scorer.metrics import normalised_average as norm_avg
from scorer.normalise import NORMALISATIONS, Normalisation, unchanged

PROFILES: dict[str, Profile] = {}
"""Every profile by name: the built-in kinds (``built_in.yaml``, loaded by ``scorer.kinds``),
their track-kind aliases, and each organiser's definition built so far (``name@digest``)."""

DEFINITIONS: dict[str, Mapping[str, Any]] = {}
"""The definition each organiser's profile in ``PROFILES`` was built from, by its name (what
a training file's variant of it starts from, ``scorer.kinds.trained_variant``)."""

DERIVED = {norm_avg.NAME: norm_avg.SIGNATURE}
"""Columns computed from other columns (E2E's normalised average of its five metrics)."""

MAX_DECIMALS = 4
"""Decimals a published table may print of a stored score (``decimals``, ``column_decimals``,
and more through a ``scale`` above 1): before publication a team reads its own scores rounded
so, and more digits would be the exact score, the oracle the rounding is there to blunt."""

SCALE_POWERS = range(-3, 4)
"""The powers of ten a column may be printed multiplied by (``scale``: 0.001 to 1000): a change
of units, as a 0-100 BLEU printed on 0-1; any other factor is no table's way of printing."""

KIND_KEYS = {
    "name",
    "title",
    "reader",
    "normalisation",
    "references",
    "metrics",
    "subsets",
    "breakdowns",
    "attributes",
    "primary",
    "decimals",
    "truncate",
    "column_decimals",
    "derived",
    "derived_after",
    "annotate",
    "describe",
    "item_metrics",
}
KIND_KEYS |= {"groups", "submit"}
"""What a kind says of its pages: its column groups and what an output file looks like."""
KIND_KEYS |= {"scale"}
"""How a column is printed: a factor its stored value is multiplied by (pages, exports)."""
KIND_KEYS |= {"import"}  # how the board imports its test sets (not scored: the board reads it)
MAX_DEPTH = 32
"""Levels of lists and mappings a definition may nest (the built-in kinds use 5): one from a
board ``nlgboard-submit`` does not trust, or a bundle, is refused past it, not walked by
recursive code until Python's stack runs out."""
BUILT_IN_KEYS = {"signature", "track_kinds"}
"""Keys only the built-in definitions have: the normalisation label their stored scores carry
(kept from before kinds were data) and the board's track kinds they score."""


def build_profile(definition: Mapping[str, Any], where: str = "kind") -> Profile:
    """The profile an organiser's definition describes, registered under its name and a digest
    of the definition (two definitions under one name never share scores or signatures); a
    definition already built is looked up, not checked and built again."""
    _known_keys(definition, KIND_KEYS, where)
    name = _text(definition, "name", where)
    if name in PROFILES or "@" in name or "/" in name:
        raise KindError(f"{where}.name: {name!r} is taken by a built-in kind or has @ or /")
    digest = _plain_digest(definition, where)
    built = PROFILES.get(f"{name}@{digest}")
    if built is not None:  # this very definition, already checked and registered
        return built
    profile = _profile(definition, f"{name}@{digest}", where, label=None)
    PROFILES[profile.name] = profile
    DEFINITIONS[profile.name] = definition
    return profile


def build_built_in(definition: Mapping[str, Any], where: str) -> Profile:
    """A built-in kind: the same parts and checks, under its plain name and its own label."""
    _known_keys(definition, KIND_KEYS | BUILT_IN_KEYS, where)
    name = _text(definition, "name", where)
    return _profile(definition, name, where, label=_text(definition, "signature", where))


def _profile(definition: Mapping[str, Any], name: str, where: str, label: str | None) -> Profile:
    reader, reader_options = _reader(definition.get("reader"), f"{where}.reader")
    normalisation = _normalisation(definition.get("normalisation", "none"), where)
    keep = definition.get("references")
    if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool) or keep < 1):
        raise KindError(f"{where}.references: the number of references that count, 1 or more")
    derived = tuple(_texts(definition, "derived", where))
    subsets = tuple(_texts(definition, "subsets", where))
    truncate = frozenset(_texts(definition, "truncate", where))
    decimals = _decimals(definition.get("decimals", 4), f"{where}.decimals")
    item_metrics = tuple(_texts(definition, "item_metrics", where))
    if label is None:  # an organiser's definition: every name checked against the registries
        metrics, tokenisers = _metrics(definition.get("metrics"), name, where)
        primary = _check_columns(definition, metrics, derived, where)
        _check_groups(
            definition.get("groups"), [get_metric(m).name for m in metrics], derived, where
        )
    else:  # a built-in one, checked by the tests: no metric module loaded at import
        metrics, tokenisers, primary = list(definition["metrics"]), {}, definition["primary"]
    column_decimals, scale = _printing(definition, decimals, where)
    derived_after = definition.get("derived_after")
    annotate = _named(definition.get("annotate"), ANNOTATIONS, f"{where}.annotate")
    describe = _named(definition.get("describe"), DESCRIPTIONS, f"{where}.describe")
    written_for = _written_for(definition, reader_options, where) if label is None else None
    if written_for and "language" in reader.options and "language" not in reader_options:
        reader_options = {**reader_options, "written_for": written_for}
    bound = reader.bound(reader_options)
    if label is None:
        label = normalisation.name + (f"|refs:first-{keep}" if keep else "")
        label += f"|kind:{name.rpartition('@')[2]}"
    return Profile(
        name=name,
        metrics=tuple(metrics),
        normalisation=label,
        normalise=normalisation.output,
        read_raw_outputs=bound.outputs,
        read_references=_subsets_checked(
            _references_reader(bound, normalisation, keep), subsets, definition, where
        ),
        read_inputs=bound.inputs,
        inputs_file=bound.inputs_file,
        training_texts=bound.training_texts,
        derived=derived,
        derived_after=derived_after,
        describe=describe,
        annotate=annotate,
        primary_metric=primary,
        item_metrics=item_metrics,
        decimals=decimals,
        column_decimals=column_decimals,
        truncated_columns=truncate,
        scale=scale,
        subsets=subsets,
        breakdowns=tuple(_texts(definition, "breakdowns", where)),
        attribute_parts=tuple(
            _named(part, ATTRIBUTES, f"{where}.attributes")
            for part in _texts(definition, "attributes", where)
        ),
        tokenisers=tokenisers,
        track_kinds=tuple(definition.get("track_kinds") or ()),
        references=keep,
        folder_suffix=bound.folder_suffix,
        title=_title(definition.get("title"), name, where),
        declared_groups=_groups(definition.get("groups")),
        submit=_submit(definition.get("submit"), _reader_name(definition.get("reader")), where),
        language=written_for[0] if written_for else None,
        attribute_files=_attribute_files(reader, reader_options, subsets),
    )


def _attribute_files(
    reader: Reader, options: Mapping[str, Any], subsets: tuple[str, ...]
) -> dict[str, str]:
    """The kind's subset attributes its reader reads from a file the definition names (a set
    may lack it), each with that file's name."""
    return {
        attribute: str(options[option])
        for option, attribute in reader.attribute_files.items()
        if options.get(option) and attribute in subsets
    }


def _check_columns(
    definition: Mapping[str, Any], metrics: list[str], derived: tuple[str, ...], where: str
) -> str:
    """Check what names the columns (metrics' shown names, derived columns); the primary."""
    shown = [get_metric(m).name for m in metrics]
    if len(set(shown)) != len(shown):
        raise KindError(f"{where}.metrics: two metrics show as the same column: {shown}")
    if set(derived) - set(DERIVED):
        raise KindError(
            f"{where}.derived: unknown {sorted(set(derived) - set(DERIVED))} "
            f"(known: {', '.join(sorted(DERIVED))})"
        )
    derived_after = definition.get("derived_after")
    if derived_after is not None and derived_after not in metrics:
        raise KindError(f"{where}.derived_after: {derived_after!r} is not one of {metrics}")
    columns = [*shown, *derived]
    primary = definition.get("primary", shown[0])
    if primary not in columns:
        raise KindError(f"{where}.primary: {primary!r} is not one of the columns {columns}")
    truncate = set(_texts(definition, "truncate", where))
    if truncate - set(columns):
        raise KindError(f"{where}.truncate: {sorted(truncate - set(columns))} are not columns")
    column_decimals = definition.get("column_decimals") or {}
    if not isinstance(column_decimals, Mapping) or set(column_decimals) - set(columns):
        raise KindError(f"{where}.column_decimals: a mapping of columns {columns} to decimals")
    scale = definition.get("scale") or {}
    if not isinstance(scale, Mapping) or set(scale) - set(columns):
        raise KindError(f"{where}.scale: a mapping of columns {columns} to factors")
    item_metrics = set(_texts(definition, "item_metrics", where))
    if item_metrics - set(metrics):
        raise KindError(
            f"{where}.item_metrics: {sorted(item_metrics - set(metrics))} "
            f"are not among the metrics {metrics}"
        )
    return str(primary)


def _groups(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A definition's ``groups:`` as the profile keeps them (checked by ``_check_groups``)."""
    return tuple((str(g["name"]), tuple(map(str, g["columns"]))) for g in value or ())


def _check_groups(value: Any, shown: list[str], derived: tuple[str, ...], where: str) -> None:
    """``groups: [{name, columns: [...]}, ...]``: every column in exactly one group; the groups'
    order is the columns' order."""
    if value is None:
        return
    columns = [*shown, *derived]
    shape = f"{where}.groups: a list of {{name: text, columns: [column, ...]}} naming {columns}"
    if not isinstance(value, list) or not value:
        raise KindError(shape)
    listed: list[str] = []
    for index, group in enumerate(value):
        if not isinstance(group, Mapping):
            raise KindError(shape)
        _known_keys(group, {"name", "columns"}, f"{where}.groups[{index}]")
        _text(group, "name", f"{where}.groups[{index}]")
        names = group.get("columns")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise KindError(f"{where}.groups[{index}].columns: a list of columns of {columns}")
        listed += names
    unknown = sorted(set(listed) - set(columns))
    twice = sorted({n for n in listed if listed.count(n) > 1})
    missing = [n for n in columns if n not in listed]
    if unknown or twice or missing:
        said = [f"not columns: {unknown}"] if unknown else []
        said += [f"in two groups: {twice}"] if twice else []
        said += [f"in no group: {missing}"] if missing else []
        raise KindError(f"{where}.groups: every column in one group ({'; '.join(said)})")


def _title(value: Any, name: str, where: str) -> str:
    """The pages' title: text (a number as YAML reads ``title: 2020`` is taken as written),
    else the kind's name; a list or a mapping is refused, not printed as Python's repr."""
    if isinstance(value, (list, Mapping)):
        raise KindError(f"{where}.title: the kind's title on the board's pages (text)")
    return str(value or name.partition("@")[0])


def _reader_name(value: Any) -> str:
    return str(value.get("name") if isinstance(value, Mapping) else value)


def _submit(value: Any, reader: str, where: str) -> SubmitInstructions:
    """A definition's ``submit: {layout, example}`` (the example optional), else what its
    reader takes (``scorer.kinds.instructions``)."""
    if value is None:
        return READER_INSTRUCTIONS[reader]
    if not isinstance(value, Mapping):
        raise KindError(f"{where}.submit: {{layout: text, example: text}}")
    _known_keys(value, {"layout", "example"}, f"{where}.submit")
    layout, example = value.get("layout"), value.get("example", "")
    if not isinstance(layout, str) or not layout.strip():
        raise KindError(f"{where}.submit.layout: what an output file holds, in words (text)")
    if not isinstance(example, str):
        raise KindError(f"{where}.submit.example: the start of an output file (text)")
    return SubmitInstructions(layout.strip(), example)


def _references_reader(
    reader: Reader, normalisation: Normalisation, keep: int | None
) -> Callable[[bytes, str], list[ReferenceItem]]:
    """The reader's items, references normalised and cut to the first ``keep``."""
    if keep is None and normalisation.reference is unchanged:
        return reader.references

    def read_references(data: bytes, filename: str) -> list[ReferenceItem]:
        return [
            Item(
                item.input,
                tuple(normalisation.reference(text) for text in item.references[:keep]),
                getattr(item, "attributes", {}),
            )
            for item in reader.references(data, filename)
        ]

    return read_references


def _subsets_checked(
    read: Callable[[bytes, str], list[ReferenceItem]],
    subsets: tuple[str, ...],
    definition: Mapping[str, Any],
    where: str,
) -> Callable[[bytes, str], list[ReferenceItem]]:
    """The reader, refusing a test set whose items lack an attribute the kind's ``subsets``
    name (read from the file, not computed by an ``attributes:`` part): left out silently, the
    subset would be missing from every leaderboard."""
    computed = {
        name
        for part in _texts(definition, "attributes", where)
        if part in ATTRIBUTES  # an unknown one is refused with the others (_named)
        for name in ATTRIBUTES[part].names
    }
    wanted = tuple(name for name in subsets if name not in computed)
    if not wanted:
        return read
    kind = str(definition.get("name"))

    def read_checked(data: bytes, filename: str) -> list[ReferenceItem]:
        items = read(data, filename)
        found = [getattr(item, "attributes", {}) for item in items]
        problem = subsets_problem(kind, wanted, found)
        if problem:
            missing = tuple(n for n in wanted if not any(f.get(n) for f in found))
            raise SubsetsMissing(problem, filename=filename, items=items, missing=missing)
        return items

    return read_checked


TOKEN_LANGUAGES = {"nltk": "en", "nltk-punkt": "en", "nltk35-punkt": "en", "razdel": "ru"}
"""The language each tokeniser of ``TOKENISERS`` is made for."""


def _written_for(
    definition: Mapping[str, Any], reader_options: Mapping[str, Any], where: str
) -> tuple[str, str] | None:
    """The one language a kind's parts are made for and the part that says it (the reader's
    ``language``, a tokeniser, METEOR-files' ``language``); a kind whose parts disagree is
    refused, saying which."""
    said: list[tuple[str, str]] = []
    if isinstance(reader_options.get("language"), str):
        said.append(
            (reader_options["language"], f"its reader's language {reader_options['language']!r}")
        )
    for index, entry in enumerate(definition.get("metrics") or []):
        if not isinstance(entry, Mapping):
            continue
        tokens = entry.get("tokens")
        if tokens in TOKEN_LANGUAGES:
            said.append(
                (
                    TOKEN_LANGUAGES[tokens],
                    f"metrics[{index}]'s tokens {tokens} ({TOKEN_LANGUAGES[tokens]})",
                )
            )
        if entry.get("metric") == "METEOR-files":
            language = (entry.get("options") or {}).get("language", "en")
            said.append((language, f"metrics[{index}]'s METEOR-files language {language!r}"))
    languages = dict.fromkeys(language for language, _ in said)
    if len(languages) > 1:
        first, *_ = said
        other = next(part for part in said if part[0] != first[0])
        raise KindError(
            f"{where}: {first[1]} and {other[1]} are made for different languages: a kind "
            "scores one language (make one kind per language)"
        )
    return said[0] if said else None


def _decimals(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_DECIMALS:
        raise KindError(f"{where}: 0 to {MAX_DECIMALS} decimals, got {value!r}")
    return value


def _printing(
    definition: Mapping[str, Any], decimals: int, where: str
) -> tuple[dict[str, int], dict[str, float]]:
    """The printing rule's columns: their decimals and their factors, within the bounds."""
    given = definition.get("column_decimals") or {}
    if not isinstance(given, Mapping):
        raise KindError(f"{where}.column_decimals: a mapping of columns to decimals")
    column_decimals = {
        str(k): _decimals(v, f"{where}.column_decimals.{k}") for k, v in given.items()
    }
    scale = _scale(definition.get("scale"), f"{where}.scale")
    _check_printed_digits(decimals, column_decimals, scale, where)
    return column_decimals, scale


def _scale(value: Any, where: str) -> dict[str, float]:
    """Column -> the power of ten its values are printed multiplied by (``SCALE_POWERS``)."""
    if value is not None and not isinstance(value, Mapping):
        raise KindError(f"{where}: a mapping of columns to factors, e.g. {{BLEU: 0.01}}")
    return {str(k): _power_of_ten(v, f"{where}.{k}") for k, v in (value or {}).items()}


def _power_of_ten(value: Any, where: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        for power in SCALE_POWERS:
            if math.isclose(value, 10.0**power, rel_tol=1e-9):
                return float(value)
    raise KindError(f"{where}: a power of ten from 0.001 to 1000 (e.g. 0.01), got {value!r}")


def _check_printed_digits(
    decimals: int, column_decimals: Mapping[str, int], scale: Mapping[str, float], where: str
) -> None:
    """A column printed x1000 with 4 decimals shows 7 decimals of its stored score: the bound
    on decimals holds for what is printed of the stored score, whatever its factor."""
    for column, factor in scale.items():
        shown = column_decimals.get(column, decimals)
        digits = shown + round(math.log10(factor))
        if digits > MAX_DECIMALS:
            raise KindError(
                f"{where}.scale.{column}: x{factor:g} with {shown} decimals prints {digits} "
                f"decimals of the stored score (at most {MAX_DECIMALS}): print fewer decimals "
                "or use a smaller factor"
            )


def _known(value: Any, registry: Mapping[str, Any]) -> bool:
    """``value`` names an entry of ``registry``: a list or a mapping where a name belongs is
    an unknown name, said as such (``in`` would raise TypeError on it)."""
    return isinstance(value, str) and value in registry


def _named(value: Any, registry: Mapping[str, Any], where: str) -> Any:
    if value is None:
        return None
    if not _known(value, registry):
        raise KindError(f"{where}: unknown {value!r} (known: {', '.join(sorted(registry))})")
    return registry[value]


def _plain_digest(definition: Mapping[str, Any], where: str) -> str:
    """The digest of a definition that is plain data: at most MAX_DEPTH levels deep (a
    YAML alias that contains itself never ends), text keys (JSON sorts no others)."""
    if _deeper_than(definition, MAX_DEPTH):
        raise KindError(f"{where}: nested deeper than {MAX_DEPTH} levels of lists and mappings")
    try:
        return definition_digest(definition)
    except (TypeError, ValueError) as error:
        raise KindError(f"{where}: not plain data with text keys ({error})") from None


def _deeper_than(value: Any, limit: int) -> bool:
    """Lists and mappings nested more than ``limit`` levels, found depth first without
    recursion: the first path that goes too deep ends the walk (so a cycle does too)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            item = list(item.values())
        if isinstance(item, list):
            if depth == limit:
                return True
            stack.extend((child, depth + 1) for child in item)
    return False


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
    if not _known(value, READERS):
        raise KindError(f"{where}: unknown reader {value!r} (known: {', '.join(sorted(READERS))})")
    reader = READERS[value]
    unknown = sorted(set(map(str, options)) - set(reader.options))
    if unknown:
        raise KindError(
            f"{where}.{unknown[0]}: not an option of {value} "
            f"(its options: {', '.join(reader.options) or 'none'})"
        )
    for key, chosen in options.items():
        if not reader.options[key].fits(chosen):
            raise KindError(f"{where}.{key}: expected {reader.options[key].what}, got {chosen!r}")
    return reader, options


def _normalisation(value: Any, where: str) -> Normalisation:
    if not _known(value, NORMALISATIONS):
        known = ", ".join(sorted(NORMALISATIONS))
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
        unknown = sorted(set(map(str, options)) - set(allowed))
        if unknown:
            raise KindError(
                f"{at}.options.{unknown[0]}: not an option of {metric} "
                f"(its options: {', '.join(allowed) or 'none'})"
            )
        for option, chosen in options.items():
            problem = option_problem(str(metric), str(option), chosen)
            if problem:
                raise KindError(f"{at}.options.{option}: {problem}")
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
            if not _known(tokens, TOKENISERS):
                raise KindError(
                    f"{at}.tokens: unknown {tokens!r} (known: {', '.join(sorted(TOKENISERS))})"
                )
            tokenisers[metric_id] = TOKENISERS[tokens]
        ids.append(metric_id)
    return ids, tokenisers


def _served_kind(answer: Mapping[str, Any], filename: str) -> dict[str, Mapping[str, Any]]:
    """The kind of a board's ``GET .../kind`` answer; a built-in kind has no definition."""
    definition = answer.get("definition")
    if definition is None:
        raise KindError(
            f"{filename}: the board scores this track with the built-in kind "
            f"{answer.get('profile')!r}: give --profile {answer.get('profile')} without --kinds"
        )
    if not isinstance(definition, Mapping) or not isinstance(definition.get("name"), str):
        raise KindError(f"{filename}: definition: not a kind (an object with a name)")
    return {definition["name"]: definition}


def read_kinds(data: bytes, filename: str) -> dict[str, Mapping[str, Any]]:
    """The ``kinds:`` of a YAML file (a bundle's ``challenge.yaml``), or the one kind of the
    board's ``GET .../tracks/T/kind`` answer (JSON, read within ``bounded_json``'s limits):
    name -> definition."""
    import yaml

    if data.lstrip()[:1] == b"{":  # JSON: bounded before YAML's parser sees it
        from scorer.io.bounded_json import load_json

        try:
            loaded = load_json(data.decode("utf-8-sig"), filename)
        except (UnicodeDecodeError, InputError) as error:
            raise KindError(f"{filename}: {error}") from None
    else:
        from scorer.io.bounded_yaml import load_yaml

        try:
            loaded = load_yaml(data.decode("utf-8"))
        except (UnicodeDecodeError, yaml.YAMLError) as error:
            raise KindError(f"{filename}: not a YAML file ({error})") from None
    if isinstance(loaded, Mapping) and "kinds" not in loaded and "definition" in loaded:
        return _served_kind(loaded, filename)
    entries = loaded.get("kinds") if isinstance(loaded, Mapping) else None
    if not isinstance(entries, list):
        raise KindError(
            f"{filename}: no kinds: list (nor a board's GET .../tracks/T/kind answer, "
            "whose definition is the kind)"
        )
    found: dict[str, Mapping[str, Any]] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise KindError(f"{filename}: kinds[{index}].name: missing (a name)")
        found[entry["name"]] = entry
    return found
