"""Types of chrF++'s compiled statistics (``_chrf.c``)."""

from collections.abc import Sequence

def table(units: str, order: int) -> bytes: ...
def best(
    chars: str,
    words: str,
    references: Sequence[tuple[bytes, bytes]],
    char_order: int,
    word_order: int,
    factor: float,
) -> list[float]: ...
