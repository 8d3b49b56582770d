"""Small builders for app tests (CTFd style): a challenge with the demo track, users, teams."""

from __future__ import annotations

import re
from email import parser as email_parser
from email import policy as email_policy

from sqlalchemy import select

from app.data.config import Settings
from app.data.db import session_scope
from app.data.models import Mail, Membership, Role
from app.web.services.accounts import create_user, find_or_create_team
from app.web.services.track_imports import import_items
from app.web.services.tracks import create_challenge
from tests.support.paths import DEMO_DATA

DEMO_REFS = (DEMO_DATA / "references.csv").read_bytes()
GOOD_OUTPUT = (DEMO_DATA / "baseline.txt").read_bytes()
N_ITEMS = 10


def demo_track(settings: Settings, challenge: str = "demo", track: str = "main", **options) -> None:
    with session_scope(settings.database_url) as session:
        created = create_challenge(session, challenge, f"Challenge {challenge}")
        import_items(session, created, track, "e2e", references=(DEMO_REFS, "references.csv"),
                     **options)  # fmt: skip


def participant(settings: Settings, email: str, team: str | None = None) -> str:
    """Create a participant (optionally in a team) and return their API token."""
    with session_scope(settings.database_url) as session:
        user = create_user(session, email, "password123", Role.PARTICIPANT)
        if team:
            session.add(Membership(user=user, team=find_or_create_team(session, team)))
        return user.new_api_token()


SR18_DEMO = DEMO_DATA / "sr18"
SR18_REFS = {
    "en": (SR18_DEMO / "en-sentences.txt").read_bytes(),
    "fr": (SR18_DEMO / "fr-sentences.txt").read_bytes(),
}


def sr18_tracks(settings: Settings, challenge: str = "sr18", **options) -> None:
    """Challenge ``challenge`` with track "shallow" (en 4 trees, fr 3) and "deep" (en)."""
    with session_scope(settings.database_url) as session:
        created = create_challenge(session, challenge, "SR'18 demo")
        for slug, kind, language, inputs in (
            ("shallow", "sr-shallow", "en", "en-shallow.conll"),
            ("shallow", "sr-shallow", "fr", "fr-shallow.conll"),
            ("deep", "sr-deep", "en", "en-deep.conll"),
        ):
            import_items(
                session,
                created,
                slug,
                kind,
                language=language,
                inputs=((SR18_DEMO / inputs).read_bytes(), inputs),
                references=(SR18_REFS[language], f"{language}-sentences.txt"),
                **options,
            )


def scored_system(
    session,
    challenge: str,
    track: str,
    name: str,
    scores: dict[str, float],
    *,
    primary: bool = True,
    baseline: bool = False,
    language: str | None = None,
    team: str | None = None,
) -> int:
    """A system with one scored submission whose outputs are ``<name> says <item>``: what human
    evaluation pages need, without running the scorer. Returns the system's id."""
    from app.data.models import Output, Score, Submission, SubmissionStatus, System
    from app.web.services.tracks import get_track

    found = get_track(session, challenge, track)
    test_set = found.test_set_for(language)
    system = System(
        track_id=found.id,
        name=name,
        is_primary=primary,
        is_baseline=baseline,
        team=find_or_create_team(session, team) if team else None,
    )
    submission = Submission(
        system=system,
        language=test_set.language,
        filename="out.txt",
        file_sha256="0" * 64,
        status=SubmissionStatus.SCORED,
    )
    session.add_all([system, submission])
    session.flush()
    session.add_all(
        Output(submission_id=submission.id, item_id=item.id, text=f"{name} says {item.position}")
        for item in test_set.items
    )
    session.add_all(
        Score(submission_id=submission.id, metric=metric, value=value, signature="test")
        for metric, value in scores.items()
    )
    session.flush()
    return system.id


def organiser(settings: Settings, email: str, challenge: str) -> str:
    """An organiser of ``challenge``; returns their API token (password "password123")."""
    from app.data.models import ChallengeOrganiser
    from app.web.services.tracks import get_challenge

    with session_scope(settings.database_url) as session:
        user = create_user(session, email, "password123", Role.ORGANISER)
        session.flush()
        session.add(
            ChallengeOrganiser(challenge_id=get_challenge(session, challenge).id, user_id=user.id)
        )
        return user.new_api_token()


def login(client, email: str, password: str = "password123") -> None:
    """Sign in through the login form (apps built with CSRF off)."""
    response = client.post("/login", data={"email": email, "password": password})
    assert response.status_code == 302, response.data[:500]


def run_queue(app) -> None:
    """Score everything queued with the embedded worker and wait for it."""
    queue = app.extensions["nlgboard.queue"]
    queue.start()
    queue.join()


def mailed_link(settings: Settings, email: str, path: str = "/verify/") -> str:
    """The path of the link under ``path`` in the newest mail to ``email``: from the outbox
    table while it is unsent, else from the instance's outbox folder (a secret body is erased
    from the table once sent)."""
    with session_scope(settings.database_url) as session:
        mail = session.scalars(
            select(Mail).where(Mail.to_address == email).order_by(Mail.id.desc()).limit(1)
        ).one()
        body, mail_id = mail.body, mail.id
    if body is None:
        raw = (settings.outbox_path / f"{mail_id:08d}.eml").read_bytes()
        message = email_parser.BytesParser(policy=email_policy.default).parsebytes(raw)
        body = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    found = re.search(rf"https?://[^/\s]+({re.escape(path)}\S+)", body)
    assert found, f"no {path} link in:\n{body}"
    return found.group(1)


CSRF = re.compile(r'name="csrf_token"[^>]*? value="([^"]+)"')


def register(client, settings: Settings, email: str, password: str = "password123", next=""):
    """Register through the form and open the mailed link, which logs the new account in;
    the answer to the confirmation (a redirect). Works with CSRF on or off."""
    page = client.get(f"/register{next and '?next=' + next}").get_data(as_text=True)
    token = CSRF.search(page)
    data = {"email": email, "password": password, "confirm": password}
    answer = client.post(
        f"/register{next and '?next=' + next}",
        data={**data, **({"csrf_token": token.group(1)} if token else {})},
    )
    assert answer.status_code == 200 and "Check your mail" in answer.get_data(as_text=True), (
        answer.get_data(as_text=True)[-800:]
    )
    link = mailed_link(settings, email)
    page = client.get(link).get_data(as_text=True)
    token = CSRF.search(page)
    confirmed = client.post(link, data={"csrf_token": token.group(1)} if token else {})
    assert confirmed.status_code == 302, confirmed.get_data(as_text=True)[-800:]
    return confirmed
