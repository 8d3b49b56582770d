"""Challenge sets of DRS-to-text tracks.

A DRS test set's items are tagged with subsets: PMB 5's "standard", "long",
"compositional-substitution", "compositional-extension" (imported as any test set is,
``item_imports``), or one of Wang et al.'s (2021) challenge sets. Each challenge item is linked to the test item it was made from (the ``%%%``
header of a challenge DRS carries the original sentence), so a system is scored on the
originals (Orig) and on the modified items (Chal), as in their Table 4.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import Item, ItemSubset, Reference, TestSet, Track
from app.web.errors import DomainError
from app.web.services.import_rules import track_rule
from app.web.services.test_set_items import (
    append_items,
    check_subset_name,
    make_room,
    removed_note,
)
from app.web.services.tracks import language_code
from scorer.io import drs
from scorer.kinds.releases import ReleaseItem

CHALLENGE_SETS = {"tense": 200, "polarity": 100, "number": 100, "names": 50, "quantity": 50}
"""Wang et al. (2021) challenge sets and their published sizes (a different size is reported,
not refused). In the published files the polarity set is ``test-neg`` and the number set
``test-polarity``: the set name is given explicitly at import, never read from the file name."""


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
    if not track_rule(track).grows_by:
        raise DomainError(
            f"track {track.slug!r} is a {track.kind} track, whose test sets do not grow by "
            "subsets: it takes no challenge sets"
        )
    test_set = track.test_set_for(language)
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language} test set to pair with")
    removed = make_room(session, test_set)
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
    release = [ReleaseItem(item.drs, (item.text or "",)) for item in items]
    append_items(session, test_set, release, name, links)
    return report


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
