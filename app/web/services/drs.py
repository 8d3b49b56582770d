"""DRS-to-text tracks: test sets per language, named subsets and challenge sets.

A test set's items are tagged with subsets: PMB 5's "standard", "long",
"compositional-substitution", "compositional-extension", or one of Wang et al.'s (2021)
challenge sets. Each challenge item is linked to the test item it was made from (the ``%%%``
header of a challenge DRS carries the original sentence), so a system is scored on the
originals (Orig) and on the modified items (Chal), as in their Table 4.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.data.models import (
    DEFAULT_DAILY_LIMIT,
    DESCRIBED,
    Challenge,
    Item,
    ItemSubset,
    Reference,
    Submission,
    System,
    TestSet,
    Track,
)
from app.data.testsets import HEADLINE_SUBSET, stamp_content
from app.web.errors import DomainError
from app.web.services.bundled import remove_bundled_runs
from app.web.services.tracks import language_code, multilingual_track
from scorer.io import drs

STANDARD = HEADLINE_SUBSET
PMB5_SUBSETS = (STANDARD, "long", "compositional-substitution", "compositional-extension")
CHALLENGE_SETS = {"tense": 200, "polarity": 100, "number": 100, "names": 50, "quantity": 50}
"""Wang et al. (2021) challenge sets and their published sizes (a different size is reported,
not refused). In the published files the polarity set is ``test-neg`` and the number set
``test-polarity``: the set name is given explicitly at import, never read from the file name."""
SUBSET_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}$")


@dataclass
class ChallengeImport:
    """What importing a challenge set did, for the organiser to check."""

    name: str
    added: int
    paired: int
    unmatched: list[tuple[int, str]] = field(default_factory=list)
    """(block number, header sentence) of items whose original was not found."""
    ambiguous: int = 0
    """Items whose original sentence occurs more than once in the test set (first one used)."""
    removed: list[str] = field(default_factory=list)
    """Bundled baseline runs taken off the test set (decoded from the items before this set)."""

    def describe(self) -> str:
        lines = [f"challenge set {self.name}: {self.added} items, {self.paired} paired"]
        expected = CHALLENGE_SETS.get(self.name)
        if expected and expected != self.added:
            lines.append(f"note: the published {self.name} set has {expected} items")
        if self.ambiguous:
            lines.append(
                f"note: {self.ambiguous} original sentence(s) occur twice in the test set; "
                "paired with the first"
            )
        lines += [f"unmatched block {block}: {sentence!r}" for block, sentence in self.unmatched]
        if self.removed:
            lines.append(removed_note(self.removed))
        return "\n".join(lines)


def check_subset_name(name: str) -> str:
    if not SUBSET_NAME.match(name) or name == DESCRIBED:
        raise DomainError(
            f"subset name {name!r}: use lower-case letters, digits and '-' (e.g. tense, long)"
        )
    return name


def import_drs_test_set(
    session: Session,
    challenge: Challenge,
    slug: str,
    language: str,
    inputs: bytes,
    sentences: bytes | None = None,
    *,
    subset: str = STANDARD,
    inputs_name: str = "inputs.txt",
    sentences_name: str = "references.raw",
    title: str | None = None,
    deadline: datetime | None = None,
    daily_limit: int | None = DEFAULT_DAILY_LIMIT,
) -> tuple[TestSet, int, list[str]]:
    """Add DRS items tagged ``subset`` to the (track, language) test set, creating the track
    and the test set as needed; return the test set, the number of items added and the
    bundled baseline runs taken off it."""
    check_subset_name(subset)
    language = language_code(language)
    items = drs.read_test_set(inputs, inputs_name, sentences, sentences_name)
    track = multilingual_track(
        session, challenge, slug, "drs", title or "DRS-to-text", deadline, daily_limit
    )
    test_set = track.test_set_for(language)
    if test_set is None:
        test_set = TestSet(
            track=track,
            language=language,
            source_sha256=hashlib.sha256(inputs + b"\x00" + (sentences or b"")).hexdigest(),
        )
        session.add(test_set)
        session.flush()
        removed = []
    else:
        removed = _make_room(session, test_set)
    _append_items(session, test_set, subset, items, [None] * len(items))
    return test_set, len(items), removed


def import_challenge_set(
    session: Session,
    track: Track,
    language: str,
    name: str,
    inputs: bytes,
    sentences: bytes,
    *,
    inputs_name: str = "challenge.txt",
    sentences_name: str = "challenge.txt.raw",
    allow_unmatched: bool = False,
) -> ChallengeImport:
    """Append a challenge set (clause-format DRSs + their ``.raw`` sentences) to a test set,
    linking each item to the test item whose reference is its ``%%%`` original sentence.

    Items that cannot be paired are listed and the import is refused, unless
    ``allow_unmatched`` (they are then scored as Chal but left out of Orig vs Chal)."""
    check_subset_name(name)
    language = language_code(language)
    if track.kind != "drs":
        raise DomainError(f"track {track.slug!r} is a {track.kind} track; challenge sets are DRS")
    test_set = track.test_set_for(language)
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language} test set to pair with")
    removed = _make_room(session, test_set)
    items = drs.read_clause_test_set(inputs, sentences, inputs_name, sentences_name)
    originals, duplicated = _originals_by_sentence(session, test_set)
    report = ChallengeImport(name, len(items), 0, removed=removed)
    links: list[int | None] = []
    for block, item in enumerate(items, start=1):
        key = drs.sentence_key(item.header_sentence or "")
        original = originals.get(key) if key else None
        links.append(original)
        if original is None:
            report.unmatched.append((block, item.header_sentence or "(no %%% sentence line)"))
        else:
            report.paired += 1
            report.ambiguous += key in duplicated
    if report.unmatched and not allow_unmatched:
        raise DomainError(
            f"{len(report.unmatched)} of {len(items)} items of {inputs_name} have no original "
            "in the test set (nothing imported; --allow-unmatched imports them unpaired):\n"
            + "\n".join(f"block {block}: {sentence!r}" for block, sentence in report.unmatched)
        )
    _append_items(session, test_set, name, items, links)
    return report


def _append_items(
    session: Session,
    test_set: TestSet,
    subset: str,
    items: list[drs.DrsItem],
    originals: list[int | None],
) -> None:
    """Add items tagged ``subset`` after the test set's last item (a subset is added once)."""
    if session.scalar(
        select(ItemSubset.id)
        .join(Item)
        .where(Item.test_set_id == test_set.id, ItemSubset.name == subset)
        .limit(1)
    ):
        raise DomainError(
            f"the {test_set.language} test set of {test_set.track.slug!r} already has a "
            f"{subset!r} set"
        )
    last = session.scalar(select(func.max(Item.position)).where(Item.test_set_id == test_set.id))
    start = 0 if last is None else last + 1
    profile = test_set.track.scoring_profile
    session.add_all(
        Item(
            test_set=test_set,
            position=start + k,
            input_text=item.drs,
            attributes=profile.item_attributes(item.drs, [item.text or ""], {"subset": subset}),
            original_id=original,
            references=[Reference(position=0, text=item.text)],
            subsets=[ItemSubset(name=subset)],
        )
        for k, (item, original) in enumerate(zip(items, originals, strict=True))
    )
    stamp_content(session, test_set)
    session.flush()


def removed_note(systems: list[str]) -> str:
    return (
        f"bundled baseline run(s) removed, decoded from the items before this import: "
        f"{', '.join(systems)}"
    )


def _make_room(session: Session, test_set: TestSet) -> list[str]:
    """Items are only added before anyone submits: a submission has one line per item. Copies
    of bundled runs are not anyone's submission: they go (``remove_bundled_runs``)."""
    removed = remove_bundled_runs(session, test_set)
    _check_no_submissions(session, test_set)
    return removed


def _check_no_submissions(session: Session, test_set: TestSet) -> None:
    count = session.scalar(
        select(func.count(Submission.id))
        .join(System)
        .where(System.track_id == test_set.track_id, Submission.language == test_set.language)
    )
    if count:
        raise DomainError(
            f"the {test_set.language} test set already has {count} submission(s); items cannot "
            "be added to it now (create a new track for the extended test set)"
        )


def _originals_by_sentence(session: Session, test_set: TestSet) -> tuple[dict[str, int], set[str]]:
    """Reference-sentence key -> the first test item with it, challenge items left out (those
    of any subset in which an item is linked to an original); keys seen twice."""
    linked = (
        select(ItemSubset.name)
        .join(Item)
        .where(Item.test_set_id == test_set.id, Item.original_id.is_not(None))
        .distinct()
    )
    in_challenge = select(ItemSubset.item_id).where(ItemSubset.name.in_(linked))
    by_key: dict[str, int] = {}
    duplicated: set[str] = set()
    for item_id, text in session.execute(
        select(Item.id, Reference.text)
        .join(Reference)
        .where(Item.test_set_id == test_set.id, Item.id.not_in(in_challenge))
        .order_by(Item.position, Reference.position)
    ):
        key = drs.sentence_key(text)
        if key in by_key and by_key[key] != item_id:
            duplicated.add(key)
        by_key.setdefault(key, item_id)
    return by_key, duplicated
