"""A human-evaluation campaign's results, computed from its stored judgements with
``scorer.human``: here, below the web layer, because two callers compute them, the organisers'
"Compute results" (``app.web.services.human_results.analyse``) and the worker's job for a
published campaign a bundle brings (``worker.human.analyse_campaign``: 180,000 judgements take
the better part of a minute, too long for a web request).

Results are keyed by *subject*: a system of the track (by id), the human references, or, in
an imported file, a name the organiser confirmed is on no system of this board. A team system
called "HUMAN" is not the references, and an imported "tgen" is the anonymised "TGen" only if
the organiser said so. What a viewer sees of each subject is the web layer's
(``app.web.services.human_subjects``). What is stored holds nothing computed from the
automatic scores: the correlation with them is computed per viewer, from the scores that
viewer may see, when a table is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.data.errors import AnalysisRefused
from app.data.models import Campaign, Judgement, utcnow
from scorer.errors import InputError
from scorer.human import judgements as files
from scorer.human.protocols import Settings

REFERENCES = "references"
"""The references' subject key (and the mapping target naming them in an import)."""


class AnalysisStatus:
    """``campaigns.analysis``: where the worker's analysis of a campaign stands (None: never
    asked of it; the organisers' button computes at once)."""

    PENDING = "pending"
    """Enqueued: the pages say the results are being computed."""
    DONE = "done"
    FAILED = "failed"
    """The judgements could not be analysed; ``campaigns.analysis_error`` says why."""


def subject_key(system_id: int | None, is_reference: bool, name: str) -> str:
    """``system:<id>``, ``references`` or ``file:<name>``: unique within a campaign."""
    if is_reference:
        return REFERENCES
    return f"system:{system_id}" if system_id is not None else f"file:{name}"


@dataclass(frozen=True)
class Subject:
    """One judged thing as stored with a campaign's results."""

    key: str
    name: str
    """As judged: the system's name at the time, the references' label, or the file's name."""
    system_id: int | None = None
    is_reference: bool = False

    def to_dict(self) -> dict:
        return {"name": self.name, "system_id": self.system_id, "references": self.is_reference}


def stored_judgements(session: Session, campaign: Campaign) -> list[Judgement]:
    return list(
        session.scalars(
            select(Judgement).where(Judgement.campaign_id == campaign.id).order_by(Judgement.id)
        )
    )


def judgement_count(session: Session, campaign: Campaign) -> int:
    return (
        session.scalar(select(func.count(Judgement.id)).where(Judgement.campaign_id == campaign.id))
        or 0
    )


def as_read(j: Judgement, system: str) -> files.Judgement:
    """A stored judgement as ``scorer.human`` reads one, its system called ``system``."""
    return files.Judgement(
        j.item_key, system, j.annotator, j.criterion, j.score, j.kind, j.subset, j.unit_key
    )


def by_subject(stored: list[Judgement]) -> tuple[list[files.Judgement], dict[str, Subject]]:
    """The judgements with each system replaced by its subject key, and those subjects."""
    subjects: dict[str, Subject] = {}
    judgements = []
    for j in stored:
        key = subject_key(j.system_id, j.is_reference, j.system_name)
        subjects.setdefault(key, Subject(key, j.system_name, j.system_id, j.is_reference))
        judgements.append(as_read(j, key))
    return judgements, subjects


def settings_of(campaign: Campaign, runs: int | None = None) -> Settings:
    """What the campaign says about its analysis, as its protocol reads it (without the items'
    attributes, which only the analysis reads: an annotator's every answer asks for these)."""
    return Settings(
        criterion=campaign.criterion,
        clusters=campaign.clusters,
        quality_control=campaign.quality_control,
        runs=runs,
        judges=None if campaign.imported is not None else campaign.annotators_per_hit,
        options=campaign.options or {},
    )


def item_attributes(campaign: Campaign) -> dict[str, dict[str, str]]:
    """Item key -> its attributes (category, size, seen / unseen) as text, for a campaign
    collected on the board, whose judgements name items by their position (from 1) in the
    campaign's test set. Left out: an attribute computed from the hidden references (their
    count, their length: human means by them would be figures on the references), and one
    that is not one value (a list of slots)."""
    test_set = campaign.track.test_set_for(campaign.language)
    if test_set is None:
        return {}
    hidden = campaign.track.scoring_profile.reference_attributes
    return {
        str(item.position + 1): {
            name: str(value)
            for name, value in (item.attributes or {}).items()
            if name not in hidden
            and isinstance(value, str | int | float)
            and not isinstance(value, bool)
        }
        for item in test_set.items
    }


def campaign_results(session: Session, campaign: Campaign, runs: int | None = None) -> dict:
    """The campaign's results, as its protocol analyses them, keyed by subject
    (``results["subjects"]``; each row also carries the name judged), with the annotators'
    agreement at the protocol's level (``results["agreement"]``) and the cluster procedure;
    ``AnalysisRefused`` when its judgements cannot be analysed (none yet, rankings TrueSkill
    cannot use, a ROSE answer that is not yes/no)."""
    judgements, subjects = by_subject(stored_judgements(session, campaign))
    if not judgements:
        raise AnalysisRefused(f"{campaign.name!r} has no judgements yet")
    protocol, settings = campaign.protocol, settings_of(campaign, runs)
    if campaign.imported is None:
        settings = replace(settings, attributes=item_attributes(campaign))
    try:
        results = protocol.analyse(judgements, settings)
        agreement = protocol.agreement(judgements, settings)
    except (ValueError, InputError) as error:
        raise AnalysisRefused(str(error)) from None
    for row in results.get("systems", []) + results.get("rows", []):
        row["name"] = subjects[row["system"]].name
    results["protocol"] = protocol.name
    results["clusters"] = campaign.clusters
    results["options"] = dict(settings.options)
    results["agreement"] = agreement.to_dict()
    results["subjects"] = {key: subject.to_dict() for key, subject in subjects.items()}
    results["judgements"] = len(judgements)
    results["annotator_count"] = len({j.annotator for j in judgements})
    return results


def store_results(campaign: Campaign, results: dict) -> None:
    """The results as the campaign's, computed now; a pending analysis is done."""
    campaign.results = results
    campaign.results_at = utcnow()
    if campaign.analysis is not None:
        campaign.analysis, campaign.analysis_error = AnalysisStatus.DONE, None


def store_failure(campaign: Campaign, error: AnalysisRefused) -> None:
    """Why the worker could not analyse the campaign, for its organisers' page."""
    campaign.analysis, campaign.analysis_error = AnalysisStatus.FAILED, str(error)
