"""The visibility rule as a value: what one person may see of one challenge.

It lives in the data layer so that every process asks the same rule: the web pages through
``app.web.services.access`` (which builds a person's ``Viewer``), and the worker when it writes a
notification about a submission it has just scored.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.data.models import Campaign, System, Track
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

    def sees_every_score_of(self, track: Track) -> bool:
        """Every team's scores on the track: organisers, or everyone once they are public."""
        return self.is_organiser or track.scores_public

    def sees_campaign(self, campaign: Campaign) -> bool:
        """A human evaluation's results: once published; before, its organisers' working view
        only (never an export or plot, which are made to be passed on)."""
        return campaign.is_published or self._working_view

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
