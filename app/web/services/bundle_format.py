"""The challenge bundle's format, as the organisers' page shows it: what ``challenge.yaml``
holds, section by section, and every key of a track kind defined in it.

The kind keys are listed from ``scorer.kinds.definitions.KIND_KEYS`` itself and the known parts
from the registries, so the page cannot fall behind the code: a key added to a kind without a
line here shows as undocumented, and the test of this module fails on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.human.protocols import PROTOCOLS
from scorer.kinds.analyses import ANNOTATIONS, DESCRIPTIONS
from scorer.kinds.attributes import ATTRIBUTES
from scorer.kinds.definitions import KIND_KEYS
from scorer.kinds.parts import READERS, TOKENISERS
from scorer.metrics import known_metrics
from scorer.normalise import NORMALISATIONS

KIND_KEY_DOCS: dict[str, str] = {
    "name": "The kind's name, which tracks give as their `kind`; not a built-in kind's name, "
    "no `@` or `/`.",
    "title": "What the kind is, in words (shown where the kind is chosen).",
    "reader": "How test files and uploads are read: a reader's name, or "
    "`{name: READER, OPTION: VALUE}` with that reader's options.",
    "normalisation": "A named normalisation applied to outputs and references before scoring "
    "(`none` by default).",
    "references": "How many references of each item count (the first N), or absent: all.",
    "metrics": "The metrics scoring each upload, in column order: a metric's id, or "
    "`{metric: ID, options: {...}, tokens: TOKENISER}`.",
    "subsets": "Item attributes whose values are subsets always scored beside all items "
    "(WebNLG: `seen`).",
    "breakdowns": "Item attributes a leaderboard may be broken down by.",
    "attributes": "Item attributes computed from each item's input and references, beside "
    "those the reader gives.",
    "primary": "The column the leaderboard sorts by (default: the first metric's).",
    "decimals": "Decimals the published table prints (0 to 4, default 4): pages, exports and, "
    "before publication, what a team sees of its own scores, which more digits would give "
    "exactly.",
    "truncate": "Columns the published table cuts to their decimals rather than rounds.",
    "column_decimals": "Columns printed with other decimals (0 to 4): `{SER: 2}`.",
    "derived": "Columns computed from the others (`norm_avg`: E2E's normalised average).",
    "derived_after": "The metric the derived columns follow in the table.",
    "annotate": "Per-output findings kept beside each output (`e2e-slot-errors`).",
    "describe": "Descriptive statistics of outputs and references (E2E's textual statistics).",
    "item_metrics": "Metrics worth showing per output on its own (SR'18: DIST).",
    "groups": "The leaderboard's column groups, left to right: "
    "`[{name: ..., columns: [...]}, ...]`, every column in one (default: each metric's own).",
    "submit": "What an output file holds and the start of one, for the Submit page, the API and "
    "`nlgboard-submit`: `{layout: ..., example: ...}` (default: the reader's).",
    "import": "How the board imports the kind's test sets: `{needs: {references: ...}, "
    "language: en, per_language: true, titles: {...}, grows_by: [standard, long], "
    "bundled_baselines: [...]}` (what an import must give, the default language, one test set "
    "per language, default titles, named subsets, bundled baseline runs).",
    "scale": "Columns printed multiplied by a power of ten (0.001 to 1000), the stored scores "
    "unchanged: `{BLEU: 0.01}` prints BLEU, stored on 0-100, on 0-1 as WebNLG+ 2020's paper "
    "does. At most 4 decimals of the stored score are printed: x100 with 3 decimals shows 5, "
    "and is refused.",
}
"""Every key of ``KIND_KEYS`` and what it does (the test holds the two equal)."""


@dataclass(frozen=True)
class Section:
    key: str
    text: str
    fields: list[tuple[str, str]]


SECTIONS = [
    Section(
        "format",
        "The bundle format's version: 1. A newer one than this board reads is refused.",
        [],
    ),
    Section(
        "challenge",
        "The challenge to create.",
        [
            ("slug", "Its address (letters, digits, hyphens); not in use on this board."),
            ("title", "Its title."),
            ("description", "Optional: Markdown shown on its page."),
        ],
    ),
    Section(
        "kinds",
        "Optional: track kinds defined here, from the board's verified parts only "
        "(the keys are listed below).",
        [],
    ),
    Section(
        "tracks",
        "One entry per track.",
        [
            ("slug", "Its address within the challenge."),
            ("kind", "A built-in kind or one defined under `kinds`."),
            ("title", "Optional: its title (default: the slug)."),
            ("language", "Optional: its language code."),
            (
                "test_sets",
                "One per language: `{language, inputs, references}` as the organisers "
                "publish them (read by the kind's reader; optional `train`, `subsets`, "
                "`challenge_sets`), or `{language, items}`: the board's own JSON Lines "
                "layout, one item a line (`input`, `references`, `subsets`, `attributes`, "
                "`original`), as an export writes it.",
            ),
            (
                "settings",
                "Optional: `phase` (development or test), `published`, `hide_own_scores`, "
                "`confirmed_only_in_test`, `deadline` (e.g. 2017-10-31T23:59:00Z), "
                "`daily_limit`, `max_systems`, `max_primary` (0: no limit).",
            ),
        ],
    ),
    Section(
        "systems",
        "Optional: systems and their submissions (an export's `--with-submissions`), "
        "stored and queued for scoring.",
        [
            ("track", "The track's slug."),
            ("name", "The system's name."),
            ("team", "Optional: its team (a team of that name already here gets a suffix)."),
            (
                "baseline / primary / anonymous",
                "Optional flags; `description` and `architecture` texts.",
            ),
            (
                "submissions",
                "`{language, file}` per upload, the file as uploaded (optional `filename`).",
            ),
        ],
    ),
    Section(
        "campaigns",
        "Optional: human evaluations, one entry each, their judgements in a CSV beside "
        "(`item,subject,team,system,judged_as,annotator,criterion,score,kind,subset,unit,note`; "
        "`note` may be left out).",
        [
            ("track", "The track's slug."),
            ("name", "The campaign's name on its track."),
            ("method", "Its protocol: " + ", ".join(PROTOCOLS) + "."),
            (
                "criterion",
                "What was judged (a criterion of the protocol, or the file's name "
                "for one imported from a file).",
            ),
            ("language", "The test set's language."),
            (
                "quality_control",
                "Direct Assessment's controls (damaged,repeat,reference or none).",
            ),
            (
                "clusters",
                "Optional: the cluster procedure its results are published by, one the "
                "protocol allows ("
                + "; ".join(f"{name}: {', '.join(p.clusters)}" for name, p in PROTOCOLS.items())
                + "); default: the protocol's first.",
            ),
            (
                "options",
                "Optional: the protocol's own options. Likert: criteria, a list of {name, "
                "scale (1-3, 1-5, 1-7 or named points lowest first), direction (higher or "
                "lower)}, and aggregate (mean or median of an output's judges); default: "
                "semantics, grammar and fluency on 1-3, the mean. Pairwise: ties (half or "
                "drop); default: half.",
            ),
            ("show_input / show_reference", "What its pages showed annotators."),
            ("hit_size / annotators_per_hit", "Units per HIT, annotators per HIT."),
            (
                "published",
                "Whether its results are on the track page (computed again on import).",
            ),
            (
                "imported",
                "Optional: for judgements imported from a file, what reading it changed.",
            ),
            ("judgements", "The path of its judgements CSV in the bundle."),
            (
                "judges",
                "Optional: its automatic judges (DA, Likert and RankME), one entry each: "
                "`name`, `spec` (`model`, `prompt_sha256`, `decoding`, `date`), `filename` "
                "(the scores file as imported) and `scores`, the path of a CSV of the judge's "
                "scores (`item,subject,team,system,judged_as,criterion,score`, named as the "
                "judgements name what was judged), each score one the board's judge import would "
                "store (DA 0-100; Likert and RankME any number); compared with the humans when "
                "the campaign's results are computed.",
            ),
        ],
    ),
]
"""The top-level keys of ``challenge.yaml``, in the order a bundle lists them."""


def kind_keys() -> list[tuple[str, str | None]]:
    """Every key a defined kind may have, with its line here (None: undocumented)."""
    return [(key, KIND_KEY_DOCS.get(key)) for key in sorted(KIND_KEYS)]


def known_parts() -> dict[str, list[str]]:
    """The registries' names a kind may use, for the page."""
    return {
        "readers": sorted(READERS),
        "normalisations": sorted(NORMALISATIONS),
        "metrics": sorted(known_metrics()),
        "tokens": sorted(TOKENISERS),
        "attributes": sorted(ATTRIBUTES),
        "annotate": sorted(ANNOTATIONS),
        "describe": sorted(DESCRIPTIONS),
    }
