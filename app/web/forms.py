"""Web forms (Flask-WTF: every POST carries a CSRF token)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    EmailField,
    Field,
    IntegerField,
    PasswordField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    EqualTo,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from app.data.errors import MailError
from app.data.mail.messages import check_address
from app.web.services.organising import LIMIT_MAX
from scorer.human.protocols import PROTOCOLS
from scorer.kinds import TRACK_KIND_LABELS


class BoardForm(FlaskForm):
    """Every form of the board. A text with a NUL character is refused, naming the field:
    nothing here holds one, and PostgreSQL cannot store one (psycopg raised, from a login's
    e-mail to a challenge's title: HTTP 500)."""

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        valid = super().validate(extra_validators)
        for field in self:
            if isinstance(field.data, str) and "\x00" in field.data:
                at = field.data.index("\x00") + 1
                field.errors = [*field.errors, f"holds a NUL character (U+0000) at character {at}"]
                valid = False
        return valid


EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an e-mail address.")


def mailable(_form: FlaskForm, field: Field) -> None:
    """An address the board can write to: one plain address, nothing that would add a header
    or a recipient to a message (``app.data.mail.messages.check_address``)."""
    try:
        check_address(field.data or "")
    except MailError:
        raise ValidationError("Enter one plain address like name@example.org.") from None


class RegisterForm(BoardForm):
    email = EmailField("E-mail", validators=[DataRequired(), EMAIL, mailable])
    password = PasswordField(
        "Password",
        validators=[DataRequired(), Length(min=12, max=200)],
        description="At least 12 characters.",
    )
    confirm = PasswordField(
        "Repeat password", validators=[DataRequired(), EqualTo("password", "Passwords differ.")]
    )


class LoginForm(BoardForm):
    email = EmailField("E-mail", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])


class CreateTeamForm(BoardForm):
    name = StringField("Team name", validators=[DataRequired(), Length(min=2, max=100)])


class JoinTeamForm(BoardForm):
    name = StringField("Team name", validators=[DataRequired(), Length(max=100)])
    join_code = StringField("Join code", validators=[DataRequired(), Length(max=32)])


class UploadForm(BoardForm):
    system = StringField("System name", validators=[DataRequired(), Length(max=100)])
    language = SelectField("Language", choices=[], validate_choice=True, default="")
    file = FileField(
        "Output file (or a zip with one file per language)", validators=[FileRequired()]
    )


class ActionForm(BoardForm):
    """A button-only form (e.g. mark primary): just the CSRF token."""


def _method_choices() -> list[SelectChoice]:
    """A placeholder first: the page preselects the method the challenge already uses, and a
    challenge without a campaign yet has the organiser choose one."""
    return [SelectChoice("", "choose a method")] + [
        SelectChoice(name, protocol.title) for name, protocol in PROTOCOLS.items()
    ]


def _criteria_hint() -> str:
    return "; ".join(
        f"{protocol.title}: {', '.join(protocol.criteria)}" for protocol in PROTOCOLS.values()
    )


def _cluster_choices() -> list[SelectChoice]:
    """The protocol's default first (empty), then every procedure some protocol allows."""
    named = dict.fromkeys(name for p in PROTOCOLS.values() for name in p.clusters)
    return [SelectChoice("", "the protocol's default (DA, Likert: wmt)")] + [
        SelectChoice(name, name) for name in named
    ]


class CampaignNaming(BoardForm):
    """What every human-evaluation campaign has: a URL-safe name, a protocol and the cluster
    procedure its results are published by."""

    name = StringField(
        "Name", validators=[DataRequired(), Length(max=64), Regexp(r"^[a-z0-9][a-z0-9-]*\Z")]
    )
    method = SelectField(
        "Method", choices=_method_choices(), validators=[DataRequired("Choose a method.")]
    )
    clusters = SelectField("Significance clusters", choices=_cluster_choices(), default="")
    criteria = TextAreaField(
        "Likert criteria, one a line: NAME SCALE [higher|lower], e.g. 'fluency 1-5', "
        "'adequacy 1-7', 'clarity bad,fair,good' (default: semantics, grammar and fluency "
        "on 1-3, higher is better)",
        validators=[Length(max=2000)],
        render_kw={"rows": 3},
    )
    aggregate = SelectField(
        "Likert: an output's score",
        choices=[
            SelectChoice("", "the mean of its judges"),
            SelectChoice("median", "the median of its judges"),
        ],
        default="",
    )
    ties = SelectField(
        "Pairwise: a tie",
        choices=[
            SelectChoice("", "half a win for each side"),
            SelectChoice("drop", "left out of the scores"),
        ],
        default="",
    )

    def options(self) -> dict[str, str]:
        """What the organiser gave of the protocols' options (the chosen protocol reads its
        own and refuses another's)."""
        return {
            "criteria": self.criteria.data or "",
            "aggregate": self.aggregate.data or "",
            "ties": self.ties.data or "",
        }


class CampaignForm(CampaignNaming):
    """A human evaluation on a track (E2E RankME, SR'18 DA, DRS ROSE, Likert, pairwise)."""

    criterion = StringField(
        f"Criterion the results are ranked by (empty: the first asked; {_criteria_hint()})",
        validators=[Length(max=64)],
    )
    systems = StringField("Systems (comma-separated; empty = the primary systems)")
    include_baselines = BooleanField("Include the baselines")
    include_human = BooleanField("Include the human references as a system")
    items = IntegerField("Items", default=100, validators=[NumberRange(min=1, max=100000)])
    subset = StringField("Challenge set (ROSE: its items and their originals)")
    annotators_per_hit = IntegerField(
        "Annotators per HIT", default=3, validators=[NumberRange(min=1, max=100)]
    )
    quality_control = StringField(
        "DA quality control (some of damaged,repeat,reference, or none)",
        default="damaged,repeat,reference",
        validators=[Length(max=64)],
    )


class ImportJudgementsForm(CampaignNaming):
    criterion = StringField("Criterion", validators=[DataRequired(), Length(max=64)])
    file = FileField(
        "Judgements (E2E RankME CSV, long CSV or pairwise CSV)", validators=[FileRequired()]
    )
    quality_control = StringField(
        "DA quality control the judgements had (damaged,repeat,reference or none; empty: the "
        "kinds of row the file holds)",
        validators=[Length(max=64)],
    )


class JudgeForm(BoardForm):
    """An automatic judge's scores of a campaign's outputs, with what was run."""

    name = StringField("Judge's short name", validators=[DataRequired(), Length(max=64)])
    scores = FileField("Scores (long CSV, as the campaign's import)", validators=[FileRequired()])
    spec = FileField("Spec (JSON: model, prompt_sha256, decoding, date)",
                     validators=[FileRequired()])  # fmt: skip


class LinksForm(BoardForm):
    count = IntegerField("One-time links", default=5, validators=[NumberRange(min=1, max=500)])


SLUG = Regexp(r"^[a-z0-9][a-z0-9-]*\Z", message="Lower-case letters, digits and hyphens.")


class ChallengeForm(BoardForm):
    title = StringField("Title", validators=[DataRequired(), Length(max=200)])
    description = TextAreaField(
        "Description (Markdown: paragraphs, lists, [links](https://…) to data, rules, papers)",
        validators=[Length(max=5000)],
        render_kw={"rows": 12, "class": "description"},
    )
    """Up to 5,000 characters of Markdown: a box the width of the text column and a dozen
    lines tall, not the browser's default 20 columns by 2 rows."""


class BundleForm(FlaskForm):
    bundle = FileField(
        "Bundle (a zip: challenge.yaml and its data files)", validators=[FileRequired()]
    )


class NewChallengeForm(ChallengeForm):
    slug = StringField("Slug (in URLs)", validators=[DataRequired(), Length(max=64), SLUG])


class TrackUploadForm(BoardForm):
    """A new track, or a further language / DRS subset of one: the CLI's ``track import``."""

    slug = StringField("Track slug", validators=[DataRequired(), Length(max=64), SLUG])
    kind = SelectField(
        "Kind",
        choices=[SelectChoice(kind, label) for kind, label in TRACK_KIND_LABELS.items()],
    )
    """The built-in kinds; the organisers' page lists the kinds defined on the board too
    (``services.kind_choices``)."""
    title = StringField("Title", validators=[Optional(), Length(max=200)])
    language = StringField("Language (ISO 639, e.g. en)", validators=[Optional(), Length(max=3)])
    inputs = FileField("Test inputs")
    references = FileField("Hidden references")
    subset = StringField("DRS subset (default standard)", validators=[Optional(), Length(max=64)])


class TrackSettingsForm(BoardForm):
    title = StringField("Title", validators=[DataRequired(), Length(max=200)])
    phase = SelectField(
        "Phase",
        choices=[
            SelectChoice("development", "development: scores public at once"),
            SelectChoice("test", "test: scores hidden until published"),
        ],
    )
    deadline = DateTimeLocalField("Deadline (UTC)", validators=[Optional()])
    daily_limit = IntegerField(
        "Submissions per team per day", validators=[Optional(), NumberRange(1, LIMIT_MAX)]
    )
    max_systems = IntegerField(
        "Systems per team", validators=[Optional(), NumberRange(1, LIMIT_MAX)]
    )
    max_primary = IntegerField(
        "Primary systems per team",
        default=2,
        validators=[DataRequired(), NumberRange(1, LIMIT_MAX)],
    )
    hide_own_scores = BooleanField("Test phase: hide a team's own scores from it too")
    confirmed_only_in_test = BooleanField(
        "Test phase: only accounts with a confirmed e-mail address upload", default=True
    )


class BaselineForm(BoardForm):
    name = StringField("Baseline name", validators=[DataRequired(), Length(max=100)])
    language = StringField("Language (multilingual tracks)", validators=[Optional(), Length(max=3)])
    file = FileField("Output file (or a zip per language)", validators=[FileRequired()])


class RoleForm(BoardForm):
    """An admin gives an existing account a role (the CLI's ``user role``)."""

    email = StringField("Account e-mail", validators=[DataRequired(), Length(max=254)])
    role = SelectField(
        "Role",
        choices=[SelectChoice(r, r) for r in ("participant", "organiser", "annotator", "admin")],
    )
    challenge = StringField("Challenge slug (organisers, annotators; optional)",
                            validators=[Length(max=64)])  # fmt: skip


class ForgotPasswordForm(BoardForm):
    email = EmailField("E-mail", validators=[DataRequired(), Length(max=254)])


class ResetPasswordForm(BoardForm):
    password = PasswordField(
        "New password",
        validators=[DataRequired(), Length(min=12, max=200)],
        description="At least 12 characters.",
    )
    confirm = PasswordField(
        "Repeat password", validators=[DataRequired(), EqualTo("password", "Passwords differ.")]
    )
    revoke_token = BooleanField("Also revoke my API token (scripts using it stop working)")


class ParticipantMessageForm(BoardForm):
    subject = StringField("Subject", validators=[DataRequired(), Length(max=150)])
    text = TextAreaField("Message", validators=[DataRequired(), Length(max=10_000)])


class UploadRuleForm(BoardForm):
    unverified_may_upload = BooleanField(
        "Accounts whose e-mail address is not confirmed may upload"
    )
