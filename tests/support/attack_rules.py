"""What each role may not read, and reading an answer for it.

The rules are restated here from the documented ones (README "Security", DESIGN "Roles"), not
imported from ``app/web/services/access.py``, so that a wrong rule there is caught:

- hidden references: only the organisers of their challenge (and the annotators of a campaign
  that shows them, once the track's deadline has passed);
- scores: everyone in the development phase and once published; before, in the test phase,
  organisers, and the system's own team (its whole-test-set scores only, rounded as published,
  4 decimals, SR'18/DRS 2) unless the track hides own scores; baselines are no exception; no
  subset, challenge set or breakdown bucket of any size, no p-value or difference of two
  systems, no rank among one's own systems (they are not stored: the buckets are computed here
  from the stored per-item statistics);
- per-item figures (slot findings, DIST, chrF, scores of subsets of a few items, bootstrap
  intervals of rounded scores): organisers, and everyone once the test results are published;
- names: an anonymised system is "anonymous" to all but its team and the organisers, and in
  every export and plot; a withdrawn system is gone but for them; a test-phase system is
  unknown outside its team until publication (a published human evaluation aside);
- secrets: join codes (a team's own, on its Team page), API tokens, password and token hashes,
  the secret key, stored file names, the instance path, stack traces; other people's e-mail
  addresses (admins and organisers aside).

Each answer is read whole (HTML and SVG unescaped, JSON walked), with its headers and the
cookies it sets (Flask's session cookie decoded).
"""

from __future__ import annotations

import base64
import html
import json
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from tests.support.attack_holdings import (
    Holdings,
    ScoreState,
    SystemState,
    TrackState,
    decimals_of,
)
from tests.support.attack_world import Answer

ITEM_LIKE = 30
"""A subset of fewer items than this is scored item by item in all but name: its figures
are per-item figures (organisers, or everyone once the test results are published)."""
DESCRIBED = "textstats"
"""The subset of a submission's descriptive statistics (of its own outputs, no reference)."""
NUMBER = re.compile(r"(?<![\w.])-?\d+\.(\d+)(?![\w.])")


# Who the role is ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Who:
    role: str
    email: str | None
    team_id: int | None
    organises: frozenset[int]
    annotates: frozenset[int]
    admin: bool

    def organiser_of(self, track: TrackState) -> bool:
        return self.admin or track.challenge_id in self.organises


def who(role: str, holdings: Holdings, emails: dict[str, str]) -> Who:
    email = emails.get(role)
    team_id, kind = holdings.emails.get(email, (None, "")) if email else (None, "")
    challenges = frozenset(holdings.organisers.get(email, set())) if email else frozenset()
    return Who(
        role,
        email,
        team_id,
        challenges if kind == "organiser" else frozenset(),
        challenges if kind == "annotator" else frozenset(),
        kind == "admin",
    )


# What the role must not read -----------------------------------------------------------------


@dataclass(frozen=True)
class Needle:
    kind: str
    text: str
    submissions: frozenset[int] | None = None
    """Looked for only in the pages of these submissions (a figure that reads the same on a
    published track's submissions is theirs to show); None: everywhere."""
    track: str | None = None
    """Looked for only in this track's pages (``/challenges/C/tracks/T``, its API)."""

    def applies(self, url: str) -> bool:
        if self.track is not None:
            path = url.split("?")[0].replace("/api/v1", "")
            return path == self.track or path.startswith(self.track + "/")
        if self.submissions is None:
            return True
        found = SUBMISSION_URL.match(url)
        return found is not None and int(found.group(1)) in self.submissions


SUBMISSION_URL = re.compile(r"/(?:api/v1/)?submissions/(\d+)")


@dataclass
class Forbidden:
    needles: list[Needle]
    numbers: dict[str, str]
    """A number as it may be printed (``0.65432``, ``65.43``) -> what hidden score it gives
    away; renderings the viewer may read otherwise (a public score that prints the same)
    are left out."""
    track_numbers: dict[str, dict[str, str]]
    """The same for breakdown buckets, per track path (``/challenges/C/tracks/T``): looked for
    only in that track's pages, since a demo's buckets of a few items print as many other
    tracks' public figures."""


PRINTED_DIGITS = range(0, 9)


def forbidden(viewer: Who, holdings: Holdings, publication: bool) -> Forbidden:
    """What ``viewer`` must not read; ``publication``: an export or a plot, where anonymised
    and withdrawn systems never appear, whoever asks."""
    needles = [
        *_reference_needles(viewer, holdings),
        *_item_needles(viewer, holdings),
        *_analysis_needles(viewer, holdings),
        *_name_needles(viewer, holdings, publication),
        *_secret_needles(viewer, holdings),
    ]
    numbers = _score_numbers(viewer, holdings, publication)
    scoped: dict[str, dict[str, str]] = {}
    for what_is_shown, what in list(numbers.items()):
        if "[bucket:" in what or "[analysis:" in what:
            del numbers[what_is_shown]
            where = what.rsplit("(", 1)[1].rstrip(")")
            challenge, slug = where.split("/")
            scoped.setdefault(f"/challenges/{challenge}/tracks/{slug}", {})[what_is_shown] = what
    return Forbidden(needles, numbers, scoped)


def _reference_needles(viewer: Who, holdings: Holdings) -> Iterator[Needle]:
    """The hidden references, but for the organisers of their challenge and the annotators of
    a campaign that shows them (after the deadline)."""
    for track_id, texts in holdings.references.items():
        track = holdings.tracks[track_id]
        annotates = track.challenge_id in viewer.annotates
        shown = annotates and track_id in holdings.reference_campaign_tracks
        if not (viewer.organiser_of(track) or shown):
            yield from (Needle("reference", t) for t in texts)


def _item_needles(viewer: Who, holdings: Holdings) -> Iterator[Needle]:
    """Per-item figures (slot findings, per-item metric columns, tables of subsets of a few
    items) and bootstrap intervals, before the test results are published."""
    for track in holdings.tracks.values():
        if viewer.organiser_of(track) or (track.published and track.test):
            continue
        submissions = holdings.track_submissions.get(track.id, frozenset())
        notes = set(holdings.annotations.get(track.id, []))
        notes |= {f'<th class="num">{name}</th>' for name in holdings.item_metrics[track.id]}
        yield from (Needle("item figure", note, submissions) for note in sorted(notes))
        where = f"/challenges/{track.challenge}/tracks/{track.slug}"
        if not track.scores_public:  # exact resamples of a score shown rounded
            yield Needle("precise score", "bootstrap interval,", track=f"{where}/plots")
            # a comparison of two systems before publication: no difference, p or interval
            yield Needle("significance", 'scope="col">p</th>', track=where)
            yield Needle("significance", "p_value", track=where)
            yield Needle("significance", '<section id="breakdown"', track=where)
            # the similarity heatmap: each system's similarity to the references, as colours
            yield Needle("stored analysis", "tested system", track=f"{where}/plots")
        for (track_id, name), items in holdings.subset_items.items():
            if track_id == track.id and items < ITEM_LIKE and ":" not in name:
                yield Needle("item figure", f'id="challenge-{name}"', track=where)
                yield Needle("item figure", f'id="subset-{name}"', track=where)


def _analysis_needles(viewer: Who, holdings: Holdings) -> Iterator[Needle]:
    """The split report quotes references beside their nearest training texts: the track's
    organisers' alone, published or not."""
    for track in holdings.tracks.values():
        if not viewer.organiser_of(track):
            where = f"/challenges/{track.challenge}/tracks/{track.slug}"
            yield Needle("stored analysis", 'id="split-report"', track=where)


def _name_needles(viewer: Who, holdings: Holdings, publication: bool) -> Iterator[Needle]:
    for system in holdings.systems.values():
        if _distinctive(system.name) and not _may_see_name(viewer, system, publication):
            yield Needle("name", system.name)


def _secret_needles(viewer: Who, holdings: Holdings) -> Iterator[Needle]:
    """Other teams' join codes, other people's e-mail addresses (organisers read their audit
    log: who did what; admins, the accounts page), secrets of the instance."""
    for team_id, code in holdings.join_codes.items():
        if team_id != viewer.team_id:
            yield Needle("join code", code)
    if not (viewer.admin or viewer.organises):
        for email, (team_id, _kind) in holdings.emails.items():
            mate = team_id is not None and team_id == viewer.team_id
            if email != viewer.email and not mate:
                yield Needle("e-mail", email)
    yield from (Needle("secret", s) for s in holdings.secrets)


def _score_numbers(viewer: Who, holdings: Holdings, publication: bool) -> dict[str, str]:
    """Printed number -> the score it gives away: another team's test-phase score to the
    decimals published, one's own to more, a subset of a few items' at all."""
    numbers: dict[str, str] = {}
    allowed: set[str] = set()
    for score in holdings.scores:
        hidden, what = _hidden_digits(viewer, holdings, score, publication)
        if what in ("", "precise score"):  # to some decimals (all, or the published ones)
            shown = range(PRINTED_DIGITS.start, hidden.start) if hidden else PRINTED_DIGITS
            allowed |= _renderings(score.value, shown)
        for rendering in _renderings(score.value, hidden):
            numbers.setdefault(rendering, f"{what}: {_label(score)}")
    return {shown: what for shown, what in numbers.items() if shown not in allowed}


def _hidden_digits(
    viewer: Who, holdings: Holdings, score: ScoreState, publication: bool
) -> tuple[range, str]:
    """The decimals of ``score`` the viewer may not read (an empty range: none) and why."""
    system, track = score.system, score.system.track
    organiser = viewer.organiser_of(track)
    # buckets from 4 decimals, as the breakdown tables print them: the demo's buckets of a few
    # items are many, and to 2 or 3 decimals they print as other public figures (the breakdown
    # section itself is a needle before publication)
    computed = score.subset.startswith(("bucket:", "analysis:"))
    every = range(4 if computed else 2, PRINTED_DIGITS.stop)
    items = holdings.subset_items.get((track.id, score.subset), ITEM_LIKE)
    tiny = score.subset not in ("", DESCRIBED) and items < ITEM_LIKE
    if tiny and not ((organiser and not publication) or (track.published and track.test)):
        return every, "item figure"
    if organiser or track.scores_public:
        return range(0), ""
    if score.subset not in ("", DESCRIBED):  # a subset, challenge set or breakdown bucket
        return every, "sub-test-set figure"
    own = system.team_id is not None and system.team_id == viewer.team_id
    if own and not track.hide_own:
        if score.subset == DESCRIBED:  # the outputs' own statistics, no reference in them
            return range(0), ""
        decimals = decimals_of(track.profile, score.metric)
        return range(decimals + 1, PRINTED_DIGITS.stop), "precise score"
    decimals = decimals_of(track.profile, score.metric)
    return range(max(2, decimals), PRINTED_DIGITS.stop), "hidden score"


def _label(score: ScoreState) -> str:
    where = f"{score.system.track.challenge}/{score.system.track.slug}"
    subset = f"[{score.subset}]" if score.subset else ""
    return f"{score.metric}{subset}={score.value!r} of {score.system.name} ({where})"


def _distinctive(name: str) -> bool:
    return name.startswith("zq") or name in ("demo-seq2seq", "WOL-1", "lin-greedy", "char-lstm")


def _may_see_name(viewer: Who, system: SystemState, publication: bool) -> bool:
    track = system.track
    own = system.team_id is not None and system.team_id == viewer.team_id
    organiser = viewer.organiser_of(track)
    if system.anonymous or system.withdrawn:
        return (own or organiser) and not publication
    if organiser or own:
        return True
    return track.scores_public or system.in_published_campaign


def _renderings(value: float, digits: range) -> set[str]:
    """How a score may be printed: to so many decimals, as a fraction or a percentage."""
    return {f"{scaled:.{d}f}" for scaled in (value, value * 100) for d in digits}


# Reading an answer ----------------------------------------------------------------------------


def readable(answer: Answer) -> str:
    """The answer's text as a person would read it: HTML and SVG unescaped, JSON strings
    decoded, plus its headers and the session cookie it sets."""
    mimetype = answer.headers.get("Content-Type", "").split(";")[0].strip()
    body = ""
    if mimetype == "application/json":
        try:
            body = "\n".join(_strings(json.loads(answer.body)))
        except ValueError:
            body = answer.text
    elif mimetype.startswith("text/") or mimetype in ("image/svg+xml", "application/x-tex"):
        body = html.unescape(answer.text)
    elif mimetype == "application/zip":
        body = ""
    else:
        body = answer.text
    headers = "\n".join(f"{k}: {v}" for k, v in answer.headers.items())
    cookies = "\n".join(_decoded_cookie(c) for c in answer.set_cookies)
    return "\n".join((body, headers, cookies))


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        yield repr(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _decoded_cookie(header: str) -> str:
    """A Set-Cookie header with a Flask session's payload decoded (signed, not encrypted)."""
    value = header.split(";", 1)[0].partition("=")[2].strip('"')
    payload = value.split(".")
    try:
        if value.startswith("."):
            return header + "\n" + zlib.decompress(_b64(payload[1])).decode()
        return header + "\n" + _b64(payload[0]).decode("utf-8", "replace")
    except (ValueError, zlib.error, IndexError):
        return header


def _b64(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


ITEM_RESULTS_URL = re.compile(r"/submissions/\d+/items\.(?:csv|jsonl)(?:\?|$)")
"""A submission's per-item results, answered only to those the rule lets take them away (its
organisers; its team once the results are published; the authorisation matrix and
tests/app/web/services/test_compare.py check who): ~100 figures of that one submission's items,
which by chance print as some other track's hidden corpus score (a per-item METEOR of 0.5148
beside a hidden 0.5148...). Such a file holds no corpus score by construction, so its numbers are not
matched; its text still is (references, names, secrets)."""


def leaks(url: str, answer: Answer, hidden: Forbidden) -> list[tuple[str, str]]:
    """(kind, what) for everything of ``hidden`` the answer shows."""
    seen = readable(answer)
    found = [(n.kind, n.text[:60]) for n in hidden.needles if n.text in seen and n.applies(url)]
    if ITEM_RESULTS_URL.search(url):
        return found
    for match in NUMBER.finditer(seen):
        shown = match.group(0)
        if len(match.group(1)) >= PRINTED_DIGITS.stop:
            shown = f"{float(shown):.{PRINTED_DIGITS.stop - 1}f}"
        what = hidden.numbers.get(shown)
        path = url.split("?")[0].replace("/api/v1", "")
        for where, numbers in hidden.track_numbers.items():
            if what is None and (path == where or path.startswith(where + "/")):
                what = numbers.get(shown)
        if what is not None:
            kind, _, label = what.partition(": ")
            found.append((kind, f"{match.group(0)} = {label}"))
    return found
