"""The data layer's errors, in one module."""

from __future__ import annotations

from scorer.errors import Refused


class MailError(Refused, ValueError):
    """An address or a header text that cannot go into a message; says what and where."""


class AnalysisRefused(Refused, ValueError):
    """A campaign's judgements its method cannot analyse (none yet, rankings TrueSkill cannot
    use, a ROSE answer that is not yes/no); says what, for the organisers."""


class Undisclosed(TypeError):
    """A hidden figure reached an output (a template, JSON, CSV, a plot) without the rule.

    Not a refusal: a page that would print a hidden figure is a bug in that page, answered
    as any bug is (a 500 and the log), never as something the person did wrong."""
