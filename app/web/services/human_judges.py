"""An automatic judge beside a campaign's humans: importing its scores and showing how far it
agrees with them.

The organisers ran the judge (a model, a prompt, decoding settings, a date: the spec file) and
import the scores it gave, in the long CSV the campaign's protocol reads, its systems named as
the humans' are: the name the campaign's import mapped, a name the humans' judgements carry, or
exactly one system of the track. The board calls no model. The scores are stored apart from the
humans' judgements (``app.data.models.judges``), so no human figure can ever take them in, and
the comparison (``scorer.human.judge.compare``) is stored on the run, computed again whenever the
campaign is analysed. Only protocols whose judgements are scores of one output can be compared.

What a viewer sees of a run follows the campaign's own rule (``Viewer.sees_campaign``), with
each system named as the human tables name it (``human_subjects.shown_subjects``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.data.human_analysis import REFERENCES, Subject, stored_judgements
from app.data.judge_runs import campaign_runs, compare_run
from app.data.models import Campaign, JudgeRun, JudgeScore, User
from app.web.errors import DomainError
from app.web.services import action, add_unique
from app.web.services.access import Viewer
from app.web.services.audit import record
from app.web.services.human_import import EXTERNAL, MATCHED, NAME_MAX, match_names
from app.web.services.human_subjects import Shown, shown_subjects
from scorer.errors import InputError
from scorer.human.judge import JudgeSpec

NAME_LENGTH = 64
SPEC_MAX_BYTES = 64 * 1024


def read_spec(data: bytes, filename: str) -> JudgeSpec:
    """The spec file (JSON: model, prompt_sha256, decoding, date), refused naming the line."""
    if len(data) > SPEC_MAX_BYTES:
        raise InputError(f"a judge's spec is a JSON file of at most {SPEC_MAX_BYTES} bytes",
                         filename=filename)  # fmt: skip
    try:
        found = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError("a judge's spec is UTF-8 JSON", filename=filename) from None
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", filename=filename, line=error.lineno) from None
    return JudgeSpec.parse(found, filename)


Target = tuple[int | None, bool, str]
"""A judged name's system: (system id, is the references, name kept) as a judgement holds it."""


def _targets(session: Session, campaign: Campaign) -> dict[str, Target]:
    """Names the campaign already maps: its import's confirmed mapping, then the names its
    judgements carry (one system each)."""
    found: dict[str, Target] = {}
    for name, target in ((campaign.imported or {}).get("mapping") or {}).items():
        if target == REFERENCES:
            found[name] = (None, True, name)
        elif target == EXTERNAL:
            found[name] = (None, False, name)
        elif str(target).isdigit():
            found[name] = (int(target), False, name)
    seen: dict[str, set[Target]] = {}
    for j in stored_judgements(session, campaign):
        seen.setdefault(j.system_name, set()).add((j.system_id, j.is_reference, j.system_name))
    for name, targets in seen.items():
        if len(targets) == 1 and name not in found:
            found[name] = next(iter(targets))
    return found


def _scores(session: Session, campaign: Campaign, data: bytes, filename: str) -> list[JudgeScore]:
    """The file read by the campaign's protocol, each name mapped; refused naming the lines of
    a name that is no system of the campaign."""
    rows, _ = campaign.protocol.read(data, filename, campaign.criterion)
    rows = [row for row in rows if row.kind == "genuine" and row.criterion == campaign.criterion]
    if not rows:
        raise InputError(f"holds no scores for {campaign.criterion!r}", filename=filename)
    long = next((row for row in rows if len(row.label) > NAME_MAX), None)
    if long is not None:
        raise InputError(f"system {long.label!r} is longer than {NAME_MAX} characters",
                         filename=filename, line=long.line or None)  # fmt: skip
    targets = _targets(session, campaign)
    for match in match_names(session, campaign.track, rows):
        if match.name not in targets and match.status == MATCHED and match.proposed is not None:
            targets[match.name] = (match.proposed, False, match.name)
        if match.name not in targets:
            raise InputError(
                f"system {match.described()} is no system of campaign {campaign.name!r}: name "
                "it as the humans' judgements or the campaign's import did, or as exactly one "
                "system of the track",
                filename=filename,
            )
    scores = []
    for row in rows:
        system_id, is_reference, name = targets[row.label]
        scores.append(JudgeScore(item_key=row.item, system_name=name, system_id=system_id,
                                 is_reference=is_reference, criterion=row.criterion,
                                 score=row.score))  # fmt: skip
    return scores


def judge_name(name: str) -> str:
    """A run's name as stored, stripped; refused unless 1-``NAME_LENGTH`` characters (a form,
    the CLI and a bundle name runs alike)."""
    name = name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise DomainError(f"a judge's name is 1-{NAME_LENGTH} characters")
    return name


def check_judged(campaign: Campaign) -> None:
    """Refuse a judge for a campaign whose judgements are not scores of one output: there is
    nothing to set its scores beside."""
    if not campaign.protocol.scored:
        raise DomainError(
            f"{campaign.protocol.title} judgements are not scores of one output, so a judge's "
            "scores cannot be set beside them; import a judge into a DA, Likert or RankME "
            "campaign"
        )


def import_judge(
    session: Session,
    campaign: Campaign,
    name: str,
    scores: bytes,
    scores_filename: str,
    spec: bytes,
    spec_filename: str,
) -> JudgeRun:
    """A judge's run on ``campaign``, compared with its humans at once; a bad spec, file, name
    or a judge sharing no output with the humans stores nothing."""
    name = judge_name(name)
    check_judged(campaign)
    judge_spec = read_spec(spec, spec_filename)
    rows = _scores(session, campaign, scores, scores_filename)
    run = JudgeRun(campaign_id=campaign.id, name=name, spec=judge_spec.to_dict(),
                   filename=scores_filename[:200])  # fmt: skip
    add_unique(session, run, duplicate=f"campaign {campaign.name!r} already has a judge {name!r}")
    for row in rows:
        row.run_id = run.id
    add_unique(session, *rows, duplicate=f"{scores_filename}: the judge scores one output twice")
    compare_run(session, campaign, run)
    if run.comparison is None:
        raise InputError(str(run.comparison_error), filename=scores_filename)
    return run


def import_judge_by(
    session: Session, actor: User | None, campaign: Campaign, *args: Any
) -> JudgeRun:
    """``import_judge`` as an organiser's action, recorded in the audit log with its spec."""
    with action(session):
        run = import_judge(session, campaign, *args)
        record(
            session, actor, "human judge import",
            f"{campaign.track.slug}/{campaign.name}/{run.name}", campaign.track.challenge_id,
            spec=run.spec, file=run.filename,
        )  # fmt: skip
    return run


@dataclass(frozen=True)
class JudgeView:
    """One judge's run as a viewer may see it."""

    run: JudgeRun
    systems: list[dict]
    """``label`` ("team / system"), ``human``, ``judge`` means and ``outputs``, per shown system."""

    def to_dict(self) -> dict:
        found = self.run.comparison or {}
        return {
            "name": self.run.name,
            "judge": self.run.spec,
            "criterion": found.get("criterion"),
            "system_level": found.get("system_level"),
            "output_level": found.get("output_level"),
            "agreement": found.get("agreement"),
            "systems": self.systems,
            "error": self.run.comparison_error,
        }


def judge_views(session: Session, campaign: Campaign, viewer: Viewer) -> list[JudgeView]:
    """The campaign's judges, none where the viewer may not see the campaign's results."""
    if not viewer.sees_campaign(campaign):
        return []
    runs = campaign_runs(session, campaign)
    if not runs:
        return []
    subjects = _subjects(runs)
    shown = shown_subjects(session, campaign.track, campaign.language, viewer, subjects)
    return [JudgeView(run, _shown_rows(run, shown)) for run in runs]


def _shown_rows(run: JudgeRun, shown: Mapping[str, Shown]) -> list[dict]:
    """The comparison's systems the viewer may see, each named as the human tables name it."""
    return [
        {
            "label": shown[row["system"]].label,
            "system_id": shown[row["system"]].system_id,
            **{key: row[key] for key in ("human", "judge", "outputs")},
        }
        for row in (run.comparison or {}).get("systems", [])
        if row["system"] in shown
    ]


def _subjects(runs: list[JudgeRun]) -> dict[str, Subject]:
    """The subjects the runs' comparisons name, from their keys (names of file-only systems)."""
    subjects: dict[str, Subject] = {}
    for run in runs:
        for row in (run.comparison or {}).get("systems", []):
            key = row["system"]
            subjects[key] = _subject(key)
    return subjects


def _subject(key: str) -> Subject:
    if key == REFERENCES:
        return Subject(key, REFERENCES, None, True)
    kind, _, rest = key.partition(":")
    if kind == "system" and rest.isdigit():
        return Subject(key, rest, int(rest))
    return Subject(key, rest)


def judges_json(views: list[JudgeView]) -> list[dict]:
    return [view.to_dict() for view in views]
