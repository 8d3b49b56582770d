"""What slider protocols (RankME, Direct Assessment) share: a 0-100 score per text on a page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scorer.human.judgements import SCALE
from scorer.human.protocols.base import Answers


def slider_answers(slots: Sequence[int], criterion: str, form: Mapping[str, str]) -> Answers:
    """``score-<slot>`` fields, each a number from 0 to 100."""
    answers: Answers = {}
    low, high = SCALE
    for slot in slots:
        raw = (form.get(f"score-{slot}") or "").strip()
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if not low <= value <= high:
            label = f"text {slot + 1}" if len(slots) > 1 else "the text"
            raise ValueError(f"give {label} a score from 0 to 100")
        answers[(slot, criterion)] = value
    return answers


def off_slider(score: float) -> str | None:
    low, high = SCALE
    return None if low <= score <= high else f" is not from {low:g} to {high:g}"
