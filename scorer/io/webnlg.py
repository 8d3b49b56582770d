"""WebNLG benchmark XML: RDF triple sets (the inputs) and their ``<lex>`` texts (the references).

The layout the organisers publish (2017 challenge, WebNLG+ 2020)::

    <benchmark><entries>
      <entry category="Airport" eid="Id1" size="1">
        <originaltripleset><otriple>...</otriple></originaltripleset>
        <modifiedtripleset><mtriple>Aarhus | leaderName | Jacob_Bundsgaard</mtriple></modifiedtripleset>
        <lex comment="good" lid="Id1">The leader of Aarhus is Jacob Bundsgaard.</lex>
      </entry>
    </entries></benchmark>

Read as the 2017 ``benchmark_reader.py`` reads it: the modified triples (``subject | property |
object``), a ``<lex>``'s text before any child element, entries in natural ``eid`` order (the
order evaluation.py pairs with output lines: output line k is entry ``Idk``). Where that reader
would crash or silently drop an entry (a triple without three parts, an entry without ``<lex>``
in a reference file, a duplicate ``eid``), the file is refused, naming the line.

An item's input is its triple set on one line: the triples as written in ``<mtriple>``, joined
by ``" || "`` (``linearise``/``delinearise`` go both ways; no triple of the 2017 release holds
``||``, and one that does is refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from xml.parsers import expat

from scorer.errors import InputError
from scorer.io.bounded_json import load_json
from scorer.io.items import Item, natural_key

TRIPLE_SEPARATOR = " || "
PART_SEPARATOR = " | "

SEEN_CATEGORIES_2017 = frozenset(
    {
        "Airport",
        "Astronaut",
        "Building",
        "City",
        "ComicsCharacter",
        "Food",
        "Monument",
        "SportsTeam",
        "University",
        "WrittenWork",
    }
)
"""The 10 DBpedia categories of the 2017 training data: test entries of these are "seen" (the
script's ``old_categories``), the 5 others (Artist, Athlete, CelestialBody,
MeanOfTransportation, Politician) "unseen"."""

INSTANCE_TYPES_2020 = {
    "type1": "seen categories",
    "type2": "unseen entities",
    "type3": "unseen categories",
}
"""WebNLG+ 2020's test entry types (its ``rdf-to-text-generation-test-instance-types.json``,
eid -> ``type1``..``type3``) as the challenge's results name them; another value is kept as is."""

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Entry:
    """One ``<entry>``: where it starts, its attributes, modified triples and ``<lex>`` texts."""

    line: int
    eid: str
    category: str
    size: str
    triples: tuple[Triple, ...]
    references: tuple[str, ...]
    attributes: Mapping[str, str] = field(default_factory=dict)
    """Every attribute of the ``<entry>`` element (2020 adds ``shape`` and ``shape_type``)."""

    @property
    def input(self) -> str:
        return linearise(self.triples)


def linearise(triples: Iterable[Triple]) -> str:
    """A triple set on one line: ``s | p | o || s | p | o``."""
    return TRIPLE_SEPARATOR.join(PART_SEPARATOR.join(triple) for triple in triples)


def delinearise(text: str) -> tuple[Triple, ...]:
    """The triples of a ``linearise``d triple set."""
    if not text:
        return ()
    return tuple(_triple(part) for part in text.split(TRIPLE_SEPARATOR))


def _triple(text: str) -> Triple:
    parts = text.split(PART_SEPARATOR)
    if len(parts) != 3:
        raise ValueError(f"{text!r} is not 'subject | property | object'")
    return parts[0], parts[1], parts[2]


def read_entries(data: bytes, filename: str, *, language: str | None = None) -> list[Entry]:
    """Every entry of a WebNLG XML file, in natural ``eid`` order. ``language`` keeps only the
    ``<lex>`` elements in that language (2020: ``lang="en"``/``"ru"``; a ``<lex>`` without
    ``lang`` counts as any, one with ``lang=""``, as the 2020 English release has them, as
    English)."""
    return _read(data, filename, language)[0]


def _read(data: bytes, filename: str, language: str | None) -> tuple[list[Entry], _Parser]:
    parser = _Parser(filename, language)
    entries = parser.parse(data)
    seen: dict[str, int] = {}
    for entry in entries:
        if entry.eid in seen:
            raise InputError(
                f"entry eid={entry.eid!r} appears twice (first on line {seen[entry.eid]}): "
                "outputs are matched to entries by eid",
                filename=filename,
                line=entry.line,
            )
        seen[entry.eid] = entry.line
    if not entries:
        raise InputError("has no <entry> elements", filename=filename)
    return sorted(entries, key=lambda entry: natural_key(entry.eid)), parser


def read_inputs(data: bytes, filename: str) -> list[Entry]:
    """A test-inputs file (``testdata_no_lex.xml``): entries, ``<lex>`` optional."""
    return read_entries(data, filename)


ENGLISH_RELEASE = 'lang="" (as in WebNLG 2020\'s English release) is read as English'


def read_references(
    data: bytes,
    filename: str,
    *,
    language: str | None = None,
    written_for: tuple[str, str] | None = None,
) -> list[Entry]:
    """A references file (``testdata_with_lex.xml``, train, dev): every entry needs a
    ``<lex>`` (the organisers' reader drops one without, which shifts every later output).

    A file is refused when it was not written for the language asked: without ``language``,
    one whose ``<lex>`` are in more than one language (2020's Russian release has the English
    text beside each Russian one: read as is, both would be references); with ``language``,
    one with ``<lex>`` in a language other than it and English (the bilingual releases' source
    language), e.g. the Russian release read as English."""
    entries, parser = _read(data, filename, language)
    languages = {_language(lang): line for lang, line in parser.languages.items()}
    if language is None and len(languages) > 1:
        raise InputError(
            f"has <lex> references in {len(languages)} languages "
            f"({', '.join(sorted(languages))}): the kind must say which are its references "
            "(the webnlg-xml reader's option language)",
            filename=filename,
            line=max(languages.values()),
        )
    if language is None and written_for is not None and languages:
        made_for, part = written_for
        if made_for not in languages:
            held = sorted(languages)
            raise InputError(
                f"has <lex> references in {', '.join(held)} only, but the kind is made for "
                f"{made_for!r} ({part}): it cannot score this file"
                + (f"; {ENGLISH_RELEASE}" if "" in parser.languages else ""),
                filename=filename,
                line=languages[held[0]],
            )
    others = sorted(set(languages) - {language, "en"}) if language is not None else []
    if others:
        raise InputError(
            f"has <lex lang={others[0]!r}> references: a file of the {others[0]!r} task, "
            f"not of the kind's language {language!r} (the webnlg-xml reader's option language)",
            filename=filename,
            line=languages[others[0]],
        )
    for entry in entries:
        if not entry.references:
            wanted = f" in language {language!r}" if language else ""
            found = ""
            if language and languages:
                found = f" (the file's <lex> are in: {', '.join(sorted(languages))}"
                found += f"; {ENGLISH_RELEASE})" if "" in parser.languages else ")"
            raise InputError(
                f"entry eid={entry.eid!r} has no <lex> reference{wanted}{found}",
                filename=filename,
                line=entry.line,
            )
    return entries


def _language(lang: str) -> str:
    return lang or "en"


def categories(data: bytes, filename: str) -> frozenset[str]:
    """The categories of a file's entries (a training file tells which categories are seen)."""
    return frozenset(entry.category for entry in read_entries(data, filename))


def as_items(
    entries: Sequence[Entry],
    seen_categories: Iterable[str] | None,
    types: Mapping[str, str] | None = None,
) -> list[Item]:
    """Test items with the attributes that define WebNLG's subsets and breakdowns: ``category``,
    ``size``, ``eid``; ``seen`` (``seen`` or ``unseen``: is the category in training) where the
    seen categories are given (never guessed: 2017's are not 2020's); ``type`` where each
    entry's type is given (``read_instance_types``)."""
    seen = None if seen_categories is None else frozenset(seen_categories)
    items = []
    for entry in entries:
        attributes = {"category": entry.category, "size": entry.size, "eid": entry.eid}
        if seen is not None:
            attributes["seen"] = "seen" if entry.category in seen else "unseen"
        if types is not None:
            attributes["type"] = types[entry.eid]
        items.append(Item(entry.input, entry.references, attributes))
    return items


def read_instance_types(
    data: bytes, filename: str, entries: Sequence[Entry], entries_file: str
) -> dict[str, str]:
    """Each entry's type from a JSON object ``{"Id1": "type1", ...}`` (WebNLG+ 2020's
    instance-types file), named as the challenge's results name them; refused unless it
    gives a type to exactly the entries of ``entries_file`` (a file for another test set)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"is not a JSON file ({error})", filename=filename) from None
    found = load_json(text, filename)
    if not isinstance(found, dict) or not all(
        isinstance(value, str) and value for value in found.values()
    ):
        raise InputError(
            'is not an object of entry ids to types ({"Id1": "type1", ...})', filename=filename
        )
    for entry in entries:
        if entry.eid not in found:
            raise InputError(
                f"gives no type for entry eid={entry.eid!r} ({entries_file} line {entry.line}): "
                "it is not the types file of this test set",
                filename=filename,
            )
    extra = sorted(set(found) - {entry.eid for entry in entries}, key=natural_key)
    if extra:
        raise InputError(
            f"gives types for {len(extra)} entries {entries_file} does not have (first: "
            f"{extra[0]}): it is not the types file of this test set",
            filename=filename,
        )
    return {eid: INSTANCE_TYPES_2020.get(value) or value for eid, value in found.items()}


@dataclass
class _OpenEntry:
    """An ``<entry>`` being read."""

    line: int
    attributes: dict[str, str]
    triples: list[Triple] = field(default_factory=list)
    references: list[str] = field(default_factory=list)


class _Parser:
    """An expat pass that keeps the line each element starts on (for error messages) and
    refuses DTDs (no entity can expand into a large or external text)."""

    def __init__(self, filename: str, language: str | None):
        self.filename = filename
        self.language = language
        self.entries: list[Entry] = []
        self.languages: dict[str, int] = {}
        """Each ``lang`` of an entry's ``<lex>`` and the line it is first met on."""
        self._parser = expat.ParserCreate()
        self._stack: list[str] = []
        self._entry: _OpenEntry | None = None
        self._text: list[str] | None = None
        """The text of the ``<mtriple>``/``<lex>`` being read, up to its first child element
        (ElementTree's ``.text``, what the organisers' reader takes)."""
        self._text_closed = False

    def parse(self, data: bytes) -> list[Entry]:
        parser = self._parser
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._characters
        parser.StartDoctypeDeclHandler = self._doctype
        try:
            parser.Parse(data, True)
        except expat.ExpatError as error:
            raise InputError(
                f"is not well-formed XML ({expat.ErrorString(error.code)}, column "
                f"{error.offset + 1})",
                filename=self.filename,
                line=error.lineno,
            ) from None
        return self.entries

    def _error(self, message: str, line: int | None = None) -> InputError:
        return InputError(
            message, filename=self.filename, line=line or self._parser.CurrentLineNumber
        )

    def _doctype(self, *_: object) -> None:
        raise self._error("has a DOCTYPE declaration; WebNLG files have none")

    def _start(self, name: str, attributes: dict[str, str]) -> None:
        parent = self._stack[-1] if self._stack else None
        self._stack.append(name)
        if self._text is not None:
            self._text_closed = True
        if name == "entry":
            self._start_entry(attributes)
        elif self._entry is not None and self._holds_text(name, parent, attributes):
            self._text, self._text_closed = [], False

    def _start_entry(self, attributes: dict[str, str]) -> None:
        if self._entry is not None:
            raise self._error("an <entry> inside another <entry>")
        missing = [key for key in ("eid", "category", "size") if key not in attributes]
        if missing:
            raise self._error(f"an <entry> without the attribute(s) {', '.join(missing)}")
        if not attributes["size"].strip().isdigit():
            raise self._error(f"entry size={attributes['size']!r} is not a number")
        self._entry = _OpenEntry(self._parser.CurrentLineNumber, dict(attributes))

    def _holds_text(self, name: str, parent: str | None, attributes: dict[str, str]) -> bool:
        """A modified triple, or a reference in the wanted language."""
        if name == "mtriple":
            return parent == "modifiedtripleset"
        if name != "lex" or parent != "entry":
            return False
        lang = attributes.get("lang")
        if lang is None:
            return True
        self.languages.setdefault(lang, self._parser.CurrentLineNumber)
        return self.language is None or _language(lang) == self.language

    def _characters(self, text: str) -> None:
        if self._text is not None and not self._text_closed:
            self._text.append(text)

    def _end(self, name: str) -> None:
        self._stack.pop()
        entry = self._entry
        if entry is None:
            return
        if name == "entry":
            self.entries.append(self._finish_entry(entry))
            self._entry = None
        elif name in ("mtriple", "lex") and self._text is not None and not self._in_text():
            text, self._text = "".join(self._text), None
            if name == "mtriple":
                entry.triples.append(self._parse_triple(text))
            elif not text.strip():
                raise self._error("an empty <lex> (a reference without text)")
            else:
                entry.references.append(text)

    def _in_text(self) -> bool:
        """Whether the element just closed was a child of the ``<mtriple>``/``<lex>`` read."""
        return bool(self._stack) and self._stack[-1] in ("mtriple", "lex")

    def _parse_triple(self, text: str) -> Triple:
        text = text.strip()
        if TRIPLE_SEPARATOR.strip() in text:
            raise self._error(
                f"the triple {text[:120]!r} holds '||', which the board's one-line form of a "
                "triple set puts between triples"
            )
        try:
            return _triple(text)
        except ValueError:
            raise self._error(
                f"the triple {text[:120]!r} is not 'subject | property | object'"
            ) from None

    def _finish_entry(self, entry: _OpenEntry) -> Entry:
        attributes = entry.attributes
        if not entry.triples:
            raise self._error(f"entry eid={attributes['eid']!r} has no <mtriple>", entry.line)
        return Entry(
            line=entry.line,
            eid=attributes["eid"],
            category=attributes["category"],
            size=attributes["size"].strip(),
            triples=tuple(entry.triples),
            references=tuple(entry.references),
            attributes=attributes,
        )
