"""Human judgements as they are read from files or the database, and their two file layouts.

These layouts are read:

* the E2E challenge's published RankME CSVs (tuetschek/e2e-eval ``human_ratings/quality.csv`` and
  ``naturalness.csv``): one row per crowd worker and MR, systems in ``sys1..sys5`` and their
  0-100 scores in ``quality1..5`` or ``natur1..5``;
* a long CSV, one judgement per row: ``item,system,annotator,criterion,score`` and, optionally,
  ``kind`` (a Direct Assessment quality-control role), ``subset`` (a challenge subset),
  ``unit`` (what was shown together: one RankME ranking per unit and annotator), ``team`` (the
  team whose system it is: many teams call theirs "primary") and ``system_id`` (the board's id);
* the WebNLG+ 2020 organisers' results folder: one subfolder per system holding
  ``primary.json``, ``{sample_id: {annotator: {criterion: score, ...}, ...}, ...}`` (0-100
  sliders); the subfolder names the system, the sample id is the item (``read_judgements_at``
  reads such a folder, or a long CSV);
* the WebNLG 2017 organisers' per-judgement file (``all_data_final_scores_anonymised.csv``, a
  CrowdFlower export written by R, so its ``_worker_id`` is ``X_worker_id``): one row per output
  and judge, recognised by its ``team``, ``mr`` and worker-id columns, with one column per
  criterion on 1-3 (``semantic_adequacy``, ``grammaticality``, ``fluency``) and the item's
  ``type`` (seen / unseen), ``category`` and ``triplesize``. Each row gives one judgement per
  criterion column, under the board's names (semantics, grammar, fluency): the item is the
  ``mr`` text (the same input across systems, so the systems' outputs pair up), the annotator
  the worker, the system the team (``webnlg``: the human references). An empty (or R's ``NA``)
  score cell gives no judgement and is counted; rows marked golden (CrowdFlower's test
  questions) are kept, and counted, since the organisers do not say they left them out
  (``read_judgement_table`` reads this layout or the long one, with the items' attributes).

Rule for RankME values outside 0-100 (the published quality file has values like 111111): the
value is kept as given, as the E2E organisers' TrueSkill script read it: only the order of the
five scores counts, so 111111 beats a 100. Empty or non-numeric values leave that output out of
the row's ranking; the other outputs of the row still count. Every value outside the scale and
every skip is reported with its line.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scorer.errors import InputError
from scorer.io.table import Record, read_table, require_columns
from scorer.io.text import decode_text

SCALE = (0.0, 100.0)
#: Criterion names and the column prefix the E2E files use for them.
RANKME_COLUMNS = {"quality": "quality", "naturalness": "natur"}
#: Direct Assessment quality-control roles (SR'18 Sect. 3.2.1, after WMT'17).
DA_KINDS = ("genuine", "repeat", "damaged", "reference")
LONG_COLUMNS = ("item", "system", "annotator", "criterion", "score")
SYSTEM_FILE = "primary.json"
"""A system's ratings in the WebNLG+ 2020 organisers' results folder: ``<system>/primary.json``."""
#: The E2E sample's worker-id column carries a pseudonym as its header.
_PSEUDONYM_HEADER = re.compile(r"^w[0-9a-f]{10}$")
_WORKER_HEADERS = ("_worker_id", "worker_id")
WEBNLG2017_CRITERIA = {
    "semantics": ("semantic_adequacy", "semantics"),
    "grammar": ("grammaticality", "grammar"),
    "fluency": ("fluency",),
}
"""WebNLG 2017's criteria by the board's names, and the organisers' columns for each: the
per-judgement file's name first, their averaged file's second."""
WEBNLG2017_ATTRIBUTES = ("type", "category", "triplesize")
"""The items' attributes in WebNLG 2017's per-judgement file, read unless others are named."""
_R_WORKER_HEADERS = ("X_worker_id", *_WORKER_HEADERS)
_GOLDEN_HEADERS = ("X_golden", "_golden")
MISSING = ("", "NA")
"""Score cells that hold no judgement: empty, or ``NA``, what R writes for a missing number."""


@dataclass(frozen=True)
class Judgement:
    """One annotator's score of one system's output for one item under one criterion."""

    item: str
    system: str
    annotator: str
    criterion: str
    score: float
    kind: str = "genuine"
    subset: str = ""
    unit: str = ""
    """What was shown together (a RankME page); judgements of one unit form one ranking."""
    team: str = ""
    """The team whose system it is, when the file says (system names repeat across teams)."""
    system_id: str = ""
    """The board's system id, when the file gives it."""
    line: int = field(default=0, compare=False)
    """The file's line, for messages."""

    @property
    def label(self) -> str:
        """The system as the file names it: its name, with its team or board id when given."""
        if self.system_id:
            return f"{self.system} [id {self.system_id}]"
        return f"{self.team} / {self.system}" if self.team else self.system


@dataclass(frozen=True)
class Ranking:
    """RankME: one annotator's scores of several systems' outputs shown together."""

    item: str
    annotator: str
    criterion: str
    scores: dict[str, float]
    unit: str = ""


@dataclass
class RatingsFile:
    """What a ratings file held, and what was changed or left out while reading it."""

    criterion: str
    rankings: list[Ranking]
    out_of_scale: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def notes(self) -> dict[str, object]:
        return {
            "rankings": len(self.rankings),
            "out_of_scale": len(self.out_of_scale),
            "skipped": len(self.skipped),
            "out_of_scale_values": self.out_of_scale[:50],
            "skipped_values": self.skipped[:50],
        }


@dataclass
class JudgementTable:
    """Judgements read from a long CSV or WebNLG 2017's per-judgement file, the items'
    attributes, and what reading left out or kept that a reader should be told of."""

    layout: str
    """``long`` or ``webnlg2017``."""
    judgements: list[Judgement]
    attributes: dict[str, dict[str, str]] = field(default_factory=dict)
    """item -> {attribute: value} for the attributes asked for ("" where an item has none)."""
    columns: dict[str, str] = field(default_factory=dict)
    """criterion -> the column its scores were read from (WebNLG 2017's layout)."""
    missing: dict[str, list[int]] = field(default_factory=dict)
    """criterion -> the lines whose score cell for it was empty (or NA): no judgement."""
    golden: list[int] = field(default_factory=list)
    """The lines of rows marked golden (CrowdFlower's test questions), kept as judgements."""
    split: dict[str, int] = field(default_factory=dict)
    """attribute -> items left out of its means: their rows gave it two values."""

    def criterion(self, name: str) -> str:
        """The board's name for ``name``: WebNLG 2017's layout also answers to the organisers'
        names (``semantic_adequacy`` is semantics)."""
        return webnlg2017_criterion(name) if self.layout == "webnlg2017" else name

    def notes(self, criterion: str) -> dict[str, object]:
        """How ``criterion`` was read: the layout, its column, the cells and rows to know of."""
        missing = self.missing.get(criterion, [])
        return {
            "layout": self.layout,
            "column": self.columns.get(criterion),
            "missing_cells": len(missing),
            "missing_lines": missing[:50],
            "golden_rows": len(self.golden),
            "golden_lines": self.golden[:50],
            "split": dict(self.split),
        }


def webnlg2017_criterion(name: str) -> str:
    """The board's name for one of WebNLG 2017's criterion names, or ``name`` itself."""
    return next(
        (board for board, names in WEBNLG2017_CRITERIA.items() if name in (board, *names)), name
    )


def clip(value: float) -> float:
    low, high = SCALE
    return min(max(value, low), high)


def read_ratings(data: bytes, filename: str, criterion: str | None = None) -> RatingsFile:
    """RankME rankings from either layout (the E2E one is recognised by its ``sys1`` column)."""
    header, records = read_table(data, filename)
    if "sys1" in header:
        return _read_e2e(header, records, filename, criterion)
    judgements = _long_judgements(header, records, filename)
    criteria = sorted({judgement.criterion for judgement in judgements})
    chosen = _choose_criterion(criterion, criteria, filename)
    return RatingsFile(chosen, rankings_of(j for j in judgements if j.criterion == chosen))


def read_rankme(
    data: bytes, filename: str, criterion: str | None = None
) -> tuple[RatingsFile, list[Judgement]]:
    """The rankings of either layout and their judgements one by one: the long layout's rows as
    written (with their team and system id), the E2E layout's scores per ranking."""
    ratings = read_ratings(data, filename, criterion)
    header, _ = read_table(data, filename)
    if "sys1" in header:
        rows = [
            Judgement(r.item, system, r.annotator, r.criterion, score, unit=r.unit)
            for r in ratings.rankings
            for system, score in r.scores.items()
        ]
    else:
        chosen = ratings.criterion
        rows = [j for j in read_judgements(data, filename) if j.criterion == chosen]
    return ratings, rows


def rankings_of(judgements: Iterable[Judgement]) -> list[Ranking]:
    """Group scores by (item, unit, annotator, criterion): each group is one ranking."""
    groups: dict[tuple[str, str, str, str], dict[str, float]] = defaultdict(dict)
    for judgement in judgements:
        key = (judgement.item, judgement.unit, judgement.annotator, judgement.criterion)
        groups[key][judgement.system] = judgement.score
    return [
        Ranking(item, annotator, criterion, scores, unit)
        for (item, unit, annotator, criterion), scores in groups.items()
    ]


def percent_score(text: str) -> float:
    """A 0-100 score (Direct Assessment's and RankME's sliders); anything else is refused."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not SCALE[0] <= value <= SCALE[1]:
        raise ValueError(f"score {text!r} is not a number from 0 to 100")
    return value


def read_judgements(
    data: bytes, filename: str, score: Callable[[str], float] = percent_score
) -> list[Judgement]:
    """Judgements from the long layout; a bad score or kind is refused with its line. ``score``
    reads the score column (a Likert scale reads its own points), its ValueError the rule."""
    header, records = read_table(data, filename)
    return _long_judgements(header, records, filename, score)


def read_judgement_table(
    data: bytes,
    filename: str,
    score: Callable[[str], float] = percent_score,
    by: Sequence[str] | None = None,
) -> JudgementTable:
    """The long layout or WebNLG 2017's per-judgement file (module docstring), with the items'
    attributes: the columns ``by`` names, by default none in the long layout and ``type``,
    ``category`` and ``triplesize`` (those present) in WebNLG 2017's. An attribute is a column
    with one value per item: an item whose rows give two is left out of that attribute's
    means, and counted (``split``)."""
    header, records = read_table(data, filename)
    worker = _first_of(_R_WORKER_HEADERS, header)
    wide = worker is not None and {"team", "mr"} <= set(header)
    if wide and not set(LONG_COLUMNS) <= set(header):
        table = _read_webnlg2017(header, records, filename, score, str(worker))
        present = tuple(name for name in WEBNLG2017_ATTRIBUTES if name in header)
        table.attributes, table.split = _item_attributes(
            header, records, filename, "mr", by or present
        )
        return table
    table = JudgementTable("long", _long_judgements(header, records, filename, score))
    table.attributes, table.split = _item_attributes(header, records, filename, "item", by or ())
    return table


def read_judgements_at(path: Path) -> list[Judgement]:
    """A long CSV, or a folder in the WebNLG+ 2020 organisers' layout (module docstring)."""
    if path.is_dir():
        return read_system_folder(path)
    return read_judgements(path.read_bytes(), path.name)


def read_system_folder(folder: Path) -> list[Judgement]:
    """Every system's ``primary.json`` in ``folder`` (one subfolder per system, named for it);
    a subfolder without one is refused rather than left out of the results."""
    systems = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    lacking = [p.name for p in systems if not (p / SYSTEM_FILE).is_file()]
    layout = f"give a long CSV, or a folder with one subfolder per system holding its {SYSTEM_FILE}"
    if not systems:
        raise InputError(f"has no subfolder: {layout}", filename=str(folder))
    if lacking:
        raise InputError(
            f"subfolder(s) {', '.join(lacking)} hold no {SYSTEM_FILE}: {layout}",
            filename=str(folder),
        )
    judgements = []
    for system in systems:
        path = system / SYSTEM_FILE
        judgements += read_system_ratings(path.read_bytes(), f"{system.name}/{SYSTEM_FILE}")
    return judgements


def read_system_ratings(data: bytes, filename: str) -> list[Judgement]:
    """One system's ratings, ``{sample_id: {annotator: {criterion: score}}}``; the system is
    the folder ``filename`` names (``<system>/primary.json``). A value that is not a 0-100
    number is refused, naming its sample, annotator and criterion."""
    system = Path(filename).parent.name or Path(filename).stem
    try:
        samples = json.loads(decode_text(data, filename))
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", filename=filename, line=error.lineno) from None
    shape = "{sample_id: {annotator: {criterion: score}}}"
    if not isinstance(samples, dict):
        raise InputError(f"is not an object {shape}", filename=filename)
    judgements = []
    for sample, annotators in samples.items():
        if not isinstance(annotators, dict):
            raise InputError(f"sample {sample}: not an object {shape}", filename=filename)
        for annotator, scores in annotators.items():
            if not isinstance(scores, dict):
                raise InputError(
                    f"sample {sample}, annotator {annotator}: not an object {shape}",
                    filename=filename,
                )
            for criterion, value in scores.items():
                number = isinstance(value, int | float) and not isinstance(value, bool)
                if not number or not SCALE[0] <= value <= SCALE[1]:
                    raise InputError(
                        f"sample {sample}, annotator {annotator}, {criterion}: {value!r} is not "
                        "a number from 0 to 100",
                        filename=filename,
                    )
                judgements.append(
                    Judgement(str(sample), system, str(annotator), str(criterion), float(value))
                )
    return judgements


def _choose_criterion(wanted: str | None, available: list[str], filename: str) -> str:
    if wanted is not None and wanted in available:
        return wanted
    if wanted is None and len(available) == 1:
        return available[0]
    if not available:
        raise InputError("holds no judgements", filename=filename)
    choice = f"--criterion {wanted} is not among" if wanted else "choose --criterion from"
    raise InputError(f"{choice} {', '.join(available)}", filename=filename)


def _read_e2e(
    header: list[str], records: list[Record], filename: str, criterion: str | None
) -> RatingsFile:
    present = [name for name, prefix in RANKME_COLUMNS.items() if f"{prefix}1" in header]
    chosen = _choose_criterion(criterion, present, filename)
    prefix = RANKME_COLUMNS[chosen]
    systems = sorted((c for c in header if re.fullmatch(r"sys\d+", c)), key=lambda c: int(c[3:]))
    require_columns(header, (*tuple(f"{prefix}{c[3:]}" for c in systems), "mr_id"), filename)
    worker = next((c for c in _WORKER_HEADERS if c in header), None) or next(
        (c for c in header if _PSEUDONYM_HEADER.match(c)), None
    )
    result = RatingsFile(chosen, [])
    for record in records:
        scores: dict[str, float] = {}
        for column in systems:
            system = record.values[column].strip()
            rating_column = f"{prefix}{column[3:]}"
            raw = record.values[rating_column].strip()
            where = f"line {record.line} {rating_column}={raw!r}"
            if not system:
                continue
            try:
                value = float(raw)
            except ValueError:
                result.skipped.append(where)
                continue
            if not math.isfinite(value):
                result.skipped.append(where)
                continue
            if clip(value) != value:
                result.out_of_scale.append(where)
            scores[system] = value
        annotator = record.values[worker].strip() if worker else f"row{record.line}"
        result.rankings.append(
            Ranking(record.values["mr_id"].strip(), annotator, chosen, scores, f"line{record.line}")
        )
    return result


def _long_judgements(
    header: list[str],
    records: list[Record],
    filename: str,
    score_of: Callable[[str], float] = percent_score,
) -> list[Judgement]:
    require_columns(header, LONG_COLUMNS, filename)
    judgements = []
    seen: dict[tuple[str, ...], int] = {}
    for record in records:
        values = {name: value.strip() for name, value in record.values.items()}
        for name in LONG_COLUMNS[:4]:
            if not values[name]:
                raise InputError(f"empty {name}", filename=filename, line=record.line)
        try:
            score = score_of(values["score"])
        except ValueError as error:
            raise InputError(str(error), filename=filename, line=record.line) from None
        kind = values.get("kind") or "genuine"
        if kind not in DA_KINDS:
            raise InputError(
                f"kind {kind!r} is not one of {', '.join(DA_KINDS)}",
                filename=filename,
                line=record.line,
            )
        system_id = values.get("system_id", "")
        if system_id and not (system_id.isascii() and system_id.isdigit() and len(system_id) < 10):
            raise InputError(
                f"system_id {system_id!r} is not a system id (a whole number)",
                filename=filename,
                line=record.line,
            )
        key = tuple(
            values.get(name, "")
            for name in (*LONG_COLUMNS[:4], "kind", "unit", "team", "system_id")
        )
        if key in seen:
            raise InputError(
                f"annotator {values['annotator']} scores {values['system']} on item "
                f"{values['item']} again (first on line {seen[key]}); give each ranking its own "
                "unit",
                filename=filename,
                line=record.line,
            )
        seen[key] = record.line
        judgements.append(
            Judgement(
                item=values["item"],
                system=values["system"],
                annotator=values["annotator"],
                criterion=values["criterion"],
                score=score,
                kind=kind,
                subset=values.get("subset", ""),
                unit=values.get("unit", ""),
                team=values.get("team", ""),
                system_id=system_id,
                line=record.line,
            )
        )
    return judgements


def _first_of(names: Sequence[str], header: list[str]) -> str | None:
    return next((name for name in names if name in header), None)


def _read_webnlg2017(
    header: list[str],
    records: list[Record],
    filename: str,
    score_of: Callable[[str], float],
    worker: str,
) -> JudgementTable:
    columns = {
        board: column
        for board, names in WEBNLG2017_CRITERIA.items()
        if (column := _first_of(names, header))
    }
    if not columns:
        known = ", ".join(name for names in WEBNLG2017_CRITERIA.values() for name in names)
        raise InputError(
            f"has team, mr and {worker} (WebNLG 2017's per-judgement layout) but no criterion "
            f"column: give one or more of {known}",
            filename=filename,
            line=1,
        )
    table = JudgementTable("webnlg2017", [], columns=columns, missing={c: [] for c in columns})
    golden = _first_of(_GOLDEN_HEADERS, header)
    for record in records:
        values = {name: value.strip() for name, value in record.values.items()}
        if golden and values[golden].lower() in ("true", "1"):
            table.golden.append(record.line)
        _read_webnlg2017_row(table, values, record.line, filename, score_of, worker)
    return table


def _read_webnlg2017_row(
    table: JudgementTable,
    values: dict[str, str],
    line: int,
    filename: str,
    score_of: Callable[[str], float],
    worker: str,
) -> None:
    """One judge's scores of one output: a judgement per criterion column, an empty cell noted."""
    for name in ("mr", "team", worker):
        if not values[name]:
            raise InputError(f"empty {name}", filename=filename, line=line)
    for criterion, column in table.columns.items():
        if values[column] in MISSING:
            table.missing[criterion].append(line)
            continue
        try:
            score = score_of(values[column])
        except ValueError as error:
            raise InputError(f"{column}: {error}", filename=filename, line=line) from None
        table.judgements.append(
            Judgement(values["mr"], values["team"], values[worker], criterion, score, line=line)
        )


def _item_attributes(
    header: list[str], records: list[Record], filename: str, item: str, names: Sequence[str]
) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """item -> {attribute: value} for the columns ``names``, and per attribute how many items
    it was left out for because their rows gave it two values (so one odd row takes one item
    out of one breakdown, not the whole reading)."""
    names = tuple(dict.fromkeys(names))
    require_columns(header, names, filename)
    attributes: dict[str, dict[str, str]] = {}
    split: set[tuple[str, str]] = set()
    for record in records:
        key = record.values[item].strip()
        found = attributes.setdefault(key, dict.fromkeys(names, ""))
        for name in names:
            value = record.values[name].strip()
            if value and (key, name) not in split:
                if found[name] and found[name] != value:
                    split.add((key, name))
                    found[name] = ""
                else:
                    found[name] = value
    left_out = {name: sum(1 for _, n in split if n == name) for name in names}
    return attributes, {name: count for name, count in left_out.items() if count}
