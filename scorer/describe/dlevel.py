"""Syntactic complexity on the revised D-Level scale (Covington et al. 2006; Lu 2009), as the E2E
paper uses it (Sect. 4.3, Figure 4, Table 9, Figure A.7).

The paper ran Lu's D-Level Analyser over Collins-parser trees. Neither is available offline, so
each sentence is parsed with the CMU link grammar parser (Debian ``python3-link-grammar``) and the
levels are read from its links by the rules below. Each rule names the structure it finds; a
sentence's level is the highest level found, or 7 when two or more structures of levels 3-6
occur ("more than one level of embedding", Covington's level 7):

0. simple sentences: one finite verb, with auxiliaries, modals, adjectives, prepositional phrases;
   past-participle noun modifiers ("a pub called Strada") count as adjectival here, as the paper's
   level-3 example "There is a pub called Strada which serves Italian food" implies;
1. a non-finite complement sharing the main verb's subject: "wants to go", "enjoys serving";
2. coordination: clauses joined by a conjunction or comma, predicates sharing a subject
   ("is a pub and serves food"), conjoined subject noun phrases;
3. embedding on the object side: a relative clause modifying a non-subject noun, including the
   object of "there is" ("There is a pub which serves..."); a finite clause as object ("says that
   it is cheap", "know where it is");
4. a non-finite complement with its own subject ("wants him to go") and verbal -ing phrases
   ("a restaurant offering fast food", "while being near the Ranch"), as the paper places them;
5. a finite clause after a subordinating conjunction ("If you like Japanese food, ...");
6. a relative clause modifying a subject, a clausal (gerund) subject, a non-finite clause in
   adjunct position ("Serving cheap English food, the Golden Palace ...");
7. two or more structures of levels 3-6.

Sentences are split after . ! ? (as textstats counts them). A sentence longer than ``MAX_WORDS``
words, or one the parser cannot link leaving at most ``MAX_NULLS`` words out, is counted apart as
unparsed, so no input can stall a worker.
"""

from __future__ import annotations

import atexit
import importlib.util
import logging
import math
import multiprocessing
import os
import re
import sys
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from scorer.describe.textstats import split_sentences
from scorer.errors import ParserUnavailable
from scorer.extras import require
from scorer.parallel import end_with_creator

log = logging.getLogger(__name__)

LEVELS = tuple(range(8))
SUMMARY = ("D-level mean", "D-level 0-1 %", "D-level 0-2 %", "D-level 6-7 %")
"""The columns Table 9 and Figure 4 report; the full distribution has one more per level."""
MAX_PROCESSES = 4
PARSER_NICENESS = 19
"""The parsing processes run at the lowest CPU priority: D-levels are an analysis nobody waits
on, and on a worker the scoring beside them must not slow down. ``NLGBOARD_DESCRIBING_NICENESS``
sets another (``describing_niceness``)."""
NICENESS_ENV = "NLGBOARD_DESCRIBING_NICENESS"
POOL_MIN_SENTENCES = 200
MAX_WORDS = 60
RULES_VERSION = 1
DEBIAN_MODULE = "/usr/lib/python3/dist-packages/linkgrammar"
MAX_NULLS = 4
PARSE = {"linkage_limit": 100, "short_length": 10, "repeatable_rand": True}
FOR_PARSER = [
    (re.compile(r"\bX-(name|near)\b"), lambda m: f"X{m.group(1)}"),
    (
        re.compile(r"\b(non[- ]?)?(?:family|kids?|child|children)[- ]friendly\b", re.IGNORECASE),
        lambda m: "unfriendly" if m.group(1) else "friendly",
    ),
]
BE = frozenset(["be", "is", "are", "was", "were", "been", "being", "am", "'s", "'re"])
RELATIVE_PRONOUNS = frozenset(["which", "who", "whom", "that"])
RELATIVE_WORDS = frozenset(["where", "when", "whereby", "wherein", "whose"])
NOUN_ING = frozenset(
    [
        "rating",
        "ratings",
        "building",
        "buildings",
        "evening",
        "evenings",
        "morning",
        "mornings",
        "thing",
        "things",
        "something",
        "nothing",
        "anything",
        "everything",
        "king",
        "ring",
        "wedding",
        "dining",
        "parking",
        "seating",
        "clothing",
        "ceiling",
        "setting",
        "settings",
        "pudding",
        "spring",
        "string",
        "ending",
        "beginning",
        "feeling",
        "meaning",
    ]
)
PHRASE_END = frozenset([".", ",", ";", ":", "!", "?", "of", "and", "or", "but", "right-wall"])
LABEL = re.compile(r"^[hd]?([A-Z]+)(.*)$")
TAG = re.compile(r"\.([a-z][a-z-]*)$")
SUFFIX = re.compile(r"(?:\[[^\]]*\]|\.[a-z][a-z-]*)$")


@cache
def _linkgrammar() -> Any:
    """Import link grammar, from the venv if it is there, else Debian's copy of the module.

    Debian installs it for the system Python only; loading that one package (and not adding the
    whole dist-packages directory to sys.path) keeps Debian's other packages out of the venv.
    """
    try:
        import linkgrammar
    except ImportError:
        where = os.environ.get("NLGBOARD_LINKGRAMMAR", DEBIAN_MODULE)
        init = os.path.join(where, "__init__.py")
        if not os.path.exists(init):
            raise ParserUnavailable(
                "D-level needs the link grammar parser: apt-get install python3-link-grammar "
                f"link-grammar-dictionaries-en (looked in {where})"
            ) from None
        spec = importlib.util.spec_from_file_location(
            "linkgrammar", init, submodule_search_locations=[where]
        )
        assert spec is not None and spec.loader is not None
        linkgrammar = importlib.util.module_from_spec(spec)
        sys.modules["linkgrammar"] = linkgrammar
        try:
            spec.loader.exec_module(linkgrammar)
        except ImportError as error:
            del sys.modules["linkgrammar"]
            raise ParserUnavailable(f"cannot load link grammar from {where}: {error}") from None
    return linkgrammar


@cache
def _parser() -> tuple[Any, Any, list[Any]]:
    lg = _linkgrammar()
    try:
        with _quiet_stdout():
            dictionary = lg.Dictionary("en")
    except lg.LG_Error as error:
        raise ParserUnavailable(f"link grammar English dictionary: {error}") from None
    options = [
        lg.ParseOptions(verbosity=0, min_null_count=0, max_null_count=0, **PARSE),
        lg.ParseOptions(verbosity=0, min_null_count=1, max_null_count=MAX_NULLS, **PARSE),
    ]
    return lg, dictionary, options


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """The library prints a locale notice on file descriptor 1 while loading the dictionary,
    which would corrupt ``nlg-score --json``; send it to stderr instead."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def available() -> bool:
    try:
        _parser()
    except ParserUnavailable:
        return False
    return True


@cache
def signature() -> str:
    lg = _linkgrammar()
    return f"dlevel:linkgrammar-{lg.__version__}-rules{RULES_VERSION}"


@dataclass(frozen=True)
class Link:
    left: int
    right: int
    kind: str
    sub: str


@dataclass(frozen=True)
class Parse:
    words: tuple[str, ...]
    tags: tuple[str, ...]
    links: tuple[Link, ...]

    def links_of(self, kind: str, sub: str = "") -> list[Link]:
        """Links of a type whose subscript matches ``sub`` (a "*" subscript matches anything)."""
        return [k for k in self.links if k.kind == kind and _matches(k.sub, sub)]

    def has_dependent(self, word: int) -> bool:
        """True if ``word`` links to a word on its right (an object, complement or adjunct)."""
        return any(k.left == word and self.words[k.right] not in ".,;!?" for k in self.links)

    def is_subject(self, word: int) -> bool:
        """True if ``word`` is the subject of a verb (inverted subjects are links of type SI)."""
        return any(k.left == word for k in self.links_of("S"))


def _merge(left: str, right: str) -> tuple[str, str]:
    """One link type from the two connector labels, subscripts combined position by position
    ("M" + "Mg" -> M, g; "MXs" + "MX*r" -> MX, sr; "Cs" + "C" -> C, s)."""
    lm, rm = LABEL.match(left), LABEL.match(right)
    kind = (lm or rm).group(1) if (lm or rm) else left  # type: ignore[union-attr]
    subs = [m.group(2) for m in (lm, rm) if m and m.group(1) == kind]
    width = max((len(s) for s in subs), default=0)
    merged = []
    for i in range(width):
        chars = [s[i] for s in subs if i < len(s) and s[i] != "*"]
        merged.append(chars[0] if chars else "*")
    return kind, "".join(merged)


def parse(sentence: str) -> Parse:
    """The parser's best linkage: with every word linked if it can, else with as few words left
    out as it can up to MAX_NULLS (a separate pass: searching null counts is the slow part)."""
    lg, dictionary, options = _parser()
    text = for_parser(sentence)
    linkage = None
    for option in options:
        linkage = next(iter(lg.Sentence(text, dictionary, option).parse()), None)
        if linkage is not None:
            break
    if linkage is None:
        return Parse((), (), ())
    clg, obj = lg.Clinkgrammar, linkage._obj
    raw = [clg.linkage_get_word(obj, i) for i in range(clg.linkage_get_num_words(obj))]
    words = tuple(SUFFIX.sub("", w).lower() for w in raw)
    tags = tuple(_tag(w) for w in raw)
    links = []
    for i in range(clg.linkage_get_num_links(obj)):
        kind, sub = _merge(clg.linkage_get_link_llabel(obj, i), clg.linkage_get_link_rlabel(obj, i))
        left, right = clg.linkage_get_link_lword(obj, i), clg.linkage_get_link_rword(obj, i)
        links.append(Link(left, right, kind, sub))
    return Parse(words, tags, tuple(links))


def for_parser(sentence: str) -> str:
    """E2E placeholders as one proper noun, and the data's compound adjectives (family-friendly,
    kid friendly ...) as the adjective "friendly", which the parser's dictionary knows in every
    position (it leaves the compounds unlinked, one sentence in seven of the dev references)."""
    for pattern, replacement in FOR_PARSER:
        sentence = pattern.sub(replacement, sentence)
    return sentence


def _matches(sub: str, wanted: str) -> bool:
    return len(sub) >= len(wanted) and all(
        w == "*" or s in ("*", w) for s, w in zip(sub, wanted, strict=False)
    )


def _tag(word: str) -> str:
    """The link grammar subscript: "v", "v-d", "g", "n" ... ("" if none)."""
    match = TAG.search(word)
    return match.group(1) if match else ""


def structures(p: Parse) -> list[tuple[int, str]]:
    """Every structure the rules find in a parse, as (level, name)."""
    found: list[tuple[int, str]] = []
    verb = [tag.startswith("v") or tag == "g" for tag in p.tags]
    for k in p.links_of("TO"):
        if verb[k.left]:
            found.append(
                (4, "infinitive with own subject")
                if k.sub.startswith("o")
                else (1, "infinitive complement")
            )
    for k in p.links_of("P", "g"):
        if verb[k.left] and p.words[k.left] not in BE:
            found.append((1, "-ing complement"))
    if p.links_of("VJ"):
        found.append((2, "coordinated predicates"))
    for k in p.links_of("SJ"):
        if p.words[k.right] in ("and", "or", "but", "nor") and p.is_subject(k.right):
            found.append((2, "coordinated subjects"))
            break
    for k in p.links_of("WV"):
        if p.words[k.left] == "left-wall":
            continue
        subjects = {p.words[w.right] for w in p.links_of("W") if w.left == k.left}
        if subjects & RELATIVE_PRONOUNS:
            found.append((3, "object relative clause"))  # ", which ..." after the main clause
        else:
            found.append((2, "coordinated clauses"))
    for noun in _relative_clause_heads(p):
        found.append(
            (6, "subject relative clause") if p.is_subject(noun) else (3, "object relative clause")
        )
    found += [(3, "that-clause object") for _ in p.links_of("TH")]
    found += [(3, "finite clause object") for k in p.links_of("C", "e") if verb[k.left]]
    found += [(3, "wh-clause object") for _ in p.links_of("QI")]
    found += [(4, "-ing phrase") for _ in _ing_phrases(p)]
    relative = {k.right for k in p.links_of("M") if p.words[k.right] in RELATIVE_WORDS}
    questions = {k.right for k in p.links_of("QI")}
    for k in p.links_of("C", "s"):
        if k.left not in relative and k.left not in questions:
            found.append((5, "subordinate clause"))
    for k in p.links_of("S"):
        if p.tags[k.left] == "g":
            found.append((6, "clausal subject"))
    for k in p.links_of("CO"):
        if verb[k.left]:
            found.append((6, "non-finite adjunct"))
    return found


def _relative_clause_heads(p: Parse) -> Iterable[int]:
    """The nouns a relative clause modifies: "which/that" (R), ", which" (MX*r), "where" (M)."""
    for k in p.links_of("R"):
        yield k.left
    for k in p.links_of("MX", "*r"):
        yield k.left
    for k in p.links_of("M"):
        if p.words[k.right] in RELATIVE_WORDS:
            yield k.left


def _ing_phrases(p: Parse) -> Iterable[int]:
    """Verbal -ing phrases modifying a noun or a clause. An -ing word without dependents of its
    own is a noun ("customer rating"); one the parser read as the last noun of a compound but
    that has a following object ("a restaurant offering fast food") is a verb."""
    last = len(p.words) - 1
    for i, word in enumerate(p.words):
        if not word.endswith("ing") or len(word) < 5 or word in NOUN_ING:
            continue
        if p.tags[i] in ("v", "g"):
            modifies = any(k.right == i and k.kind in ("M", "MV") for k in p.links)
            if modifies and p.has_dependent(i):
                yield i
        elif (
            p.tags[i].startswith("n")
            and p.tags[i - 1].startswith("n")
            and i < last
            and p.words[i + 1] not in PHRASE_END
        ):
            yield i


def level_of(found: Sequence[tuple[int, str]]) -> int:
    embedded = sum(3 <= level <= 6 for level, _ in found)
    return 7 if embedded >= 2 else max((level for level, _ in found), default=0)


def sentence_level(sentence: str) -> int | None:
    """The sentence's D-level; None when it is too long or the parser cannot link it with at
    most MAX_NULLS words left out."""
    if len(sentence.split()) > MAX_WORDS:
        return None
    parsed = parse(sentence)
    return level_of(structures(parsed)) if parsed.words else None


def text_levels(texts: Sequence[str]) -> list[int | None]:
    """Every sentence's level, texts in order. Each distinct sentence is parsed once, on all
    cores when there are enough of them (parsing is ~5 ms a sentence; the binding holds the GIL)."""
    sentences = [s for text in texts for s in split_sentences(text)]
    distinct = list(dict.fromkeys(sentences))
    levels = dict(zip(distinct, _levels(distinct), strict=True))
    return [levels[s] for s in sentences]


def _levels(sentences: list[str]) -> list[int | None]:
    """In the pool; one shut down under the job (the interpreter ending while a describing
    thread runs, a stop) is replaced once, and without a pool that takes work, or with a broken
    one, the job parses in this process: a describing job survives its pool."""
    workers = min(os.cpu_count() or 1, MAX_PROCESSES)
    if workers < 2 or len(sentences) < POOL_MIN_SENTENCES:
        return [sentence_level(s) for s in sentences]
    _parser()  # a missing parser is reported here, not from inside the pool
    chunk = 8
    for attempt in (1, 2):
        pool = _pool(workers)
        try:
            return list(pool.map(sentence_level, sentences, chunksize=chunk))
        except BrokenProcessPool:
            _forget(workers, pool)
            log.warning("D-level process pool broke; parsing in this process")
            break
        except (RuntimeError, CancelledError) as error:
            if not _shut_down(pool, error):
                raise
            _forget(workers, pool)
            log.warning("D-level process pool was shut down (%s); attempt %d", error, attempt)
    return [sentence_level(s) for s in sentences]


def _shut_down(pool: ProcessPoolExecutor, error: BaseException) -> bool:
    """Whether ``error`` says ``pool`` refused or dropped the work because it was shut down
    ("cannot schedule new futures after shutdown", or its queued work cancelled), not that
    parsing failed in it."""
    return isinstance(error, CancelledError) or "cannot schedule new futures" in str(error)


_POOLS: dict[int, ProcessPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(workers: int) -> ProcessPoolExecutor:
    """One pool per process, kept for later jobs. Forkserver, not fork: the worker may run in a
    thread of the web server, and forking a threaded process can deadlock the child."""
    with _POOLS_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            context = multiprocessing.get_context("forkserver")
            pool = ProcessPoolExecutor(
                workers,
                mp_context=context,
                initializer=_low_priority_parser,
                initargs=(os.getpid(),),
            )
            atexit.register(pool.shutdown, cancel_futures=True)
            _POOLS[workers] = pool
        return pool


def _forget(workers: int, pool: ProcessPoolExecutor) -> None:
    """Drop ``pool`` (broken or shut down) so the next job starts a fresh one; a fresh one
    another job has put in its place already stays."""
    with _POOLS_LOCK:
        if _POOLS.get(workers) is pool:
            del _POOLS[workers]
    pool.shutdown(wait=False, cancel_futures=True)


def describing_niceness() -> int:
    """The niceness of the describing work (the D-level parsers, the describing worker):
    ``NLGBOARD_DESCRIBING_NICENESS``, else ``PARSER_NICENESS``. The test suite sets 0: it keeps
    both cores busy with its own test processes, beside which parsers at niceness 19 get about
    1.5% of a core, and a test waiting for a submission's D-levels waited minutes for them."""
    return int(os.environ.get(NICENESS_ENV, PARSER_NICENESS))


def lower_priority(niceness: int) -> None:
    """This thread (and what it starts) at ``niceness`` at least: never raised, which would
    need privileges."""
    os.nice(max(0, niceness - os.nice(0)))


def _low_priority_parser(creator: int) -> None:
    end_with_creator(creator)
    lower_priority(describing_niceness())
    _parser()


def distribution(levels: Iterable[int | None]) -> dict[str, float]:
    """The statistics rows for a list of sentence levels (Table 9, Figure 4)."""
    levels = list(levels)
    counts = Counter(level for level in levels if level is not None)
    n = sum(counts.values())
    share = {lvl: 100.0 * counts[lvl] / n if n else 0.0 for lvl in LEVELS}
    result = {
        "D-level mean": sum(lvl * c for lvl, c in counts.items()) / n if n else 0.0,
        "D-level 0-1 %": share[0] + share[1],
        "D-level 0-2 %": share[0] + share[1] + share[2],
        "D-level 6-7 %": share[6] + share[7],
        "D-level sentences": float(n),
        "D-level unparsed": float(len(levels) - n),
    }
    result.update({f"D-level {lvl} %": share[lvl] for lvl in LEVELS})
    return result


def counts_from(statistics: dict[str, float]) -> list[int]:
    """Per-level sentence counts back from stored statistics (for tests between systems)."""
    n = statistics.get("D-level sentences", 0.0)
    return [round(statistics.get(f"D-level {lvl} %", 0.0) * n / 100) for lvl in LEVELS]


def ks_test(a: Sequence[int], b: Sequence[int]) -> tuple[float, float]:
    """Two-sample Kolmogorov-Smirnov test between two level distributions given as per-level
    counts (Figure A.7): (statistic, p-value)."""
    ks_2samp = require("scipy.stats", "describe", "the D-level Kolmogorov-Smirnov test").ks_2samp

    sample_a = [lvl for lvl, c in zip(LEVELS, a, strict=False) for _ in range(c)]
    sample_b = [lvl for lvl, c in zip(LEVELS, b, strict=False) for _ in range(c)]
    if not sample_a or not sample_b:
        return 0.0, 1.0
    result = ks_2samp(sample_a, sample_b)
    return float(result.statistic), float(result.pvalue)


def bhattacharyya(a: Sequence[int], b: Sequence[int]) -> float:
    """Bhattacharyya distance between two level distributions (Figure A.8)."""
    na, nb = sum(a), sum(b)
    if not na or not nb:
        return 0.0
    coefficient = sum(math.sqrt(x / na * y / nb) for x, y in zip(a, b, strict=True))
    return -math.log(coefficient) if coefficient > 0 else math.inf
