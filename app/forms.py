"""Web forms (Flask-WTF: every POST carries a CSRF token)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import EmailField, PasswordField, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp

EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an e-mail address.")


class RegisterForm(FlaskForm):
    email = EmailField("E-mail", validators=[DataRequired(), EMAIL])
    password = PasswordField("Password", validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(
        "Repeat password", validators=[DataRequired(), EqualTo("password", "Passwords differ.")]
    )


class LoginForm(FlaskForm):
    email = EmailField("E-mail", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])


class CreateTeamForm(FlaskForm):
    name = StringField("Team name", validators=[DataRequired(), Length(min=2, max=100)])


class JoinTeamForm(FlaskForm):
    name = StringField("Team name", validators=[DataRequired(), Length(max=100)])
    join_code = StringField("Join code", validators=[DataRequired(), Length(max=32)])


class UploadForm(FlaskForm):
    system = StringField("System name", validators=[DataRequired(), Length(max=100)])
    language = SelectField("Language", choices=[], validate_choice=True, default="")
    file = FileField(
        "Output file (or a zip with one file per language)", validators=[FileRequired()]
    )


class ActionForm(FlaskForm):
    """A button-only form (e.g. mark primary): just the CSRF token."""
