"""Types of the compiled search and candidates (``_search.c``)."""

from typing import Any

Raw = tuple[int, int, int, int, int]

def resolve(raw: list[list[Raw]], len1: int, len2: int) -> list[Raw | None]: ...
def pack(
    words: tuple[str, ...],
    keys: list[int],
    stem_keys: list[int],
    synonyms: list[frozenset[int]],
    paths: list[tuple[int, int, Any]],
) -> tuple[bytes, list[tuple[str, ...]]]: ...
def candidates(
    words1: tuple[str, ...],
    packed1: tuple[bytes, list[tuple[str, ...]]],
    words2: tuple[str, ...],
    packed2: tuple[bytes, list[tuple[str, ...]]],
) -> list[list[Raw]]: ...
def upper_bound(
    raw: list[list[Raw]],
    function1: list[bool],
    function2: list[bool],
    module_weights: tuple[float, float, float, float],
    parameters: tuple[float, float, float, float],
) -> float: ...
