"""A scoring profile: everything that decides a track's numbers (how outputs and references
are read and normalised, which metrics score them, how the tables print them). Profiles are
built from kind definitions (``scorer.kinds.definitions``), the built-in ones included."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from functools import cached_property

import numpy as np

from scorer.errors import InputError
from scorer.io import e2e
from scorer.io.checks import FileWarning, empty_outputs, output_lines
from scorer.io.scripts import language_warning
from scorer.kinds.attributes import AttributePart
from scorer.kinds.instructions import ONE_PER_LINE, SubmitInstructions
from scorer.metrics import get_metric
from scorer.metrics import normalised_average as norm_avg
from scorer.metrics.base import MetricScore
from scorer.normalise import Outputs, as_read
from scorer.references import ReferenceSet, as_reference_set
from scorer.signature import Signature

log = logging.getLogger(__name__)

MAX_OUTPUT_CHARS = 5_000
"""Longest accepted output (E2E references reach ~350 characters, SR'18 sentences ~1,000): a
longer one is a file whose line breaks were lost, and would cost the metrics minutes."""

DERIVED_GROUPS = {norm_avg.NAME: norm_avg.GROUP}
"""The table group of each column computed from other columns."""

PUBLISHED_DECIMALS = 4
"""Decimals of a figure in the published tables unless a profile says otherwise (E2E Table 8:
BLEU 0.6593, NIST 8.6094...)."""


@dataclass(frozen=True)
class InputsFile:
    """A test set's inputs as a file to download."""

    body: str
    suffix: str
    mimetype: str = "text/plain"


def subsets_problem(
    kind: str, subsets: Sequence[str], attributes: Sequence[Mapping[str, str]]
) -> str | None:
    """Why a test set's items cannot give a kind's subsets: no item has an attribute
    ``subsets`` names (the subset would be silently left out); None when every one is found."""
    missing = [name for name in subsets if not any(found.get(name) for found in attributes)]
    if not missing:
        return None
    held = sorted({name for found in attributes for name in found})
    return (
        f"kind {kind.partition('@')[0]} scores the subsets of {missing[0]!r}, but no item has "
        f"that attribute (the items have: {', '.join(held) or 'none'}); give it (a reader "
        "option that sets it, e.g. webnlg-xml's seen_categories or a training file for seen, "
        "instance_types for type; an item's attributes) or leave it out of the kind's subsets"
    )


@dataclass(frozen=True)
class Profile:
    """Everything that decides a track's numbers; its id goes into every score's signature."""

    name: str
    metrics: tuple[str, ...]
    """Registry ids of the metrics (``BLEU``, ``BLEU-sr18`` ...); scores carry each metric's name."""
    normalisation: str
    normalise: Callable[[str], str]
    read_raw_outputs: Callable[[bytes, Sequence[str] | None, str], list[str]]
    read_references: Callable[[bytes, str], list[e2e.ReferenceItem]]
    """Reads an offline reference file (``nlg-score``) into items with their references."""
    derived: tuple[str, ...] = ()
    derived_after: str | None = None
    """The metric the derived columns follow (E2E: norm_avg right after CIDEr, as Table 8)."""
    describe: Callable[[Sequence[str], ReferenceSet], dict[str, float] | None] | None = None
    """Descriptive statistics of a set of texts (E2E: Tables 9-10), for outputs and references."""
    annotate: Callable[[Sequence[str], ReferenceSet], list[list[str]] | None] | None = None
    """Per-output findings to keep beside each output (E2E: slot errors), or None."""
    primary_metric: str | None = None
    """What the leaderboard sorts by by default (E2E Table 8: the normalised average)."""
    item_metrics: tuple[str, ...] = ()
    """Registry ids of metrics worth showing per output on its own (SR'18: DIST)."""
    decimals: int = PUBLISHED_DECIMALS
    """Decimals the published tables print (SR'18 and DRS: x 100 with 2)."""
    column_decimals: Mapping[str, int] = field(default_factory=dict)
    """Columns printed otherwise (E2E: slot-error percentages with 2)."""
    truncated_columns: frozenset[str] = frozenset()
    """Columns the published tables cut to their decimals rather than round (WebNLG 2017:
    METEOR and TER)."""
    scale: Mapping[str, float] = field(default_factory=dict)
    """Column -> factor its stored value is printed multiplied by (WebNLG+ 2020 prints BLEU,
    stored on 0-100, on 0-1: ``{BLEU: 0.01}``); the stored scores never change."""
    subsets: tuple[str, ...] = ()
    """Item attributes whose values are subsets always scored beside all items (WebNLG:
    ``seen`` gives seen and unseen)."""
    breakdowns: tuple[str, ...] = ()
    """Item attributes a breakdown may be asked for (WebNLG: ``category``, ``size``)."""
    attribute_parts: tuple[AttributePart, ...] = ()
    """Attributes computed from each item's input and references (E2E: its slots), beside
    those its reader gives; each may be broken down by."""
    tokenisers: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    """Metric id -> how outputs and references are tokenised for that metric alone (WebNLG+
    2020 runs METEOR and TER on NLTK's word tokens, BLEU and chrF++ on the texts as given)."""
    read_inputs: Callable[[bytes, str], list[str]] | None = None
    """Reads a test-inputs file as systems get it (WebNLG's ``testdata_no_lex.xml``), for kinds
    whose references file carries the inputs too: the two must list the same inputs."""
    inputs_file: Callable[[Sequence[str]], InputsFile] | None = None
    """Writes the test inputs as teams download them (E2E: the one-column ``mr`` CSV)."""
    training_texts: Callable[[bytes, str], list[str]] | None = None
    """Reads the texts of a training file (for the overlap report of a test set)."""
    track_kinds: tuple[str, ...] = ()
    """The track kinds (``--kind`` of the board) this built-in profile scores."""
    references: int | None = None
    """How many references of each item count, as the kind declares them (``references: N``;
    WebNLG 2017: 3, its scripts' three reference files), or None: all."""
    folder_suffix: str | None = None
    """Whose files a folder given as references, inputs or training data is read from, as
    the release orders them (WebNLG: ``.xml``, ``scorer.io.folders``); None: one file only."""
    title: str = ""
    """What the kind is called on the pages (its definition's ``title``; its name without one)."""
    declared_groups: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The column groups the kind declares (``groups:``), in order, every column in one; empty:
    each column's group is its metric's (``Traits.group``), in the metrics' order."""
    submit: SubmitInstructions = ONE_PER_LINE
    """What an output file looks like (the kind's ``submit:``, else its reader's)."""
    language: str | None = None
    """The language the kind's parts are made for (its reader's ``language``, a tokeniser's),
    which its outputs' script is checked against; None: a kind of no one language."""
    attribute_files: Mapping[str, str] = field(default_factory=dict)
    """Subset attribute -> the file beside the references that gives it (WebNLG+ 2020:
    ``type`` from its instance-types file), which a set may not have (a dev folder): there
    those subsets are left out, and the import or ``nlg-score`` says so, not refused."""

    def published(self, column: str, value: float) -> float:
        """``value`` as the published table prints it, on the stored scale: what a team sees
        of its scores before the results are out, so an aggregate is no finer a probe of the
        references."""
        factor = self.scale.get(column, 1)
        if factor == 1:
            return self._rounded(column, value)
        return self._rounded(column, value * factor) / factor

    def printed(self, column: str, value: float, *, signed: bool = False) -> str:
        """``value`` as the published table writes it: on the kind's scale (``scale``), with
        the column's decimals, rounded or cut as the table does; ``signed`` for differences."""
        shown = self._rounded(column, value * self.scale.get(column, 1))
        return f"{shown:{'+' if signed else ''}.{self.decimals_of(column)}f}"

    def decimals_of(self, column: str) -> int:
        """Decimals the published table prints ``column`` with."""
        return self.column_decimals.get(column, self.decimals)

    def printing(self, column: str) -> str:
        """How ``column`` is printed, in words, for exports' notes."""
        how = "cut" if column in self.truncated_columns else "rounded"
        factor = self.scale.get(column, 1)
        scaled = f" x {factor:g}" if factor != 1 else ""
        return f"{how} to {self.decimals_of(column)} decimals{scaled}"

    def _rounded(self, column: str, value: float) -> float:
        decimals = self.decimals_of(column)
        if column in self.truncated_columns:
            return truncate(value, decimals)
        return round(value, decimals)

    @cached_property
    def declared_references(self) -> int | None:
        """The references per item the kind's scores are defined on: its ``references: N``, or
        the most reference files one of its metrics reads (``references`` option)."""
        counts = [self.references] if self.references else []
        for metric in self.metrics:
            count = getattr(get_metric(metric), "references", None)
            if isinstance(count, int) and not isinstance(count, bool):
                counts.append(count)
        return max(counts, default=None)

    def reference_shortfall(self, references: ReferenceSet) -> str | None:
        """What to tell the user when no item has as many references as the kind declares
        (a reference file short, or a zip of fewer parallel files): the scores are then not
        the official ones. None when some item has them all."""
        declared = self.declared_references
        found = references.max_references
        if declared is None or found >= declared:
            return None
        return (
            f"kind {self.name.partition('@')[0]} scores each item on {declared} references "
            f"(its official evaluation reads {declared} reference files), but no item here has "
            f"more than {found}: scored on {found}, as if the other {declared - found} were "
            "empty; these are not the official figures unless the test set really has so few. "
            "Give every reference file (or the references file with all of them)."
        )

    @cached_property
    def breakdown_attributes(self) -> tuple[str, ...]:
        """Every attribute a breakdown may name: subsets, declared breakdowns, computed ones."""
        computed = [name for part in self.attribute_parts for name in part.names]
        return tuple(dict.fromkeys([*self.subsets, *self.breakdowns, *computed]))

    @cached_property
    def reference_attributes(self) -> frozenset[str]:
        """Attributes computed from the hidden references (shown as reference statistics)."""
        return frozenset(
            name for part in self.attribute_parts if part.from_references for name in part.names
        )

    def subset_names(self, attributes: Mapping[str, str]) -> list[str]:
        """The subsets an item with these attributes (given and computed) is in: the value of
        each of the kind's ``subsets`` attributes it has."""
        return [attributes[name] for name in self.subsets if attributes.get(name)]

    def subsets_problem(self, attributes: Sequence[Mapping[str, str]]) -> str | None:
        """Why a test set's items (their attributes, given and computed) cannot give the
        kind's subsets; None when they can (``subsets_problem``). The subsets an attribute
        file gives are not asked for: a set without the file leaves them out
        (``subsets_left_out``)."""
        asked = [name for name in self.subsets if name not in self.attribute_files]
        return subsets_problem(self.name, asked, attributes)

    def subsets_left_out(self, attributes: Sequence[Mapping[str, str]]) -> tuple[str, ...]:
        """The kind's subsets that an attribute file gives and no item has (the set came
        without the file): scored on all items only."""
        return tuple(
            name
            for name in self.attribute_files
            if not any(found.get(name) for found in attributes)
        )

    def left_out_note(self, left_out: Sequence[str]) -> str:
        """What an import or ``nlg-score`` says of subsets left out for want of their file."""
        files = ", ".join(dict.fromkeys(self.attribute_files[name] for name in left_out))
        return (
            f"subsets of {', '.join(map(repr, left_out))} left out: the set has no {files} "
            "beside its references (the kind's file for them), so it is scored on all items "
            "only, without those subsets"
        )

    def item_attributes(
        self, text: str, references: Sequence[str], given: Mapping[str, str]
    ) -> dict[str, str]:
        """An item's attributes: what its reader (or a bundle) gave, then the computed ones."""
        found = dict(given)
        for part in self.attribute_parts:
            if not all(name in found for name in part.names):
                for name, value in part.compute(text, references).items():
                    found.setdefault(name, value)
        return found

    def write_inputs(self, texts: Sequence[str]) -> InputsFile:
        """The test inputs as teams download them: as the kind's reader writes them, else
        blocks separated by a blank line."""
        if self.inputs_file is not None:
            return self.inputs_file(texts)
        return InputsFile("\n\n".join(text.strip("\n") for text in texts) + "\n", "txt")

    @cached_property
    def metric_ids(self) -> dict[str, str]:
        """Shown name -> registry id of every metric (``BLEU`` -> ``BLEU-sr18`` in sr18)."""
        return {get_metric(metric).name: metric for metric in self.metrics}

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """Every figure a submission gets, by name, in the order the papers print them, each
        group's columns side by side (``column_groups``)."""
        return tuple(name for _, names in self.column_groups for name in names)

    @cached_property
    def column_groups(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(group, its columns) left to right: as the kind declares them, else each column in
        its metric's group, the groups in the order their first column comes and never split
        (BLEU, TER, METEOR shows as BLEU, METEOR | TER)."""
        if self.declared_groups:
            return self.declared_groups
        groups: dict[str, list[str]] = {}
        for name in self._listed_columns:
            groups.setdefault(self.group_of(name), []).append(name)
        return tuple((group, tuple(names)) for group, names in groups.items())

    @cached_property
    def _listed_columns(self) -> tuple[str, ...]:
        """The columns in the order the definition lists them (derived ones where it says)."""
        names = tuple(self.metric_ids)
        at = (
            self.metrics.index(self.derived_after) + 1
            if self.derived_after in self.metrics
            else len(names)
        )
        return names[:at] + self.derived + names[at:]

    def group_of(self, name: str) -> str:
        """The group of the column ``name`` in this kind's tables ("" for none known)."""
        for group, names in self.declared_groups:
            if name in names:
                return group
        if name in self.metric_ids:
            return get_metric(self.metric_ids[name]).traits.group
        return DERIVED_GROUPS.get(name, "")

    @property
    def available_metrics(self) -> tuple[str, ...]:
        """The metrics this installation can compute (embedding similarity needs an extra)."""
        return tuple(m for m in self.metrics if get_metric(m).available())

    @property
    def absent_metrics(self) -> tuple[str, ...]:
        """Shown names of the metrics left out here, with why (for pages and ``nlg-score``)."""
        return tuple(n for n, m in self.metric_ids.items() if m not in self.available_metrics)

    def optional_columns_missing(self, present: Sequence[str]) -> dict[str, str]:
        """Columns of optional metrics (embedding similarity, learned metrics) that no score
        has, with what computing them needs."""
        return {
            name: get_metric(metric).absent_reason
            for name, metric in self.metric_ids.items()
            if get_metric(metric).absent_reason and name not in present
        }

    def absent_reasons(self) -> dict[str, str]:
        """The columns this installation cannot compute, with what they need."""
        return {
            name: get_metric(self.metric_ids[name]).absent_reason for name in self.absent_metrics
        }

    def read_outputs(self, data: bytes, inputs: Sequence[str] | None, filename: str) -> Outputs:
        """Parse, check against the test inputs and normalise an output file (the texts as read
        kept beside, for the metrics that read those: ``Outputs``)."""
        read = self.read_raw_outputs(data, inputs, filename)
        outputs = Outputs((self.normalise(text) for text in read), read)
        for position, text in enumerate(outputs, 1):
            if len(text) > MAX_OUTPUT_CHARS:
                raise InputError(
                    f"output {position} is {len(text):,} characters long; at most "
                    f"{MAX_OUTPUT_CHARS:,} are accepted (is a line break missing?)",
                    filename=filename,
                )
        return outputs

    def output_warnings(self, data: bytes, outputs: Outputs, filename: str) -> list[FileWarning]:
        """What is odd about an accepted output file (``scorer.io.checks``), for every gate
        to show: ``nlg-score``, ``nlgboard-submit``'s check and the board's upload."""
        found = empty_outputs(outputs.as_read, data, filename)
        script = language_warning(
            outputs.as_read, self.language, filename, output_lines(data, len(outputs))
        )
        return [*found, script] if script else found

    def statistics(
        self, outputs: Sequence[str], references: ReferenceSet | Sequence[Sequence[str]]
    ) -> dict[str, np.ndarray]:
        """Per-item statistics of every metric (what corpus scores and bootstrap use)."""
        references = as_reference_set(references)
        if len(outputs) != len(references):
            raise ValueError(f"{len(outputs)} outputs for {len(references)} items")
        if any(get_metric(m).traits.tokens == "ptb" for m in self.metrics):
            from scorer.tokenizers.ptb import ptb_tokenize

            ptb_tokenize(list(outputs))  # once, memoised for every PTB metric
        metrics = [
            m
            for m in self.available_metrics
            if references.inputs is not None or not _needs_inputs(m)
        ]
        # The slow metrics start first (in other processes, which tokenise the outputs for
        # them), the others run meanwhile.
        started = {
            name: get_metric(name).begin_statistics(*self._to_tokenise(name, outputs, references))
            for name in metrics
            if get_metric(name).traits.cost == "slow"
        }
        results = {
            name: get_metric(name).segment_statistics(*self._prepared(name, outputs, references))
            for name in metrics
            if name not in started
        }
        for name, finish in started.items():
            results[name] = finish()
        return {name: results[name] for name in metrics}

    def _prepared(
        self, metric_id: str, outputs: Sequence[str], references: ReferenceSet
    ) -> tuple[Sequence[str], ReferenceSet]:
        """What ``metric_id`` reads: the texts (as the file had them for a metric that reads
        them so, e.g. SER), or their tokens where the profile says so."""
        if get_metric(metric_id).reads_as_read:
            outputs = as_read(outputs)
        tokenise = self.tokenisers.get(metric_id)
        if tokenise is None:
            return outputs, references
        tokens = ReferenceSet(
            ([tokenise(text) for text in refs] for refs in references), inputs=references.inputs
        )
        return [tokenise(text) for text in outputs], tokens

    def _to_tokenise(
        self, metric_id: str, outputs: Sequence[str], references: ReferenceSet
    ) -> tuple[Sequence[str], ReferenceSet, Callable[[str], str] | None]:
        """``_prepared`` but for the outputs' tokens: the outputs and the tokeniser they are
        still to go through, which a slow metric hands to its scoring processes (a 2020
        upload's tokens took ~0.4 s of this process before any of them could start). The
        references' tokens are made here (remembered by the tokeniser across jobs). A
        tokeniser that cannot be sent by name (not a module's function) tokenises here."""
        tokenise = self.tokenisers.get(metric_id)
        if tokenise is None or not _by_name(tokenise):
            return (*self._prepared(metric_id, outputs, references), None)
        if get_metric(metric_id).reads_as_read:
            outputs = as_read(outputs)
        tokens = ReferenceSet(
            ([tokenise(text) for text in refs] for refs in references), inputs=references.inputs
        )
        return outputs, tokens, tokenise

    def item_scores(self, statistics: dict[str, np.ndarray], metric_id: str) -> list[float]:
        """One metric computed on each item alone, from the stored per-item statistics."""
        metric = get_metric(metric_id)
        return [float(metric.score_from_totals(row)) for row in statistics[metric_id]]

    def scores_from_statistics(
        self, statistics: dict[str, np.ndarray], weights: np.ndarray | None = None
    ) -> dict[str, float]:
        """Corpus scores by metric name from per-item statistics keyed by metric id;
        ``weights`` resample items (bootstrap)."""
        values = {}
        for metric_id, rows in statistics.items():
            metric = get_metric(metric_id)
            totals = rows.sum(axis=0) if weights is None else weights @ rows
            values[metric.name] = float(metric.score_from_totals(totals))
        if norm_avg.NAME in self.derived and set(norm_avg.SCALES) <= set(values):
            values[norm_avg.NAME] = norm_avg.normalised_average(values)
        return values

    def score(
        self, outputs: Sequence[str], references: ReferenceSet | Sequence[Sequence[str]]
    ) -> list[MetricScore]:
        """Score normalised outputs against per-item references with every profile metric."""
        return self.score_subsets(outputs, references, {"": range(len(outputs))})[""]

    def score_subsets(
        self,
        outputs: Sequence[str],
        references: ReferenceSet | Sequence[Sequence[str]],
        subsets: dict[str, Sequence[int]],
    ) -> dict[str, list[MetricScore]]:
        """Scores of each subset (name -> item positions, repeats allowed) from one pass over
        all items: every metric's corpus figure is a function of summed item statistics."""
        return self.subset_scores(self.statistics(outputs, references), subsets)

    def subset_scores(
        self, statistics: dict[str, np.ndarray], subsets: dict[str, Sequence[int]]
    ) -> dict[str, list[MetricScore]]:
        """``score_subsets`` from statistics already computed (the worker keeps them)."""
        by_subset = {
            name: self.scores_from_statistics(
                {m: rows[np.asarray(positions, dtype=int)] for m, rows in statistics.items()}
            )
            for name, positions in subsets.items()
        }
        names = {name for values in by_subset.values() for name in values}
        signatures = {name: self.column_signature(name) for name in names}
        return {
            subset: [
                MetricScore(name, value, signatures[name])
                for name, value in sorted(values.items(), key=lambda kv: self._column_index(kv[0]))
            ]
            for subset, values in by_subset.items()
        }

    def _column_index(self, name: str) -> int:
        return self.columns.index(name) if name in self.columns else len(self.columns)

    def higher_is_better(self, name: str) -> bool:
        """Direction of the column ``name`` (SER and the miss/add shares fall as systems improve)."""
        return name not in self.metric_ids or get_metric(self.metric_ids[name]).higher_is_better

    def column_signature(self, name: str) -> str:
        """The full signature stored with a score of the column ``name``."""
        tokenise = self.tokenisers.get(self.metric_ids.get(name, ""))
        tokens = tokenise.__name__ if tokenise is not None else None
        signature = Signature.parse(self.signature_of(name))
        return str(signature.in_profile(self.name, self.normalisation, tokens))

    def signature_of(self, name: str) -> str:
        """The signature of the column ``name`` (a metric's name, not its registry id)."""
        if name == norm_avg.NAME:
            return norm_avg.SIGNATURE
        return get_metric(self.metric_ids[name]).signature

    def warm_up(self) -> None:
        """Load heavy parts now (worker start-up) rather than during a first job."""
        loads = (get_metric(m).warm_up() for m in self.metrics)
        for load in dict.fromkeys(load for load in loads if load is not None):
            load()


def truncate(value: float, decimals: int) -> float:
    """``value`` cut (towards zero) to ``decimals`` as written in decimal: 0.29 stays 0.29
    (binary arithmetic would give 0.28), 0.4459 gives 0.44."""
    exponent = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(value)).quantize(exponent, rounding=ROUND_DOWN))


def _needs_inputs(metric_id: str) -> bool:
    return getattr(get_metric(metric_id), "needs_inputs", False)


def _by_name(function: Callable[..., object]) -> bool:
    """Whether ``function`` is its module's attribute of its name (so pickled by name)."""
    module = sys.modules.get(getattr(function, "__module__", "") or "")
    return getattr(module, getattr(function, "__qualname__", ""), None) is function
