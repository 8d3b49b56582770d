"""A test set's references as an immutable, hashable value, so metrics can cache their
reference-side statistics (n-gram tables, IDF, tokenisation) across submissions."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any


class ReferenceSet:
    """``items[i]`` holds every reference of test item ``i`` (E2E: 2 to 43 per MR)."""

    def __init__(self, items: Iterable[Sequence[str]], inputs: Sequence[str] | None = None):
        self.items: tuple[tuple[str, ...], ...] = tuple(tuple(refs) for refs in items)
        if any(not refs for refs in self.items):
            raise ValueError("every item needs at least one reference")
        self.inputs: tuple[str, ...] | None = None if inputs is None else tuple(inputs)
        """The test inputs (E2E MRs), for metrics that check outputs against them (SER)."""
        if self.inputs is not None and len(self.inputs) != len(self.items):
            raise ValueError(f"{len(self.inputs)} inputs for {len(self.items)} items")

    @classmethod
    def from_items(cls, items: Iterable) -> ReferenceSet:
        """From read test items (``.input``, ``.references``); the inputs are kept only when
        every item has one (E2E MRs yes, SR'18/DRS sentences no)."""
        items = list(items)
        inputs = [item.input for item in items]
        return cls((item.references for item in items), inputs=inputs if all(inputs) else None)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return iter(self.items)

    def __getitem__(self, index: int) -> tuple[str, ...]:
        return self.items[index]

    @cached_property
    def digest(self) -> str:
        """Content hash: equal references give equal digests, whatever object holds them."""
        hasher = hashlib.sha256()
        for refs in self.items:
            hasher.update(str(len(refs)).encode())
            for ref in refs:
                hasher.update(b"\x00" + ref.encode())
            hasher.update(b"\x01")
        return hasher.hexdigest()

    @cached_property
    def max_references(self) -> int:
        return max((len(refs) for refs in self.items), default=0)


def as_reference_set(references: ReferenceSet | Sequence[Sequence[str]]) -> ReferenceSet:
    return references if isinstance(references, ReferenceSet) else ReferenceSet(references)


class PreparedCache:
    """Keeps the prepared reference statistics of the few most recent test sets."""

    def __init__(self, size: int = 4):
        self._size = size
        self._entries: dict[str, object] = {}

    def __contains__(self, references: ReferenceSet) -> bool:
        return references.digest in self._entries

    def get(self, references: ReferenceSet, prepare: Callable[[ReferenceSet], Any]) -> Any:
        key = references.digest
        if key not in self._entries:
            if len(self._entries) >= self._size:
                self._entries.pop(next(iter(self._entries)))
            self._entries[key] = prepare(references)
        return self._entries[key]


class LastResult:
    """One computation's result for the last (outputs, test set) it was asked about: metrics
    that share one pass (BLEU-sr18 and NIST-sr18; SER and its category shares) run it once."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._value = None

    def get(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        compute: Callable[[tuple[str, ...]], Any],
    ) -> Any:
        """``compute(outputs)`` unless the same outputs and test set were seen last time."""
        key = (references.digest, references.inputs, tuple(hypotheses))
        if key != self._key:
            self._value, self._key = compute(key[2]), key
        return self._value
