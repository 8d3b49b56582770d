"""The demo challenge that `make run` shows on a fresh machine, from app/demo_data/."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import select

from app.db import session_scope
from app.models import Challenge
from app.services.accounts import find_or_create_team
from app.services.submissions import submit_output
from app.services.tracks import create_challenge, import_e2e_track
from worker.jobs import score_submission
from worker.storage import LocalStorage

DEMO_DATA = Path(__file__).parent / "demo_data"
DEMO_SLUG = "demo-e2e"


def seed_demo(app: Flask) -> str:
    """Create the demo challenge, its track and two scored runs, unless it already exists."""
    settings = app.extensions["nlgboard.settings"]
    queue = app.extensions["nlgboard.queue"]
    storage = LocalStorage(settings.uploads_path)
    with session_scope(settings.database_url) as session:
        if session.scalar(select(Challenge).where(Challenge.slug == DEMO_SLUG)):
            return f"demo challenge {DEMO_SLUG} already present"
        challenge = create_challenge(
            session,
            DEMO_SLUG,
            "Demo: restaurant descriptions (E2E-style)",
            "Ten invented restaurant MRs, to try the board out.",
        )
        track = import_e2e_track(
            session, challenge, "main", (DEMO_DATA / "references.csv").read_bytes(), title="Main"
        )
        runs = [
            ("Template baseline", None, "baseline.txt", True),
            ("demo-seq2seq", find_or_create_team(session, "Demo team"), "team_output.tsv", False),
        ]
        submission_ids = []
        for name, team, filename, is_baseline in runs:
            submissions = submit_output(
                session,
                queue,
                storage,
                user=None,
                team=team,
                track=track,
                system_name=name,
                filename=filename,
                data=(DEMO_DATA / filename).read_bytes(),
                max_bytes=app.config["UPLOAD_MAX_BYTES"],
                is_baseline=is_baseline,
            )
            submission_ids.extend(submission.id for submission in submissions)
    for submission_id in submission_ids:
        score_submission(submission_id, settings)
    return f"demo challenge {DEMO_SLUG} created with {len(submission_ids)} scored runs"
