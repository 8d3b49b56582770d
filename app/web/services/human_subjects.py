"""What a human evaluation judged, and what each viewer may see of it.

Every judgement is of a *subject* (``app.data.human_analysis.subject_key``): a system of the
track (by id), the human references, or, in an imported file, a name the organiser confirmed is
on no system of this board. Results are keyed by subject, never by a system's name: a team
system called "HUMAN" is not the references, and an imported "tgen" is the anonymised "TGen"
only if the organiser said so. Tables, plots and heatmaps then show each subject as the
leaderboard shows its system to the same viewer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.human_analysis import Subject
from app.data.labels import system_label
from app.data.models import HUMAN_SYSTEM, System, Track
from app.web.services.access import Viewer
from app.web.services.leaderboard import display_names, leaderboard, listed_system_ids


def stored_subjects(results: Mapping | None) -> dict[str, Subject] | None:
    """The subjects of stored results; None for results computed before they were keyed by
    subject (they name systems only, so nothing of them is shown until computed again)."""
    if not results or "subjects" not in results:
        return None
    return {
        key: Subject(key, found["name"], found.get("system_id"), bool(found.get("references")))
        for key, found in results["subjects"].items()
    }


@dataclass(frozen=True)
class Shown:
    """A subject as one viewer may see it."""

    system: str
    """The system's name as the leaderboard shows it ("anonymous" for an anonymised one), the
    references' reserved label, or an imported name on no system of the board."""
    team: str | None = None
    """Its team where the viewer may see it (never for an anonymised system)."""
    system_id: int | None = None
    is_reference: bool = False
    scores: dict[str, float] = field(default_factory=dict)
    """The automatic scores this viewer's leaderboard shows for the system (else none)."""

    @property
    def label(self) -> str:
        """ "team / system" (``system_label``): the thirteen English WebNLG+ 2020 systems in
        its human evaluation were all called "primary"."""
        return system_label(self.system, self.team)


def shown_subjects(
    session: Session,
    track: Track,
    language: str,
    viewer: Viewer,
    subjects: Mapping[str, Subject],
) -> dict[str, Shown]:
    """Subject key -> how ``viewer`` sees it, for the subjects the viewer may see at all.

    The leaderboard's rule, row for row: a system none of whose scored submissions is left
    (withdrawn) is absent but for the organisers; a system is named with its team, an
    anonymised one "anonymous" without (numbered as on the leaderboard); its automatic scores
    are those the viewer's leaderboard shows (in the test phase, none of another team's). The references keep their reserved label; an
    imported name on no system of the board keeps the name the organiser confirmed.
    """
    systems = list(session.scalars(select(System).where(System.track_id == track.id)))
    names = display_names(systems, viewer)
    judged = [s.system_id for s in subjects.values() if s.system_id is not None]
    listed = listed_system_ids(session, judged, language, viewer)
    _, rows = leaderboard(session, track, viewer=viewer, language=language, include_secondary=True)
    scores = {row.system_id: row.scores for row in rows}
    shown: dict[str, Shown] = {}
    for key, subject in subjects.items():
        if subject.is_reference:
            shown[key] = Shown(HUMAN_SYSTEM, is_reference=True)
        elif subject.system_id is None:
            shown[key] = Shown(subject.name)
        elif subject.system_id in listed and subject.system_id in names:
            system, team = names[subject.system_id]
            found = scores.get(subject.system_id, {})
            shown[key] = Shown(system, team, subject.system_id, scores=found)
    return shown
