"""The annotator's side: which HIT they work on, the next unit, and storing their judgements.

An annotator is ``u<id>`` (an account with the annotator role, or an organiser trying the task)
or ``link<id>`` (a one-time link, spent when its HIT is done). Each HIT is given to at most
``annotators_per_hit`` annotators and to each annotator once; the unique constraints decide races.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, String, cast, func, select
from sqlalchemy.orm import Session

from app.data.human_analysis import settings_of
from app.data.models import (
    AnnotationLink,
    Campaign,
    CampaignUnit,
    HitAssignment,
    Judgement,
    UnitEntry,
    hash_token,
    utcnow,
)
from app.web.errors import DomainError
from app.web.services import add_unique, committed


@dataclass(frozen=True)
class Annotator:
    label: str
    user_id: int | None = None
    link: AnnotationLink | None = None


def link_annotator(session: Session, token: str) -> tuple[Campaign, Annotator]:
    """The campaign and identity behind a one-time link; a spent or unknown link is refused."""
    link = session.scalar(
        select(AnnotationLink).where(AnnotationLink.token_hash == hash_token(token))
    )
    if link is None:
        raise DomainError("this annotation link is not valid")
    if link.spent_at is not None:
        raise DomainError("this annotation link has been used: its HIT is done. Thank you!")
    campaign = session.get_one(Campaign, link.campaign_id)
    return campaign, Annotator(f"link{link.id}", None, link)


@committed
def create_links(session: Session, campaign: Campaign, count: int) -> list[str]:
    """New one-time links (tokens shown once; only their hashes are stored)."""
    tokens = []
    for _ in range(count):
        token = secrets.token_urlsafe(24)
        session.add(AnnotationLink(campaign_id=campaign.id, token_hash=hash_token(token)))
        tokens.append(token)
    session.flush()
    return tokens


def hits_of(session: Session, campaign: Campaign) -> list[int]:
    return list(
        session.scalars(
            select(CampaignUnit.hit)
            .where(CampaignUnit.campaign_id == campaign.id)
            .distinct()
            .order_by(CampaignUnit.hit)
        )
    )


@committed
def current_assignment(
    session: Session, campaign: Campaign, annotator: Annotator
) -> HitAssignment | None:
    """The annotator's unfinished HIT, or a new one; None when nothing is left for them."""
    if not campaign.is_open:
        raise DomainError("this evaluation is closed")
    mine = session.scalars(
        select(HitAssignment).where(
            HitAssignment.campaign_id == campaign.id,
            HitAssignment.annotator == annotator.label,
        )
    ).all()
    unfinished = next((a for a in mine if a.completed_at is None), None)
    if unfinished is not None:
        return unfinished
    if annotator.link is not None and mine:
        return None
    done = {a.hit for a in mine}
    taken = dict(
        session.execute(
            select(HitAssignment.hit, func.count())
            .where(HitAssignment.campaign_id == campaign.id)
            .group_by(HitAssignment.hit)
        ).all()
    )
    for hit in hits_of(session, campaign):
        if hit not in done and taken.get(hit, 0) < campaign.annotators_per_hit:
            assignment = HitAssignment(
                campaign_id=campaign.id,
                hit=hit,
                annotator=annotator.label,
                link_id=annotator.link.id if annotator.link else None,
            )
            add_unique(session, assignment, duplicate="this HIT was just taken; reload the page")
            return assignment
    return None


def _hit_unit_keys(assignment: HitAssignment) -> Select[Any]:
    return select(cast(CampaignUnit.id, String)).where(
        CampaignUnit.campaign_id == assignment.campaign_id, CampaignUnit.hit == assignment.hit
    )


def _judged_unit_keys(assignment: HitAssignment) -> Select[Any]:
    return select(Judgement.unit_key).where(
        Judgement.campaign_id == assignment.campaign_id,
        Judgement.annotator == assignment.annotator,
    )


def next_unit(session: Session, assignment: HitAssignment) -> CampaignUnit | None:
    """The first unit of the HIT the annotator has not judged yet."""
    return session.scalar(
        select(CampaignUnit)
        .where(
            CampaignUnit.campaign_id == assignment.campaign_id,
            CampaignUnit.hit == assignment.hit,
            cast(CampaignUnit.id, String).not_in(_judged_unit_keys(assignment)),
        )
        .order_by(CampaignUnit.position)
        .limit(1)
    )


def progress(session: Session, assignment: HitAssignment) -> tuple[int, int]:
    """(units judged, units in the HIT)."""
    total = session.execute(
        select(func.count()).select_from(_hit_unit_keys(assignment).subquery())
    ).scalar_one()
    judged = session.execute(
        select(func.count(func.distinct(Judgement.unit_key))).where(
            Judgement.campaign_id == assignment.campaign_id,
            Judgement.annotator == assignment.annotator,
            Judgement.unit_key.in_(_hit_unit_keys(assignment)),
        )
    ).scalar_one()
    return judged, total


NOTE_MAX = 2000
"""Characters of an annotator's note (a pairwise preference's reason) that are kept."""


def parse_answers(campaign: Campaign, unit: CampaignUnit, form: Mapping[str, str]) -> dict:
    """Form fields -> {(slot, criterion): score}, as the campaign's protocol reads its page; a
    missing or out-of-range value is refused."""
    slots = [entry.slot for entry in unit.entries]
    try:
        return campaign.protocol.answers(slots, settings_of(campaign), form)
    except ValueError as error:
        raise DomainError(str(error)) from None


@committed
def record(
    session: Session,
    campaign: Campaign,
    assignment: HitAssignment,
    unit: CampaignUnit,
    annotator: Annotator,
    form: Mapping[str, str],
) -> None:
    """Store one page of judgements; a unit already judged (a double submit) is refused."""
    if unit.campaign_id != campaign.id or unit.hit != assignment.hit:
        raise DomainError("this unit is not part of your HIT")
    answers = parse_answers(campaign, unit, form)
    note = (form.get("note") or "").strip()[:NOTE_MAX] or None
    entries: dict[int, UnitEntry] = {entry.slot: entry for entry in unit.entries}
    add_unique(
        session,
        *(
            Judgement(
                campaign_id=campaign.id,
                entry_id=entries[slot].id,
                unit_key=str(unit.id),
                item_key=str(unit.item.position + 1),
                system_name=entries[slot].system_name,
                system_id=entries[slot].system_id,
                is_reference=entries[slot].is_reference,
                annotator=annotator.label,
                criterion=criterion,
                score=score,
                kind=unit.kind,
                subset=unit.subset,
                user_id=annotator.user_id,
                note=note if k == 0 else None,
            )
            for k, ((slot, criterion), score) in enumerate(answers.items())
        ),
        duplicate="you have already judged this page",
    )
    if next_unit(session, assignment) is None:
        assignment.completed_at = utcnow()
        if annotator.link is not None:
            annotator.link.spent_at = utcnow()
