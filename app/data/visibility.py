"""The visibility rule as a value: what one person may see of one challenge.

It lives in the data layer so that every process asks the same rule: the web pages through
``app.web.services.access`` (which builds a person's ``Viewer``), and the worker when it writes a
notification about a submission it has just scored.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, overload

from app.data.disclosure import Disclosure, Figure, Hidden, Sealed
from app.data.models import TEST, Campaign, System, Track

ANONYMOUS = "anonymous"
"""What the public sees instead of an anonymised system's and team's names."""

MIN_SUBSET_ITEMS = 30
"""Below this many items a subset's scores are per-item figures in all but name (the DRS
demo's polarity challenge set is one sentence: its chrF is that sentence's chrF). A declared
public part under it is no exception: it opens nothing in the test phase."""

PUBLIC_PART_FIGURES = (Figure.SUBSET, Figure.INTERVAL, Figure.SIGNIFICANCE)
"""What a declared public part opens to everyone in the test phase: its scores, their
intervals and significance, each from at least ``MIN_SUBSET_ITEMS`` items."""


@dataclass(frozen=True)
class Viewer:
    """What a person may see of one challenge: every page, export and plot asks this."""

    is_organiser: bool = False
    team_id: int | None = None
    publication: bool = False
    """Exports and plots: made to be passed on, so anonymised names and withdrawn rows stay
    out even when an organiser makes them."""

    def disclosure(
        self,
        track: Track,
        figure: Figure,
        team_id: int | None = None,
        items: int | None = None,
        public_part: bool = False,
    ) -> Disclosure:
        """The one disclosure rule (``app.data.disclosure``): how much of ``figure``, computed
        from ``track``'s hidden references on the outputs of ``team_id`` (None: several
        teams' or a baseline's) over ``items`` items (None: the whole test set), this viewer
        may read. Every other ``sees_*`` here is this rule asked for one figure."""
        if self.is_organiser and not (self.publication and figure is Figure.ITEM):
            return Disclosure.EXACT
        if figure is Figure.QUOTING:  # the references themselves: their organisers only
            return Disclosure.NONE
        if public_part and figure in PUBLIC_PART_FIGURES and (items or 0) >= MIN_SUBSET_ITEMS:
            return Disclosure.EXACT  # the organisers declared it public
        if track.phase == TEST and not track.is_published:
            own = team_id is not None and team_id == self.team_id
            if figure is Figure.HEADLINE and own and not track.hide_own_scores:
                return Disclosure.ROUNDED
            return Disclosure.NONE
        few = items is not None and items < MIN_SUBSET_ITEMS
        if (figure is Figure.ITEM or few) and not track.outputs_public:
            return Disclosure.NONE
        return Disclosure.EXACT

    @overload
    def disclose(self, track: Track, hidden: Hidden) -> float | None: ...

    @overload
    def disclose(self, track: Track, hidden: Sealed) -> Any: ...

    def disclose(self, track: Track, hidden: Hidden | Sealed) -> Any:
        """The number ``hidden`` holds as this viewer may read it (None: not at all): the one
        place a figure computed from hidden references is opened. A stored analysis
        (``Sealed``) is opened whole or not at all: it is never rounded, so a viewer whom the
        rule would give it rounded gets nothing."""
        if isinstance(hidden, Sealed):
            opened = self.disclosure(track, hidden.figure) is Disclosure.EXACT
            return copy.deepcopy(hidden.reveal()) if opened else None
        found = self.disclosure(
            track, hidden.figure, hidden.team_id, hidden.items, hidden.public_part
        )
        if found is Disclosure.NONE:
            return None
        value = hidden.reveal()
        if found is Disclosure.ROUNDED:
            return track.scoring_profile.published(hidden.column, value)
        return value

    def disclosed(self, track: Track, sealed: dict[str, Hidden]) -> dict[str, float]:
        """Column -> value of the ``sealed`` figures this viewer may read."""
        opened = {column: self.disclose(track, hidden) for column, hidden in sealed.items()}
        return {column: value for column, value in opened.items() if value is not None}

    def sees_scores_of(self, track: Track, system: System) -> bool:
        """A system's headline scores. Development phase: everyone. Test phase: organisers;
        the team itself (rounded) unless the organisers hide its own scores too; everyone
        once the results are published."""
        found = self.disclosure(track, Figure.HEADLINE, system.team_id)
        return found is not Disclosure.NONE

    def sees_item_figures_of(self, track: Track) -> bool:
        """Per-item figures computed against the hidden references (DIST, chrF, slot errors):
        each one is an oracle on its reference (DIST's edit distance rebuilds a sentence in a
        few dozen uploads), so teams get them only once the test results are published."""
        return self.disclosure(track, Figure.ITEM) is not Disclosure.NONE

    def sees_significance_of(self, track: Track) -> bool:
        """p-values, significance groups and ranks: a team comparing its own systems in the
        test phase would learn how they differ item by item."""
        return self.disclosure(track, Figure.SIGNIFICANCE) is not Disclosure.NONE

    def sees_every_score_of(self, track: Track) -> bool:
        """Every team's scores on the track: organisers, or everyone once they are public."""
        return self.disclosure(track, Figure.HEADLINE) is not Disclosure.NONE

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
        """A subset's or bucket's scores on top of ``sees_scores_of``: never before a test
        phase's publication (a bucket, or a subset and its complement, isolates a few probes);
        otherwise an aggregate like the headline from ``MIN_SUBSET_ITEMS`` items, and on
        fewer, figures of a handful of references, with the rule of per-item figures."""
        return self.disclosure(track, Figure.SUBSET, items=items) is not Disclosure.NONE

    def sees_exact_scores_of(self, track: Track) -> bool:
        """Scores to every digit and their intervals. In the test phase, until the results are
        published, a team gets its scores as the published table prints them
        (``Profile.published``): with the daily quota, that bounds what its uploads learn."""
        return self.disclosure(track, Figure.INTERVAL) is Disclosure.EXACT

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
        return self.disclosure(track, Figure.REFERENCE) is not Disclosure.NONE

    def sees_analyses_of(self, track: Track) -> bool:
        """The organisers' stored analyses against the references (the similarity heatmap):
        organisers, and everyone once the test results are published."""
        return self.disclosure(track, Figure.ANALYSIS) is Disclosure.EXACT

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
