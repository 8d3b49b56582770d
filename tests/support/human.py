"""Synthetic human-evaluation campaigns whose true system ordering is known."""

from __future__ import annotations

import numpy as np

from scorer.human.judgements import Judgement
from tests.support.factories import demo_track, organiser, participant, scored_system


def rankme_campaign(
    quality: dict[str, float], rankings: int, noise: float = 15.0, seed: int = 0
) -> list[dict[str, float]]:
    """RankME rows: five random systems per row, score = quality + noise, rounded, 0-100."""
    rng = np.random.default_rng(seed)
    names = list(quality)
    rows = []
    for _ in range(rankings):
        chosen = rng.choice(len(names), size=5, replace=False)
        rows.append(
            {
                names[i]: float(np.clip(round(quality[names[i]] + rng.normal(0, noise)), 0, 100))
                for i in chosen
            }
        )
    return rows


def da_hit(
    annotator: str,
    quality: dict[str, float],
    items: int,
    *,
    careful: bool,
    seed: int,
    criterion: str = "readability",
) -> list[Judgement]:
    """One annotator's DA judgements with repeats, damaged copies and references.

    A careful annotator scores near the true quality and damaged copies 40 points lower; a
    careless one scores at random.
    """
    rng = np.random.default_rng(seed)

    def score(value: float) -> float:
        if not careful:
            return float(rng.integers(0, 101))
        return float(np.clip(round(value + rng.normal(0, 8)), 0, 100))

    judgements = []
    for number in range(items):
        item = f"i{number}"
        for system, value in quality.items():
            judgements.append(Judgement(item, system, annotator, criterion, score(value)))
    for number in range(7):
        system = list(quality)[number % len(quality)]
        value = quality[system]
        judgements.append(
            Judgement(f"i{number}", system, annotator, criterion, score(value), kind="repeat")
        )
        judgements.append(
            Judgement(f"i{number}", system, annotator, criterion, score(value - 40), "damaged")
        )
        judgements.append(
            Judgement(f"i{number}", "reference", annotator, criterion, score(95), "reference")
        )
    return judgements


BLEU = {"alpha": 0.6543, "beta": 0.5432, "gamma": 0.4321, "base": 0.3012}
NIST = {"alpha": 8.1, "beta": 7.9, "gamma": 5.2, "base": 4.0}
TEAMS = {"alpha": "A", "beta": "B", "gamma": "C"}


def human_board(settings) -> None:
    """Track demo/main: teams A, B, C (a@x.org, b@x.org, c@x.org) with one primary system
    each (alpha, beta, gamma), a baseline "base", an organiser org@x.org; development phase."""
    from app.data.db import session_scope

    demo_track(settings)
    for email, team in (("a@x.org", "A"), ("b@x.org", "B"), ("c@x.org", "C")):
        participant(settings, email, team=team)
    organiser(settings, "org@x.org", "demo")
    with session_scope(settings.database_url) as session:
        for name, bleu in BLEU.items():
            scored_system(
                session, "demo", "main", name, {"BLEU": bleu, "NIST": NIST[name]},
                team=TEAMS.get(name), baseline=name == "base", primary=name != "base",
            )  # fmt: skip


QUALITY = {"alpha": 90, "beta": 60, "gamma": 30, "base": 10, "references": 100}


def judge(session, campaign, quality: dict[str, float], annotators: int = 3) -> None:
    """Every unit judged by ``annotators`` annotators: each output gets its system's quality
    (the references, ``quality["references"]``)."""
    from app.web.services.annotation import Annotator, current_assignment, next_unit, record

    for number in range(annotators):
        annotator = Annotator(f"test{number}")
        while (assignment := current_assignment(session, campaign, annotator)) is not None:
            while (unit := next_unit(session, assignment)) is not None:
                form = {
                    f"score-{entry.slot}": str(
                        quality["references"]
                        if entry.system_id is None
                        else quality[entry.system_name]
                    )
                    for entry in unit.entries
                }
                record(session, campaign, assignment, unit, annotator, form)


WEBNLG2020_TRACK = "/challenges/webnlg2020/tracks/en"
WEBNLG2020_SCORES = {
    "A": {"BLEU": 53.9787, "chrF++": 0.69123, "METEOR": 0.41562, "TER": 0.40412},
    "B": {"BLEU": 51.2246, "chrF++": 0.67345, "METEOR": 0.40017, "TER": 0.42189},
    "C": {"BLEU": 40.6118, "chrF++": 0.60208, "METEOR": 0.36771, "TER": 0.51903},
}
"""WebNLG+ 2020-like scores: BLEU stored on 0-100 as multi-bleu-detok.perl prints it."""
WEBNLG2020_QUALITY = {
    ("", "HUMAN"): 95,
    ("A", "primary"): 85,
    ("B", "primary"): 60,
    ("C", "primary"): 30,
}
"""Each (team, system)'s true readability; the references are the file's "HUMAN"."""


def webnlg2020_board(settings, runner, folder) -> None:
    """Track webnlg2020/en of the example bundle's kind (WebNLG+ 2020's: BLEU stored on 0-100,
    printed on 0-1 with 3 decimals; BERTScore and BLEURT declared, scored by no system, as
    where their weights are absent): teams A, B and C (a@x.org...) each call their one system
    "primary", as 13 of the 16 English systems did, and an organiser org@x.org. A published
    Direct Assessment, "readability", imported as its organisers published theirs (a long file
    naming each system by team and name, no quality-control rows): the references above A
    above B above C."""
    from app.data.db import session_scope
    from app.web.services.track_imports import import_items
    from app.web.services.tracks import create_challenge
    from tests.support.paths import DEMO_DATA
    from tests.support.webnlg2020 import bundle_kind

    webnlg = DEMO_DATA / "webnlg"
    kind = bundle_kind(
        "en", name="webnlg2020-en-plain", reader={"name": "webnlg-xml", "language": "en"},
        subsets=[],
    )  # fmt: skip
    with session_scope(settings.database_url) as session:
        challenge = create_challenge(session, "webnlg2020", "WebNLG+ 2020")
        import_items(
            session, challenge, "en", kind["name"], definition=kind, language="en",
            inputs=((webnlg / "test_no_lex.xml").read_bytes(), "test_no_lex.xml"),
            references=((webnlg / "test" / "test_with_lex.xml").read_bytes(), "refs.xml"),
        )  # fmt: skip
    for team in WEBNLG2020_SCORES:
        participant(settings, f"{team.lower()}@x.org", team=team)
    organiser(settings, "org@x.org", "webnlg2020")
    with session_scope(settings.database_url) as session:
        for team, scores in WEBNLG2020_SCORES.items():
            scored_system(session, "webnlg2020", "en", "primary", scores, team=team)
    lines = ["item,team,system,annotator,criterion,score"]
    rng = np.random.default_rng(0)
    for item in range(30):
        for (team, system), quality in WEBNLG2020_QUALITY.items():
            for annotator in ("r1", "r2", "r3"):
                score = int(np.clip(quality + rng.normal(0, 8), 0, 100))
                lines.append(f"i{item},{team},{system},{annotator},readability,{score}")
    path = folder / "readability.csv"
    path.write_text("\n".join(lines) + "\n")
    imported = runner.invoke(
        args=["human", "import", "webnlg2020", "en", "readability", "--method", "da",
              "--criterion", "readability", "--file", str(path), "--confirm",
              "--map", "HUMAN=references"]
    )  # fmt: skip
    assert imported.exit_code == 0, imported.output
    analysed = runner.invoke(
        args=["human", "analyse", "webnlg2020", "en", "readability", "--publish"]
    )
    assert analysed.exit_code == 0, analysed.output
