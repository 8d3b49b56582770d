"""Who may see what: the one place visibility rules live."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import (
    ChallengeAnnotator,
    ChallengeOrganiser,
    Role,
    Submission,
    SubmissionStatus,
    System,
    Track,
    User,
)
from scorer.kinds import get_profile

ANONYMOUS = "anonymous"
"""What the public sees instead of an anonymised system's and team's names."""

MIN_SUBSET_ITEMS = 30
"""Below this many items a subset's scores are per-item figures in all but name (the DRS
demo's polarity challenge set is one sentence: its chrF is that sentence's chrF)."""


@dataclass(frozen=True)
class Viewer:
    """What a person may see of one challenge: every page, export and plot asks this."""

    is_organiser: bool = False
    team_id: int | None = None
    publication: bool = False
    """Exports and plots: made to be passed on, so anonymised names and withdrawn rows stay
    out even when an organiser makes them."""

    def sees_scores_of(self, track: Track, system: System) -> bool:
        """Development phase: everyone. Test phase: organisers; the team itself unless the
        organisers hide its own scores too; everyone once the results are published."""
        if self.is_organiser or track.scores_public:
            return True
        return (
            system.team_id is not None
            and system.team_id == self.team_id
            and not track.hide_own_scores
        )

    def sees_item_figures_of(self, track: Track) -> bool:
        """Per-item figures computed against the hidden references (DIST, chrF, slot errors):
        each one is an oracle on its reference (DIST's edit distance rebuilds a sentence in a
        few dozen uploads), so teams get them only once the test results are published."""
        return self._working_view or track.outputs_public

    def sees_item_results_of(self, track: Track, system: System) -> bool:
        """A submission's per-item scores to take away (every metric, item by item): the
        organisers at any time; its own team once per-item figures are shown."""
        own = system.team_id is not None and system.team_id == self.team_id
        return self._working_view or (own and self.sees_item_figures_of(track))

    def sees_subset_scores_of(self, track: Track, items: int) -> bool:
        """A subset's scores on top of ``sees_scores_of``: an aggregate like the headline from
        ``MIN_SUBSET_ITEMS`` items; on fewer, figures of a handful of references, with the
        rule of per-item figures."""
        return items >= MIN_SUBSET_ITEMS or self.sees_item_figures_of(track)

    def sees_exact_scores_of(self, track: Track) -> bool:
        """In the test phase, until the results are published, a team gets its scores as the
        published table prints them (``Profile.published``), not a float's every digit: with
        the daily quota, that bounds what its uploads learn of the hidden references."""
        return self._working_view or track.scores_public

    def shown_scores(self, track: Track, scores: dict[str, float]) -> dict[str, float]:
        """``scores`` (column -> value) as this viewer may read them."""
        if self.sees_exact_scores_of(track):
            return scores
        profile = get_profile(track.profile)
        return {column: profile.published(column, value) for column, value in scores.items()}

    def sees_system(self, track: Track, system: System) -> bool:
        """A system's page (its name, team and submission times): to its own team (even
        while the organisers hide the team's scores from it) and the organisers; to others
        while the leaderboard would list it: its scores are shown to them and one of its
        submissions has scores and is not withdrawn. Before publication, or once withdrawn,
        nobody else learns that it exists."""
        own = system.team_id is not None and system.team_id == self.team_id
        if own or self._working_view:
            return True
        return self.sees_scores_of(track, system) and any(
            submission.withdrawn_at is None and submission.scores
            for submission in system.submissions
        )

    def sees_reference_statistics(self, track: Track) -> bool:
        """Figures computed from a track's hidden references as a whole (their lengths,
        vocabulary, D-levels): to organisers, and to everyone once the scores are public."""
        return self.is_organiser or track.scores_public

    def sees_names_of(self, system: System) -> bool:
        return self._working_view or not system.is_anonymous

    @property
    def sees_withdrawn(self) -> bool:
        return self._working_view

    @property
    def _working_view(self) -> bool:
        """An organiser's own view, not a publication they make (exports, plots)."""
        return self.is_organiser and not self.publication

    def for_publication(self) -> Viewer:
        return Viewer(self.is_organiser, self.team_id, publication=True)


PUBLIC = Viewer()
ORGANISERS = Viewer(is_organiser=True)
"""For computations that need every system under its real name (never rendered as is)."""


def viewer_of(session: Session, user: User | None, challenge_id: int) -> Viewer:
    team = user.team if user is not None and getattr(user, "is_authenticated", False) else None
    return Viewer(is_organiser_of(session, user, challenge_id), team.id if team else None)


def is_organiser_of(session: Session, user: User | None, challenge_id: int) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.role == Role.ADMIN:
        return True
    return user.role == Role.ORGANISER and _listed(session, ChallengeOrganiser, challenge_id, user)


def _listed(
    session: Session,
    staff: type[ChallengeOrganiser] | type[ChallengeAnnotator],
    challenge_id: int,
    user: User,
) -> bool:
    """Whether ``user`` has a row in a per-challenge staff table (organisers, annotators)."""
    found = select(staff.id).where(staff.challenge_id == challenge_id, staff.user_id == user.id)
    return session.scalar(found) is not None


def may_annotate(session: Session, user: User | None, challenge_id: int) -> bool:
    """Annotators judge only the campaigns of the challenges they were created for; the
    challenge's organisers (and admins) may try its campaigns too."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.role == Role.ANNOTATOR:
        return _listed(session, ChallengeAnnotator, challenge_id, user)
    return is_organiser_of(session, user, challenge_id)


def can_see_submission(session: Session, user: User | None, submission: Submission) -> bool:
    """Status, error message and file of a submission: its team, its challenge's organisers."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    system = submission.system
    if system.team_id is not None and user.team is not None and user.team.id == system.team_id:
        return True
    return is_organiser_of(session, user, system.track.challenge_id)


def can_see_outputs(session: Session, user: User | None, submission: Submission) -> bool:
    """A submission's outputs item by item: its team and organisers; everyone once the test
    results are published (before, other teams could copy outputs on the test inputs). What
    the scorer found per item has its own rule, ``Viewer.sees_item_figures_of``."""
    if can_see_submission(session, user, submission):
        return True
    return (
        submission.system.track.outputs_public
        and submission.withdrawn_at is None
        and submission.status == SubmissionStatus.SCORED
    )


def can_see_scores(session: Session, user: User | None, submission: Submission) -> bool:
    """A submission's scores: who may see the submission, within the track's phase rules."""
    system = submission.system
    return can_see_submission(session, user, submission) and viewer_of(
        session, user, system.track.challenge_id
    ).sees_scores_of(system.track, system)
