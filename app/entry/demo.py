"""The demo challenges that `make run` shows on a fresh machine, from app/demo_data/."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.config import Settings
from app.data.db import session_scope
from app.data.models import Challenge, Track
from app.data.storage import storage_for
from app.web.services.accounts import find_or_create_team
from app.web.services.drs import import_challenge_set
from app.web.services.human_import import confirmed_mapping, import_judgements, read_import
from app.web.services.human_results import analyse
from app.web.services.submissions import submit_output
from app.web.services.track_imports import import_items
from app.web.services.tracks import create_challenge, get_track

DEMO_DATA = Path(__file__).parents[1] / "demo_data"
SR18_DATA = DEMO_DATA / "sr18"
DEMO_SLUG = "demo-e2e"
SR18_SLUG = "demo-sr18"
DRS_DATA = DEMO_DATA / "drs"
DRS_SLUG = "demo-drs"


@dataclass(frozen=True)
class Run:
    system: str
    team: str | None
    path: Path
    language: str | None = None


E2E_RUNS = [
    Run("Template baseline", None, DEMO_DATA / "baseline.txt"),
    Run("demo-seq2seq", "Demo team", DEMO_DATA / "team_output.tsv"),
]
SR18_RUNS = {
    "shallow": [
        Run("Input order", None, SR18_DATA / "input-order-en.txt", "en"),
        Run("Input order", None, SR18_DATA / "input-order-fr.txt", "fr"),
        Run("WOL-1", "Word Order Lab", SR18_DATA / "wordorder-lab_en_out.txt", "en"),
        Run("WOL-1", "Word Order Lab", SR18_DATA / "wordorder-lab_fr_out.txt", "fr"),
        Run("lin-greedy", "Linearise", SR18_DATA / "linearise_en_out.txt", "en"),
    ],
    "deep": [
        Run("Input order", None, SR18_DATA / "input-order-en-deep.txt", "en"),
        Run("WOL-deep", "Word Order Lab", SR18_DATA / "wordorder-lab_en-deep_out.txt", "en"),
    ],
}


def seed_demo(
    app: Flask,
    score: Callable[[Settings, list[int]], object] | None = None,
    say: Callable[[str], object] = lambda _message: None,
) -> str:
    """Create the demo challenges with their runs; challenges already present are kept. The
    runs are scored by ``score`` here, or else by the app's queue (``nlgboard run --demo``,
    whose in-process worker scores them while the site already serves pages)."""
    settings = app.extensions["nlgboard.settings"]
    messages, submission_ids = [], []
    with session_scope(settings.database_url) as session:
        for slug, build in (
            (DEMO_SLUG, _e2e_demo),
            (SR18_SLUG, _sr18_demo),
            (DRS_SLUG, _drs_demo),
        ):
            if session.scalar(select(Challenge).where(Challenge.slug == slug)):
                messages.append(f"demo challenge {slug} already present")
                continue
            ids = [
                submission_id
                for track, runs in build(session).items()
                for submission_id in _submit(app, session, track, runs)
            ]
            submission_ids += ids
            messages.append(f"demo challenge {slug} created with {len(ids)} scored runs")
            say(f"demo: {slug} created, {len(ids)} runs " + ("to score" if score else "queued"))
    if score is not None:
        score(settings, submission_ids)
    if any(message.startswith(f"demo challenge {DEMO_SLUG} created") for message in messages):
        with session_scope(settings.database_url) as session:
            messages.append(_human_demo(session))
    return "\n".join(messages)


def _human_demo(session: Session) -> str:
    """Our invented RankME judgements of the two E2E demo runs, ranked and published."""
    track = get_track(session, DEMO_SLUG, "main")
    path = DEMO_DATA / "human_quality.csv"
    data = path.read_bytes()
    names = read_import(session, track, "rankme", "quality", data, path.name).names
    mapping = confirmed_mapping(names, {}, confirm_matches=True)  # both names are exact
    campaign = import_judgements(
        session, track, "quality", "rankme", "quality", data, path.name, mapping
    )
    analyse(session, campaign)
    campaign.is_published = True
    return (
        f"demo human evaluation: {(campaign.imported or {})['judgements']} RankME judgements ranked"
    )


def _e2e_demo(session: Session) -> dict[Track, list[Run]]:
    challenge = create_challenge(
        session,
        DEMO_SLUG,
        "Demo: restaurant descriptions (E2E-style)",
        "Ten invented restaurant MRs, to try the board out.",
    )
    test_set, _ = import_items(
        session, challenge, "main", "e2e", references=_file(DEMO_DATA / "references.csv"),
        title="Main",
    )  # fmt: skip
    return {test_set.track: E2E_RUNS}


def _sr18_demo(session: Session) -> dict[Track, list[Run]]:
    challenge = create_challenge(
        session,
        SR18_SLUG,
        "Demo: surface realisation (SR'18-style)",
        "A few invented dependency trees in English and French, shallow and deep.",
    )
    sources = [
        ("shallow", "sr-shallow", "en", "en-shallow.conll", "en-sentences.txt"),
        ("shallow", "sr-shallow", "fr", "fr-shallow.conll", "fr-sentences.txt"),
        ("deep", "sr-deep", "en", "en-deep.conll", "en-sentences.txt"),
    ]
    tracks = {}
    for slug, kind, language, inputs, references in sources:
        test_set, _ = import_items(
            session, challenge, slug, kind, language=language,
            inputs=_file(SR18_DATA / inputs), references=_file(SR18_DATA / references),
        )  # fmt: skip
        tracks[slug] = test_set.track
    return {tracks[slug]: runs for slug, runs in SR18_RUNS.items()}


def _drs_demo(session: Session) -> dict[Track, list[Run]]:
    challenge = create_challenge(
        session,
        DRS_SLUG,
        "Demo: DRS-to-text",
        "Four invented DRSs in clause format, with a tense and a polarity challenge set.",
    )
    test_set, _ = import_items(
        session, challenge, "gen", "drs", language="en",
        inputs=_file(DRS_DATA / "test.txt"), references=_file(DRS_DATA / "test.txt.raw"),
    )  # fmt: skip
    for name in ("tense", "polarity"):
        import_challenge_set(
            session,
            test_set.track,
            "en",
            name,
            (DRS_DATA / f"{name}.txt").read_bytes(),
            (DRS_DATA / f"{name}.txt.raw").read_bytes(),
        )
    return {
        test_set.track: [
            Run("Concept lemmas", None, DRS_DATA / "baseline_output.txt", "en"),
            Run("char-lstm", "Groningen demo", DRS_DATA / "team_output.txt", "en"),
        ]
    }


def _file(path: Path) -> tuple[bytes, str]:
    return path.read_bytes(), path.name


def _submit(app: Flask, session: Session, track: Track, runs: list[Run]) -> list[int]:
    settings = app.extensions["nlgboard.settings"]
    submission_ids = []
    for run in runs:
        submissions = submit_output(
            session,
            app.extensions["nlgboard.queue"],
            storage_for(settings),
            user=None,
            team=find_or_create_team(session, run.team) if run.team else None,
            track=track,
            system_name=run.system,
            filename=run.path.name,
            data=run.path.read_bytes(),
            max_bytes=app.config["UPLOAD_MAX_BYTES"],
            is_baseline=run.team is None,
            language=run.language,
        )
        submission_ids += [submission.id for submission in submissions]
    return submission_ids
