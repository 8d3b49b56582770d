"""The attack's SIGKILL runs on the embedded default: ``nlgboard run`` killed twice with
SIGKILL while a dozen uploads wait, and started again on the same folder."""

from __future__ import annotations

import pytest

from tests.support.attack_sigkill import sigkill_runs

pytestmark = pytest.mark.integration


def test_a_board_killed_with_uploads_in_flight_loses_and_repeats_nothing(tmp_path):
    report = sigkill_runs(tmp_path / "instance")
    assert all(report.in_flight), report.line()  # each kill found work to lose
    assert report.clean, report.line()
    assert (report.sent, report.scored, report.failed) == (24, 24, 0)
