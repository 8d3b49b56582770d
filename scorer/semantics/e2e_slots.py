"""Slot error rate for E2E outputs (E2E paper Sect. 8.5, Eq. 5; Reed et al. 2018).

Each MR slot value is looked for in the output with regular expressions that cover the ways
the E2E data express it. ``name`` and ``near`` are matched as their literal strings (an
optional leading "the", any case) and blanked out first, so that "Raja Indian Cuisine" does not
count as food[Indian]. For every other slot, the matches of *all* its values are collected and
overlapping matches resolved longest first ("not family-friendly" beats "family-friendly"); on a
span that several values share ("cheap" for cheap and less than £20), the MR's value wins.

Per slot of the MR: no match of its value and no other value -> missed; no match of its value
but another value of the slot -> wrong value; its value matched n > 1 times -> n - 1 repeated
(except ``name``, which outputs legitimately repeat); other values of the slot besides a matched
MR value -> added. A slot absent from the MR whose values appear -> added (one per value).

    SER = (missed + added + wrong + repeated) / number of MR slots

Output categories (Table 12): OK (no error), A (something added: added, wrong or repeated),
M (something missed: missed or wrong), A+M (both). A wrong value is both a miss and an addition.
These are estimates: patterns cannot cover every correct phrasing (paper, footnote 29).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

LITERAL_SLOTS = ("name", "near")
NOT_REPEATED = frozenset({"name"})

_KIDS = r"(?:kids?|child(?:ren)?|famil(?:y|ies)|all ages?)"
_RATING = r"(?:customer )?(?:rat(?:ings?|ed)|reviews?|reviewed|scores?|stars?|rank(?:ed|ings?)?)"
_PRICE = r"(?:price[sd]?|pricing|costs?)"
_NOT_PRICE = r"(?![- ](?:price|pricing|cost))"
_NOT_RATING = r"(?![- ](?:customer|rat(?:ing|ed)|review|star))"
_FEW_WORDS = r"(?: (?!and\b|with\b|but\b|while\b)\w+){0,3}"


def _rating(number: str, word: str, adjectives: str, adverbs: str) -> list[str]:
    """Patterns shared by a rating word and its number (E2E: low = 1, average = 3, high = 5)."""
    return [
        rf"(?:{number}|{word})(?: stars?)?(?: out(?: of)?| of) (?:5|five)",
        rf"(?:{number}|{word})[- ]stars?",
        rf"(?:{adjectives})[- ](?:\w+ )?" + _RATING,
        _RATING + _FEW_WORDS + rf" (?:is |are |of |as )?(?:{adjectives}){_NOT_PRICE}",
        rf"(?:{adverbs})[- ](?:rated|reviewed|regarded|recommended)",
    ]


_LOW_RATING = _rating("1", "one", "low|poor|bad|negative|lowly", "low|lowly|poorly|badly")
_AVERAGE_RATING = _rating(
    "3", "three", "average|mediocre|moderate|ok|okay|decent|medium|middling", "averagely|moderately"
)
_HIGH_RATING = _rating(
    "5", "five", "high|highly|excellent|great|good|top|positive|very good", "highly|well|very well"
)

PATTERNS: dict[str, dict[str, list[str]]] = {
    "eatType": {
        "coffee shop": [r"coffee[- ]?(?:shop|house)s?", r"caf[eé]s?", r"coffee ?bars?"],
        "pub": [r"pubs?"],
        "restaurant": [r"restaurants?"],
    },
    "food": {
        "Chinese": [r"chinese", r"chines"],
        "English": [r"english", r"british"],
        "Fast food": [r"fast[- ]?foods?", r"burgers?", r"fries"],
        "French": [r"french"],
        "Indian": [r"indian", r"curr(?:y|ies)"],
        "Italian": [r"italian", r"pasta", r"pizzas?"],
        "Japanese": [r"japanese", r"sushi"],
    },
    "priceRange": {
        "cheap": [
            r"cheap(?:ly|er|est)?",
            r"(?:inexpensive|low[- ]cost|budget|bargain)",
            r"low(?:er)?[- ](?:\w+ )?" + _PRICE,
            _PRICE + r"(?: range)?" + _FEW_WORDS + r" (?:are |is )?low" + _NOT_RATING,
            r"not (?:very |too |so )?expensive",
            r"(?:below|less than|lower than)[- ]average[- ]" + _PRICE,
        ],
        "less than £20": [
            r"(?:less than|under|below|lower than|up to|within) (?:£ ?)?20(?: ?(?:£|pounds?))?",
            r"£ ?20 or (?:less|under|below)",
            r"(?:below|less than|lower than)[- ]average[- ]" + _PRICE,
            r"cheap(?:ly|er|est)?",
            r"(?:inexpensive|low[- ]cost|budget)",
            r"low(?:er)?[- ](?:\w+ )?" + _PRICE,
            _PRICE + r"(?: range)?" + _FEW_WORDS + r" (?:are |is )?low" + _NOT_RATING,
        ],
        "moderate": [
            r"moderate(?:ly)?(?:[- ]" + _PRICE + r")?",
            r"(?:average|reasonabl[ey]|fair(?:ly)?|mid(?:dle)?|medium|ok|decent)[- ](?:\w+ )?"
            + _PRICE,
            r"mid[- ]?range",
            _PRICE
            + r"(?: range)?"
            + _FEW_WORDS
            + r" (?:are |is )?(?:average|moderate|reasonable|fair)"
            + _NOT_RATING,
            r"affordabl[ey]",
        ],
        "£20-25": [
            r"(?:£ ?)?20 ?(?:-|–|to|and) ?(?:£ ?)?25(?: ?(?:£|pounds?))?",
            r"moderate(?:ly)?(?:[- ]" + _PRICE + r")?",
            r"(?:average|reasonabl[ey]|fair(?:ly)?|mid(?:dle)?|medium)[- ](?:\w+ )?" + _PRICE,
            r"mid[- ]?range",
        ],
        "high": [
            r"(?:expensive|pricey|pricy|costly|upscale|up-market|high[- ]end|luxur(?:y|ious))",
            r"high(?:er)?[- ](?:\w+ )?" + _PRICE,
            _PRICE + r"(?: range)?" + _FEW_WORDS + r" (?:are |is )?(?:high|steep)" + _NOT_RATING,
            r"not cheap",
            r"(?:above|higher[- ]than|more than)[- ]average[- ]" + _PRICE,
            _PRICE + r"(?: range)?(?: is)? above average",
        ],
        "more than £30": [
            r"(?:more than|over|above|higher than|in excess of|upwards of|at least) (?:£ ?)?30"
            + r"(?: ?(?:£|pounds?))?",
            r"£ ?30 (?:or|and) (?:more|above|over|up)",
            r"£ ?30\+",
            r"(?:expensive|pricey|pricy|costly|upscale|high[- ]end)",
            r"high(?:er)?[- ](?:\w+ )?" + _PRICE,
            _PRICE + r"(?: range)?" + _FEW_WORDS + r" (?:are |is )?(?:high|steep)" + _NOT_RATING,
            r"(?:above|higher[- ]than|more than)[- ]average[- ]" + _PRICE,
            _PRICE + r"(?: range)?(?: is)? above average",
        ],
    },
    "customer rating": {
        "low": _LOW_RATING,
        "1 out of 5": _LOW_RATING,
        "average": _AVERAGE_RATING,
        "3 out of 5": _AVERAGE_RATING,
        "high": _HIGH_RATING,
        "5 out of 5": _HIGH_RATING,
    },
    "area": {
        "city centre": [
            r"(?:city|town)[- ]?cent(?:re|er)",
            r"cent(?:re|er) of (?:the )?(?:city|town)",
            r"(?:in|at|near) the cent(?:re|er)",
            r"(?:central|downtown|centrally)",
        ],
        "riverside": [
            r"river[- ]?side",
            r"(?:near|by|at|close to|along|on|beside|next to|off|alongside) the river",
            r"river",
            r"waterfront",
        ],
    },
    "familyFriendly": {
        "no": [
            r"(?:not|\w*n't|non|none|no|never)[- ](?:\w+ ){0,2}"
            + _KIDS
            + r"[- ]?(?:friendly|orientated|oriented)",
            _KIDS + r"[- ]?unfriendly",
            r"adults?[- ]only",
            r"(?:only|meant|intended|just) for adults",
            _KIDS + r" (?:should|must|can|may)(?: not|n't|not) ",
            r"not (?:\w+ )?for (?:\w+ )?" + _KIDS,
            r"(?:not|\w*n't|no) (?:\w+ ){0,2}(?:suitable|good|ideal|recommended|friendly|welcoming|open"
            r"|appropriate|catering|geared|a place) (?:for|to|with) (?:\w+ ){0,2}" + _KIDS,
            _KIDS
            + r" (?:are(?: not|n't)|is(?: not|n't)|not) (?:\w+ )?(?:welcome|allowed|permitted)",
            r"(?:does not|doesn't|do not|don't|will not|won't|cannot|can't|not) (?:\w+ )?(?:welcome|allow"
            r"|accept|cater (?:for|to)|cater|admit|serve) (?:\w+ ){0,2}" + _KIDS,
            r"no " + _KIDS,
            r"non[- ]?famil(?:y|ies)",
            _KIDS + r"[- ]free",
        ],
        "yes": [
            _KIDS + r"[- ]?(?:friendly|orientated|oriented)",
            r"(?:suitable|good|ideal|great|perfect|friendly|welcoming|open|caters?|catering|geared"
            r"|appropriate|fun) (?:for|to|with|towards) (?:\w+ ){0,2}" + _KIDS,
            _KIDS + r" (?:are|is) (?:\w+ )?(?:welcome|allowed|permitted)",
            r"(?:welcomes?|allows?|accepts?|caters? (?:for|to)) (?:\w+ ){0,2}" + _KIDS,
            r"family[- ](?:place|restaurant|venue|establishment|atmosphere|setting|style|dining)",
            r"bring (?:\w+ ){0,2}" + _KIDS,
            r"(?:for|with) (?:your |the |their |all the )?(?:whole )?" + _KIDS,
        ],
    },
}

_COMPILED = {
    slot: {
        value: [re.compile(rf"(?<![\w£]){pattern}(?![\w])", re.IGNORECASE) for pattern in patterns]
        for value, patterns in values.items()
    }
    for slot, values in PATTERNS.items()
}
_MR_SLOT = re.compile(r"\s*([^\[\],]+?)\s*\[([^\]]*)\]\s*(?:,|$)")


@dataclass(frozen=True)
class SlotError:
    kind: str  # missed | added | wrong | repeated
    slot: str
    expected: str | None
    found: str | None

    def describe(self) -> str:
        if self.kind == "missed":
            return f"missed {self.slot}[{self.expected}]"
        if self.kind == "wrong":
            return f"wrong {self.slot}: [{self.expected}] said as {self.found!r}"
        if self.kind == "repeated":
            return f"repeated {self.slot}[{self.expected}]: {self.found!r}"
        return f"added {self.slot}: {self.found!r}"


@dataclass(frozen=True)
class SlotCheck:
    slots: int
    errors: tuple[SlotError, ...] = field(default_factory=tuple)

    @property
    def added(self) -> bool:
        return any(e.kind in ("added", "wrong", "repeated") for e in self.errors)

    @property
    def missed(self) -> bool:
        return any(e.kind in ("missed", "wrong") for e in self.errors)

    @property
    def category(self) -> str:
        return {(False, False): "OK", (True, False): "A", (False, True): "M"}.get(
            (self.added, self.missed), "A+M"
        )


def parse_mr(mr: str) -> list[tuple[str, str]]:
    """``name[X], eatType[pub]`` -> [("name", "X"), ("eatType", "pub")]; ValueError if malformed."""
    slots, position = [], 0
    text = mr.strip()
    while position < len(text):
        match = _MR_SLOT.match(text, position)
        if match is None:
            raise ValueError(f"cannot read the MR at {text[position : position + 30]!r}")
        slots.append((match.group(1).strip(), match.group(2).strip()))
        position = match.end()
    return slots


def check_output(mr: str, output: str) -> SlotCheck:
    """The slot errors of one output against its MR."""
    slots = parse_mr(mr)
    mr_values = dict(slots)
    errors: list[SlotError] = []
    text = output
    for slot in LITERAL_SLOTS:
        if slot not in mr_values:
            continue
        text, count = _blank_literal(text, mr_values[slot])
        if count == 0:
            errors.append(SlotError("missed", slot, mr_values[slot], None))
        elif count > 1 and slot not in NOT_REPEATED:
            errors.extend(
                SlotError("repeated", slot, mr_values[slot], mr_values[slot])
                for _ in range(count - 1)
            )
    for slot, values in _COMPILED.items():
        found = _resolve(text, values, mr_values.get(slot))
        errors.extend(_slot_errors(slot, mr_values.get(slot), found))
    return SlotCheck(len(slots), tuple(errors))


def delexicalise(mr: str, text: str) -> str:
    """``text`` with the MR's name and near values replaced by X-name / X-near (E2E paper 4.2)."""
    values = dict(parse_mr(mr))
    for slot in LITERAL_SLOTS:
        if slot in values:
            text = _literal_pattern(values[slot]).sub(f"X-{slot}", text)
    return text


def _literal_pattern(value: str) -> re.Pattern:
    words = [re.escape(word) for word in value.split()]
    if words and words[0].lower() == "the":
        words = words[1:]
    return re.compile(r"(?<!\w)(?:the\s+)?" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def _blank_literal(text: str, value: str) -> tuple[str, int]:
    return _literal_pattern(value).subn(lambda m: " " * len(m.group(0)), text)


def _resolve(text: str, values: dict[str, list[re.Pattern]], mr_value: str | None):
    """Non-overlapping (span, value) matches: longest first, the MR's value first on a tie."""
    candidates = []
    for value, patterns in values.items():
        for pattern in patterns:
            for match in pattern.finditer(text):
                candidates.append((match.start(), match.end(), value, match.group(0)))
    candidates.sort(key=lambda c: (-(c[1] - c[0]), c[2] != mr_value, c[0]))
    taken: list[tuple[int, int, str, str]] = []
    for candidate in candidates:
        if all(candidate[1] <= s or candidate[0] >= e for s, e, _, _ in taken):
            taken.append(candidate)
    return sorted(taken)


def _slot_errors(slot: str, mr_value: str | None, found) -> list[SlotError]:
    right = [c for c in found if c[2] == mr_value]
    other: dict[str, str] = {}
    for _, _, value, said in found:
        if value != mr_value:
            other.setdefault(value, said)
    if mr_value is None:
        return [SlotError("added", slot, None, said) for said in other.values()]
    if not right:
        if not other:
            return [SlotError("missed", slot, mr_value, None)]
        first, *rest = other.values()
        return [SlotError("wrong", slot, mr_value, first)] + [
            SlotError("added", slot, None, said) for said in rest
        ]
    errors = [SlotError("added", slot, None, said) for said in other.values()]
    if slot not in NOT_REPEATED:
        errors += [SlotError("repeated", slot, mr_value, c[3]) for c in right[1:]]
    return errors


def slot_error_rate(checks: list[SlotCheck]) -> float:
    slots = sum(check.slots for check in checks)
    return 100.0 * sum(len(check.errors) for check in checks) / slots if slots else 0.0


def categories(checks: list[SlotCheck]) -> Counter:
    return Counter(check.category for check in checks)
