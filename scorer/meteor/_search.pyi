"""Types of the compiled search and candidates (``_search.c``)."""

from typing import Any

Raw = tuple[int, int, int, int, int]

def resolve(raw: list[list[Raw]], len1: int, len2: int) -> list[Raw | None]: ...
def synonym_matches(
    candidates: list[list[Raw]],
    synonyms2: list[frozenset[int]],
    synset_positions1: dict[int, list[int]],
    keys1: list[int],
    keys2: list[int],
) -> None: ...
def paraphrase_matches(
    candidates: list[list[Raw]],
    paths2: list[tuple[int, int, Any]],
    positions1: dict[str, list[int]],
    words1: tuple[str, ...],
    paths1: list[tuple[int, int, Any]],
    positions2: dict[str, list[int]],
    words2: tuple[str, ...],
) -> None: ...
def upper_bound(
    raw: list[list[Raw]],
    function1: list[bool],
    function2: list[bool],
    module_weights: tuple[float, float, float, float],
    parameters: tuple[float, float, float, float],
) -> float: ...
