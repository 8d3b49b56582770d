"""How a system is named to people: with its team, since many teams call theirs "primary"."""

from __future__ import annotations


def system_label(system: str, team: str | None) -> str:
    """ "team / system" wherever one system stands for itself (plots, table headers, titles,
    exports, mails); a baseline's or an anonymised system's name alone (no team to show)."""
    return f"{team} / {system}" if team else system
