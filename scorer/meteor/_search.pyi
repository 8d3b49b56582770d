"""Types of the compiled search (``_search.c``)."""

def resolve(
    raw: list[list[tuple[int, int, int, int, int]]], len1: int, len2: int
) -> list[tuple[int, int, int, int, int] | None]: ...
