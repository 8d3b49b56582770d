"""Slot errors of E2E outputs as the E2E slot-error script counts them (Dušek, Howcroft & Rieser
2019, the script behind E2E paper Table 12; its figures for 47,280 outputs are the test oracle).

What the script does, and so what this module does:

* every realisation pattern of every slot value is matched in the output (case-insensitive,
  whole words); ``name`` and ``near`` are matched as the literal names of the E2E data, so a
  restaurant mentioned that is not in the MR is an added ``name``;
* a match inside a longer match of any slot is dropped ("Indian" in "Raja Indian Cuisine"); of
  matches with the same span, the one whose value is in the MR is kept (prices "cheap" and
  "less than £20" share patterns, as do ratings "low" and "1 out of 5"), else the first found;
* customer ratings follow the rules the script's per-output figures show (``_rating_values``;
  read from those figures, all of them reproduced, not from its code): an unasked rating phrase
  is reported as its number; a phrase of one level running on into the number of that level
  ("high rating of 5 out of 5", "rated a low 1 star") is one match of the number, so for a
  "high" MR it is a value error; "(very) well rated" is never 5 out of 5; "not ... good rating"
  needs the two at most two words apart ("doesn't have a very good rating" is a high rating);
* the values found form a set per slot, compared with the MR's: per slot, each (found, missing)
  pair is a value error, the rest of the found values are additions, the rest of the missing
  ones misses. Saying a value twice is not an error -- except the customer rating "low", the
  only repetition the script counts (14 of its 47,280 outputs; no other repeated value counts);
* SER = (added + missing + value errors + repeated) / MR slots; an output is OK with no error,
  A with additions or repetitions only, M with misses only, A+M otherwise.

The patterns are the script's, quirks kept: "friendly with the kids" needs the "the", so
"friendly with kids" says nothing; "£20-£25" is not the price "£20-25"; "poorly reviewed" is no
rating. They were checked against the script's own per-output figures (tests/oracles/
test_ser_oracle.py): every one of its 47,280 dev, dev-LOO and training outputs gets exactly its
counts. Patterns cannot cover every correct phrasing (E2E paper, footnote 29): these are
estimates.

Citation: Dušek, Howcroft & Rieser (2019), Semantic noise matters for neural natural language
generation, INLG; Dušek, Novikova & Rieser (2020), E2E paper, Sect. 8.5, Eq. 5.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

LITERAL_SLOTS = ("name", "near")
"""Slots whose values are names: matched literally, delexicalised as X-name / X-near."""

REPEAT_COUNTED = ("customer rating", "low")
"""The one slot value whose repetition the script counts as an error."""

NAMES = [
    "Alimentum",
    "Aromi",
    "Bibimbap House",
    "Blue Spice",
    "Browns Cambridge",
    "Clowns",
    "Cocum",
    "Cotto",
    "Fitzbillies",
    "Giraffe",
    "Green Man",
    "Loch Fyne",
    "Midsummer House",
    "Strada",
    "Taste of Cambridge",
    "The Cambridge Blue",
    "The Cricketers",
    "The Dumpling Tree",
    "The Eagle",
    "The Golden Curry",
    "The Golden Palace",
    "The Mill",
    "The Olive Grove",
    "The Phoenix",
    "The Plough",
    "The Punter",
    "The Rice Boat",
    "The Twenty Two",
    "The Vaults",
    "The Waterman",
    "The Wrestlers",
    "Travellers Rest Beefeater",
    "Wildwood",
    "Zizzi",
]
NEARS = [
    "All Bar One",
    "Avalon",
    "Burger King",
    "Café Adriatic",
    "Café Brazil",
    "Café Rouge",
    "Café Sicilia",
    "Clare Hall",
    "Crowne Plaza Hotel",
    "Express by Holiday Inn",
    "Rainbow Vegetarian Café",
    "Raja Indian Cuisine",
    "Ranch",
    "The Bakers",
    "The Portland Arms",
    "The Rice Boat",
    "The Six Bells",
    "The Sorrento",
    "Yippee Noodle Bar",
]

REALIZATIONS: dict[str, dict[str, list[str]]] = {
    "area": {
        "city centre": [
            r"(?:city|town) cent(?:re|er)",
            r"cent(?:re|er) of (?:the )?(?:city|town)",
            r"in the cent(?:re|er)",
        ],
        "riverside": [r"riverside", r"(?:near|by|at|close to|along|on|off|beside) the river"],
    },
    "eatType": {
        "coffee shop": [r"coffee[- ]+shop", r"caf[eé]", r"coffee"],
        "pub": [r"pub"],
        "restaurant": [r"restaurant"],
    },
    "familyFriendly": {
        "no": [
            r"(?:isn't|not|non|no)[ -]+(?:\w+ ){0,2}(?:child|children|family|kids|kid)[ -]+(?:friendly|orientated|oriented)",
            r"(?:child|children|family|kids|kid)[ -]+unfriendly",
            r"adults?[ -]+only",
            r"only for adults",
            r"(?:no|not) (?:kids|children|famil(?:y|ies))",
            r"(?:not|no)(?: good| suitable| friendly| orientated| oriented| open(?:ed))? (?:at|for|to|with)(?: the)? (?:kids|children|family|families|all age)",
            r"(?:kids?|child(?:ren)?|famil(?:y|ies)) (?:are|is)(?:n't| not) (?:welcome|allowed|accepted)",
            r"(?:does not|doesn't) (?:welcome|allow|accept) (?:\w+ ){0,2}(?:kids?|child(?:ren)?|famil(?:y|ies)|all age)",
            r"adult (?:establishment|venue|place|establish)",
        ],
        "yes": [
            r"for (?:kids|children|family|families)",
            r"family place",
            r"place to bring the(?: whole)? family",
            r"(?:friendly|suitable|good|orientated|oriented|open(?:ed)) (?:at|with|to|for)(?: the)(?:kids?|child(?:ren)?|famil(?:y|ies)?|all age)",
            r"(?:child|children|family|kids|kid)[ -]+(?:friendly|orientated|oriented)",
            r"(?:kids?|child(?:ren)?|famil(?:y|ies)) (?:are|is) (?:welcome|allowed|accepted)",
            r"(?:welcomes?|allows?|accepts?) (?:\w+ ){0,2}(?:kids?|child(?:ren)?|famil(?:y|ies)|all age)",
        ],
    },
    "food": {
        "Chinese": ["Chinese", "Chines"],
        "English": ["English", "British"],
        "Fast food": ["Fast food"],
        "French": ["French"],
        "Indian": ["Indian"],
        "Italian": ["Italian"],
        "Japanese": ["Japanese"],
    },
    "priceRange": {
        "cheap": [
            r"(?:inexpensive|cheap)(?:ly)?",
            r"low[- ]+price[ds]?",
            r"affordabl[ey]",
            r"prices?(?: range)?(?: \w+){0,3} low",
        ],
        "less than £20": [
            r"(?:inexpensive|cheap)(?:ly)?",
            r"affordabl[ey]",
            r"(?:less than|under) £? *20",
            r"moderately priced",
            r"low[- ]+price[ds]?",
            r"prices?(?: range)?(?: \w+){0,3} low",
        ],
        "more than £30": [
            r"(?:more than|over) £? *30",
            r"high[- ]+price[ds]?",
            r"expensive",
            r"not cheap",
            r"prices?(?: range)?(?: \w+){0,3} high",
        ],
        "high": [r"high[- ]+price[ds]?", r"expensive", r"prices?(?: range)?(?: \w+){0,3} high"],
        "moderate": [
            r"(?:moderate|reasonable|ok|average)(?:ly)?[- ]+price[ds]?",
            r"not cheap",
            r"affordable",
            r"mid[- ]+(?:range[- ]+)price[ds]?",
            r"prices?(?: range)?(?: \w+){0,3} (?:ok|average|moderate|reasonable)",
        ],
        "£20-25": [
            r"£? *20 *(?:[-–]*|to) *25",
            r"(?:moderate|reasonable|ok|average)(?:ly)?[- ]+price[ds]?",
            r"prices?(?: range)?(?: \w+){0,3} (?:ok|average|moderate|reasonable)",
            r"affordable",
        ],
    },
    "customer rating": {
        "1 out of 5": [r"(?:1|one)(?:(?: out)? of (?:5|five)(?: stars?)?|[- ]+stars?)"],
        "3 out of 5": [r"(?:3|three)(?:(?: out)? of (?:5|five)(?: stars?)?|[- ]+stars?)"],
        "5 out of 5": [r"(?:5|five)(?:(?: out)? of (?:5|five)(?: stars?)?|[- ]+stars?)"],
        "low": [
            r"(?:low|bad|poor)(?:ly)?(?:[- ]+\w+){0,2}[- ]+(?:rat(?:ed|ings?)|reviews?|quality|standards?)",
            r"(?:not|doesn't|isn't|don't)(?: \w+){0,2} (?:good|well)(?:[- ]+\w+){0,2}[- ]+(?:rat(?:ed|ings?)|reviews?|quality|standards?)",
            r"(?:rat(?:e[ds]?|ings?)|reviews?|quality)(?: \w+){0,2} (?:as )?(?:low|bad|poor)",
        ],
        "average": [
            r"(?:average|good|well)(?:ly)?(?:[- ]+\w+){0,2}[- ]+(?:rat(?:ed|ings?)|reviews?|quality|standards?)",
            r"(?:rat(?:e[ds]?|ings?)|reviews?|quality)(?: \w+){0,2} (?:as )?average",
        ],
        "high": [
            r"(?:high|great|excellent|very good)(?:ly)?(?:[- ]+\w+){0,2}[- ]+(?:rat(?:ed|ings?)|reviews?|quality|standards?)",
            r"(?:rat(?:e[ds]?|ings?)|reviews?|quality)(?: \w+){0,2} (?:as )?high",
        ],
    },
}

RATING_LEVELS = (("low", "1 out of 5"), ("average", "3 out of 5"), ("high", "5 out of 5"))
"""Each rating word and the number it stands for."""

WORD_ONLY_RATINGS = {
    "high": [
        r"(?:very )?well(?:ly)?(?:[- ]+\w+){0,2}[- ]+(?:rat(?:ed|ings?)|reviews?|quality|standards?)"
    ]
}
"""Realisations of a rating word that its number lacks: "(very) well rated" is high but never
5 out of 5, so for a 5 out of 5 MR "well rated" is the 3 out of 5 it also says, and "very well
rated" the word high."""

RUN_ON = r"(?: \w+)? "
"""What may stand between a rating phrase and the number of the same level for the two to be
one realisation of the number ("high rating of 5 out of 5", "rated a low 1 star")."""


def _rating_values(values: dict[str, list[str]]) -> dict[str, list[str]]:
    """The rating patterns as the script matches them, word by word and number by number.

    A word and its number share their realisations, so the MR's value wins a phrase that says
    either, and of the two the number is the one an unasked rating is reported as. A number's
    realisations also run on: a phrase of its level, at most a word, then the number itself
    ("high rating of 5 out of 5") is one match of the number alone, which holds the word's
    shorter match inside it -- so a "high" MR said that way is a value error, not a repetition.
    """
    composed = dict(values)
    for word, number in RATING_LEVELS:
        words, numbers = values[word], values[number]
        run_on = f"{_alternatives(words)}{RUN_ON}{_alternatives(numbers)}"
        composed[number] = [run_on, *numbers, *words]
        composed[word] = [*words, *numbers, *WORD_ONLY_RATINGS.get(word, [])]
    return composed


def _alternatives(patterns: list[str]) -> str:
    return "(?:" + "|".join(f"(?:{pattern})" for pattern in patterns) + ")"


def _compile(patterns: list[str]) -> re.Pattern:
    """One alternation, whole words only, case-insensitive; at a position the first pattern
    that matches wins, not the longest (the order of a value's patterns matters)."""
    return re.compile(rf"(?<!\w){_alternatives(patterns)}(?!\w)", re.IGNORECASE)


_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
"""Letters that case-insensitive matching takes for an ASCII one but ``str.lower`` does not
lower to it (dotted and dotless I, long s, the Kelvin sign)."""


def folded(text: str) -> str:
    """``text`` lowered so that a name the case-insensitive pattern finds in it is a substring
    of it (lowered the same way): a name can be looked for before its pattern is run."""
    return text.translate(_FOLD).lower()


_MATCHERS: list[tuple[str, str, re.Pattern, str | None]] = [
    (slot, value, _compile(patterns), None)
    for slot, values in REALIZATIONS.items()
    for value, patterns in (_rating_values(values) if slot == "customer rating" else values).items()
] + [
    (slot, name, _compile([re.escape(name)]), folded(name))
    for slot, names in (("name", NAMES), ("near", NEARS))
    for name in names
]
"""Slot, value, its pattern, and for a name the text every match of it contains (folded)."""

_MR_SLOT = re.compile(r"\s*([^\[\],]+?)\s*\[([^\]]*)\]\s*(?:,|$)")


@dataclass(frozen=True)
class Match:
    slot: str
    value: str
    start: int
    end: int
    said: str

    def inside(self, other: Match) -> bool:
        """Strictly inside ``other`` (same span excluded)."""
        return (
            other.start <= self.start
            and self.end <= other.end
            and (self.start, self.end) != (other.start, other.end)
        )


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


_DESCRIBED = re.compile(r"(missed|added|wrong|repeated) (.+?)(?:\[|: )")


def described_error(text: str) -> tuple[str, str] | None:
    """(kind, slot) of an error as ``SlotError.describe`` wrote it (stored beside outputs)."""
    found = _DESCRIBED.match(text)
    return (found.group(1), found.group(2)) if found else None


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


def find_values(mr_slots: list[tuple[str, str]], output: str) -> list[Match]:
    """The slot values an output says, after the script's filtering of overlapping matches."""
    in_mr = set(mr_slots)
    lowered = folded(output)
    matches = [
        Match(slot, value, found.start(), found.end(), found.group(0))
        for slot, value, pattern, needle in _MATCHERS
        if needle is None or needle in lowered  # most names are not there: not searched
        for found in pattern.finditer(output)
    ]
    kept: list[Match] = []
    for match in matches:
        if not any(
            match.inside(other)
            or (
                other is not match
                and (other.start, other.end) == (match.start, match.end)
                and ((other.slot, other.value) in in_mr or other in kept)
            )
            for other in matches
        ):
            kept.append(match)
    return kept


def check_output(mr: str, output: str) -> SlotCheck:
    """The slot errors of one output against its MR."""
    mr_slots = parse_mr(mr)
    matches = find_values(mr_slots, output)
    expected = set(mr_slots)
    said: dict[tuple[str, str], str] = {}
    for match in matches:
        said.setdefault((match.slot, match.value), match.said)
    errors: list[SlotError] = []
    for slot in dict.fromkeys([s for s, _ in mr_slots] + [m.slot for m in matches]):
        added = [v for s, v in said if s == slot and (s, v) not in expected]
        missed = [v for s, v in mr_slots if s == slot and (s, v) not in said]
        for value, found in zip(missed, added, strict=False):
            errors.append(SlotError("wrong", slot, value, said[(slot, found)]))
        pairs = min(len(missed), len(added))
        errors += [SlotError("added", slot, None, said[(slot, v)]) for v in added[pairs:]]
        errors += [SlotError("missed", slot, v, None) for v in missed[pairs:]]
    repeats = [m for m in matches if (m.slot, m.value) == REPEAT_COUNTED][1:]
    errors += [SlotError("repeated", m.slot, m.value, m.said) for m in repeats]
    return SlotCheck(len(mr_slots), tuple(errors))


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


def slot_error_rate(checks: list[SlotCheck]) -> float:
    slots = sum(check.slots for check in checks)
    return 100.0 * sum(len(check.errors) for check in checks) / slots if slots else 0.0


def categories(checks: list[SlotCheck]) -> Counter:
    return Counter(check.category for check in checks)
