"""Human-evaluation campaigns: what an organiser sets up, and the units annotators will see.

RankME (E2E Sect. 7.2): each unit is one input with the outputs of five different systems in
random order; an item's systems are spread over as many units as needed. DA (SR'18 Sect. 3.2.1):
one output per unit, in HITs of 100 of which 20 are quality control (7 repeats, 7 damaged copies,
6 references), each placed after the output it copies; the organiser chooses which of these controls
a campaign has (``quality_control``: all three by default, or ``none``), and its analysis requires
only theirs. ROSE (Wang et al. 2021): one output per
unit with three yes/no questions; a challenge set's items are judged beside their originals.
Likert: one output per unit, a point of each criterion's scale. Pairwise preference: one input
and two systems' outputs in random order, every pair of the chosen systems on each item.

What differs between them is the protocol's (``scorer.human.protocols``: its criteria, HIT size,
page layout and cluster procedures); this module builds a layout's units, never names a
protocol.

A campaign that puts references in front of annotators (a meaning-similarity criterion, the human
references as a system, DA's reference checks) can only be set up once the track's deadline has
passed, and every page that would show its units is refused while the deadline is not behind
us (it can be moved after the campaign is made): until then references are hidden from everyone
but the organisers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.data.human_analysis import REFERENCES, subject_key
from app.data.models import (
    HUMAN_SYSTEM,
    Campaign,
    CampaignUnit,
    Item,
    Mail,
    Track,
    UnitEntry,
    User,
)
from app.web.errors import DomainError
from app.web.services import action, add_unique
from app.web.services.access import ORGANISERS
from app.web.services.audit import record
from app.web.services.leaderboard import default_language, leaderboard, outputs_by_item
from app.web.services.notifications import notify_campaign_open
from scorer.human.damage import damage
from scorer.human.direct_assessment import RULES, format_controls, parse_controls
from scorer.human.protocols import PROTOCOLS, Protocol

RANKME_SYSTEMS = 5
DA_CONTROLS = {"repeat": 7, "damaged": 7, "reference": 6}


@dataclass
class CampaignSpec:
    name: str
    method: str
    criterion: str
    language: str | None = None
    systems: Sequence[str] | None = None
    """System names; default: the primary systems (plus baselines if asked)."""
    include_baselines: bool = False
    include_human: bool = False
    items: int = 100
    show_input: bool | None = None
    show_reference: bool | None = None
    hit_size: int | None = None
    annotators_per_hit: int = 3
    subset: str | None = None
    """ROSE on a challenge set: its items and their originals."""
    seed: int = 2018
    quality_control: str = ",".join(RULES)
    """DA: the controls each HIT holds (some of damaged,repeat,reference, or none)."""
    clusters: str | None = None
    """The cluster procedure the results are published by; None: the protocol's default."""
    options: Mapping[str, object] | None = None
    """The protocol's own options as given (``campaign_options``); None or empty: its
    defaults."""


def quality_controls(text: str) -> tuple[str, ...]:
    """The controls an organiser named, or a DomainError saying which ones exist."""
    try:
        return parse_controls(text)
    except ValueError as error:
        raise DomainError(str(error)) from None


def get_campaign(session: Session, track: Track, name: str) -> Campaign:
    campaign = session.scalar(
        select(Campaign).where(Campaign.track_id == track.id, Campaign.name == name)
    )
    if campaign is None:
        raise DomainError(f"no human evaluation {name!r} on track {track.slug!r}")
    return campaign


def track_campaigns(session: Session, track: Track, published_only: bool) -> list[Campaign]:
    query = select(Campaign).where(Campaign.track_id == track.id).order_by(Campaign.id)
    if published_only:
        query = query.where(Campaign.is_published.is_(True))
    return list(session.scalars(query))


def challenge_method(session: Session, track: Track) -> str | None:
    """The method of the challenge's newest campaign: what a new one most likely uses too."""
    return session.scalar(
        select(Campaign.method)
        .join(Track, Campaign.track_id == Track.id)
        .where(Track.challenge_id == track.challenge_id)
        .order_by(Campaign.id.desc())
        .limit(1)
    )


def protocol_of(method: str) -> Protocol:
    """The protocol a campaign names, or a DomainError saying which exist."""
    if method not in PROTOCOLS:
        raise DomainError(f"method {method!r} is not one of {', '.join(PROTOCOLS)}")
    return PROTOCOLS[method]


def cluster_procedure(protocol: Protocol, name: str | None) -> str:
    """``name`` (None or empty: the protocol's default) if the protocol allows it."""
    try:
        return protocol.check_clusters(name or protocol.default_clusters)
    except ValueError as error:
        raise DomainError(str(error)) from None


def campaign_options(protocol: Protocol, given: Mapping[str, object] | None) -> dict | None:
    """The options the organiser gave (empty ones left out), as the protocol stores them, or a
    DomainError saying what is wrong; None: the protocol's defaults."""
    named = {name: value for name, value in (given or {}).items() if value not in (None, "")}
    try:
        return protocol.read_options(named) or None
    except ValueError as error:
        raise DomainError(str(error)) from None


def campaign_criterion(protocol: Protocol, options: Mapping | None, criterion: str | None) -> str:
    """``criterion``, or the first the campaign asks when none is named."""
    return (criterion or "").strip() or protocol.questions(options or {})[0].name


@dataclass(frozen=True)
class Checked:
    """What ``validate`` settled of a spec, read once: the campaign is built from it."""

    criterion: str
    options: dict | None
    show_input: bool
    show_reference: bool


def validate(track: Track, spec: CampaignSpec) -> Checked:
    """Check the method, criterion, options and settings."""
    protocol = protocol_of(spec.method)
    options = campaign_options(protocol, spec.options)
    criteria = {asked.name: asked for asked in protocol.questions(options or {})}
    named = campaign_criterion(protocol, options, spec.criterion)
    if named not in criteria:
        raise DomainError(
            f"criterion {named!r} is not one of {', '.join(criteria)} for {spec.method}"
        )
    if spec.items < 1:
        raise DomainError("a campaign needs at least one item")
    if spec.annotators_per_hit < 1:
        raise DomainError("each HIT needs at least one annotator")
    controls = quality_controls(spec.quality_control) if protocol.quality_controls else ()
    minimum = control_units(controls) + 1
    if spec.hit_size is not None and spec.hit_size < minimum:
        raise DomainError(f"HITs of {spec.method} hold at least {minimum} units")
    cluster_procedure(protocol, spec.clusters)
    criterion = criteria[named]
    show_input = criterion.shows_input if spec.show_input is None else spec.show_input
    show_reference = (
        criterion.shows_reference if spec.show_reference is None else spec.show_reference
    )
    da_references = "reference" in controls
    shows_references = show_reference or spec.include_human or da_references
    if shows_references and not track.deadline_passed:
        raise DomainError(
            "this campaign shows references to annotators (reference shown, human references "
            "as a system, or DA's reference checks); references stay hidden until the track's "
            "deadline has passed" + ("" if track.deadline else ": give the track a deadline first")
        )
    return Checked(named, options, show_input, show_reference)


def control_units(controls: Sequence[str]) -> int:
    """Quality-control units a DA HIT holds with ``controls``."""
    return sum(count for kind, count in DA_CONTROLS.items() if kind in controls)


def create_campaign(session: Session, track: Track, spec: CampaignSpec) -> Campaign:
    """Build a campaign and all its units from the systems' stored outputs."""
    checked = validate(track, spec)
    protocol = protocol_of(spec.method)
    language = spec.language or default_language(track)
    test_set = track.test_set_for(language)
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    outputs = _system_outputs(session, track, language, spec)
    rng = random.Random(spec.seed)
    items = _chosen_items(session, test_set.id, spec, rng)
    campaign = Campaign(
        track_id=track.id,
        language=language,
        name=spec.name,
        method=spec.method,
        criterion=checked.criterion,
        show_input=checked.show_input,
        show_reference=checked.show_reference,
        hit_size=spec.hit_size or protocol.hit_size,
        annotators_per_hit=spec.annotators_per_hit,
        quality_control=format_controls(
            quality_controls(spec.quality_control) if protocol.quality_controls else ()
        ),
        clusters=cluster_procedure(protocol, spec.clusters),
        options=checked.options,
    )
    add_unique(session, campaign, duplicate=f"track {track.slug!r} already has {spec.name!r}")
    if spec.include_human:
        texts = {item.id: _reference(item) for item, _ in items}
        outputs[REFERENCES] = Judged(HUMAN_SYSTEM, None, texts, is_reference=True)
    units = LAYOUTS[protocol.layout](campaign, items, outputs, rng)
    for position, unit in enumerate(units):
        unit.position = position
    campaign.units = units
    session.flush()
    return campaign


@dataclass(frozen=True)
class Judged:
    """What a campaign shows of one subject: a system's outputs or the references."""

    name: str
    system_id: int | None
    texts: dict[int, str]
    """item id -> the text shown."""
    is_reference: bool = False


Outputs = dict[str, Judged]
"""Subject key (``human_subjects.subject_key``) -> what is shown of it: keyed by system id, so
a team system called "HUMAN" stays beside the references instead of being replaced."""


def _system_outputs(
    session: Session, track: Track, language: str | None, spec: CampaignSpec
) -> Outputs:
    _, rows = leaderboard(
        session, track, viewer=ORGANISERS, language=language, include_secondary=True
    )
    if spec.systems:
        by_name = {row.system: row for row in rows}
        unknown = [name for name in spec.systems if name not in by_name]
        if unknown:
            raise DomainError(
                f"no scored submission for {', '.join(unknown)} "
                f"(systems: {', '.join(sorted(by_name))})"
            )
        chosen = [by_name[name] for name in spec.systems]
    else:
        chosen = [
            row
            for row in rows
            if (row.is_primary and not row.is_baseline)
            or (spec.include_baselines and row.is_baseline)
        ]
    if len(chosen) + spec.include_human < protocol_of(spec.method).minimum_systems:
        raise DomainError("not enough systems with scored outputs for this campaign")
    return {
        subject_key(row.system_id, False, row.system): Judged(
            row.system, row.system_id, outputs_by_item(session, row.submission_id)
        )
        for row in chosen
    }


ChosenItems = list[tuple[Item, str]]
"""(item, subset label) pairs in test order."""


def _chosen_items(
    session: Session, test_set_id: int, spec: CampaignSpec, rng: random.Random
) -> list[tuple[Item, str]]:
    """(item, subset label) pairs in test order: a random sample, or a challenge set and its
    originals."""
    query = (
        select(Item)
        .where(Item.test_set_id == test_set_id)
        .options(selectinload(Item.references), selectinload(Item.subsets))
        .order_by(Item.position)
    )
    items = list(session.scalars(query))
    if spec.subset:
        tagged = [i for i in items if any(s.name == spec.subset for s in i.subsets)]
        if not tagged:
            raise DomainError(f"no items in subset {spec.subset!r}")
        chosen = sorted(rng.sample(tagged, min(spec.items, len(tagged))), key=lambda i: i.position)
        by_id = {i.id: i for i in items}
        pairs = [(i, spec.subset) for i in chosen]
        pairs += [
            (by_id[i.original_id], f"{spec.subset}:orig") for i in chosen if i.original_id in by_id
        ]
        return pairs
    standard = [i for i in items if not i.subsets] or items
    chosen = sorted(rng.sample(standard, min(spec.items, len(standard))), key=lambda i: i.position)
    return [(item, "") for item in chosen]


def _reference(item: Item) -> str:
    return item.references[0].text if item.references else ""


def _entry(slot: int, key: str, outputs: Outputs, item: Item, text: str | None = None) -> UnitEntry:
    judged = outputs[key]
    return UnitEntry(
        slot=slot,
        system_id=judged.system_id,
        system_name=judged.name,
        is_reference=judged.is_reference,
        text=judged.texts.get(item.id, "") if text is None else text,
    )


def _rankme_units(
    campaign: Campaign, items: ChosenItems, outputs: Outputs, rng: random.Random
) -> list[CampaignUnit]:
    systems = list(outputs)
    units: list[CampaignUnit] = []
    for item, subset in items:
        order = rng.sample(systems, len(systems))
        groups = [order[k : k + RANKME_SYSTEMS] for k in range(0, len(order), RANKME_SYSTEMS)]
        last = groups[-1]
        if len(groups) > 1 and len(last) < RANKME_SYSTEMS:
            others = [s for s in systems if s not in last]
            last += rng.sample(others, RANKME_SYSTEMS - len(last))
        for group in groups:
            shown = rng.sample(group, len(group))
            units.append(
                CampaignUnit(
                    hit=len(units) // campaign.hit_size,
                    item=item,
                    subset=subset,
                    entries=[_entry(slot, s, outputs, item) for slot, s in enumerate(shown)],
                )
            )
    return units


def _single_units(
    campaign: Campaign, items: ChosenItems, outputs: Outputs, rng: random.Random
) -> list[CampaignUnit]:
    pairs = [(item, subset, key) for item, subset in items for key in outputs]
    rng.shuffle(pairs)
    return [
        _unit(k // campaign.hit_size, item, subset, _entry(0, key, outputs, item))
        for k, (item, subset, key) in enumerate(pairs)
    ]


def _da_units(
    campaign: Campaign, items: ChosenItems, outputs: Outputs, rng: random.Random
) -> list[CampaignUnit]:
    """Genuine outputs in HITs of hit_size less the controls (20 with all three), each HIT
    topped up with the campaign's quality control."""
    genuine = [(item, subset, key) for item, subset in items for key in outputs]
    rng.shuffle(genuine)
    controls = parse_controls(campaign.quality_control)
    per_hit = campaign.hit_size - control_units(controls)
    donors = [judged.texts.get(item.id, "") for judged in outputs.values() for item, _ in items]
    units: list[CampaignUnit] = []
    for hit, start in enumerate(range(0, len(genuine), per_hit)):
        chunk = genuine[start : start + per_hit]
        originals = [
            _unit(hit, item, subset, _entry(0, key, outputs, item)) for item, subset, key in chunk
        ]
        key_of = {id(unit): key for unit, (_, _, key) in zip(originals, chunk, strict=True)}
        hit_units = list(originals)
        for kind, count in DA_CONTROLS.items():
            if kind not in controls:
                continue
            for original in rng.sample(originals, min(count, len(originals))):
                shown = original.entries[0]
                text = {
                    "repeat": shown.text,
                    "damaged": damage(shown.text, donors, rng),
                    "reference": _reference(original.item),
                }[kind]
                if kind == "reference" and not text:
                    continue
                entry = _entry(0, key_of[id(original)], outputs, original.item, text)
                control = _unit(hit, original.item, original.subset, entry, kind)
                after = hit_units.index(original)
                hit_units.insert(rng.randint(after + 1, len(hit_units)), control)
        units += hit_units
    return units


def _pair_units(
    campaign: Campaign, items: ChosenItems, outputs: Outputs, rng: random.Random
) -> list[CampaignUnit]:
    """Every pair of subjects on every item, pages shuffled, each pair's order drawn at random
    (which text is A must not tell which system it is)."""
    keys = list(outputs)
    pairs = [
        (item, subset, (a, b))
        for item, subset in items
        for k, a in enumerate(keys)
        for b in keys[k + 1 :]
    ]
    rng.shuffle(pairs)
    units = []
    for k, (item, subset, pair) in enumerate(pairs):
        shown = rng.sample(pair, 2)
        units.append(
            CampaignUnit(
                hit=k // campaign.hit_size,
                item=item,
                subset=subset,
                entries=[_entry(slot, key, outputs, item) for slot, key in enumerate(shown)],
            )
        )
    return units


def _unit(
    hit: int, item: Item, subset: str, entry: UnitEntry, kind: str = "genuine"
) -> CampaignUnit:
    return CampaignUnit(hit=hit, item=item, subset=subset, kind=kind, entries=[entry])


LAYOUTS: dict[
    str, Callable[[Campaign, ChosenItems, Outputs, random.Random], list[CampaignUnit]]
] = {
    "ranking": _rankme_units,
    "single": _single_units,
    "controlled": _da_units,
    "pair": _pair_units,
}
"""A protocol's ``layout`` -> how its units are built."""


def shows_references(session: Session, campaign: Campaign) -> bool:
    """Whether any unit of the campaign puts a reference in front of an annotator."""
    if campaign.show_reference:
        return True
    human = select(UnitEntry.unit_id).where(UnitEntry.is_reference.is_(True))
    units = select(CampaignUnit.id).where(
        CampaignUnit.campaign_id == campaign.id,
        (CampaignUnit.kind == "reference") | CampaignUnit.id.in_(human),
    )
    return session.scalar(units.limit(1)) is not None


def references_embargoed(session: Session, campaign: Campaign) -> bool:
    """Checked at every read, not at creation: the deadline may have moved since."""
    return not campaign.track.deadline_passed and shows_references(session, campaign)


def open_campaign(
    session: Session, actor: User, track: Track, spec: CampaignSpec, base_url: str
) -> tuple[Campaign, list[Mail]]:
    """``create_campaign`` as an organiser's action: the challenge's annotators' mails written
    with it (to be posted once committed) and the audit event."""
    with action(session):
        campaign = create_campaign(session, track, spec)
        mails = notify_campaign_open(session, campaign, base_url)
        record(session, actor, "human campaign", f"{track.slug}/{campaign.name}",
               track.challenge_id, units=len(campaign.units))  # fmt: skip
    return campaign, mails
