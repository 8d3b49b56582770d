"""Human-evaluation campaigns in challenge bundles: each campaign's settings in the definition's
``campaigns`` list and its judgements in a CSV file beside it, so a finished challenge's human
evaluation moves and is archived with it, and an export of the import is the same export.

A judgement names what was judged by ``subject``: ``system`` (a system of the track, by its
team and name: system names repeat across teams), ``references`` or ``external`` (a system on no
board, under the name the organiser imported it by), and keeps the name it was judged by
(``judged_as``); the campaign's import notes name each mapped system the same way, not by
this board's id, which is another system on another board. A bundle exported without
submissions holds no systems: the judged ones are
created, without submissions, in the teams the bundle's systems would have used. What is
carried is what was collected; the pages still to be judged (units, links, HIT assignments) and
who judged on this board (accounts) are not, so an imported campaign is closed, and its results
are computed again when it was published: by the worker (``worker.human``: 180,000 judgements
take the better part of a minute), the campaign ``pending`` until then.

Every judgement is checked as the board's own import checks one, its line named: a score is a
finite number on its protocol's scale (``Protocol.score_error``: DA 0-100, ROSE yes/no, a Likert
point, a pairwise side's share; RankME's file values outside 0-100 are kept as the E2E organisers
read them, only their order counts), of the campaign's criterion where the protocol reads only
that one, each scored once, its texts within their columns. A campaign's cluster procedure
(``clusters``) is one its protocol allows; a bundle written before it was a setting gets the
protocol's default. A judgement's ``note`` (a pairwise preference's reason) is its last column,
absent from bundles written before there were notes.

A campaign's automatic judges (``judges``: each run's name, spec and file name) travel with it,
each run's scores in a CSV beside its judgements (``human/TRACK/N.judge-K.csv``: what was scored
named as a judgement names it, ``judged_as`` kept), in the order they were stored. They are
checked as the board's own judge import checks them (``human_judges``: the run's name, a
campaign a judge can be set beside, ``JudgeSpec``; each score one the judge's import would have
stored, ``Protocol.judge_score_error``: DA 0-100, RankME any finite value as E2E's layout keeps
it, Likert any finite value, a mean between the points), a bad line refused naming the file and
the line. The comparison with the humans is not carried:
it is computed again when the campaign is analysed (``judge_runs.compare_judges``: the worker's
job for a published campaign, the organisers' button otherwise). A bundle written before judges
were carried has no ``judges`` key, and one whose campaigns have none writes none, so it is the
same bundle as before; the format's version is unchanged (an older board refuses the key by
name rather than dropping the judges).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.human_analysis import AnalysisStatus
from app.data.judge_runs import campaign_runs
from app.data.models import (
    Campaign,
    Challenge,
    Judgement,
    JudgeRun,
    JudgeScore,
    System,
    Team,
    Track,
)
from app.web.errors import CampaignBundleError, DomainError
from app.web.services.campaigns import (
    campaign_options,
    cluster_procedure,
    protocol_of,
    quality_controls,
    track_campaigns,
)
from app.web.services.human_judges import check_judged, judge_name
from app.web.services.names import check_name
from app.web.services.submissions import SYSTEM_NAME_MAX
from scorer.errors import InputError
from scorer.human.direct_assessment import format_controls
from scorer.human.judge import JudgeSpec
from scorer.human.judgements import DA_KINDS

KEY = "campaigns"
COLUMNS = (
    "item", "subject", "team", "system", "judged_as", "annotator", "criterion", "score", "kind",
    "subset", "unit", "note",
)  # fmt: skip
EARLIER_COLUMNS = COLUMNS[:-1]
"""The judgements file of a bundle written before notes were kept."""
SYSTEM, REFERENCES, EXTERNAL = "system", "references", "external"
SETTINGS = {
    "track": str,
    "name": str,
    "method": str,
    "criterion": str,
    "language": str,
    "quality_control": str,
    "clusters": str,
    "options": dict,
    "show_input": bool,
    "show_reference": bool,
    "hit_size": int,
    "annotators_per_hit": int,
    "published": bool,
    "imported": dict,
    "judgements": str,
    "judges": list,
}
OPTIONAL = {"imported", "clusters", "options", "judges"}
JUDGE_COLUMNS = ("item", "subject", "team", "system", "judged_as", "criterion", "score")
"""A judge's scores file: what it scored named as a judgement names it (``COLUMNS``)."""
JUDGE_SETTINGS = {"name": str, "spec": dict, "filename": str, "scores": str}
FILENAME_MAX = 200
"""``judge_runs.filename``."""
NOT_COMPARED = (
    "not compared yet: a judge a bundle brings is compared with the humans when the "
    "campaign's results are computed"
)
"""A bundle's run until its campaign is analysed (the worker's job for a published one)."""
CRITERION_MAX = 64
"""``campaigns.criterion`` and ``judgements.criterion``."""
TEXT_MAX = {
    "item": 100, "judged_as": 100, "annotator": 100, "criterion": CRITERION_MAX, "subset": 64,
    "unit": 100,
}  # fmt: skip
"""A judgement's text columns as stored (``judgements``): PostgreSQL refuses a longer value."""
TeamOf = Callable[[str, str], Team]
"""A bundle team's name and where it is named -> the team the import uses (``bundles``)."""


# --- export ------------------------------------------------------------------------------------


def export_campaigns(session: Session, challenge: Challenge, files: dict[str, bytes]) -> list[dict]:
    """Every campaign of the challenge's tracks, its judgements written into ``files``."""
    entries = []
    for track in challenge.tracks:
        for number, campaign in enumerate(track_campaigns(session, track, published_only=False)):
            path = f"human/{track.slug}/{number + 1}.csv"
            systems = _track_systems(session, campaign)
            files[path] = _judgements_file(session, campaign, systems)
            judges = _export_judges(session, campaign, systems, path, files)
            entries.append(
                {
                    "track": track.slug,
                    "name": campaign.name,
                    "method": campaign.method,
                    "criterion": campaign.criterion,
                    "language": campaign.language,
                    "quality_control": campaign.quality_control,
                    "clusters": campaign.clusters,
                    **({"options": campaign.options} if campaign.options else {}),
                    "show_input": campaign.show_input,
                    "show_reference": campaign.show_reference,
                    "hit_size": campaign.hit_size,
                    "annotators_per_hit": campaign.annotators_per_hit,
                    "published": campaign.is_published,
                    "imported": _portable_import(campaign.imported, systems),
                    "judgements": path,
                    **({"judges": judges} if judges else {}),
                }
            )
    return entries


def _portable_import(imported: dict | None, systems: Mapping[int, System]) -> dict | None:
    """The campaign's import notes with each name's system (stored by this board's id) written
    by its team and name, as the judgements file names systems: another board's ids are other
    systems."""
    if not imported or not isinstance(imported.get("mapping"), Mapping):
        return imported
    mapping: dict[str, Any] = {}
    for name, target in imported["mapping"].items():
        if str(target).isdigit():
            subject, team, system = _subject(systems, int(target), False)
            target = {"team": team, "system": system} if subject == SYSTEM else EXTERNAL
        mapping[name] = target
    return {**imported, "mapping": mapping}


def _board_import(imported: dict | None, systems: _Systems, where: str) -> dict | None:
    """``_portable_import`` undone on this board: a name's system by its id here. A bare id (a
    bundle written before systems were named so) was the exporting board's and is left out:
    the judgements, which name their systems, still map that name."""
    if not imported or not isinstance(imported.get("mapping"), Mapping):
        return imported
    mapping: dict[str, str] = {}
    for name, target in imported["mapping"].items():
        here = f"{where}.imported.mapping.{name}"
        if isinstance(target, Mapping):
            team, system = target.get("team"), target.get("system")
            if not isinstance(team, str) or not isinstance(system, str) or not system:
                raise CampaignBundleError(f"{here}: expected a team and a system name")
            mapping[str(name)] = str(systems.get(team, system, here).id)
        elif not str(target).isdigit():
            mapping[str(name)] = str(target)
    return {**imported, "mapping": mapping}


def _track_systems(session: Session, campaign: Campaign) -> dict[int, System]:
    return {
        system.id: system
        for system in session.scalars(select(System).where(System.track_id == campaign.track_id))
    }


def _subject(
    systems: Mapping[int, System], system_id: int | None, is_reference: bool
) -> tuple[str, str, str]:
    """(subject, team, system) of what was judged: a system of the track by its team and name
    (names repeat across teams), else the references or an external system."""
    system = systems.get(system_id) if system_id is not None else None
    if system is not None:
        return SYSTEM, system.team.name if system.team else "", system.name
    return REFERENCES if is_reference else EXTERNAL, "", ""


def _judgements_file(session: Session, campaign: Campaign, systems: Mapping[int, System]) -> bytes:
    stored = session.scalars(
        select(Judgement).where(Judgement.campaign_id == campaign.id).order_by(Judgement.id)
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for j in stored:
        subject = _subject(systems, j.system_id, j.is_reference)
        writer.writerow(
            [j.item_key, *subject, j.system_name, j.annotator, j.criterion, repr(j.score), j.kind,
             j.subset, j.unit_key, j.note or ""]
        )  # fmt: skip
    return buffer.getvalue().encode()


def _export_judges(
    session: Session,
    campaign: Campaign,
    systems: Mapping[int, System],
    judgements: str,
    files: dict[str, bytes],
) -> list[dict[str, Any]]:
    """The campaign's judges in the order they were imported, each run's scores written into
    ``files`` beside the judgements (``human/TRACK/N.judge-K.csv``) in the order they were
    stored, so the export of an import is the same export. The comparison is not carried: it
    is computed again from the scores when the campaign is analysed."""
    entries = []
    for number, run in enumerate(campaign_runs(session, campaign), 1):
        path = f"{judgements.removesuffix('.csv')}.judge-{number}.csv"
        files[path] = _judge_file(session, run, systems)
        entries.append(
            {"name": run.name, "spec": run.spec, "filename": run.filename, "scores": path}
        )
    return entries


def _judge_file(session: Session, run: JudgeRun, systems: Mapping[int, System]) -> bytes:
    stored = session.scalars(
        select(JudgeScore).where(JudgeScore.run_id == run.id).order_by(JudgeScore.id)
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(JUDGE_COLUMNS)
    for score in stored:
        writer.writerow(
            [score.item_key, *_subject(systems, score.system_id, score.is_reference),
             score.system_name, score.criterion, repr(score.score)]
        )  # fmt: skip
    return buffer.getvalue().encode()


# --- import ------------------------------------------------------------------------------------


def import_campaigns(
    session: Session,
    challenge: Challenge,
    entries: list[Any],
    read: Callable[[str, str], bytes],
    team_of: TeamOf,
    definition: str = "challenge.yaml",
) -> list[Campaign]:
    """The ``campaigns`` of a bundle's definition, checked and added to ``challenge`` (whose
    tracks and systems are already made); published ones wait for their results
    (``pending``: the caller enqueues their analysis once the import has committed)."""
    campaigns = []
    for index, entry in enumerate(entries):
        where = f"{definition}: {KEY}[{index}]"
        settings = _settings(entry, where)
        track = next((t for t in challenge.tracks if t.slug == settings["track"]), None)
        if track is None:
            raise CampaignBundleError(f"{where}.track: no track {settings['track']!r}")
        systems = _Systems(session, track, team_of)
        settings["imported"] = _board_import(settings["imported"], systems, where)
        campaign = _campaign(track, settings, where)
        session.add(campaign)
        session.flush()
        data = read(settings["judgements"], f"{KEY}[{index}].judgements")
        path = settings["judgements"]
        rows = _rows(data, path, (COLUMNS, EARLIER_COLUMNS))
        judgements = [_judgement(campaign, row, systems, path) for row in rows]
        _refuse_repeats(judgements, rows, path)
        session.add_all(judgements)
        session.flush()
        for number, judge in enumerate(settings["judges"] or []):
            _import_judge(session, campaign, judge, f"{KEY}[{index}].judges[{number}]",
                          definition, read, systems)  # fmt: skip
        if campaign.is_published:
            campaign.analysis = AnalysisStatus.PENDING
        campaigns.append(campaign)
    return campaigns


def _settings(entry: Any, where: str) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise CampaignBundleError(f"{where}: expected a mapping")
    unknown = sorted(set(map(str, entry)) - set(SETTINGS))
    if unknown:
        raise CampaignBundleError(
            f"{where}.{unknown[0]}: unknown key (known here: {', '.join(SETTINGS)})"
        )
    found: dict[str, Any] = {}
    for name, kind in SETTINGS.items():
        value = entry.get(name)
        if value is None and name in OPTIONAL:
            found[name] = None
            continue
        wrong = isinstance(value, bool) and kind is not bool
        if not isinstance(value, kind) or wrong:
            raise CampaignBundleError(
                f"{where}.{name}: expected {kind.__name__}, got {value!r}"
                if value is not None
                else f"{where}.{name}: missing"
            )
        found[name] = value
    return found


def _campaign(track: Track, settings: dict[str, Any], where: str) -> Campaign:
    method, criterion = settings["method"], settings["criterion"]
    try:
        protocol = protocol_of(method)
        clusters = cluster_procedure(protocol, settings["clusters"])
        options = campaign_options(protocol, settings["options"])
    except DomainError as error:
        raise CampaignBundleError(f"{where}: {error}") from None
    asked = [found.name for found in protocol.questions(options or {})]
    _check_criterion(method, criterion, asked, settings["imported"] is not None, where)
    if settings["hit_size"] < 1 or settings["annotators_per_hit"] < 1:
        raise CampaignBundleError(f"{where}: hit_size and annotators_per_hit are at least 1")
    try:
        controls = format_controls(quality_controls(settings["quality_control"]))
        name = check_name(settings["name"], "campaign name", 64)
    except DomainError as error:
        raise CampaignBundleError(f"{where}: {error}") from None
    if track.test_set_for(settings["language"]) is None:
        raise CampaignBundleError(
            f"{where}.language: track {track.slug!r} has no {settings['language']!r} test set"
        )
    return Campaign(
        track_id=track.id,
        language=settings["language"],
        name=name,
        method=method,
        criterion=criterion,
        quality_control=controls,
        clusters=clusters,
        options=options,
        show_input=settings["show_input"],
        show_reference=settings["show_reference"],
        hit_size=settings["hit_size"],
        annotators_per_hit=settings["annotators_per_hit"],
        is_open=False,
        is_published=settings["published"],
        imported=settings["imported"],
    )


def _check_criterion(
    method: str, criterion: str, criteria: list[str], imported: bool, where: str
) -> None:
    """A campaign collected on a board has one of the criteria it asks (``criteria``: its
    annotation pages and analysis are made for them); one imported from a file keeps the name
    the file gave (the board's import takes any), a text that fits the column."""
    if not imported and criterion not in criteria:
        raise CampaignBundleError(
            f"{where}.criterion: {criterion!r} is not a criterion of {method} (one of "
            f"{', '.join(criteria)}; a campaign whose judgements were imported from a "
            "file says so under imported:)"
        )
    if not criterion.strip() or len(criterion) > CRITERION_MAX:
        raise CampaignBundleError(
            f"{where}.criterion: give a name of 1 to {CRITERION_MAX} characters"
        )


def _rows(
    data: bytes, path: str, headers: tuple[tuple[str, ...], ...]
) -> list[tuple[int, dict[str, str]]]:
    """(line, row) of each judgement (or judge's score), under one of ``headers``, the first
    the current one; a row with more or fewer cells than the header is refused (a missing cell
    would be stored as nothing)."""
    try:
        reader = csv.DictReader(io.StringIO(data.decode("utf-8"), newline=""))
        if tuple(reader.fieldnames or ()) not in headers:
            raise CampaignBundleError(f"{path}: the header must be {','.join(headers[0])}")
        rows = []
        for row in reader:
            if None in row or None in row.values():
                raise CampaignBundleError(
                    f"{path} line {reader.line_num}: expected the header's "
                    f"{len(reader.fieldnames or ())} columns"
                )
            rows.append((reader.line_num, row))
        return rows
    except (UnicodeDecodeError, csv.Error) as error:
        raise CampaignBundleError(f"{path}: not a UTF-8 CSV file ({error})") from None


class _Systems:
    """The track's systems by team and name; a judged one the bundle does not hold is made."""

    def __init__(self, session: Session, track: Track, team_of: TeamOf):
        self.session, self.track, self.team_of = session, track, team_of
        self.teams: dict[str, Team] = {}
        self.known: dict[tuple[int | None, str], System] = {
            (system.team_id, system.name): system
            for system in session.scalars(select(System).where(System.track_id == track.id))
        }

    def get(self, team: str, name: str, where: str) -> System:
        chosen = self.team_of(team, where) if team else None
        key = (chosen.id if chosen else None, name)
        if key not in self.known:
            if not name.strip():
                raise CampaignBundleError(f"{where}: system is empty (the subject is a system)")
            if len(name) > SYSTEM_NAME_MAX:  # PostgreSQL would refuse it: a 500, not a line
                raise CampaignBundleError(
                    f"{where}: system is longer than {SYSTEM_NAME_MAX} characters ({name[:20]!r}...)"
                )
            system = System(track_id=self.track.id, team=chosen, name=name, is_primary=False)
            self.session.add(system)
            self.session.flush()
            self.known[key] = system
        return self.known[key]


def _judgement(
    campaign: Campaign, line: tuple[int, dict[str, str]], systems: _Systems, path: str
) -> Judgement:
    number, row = line
    here = f"{path} line {number}"
    subject = _subject_named(row, here)
    if row["kind"] not in DA_KINDS:
        raise CampaignBundleError(
            f"{here}: kind {row['kind']!r} is not one of {', '.join(DA_KINDS)}"
        )
    for column, limit in TEXT_MAX.items():
        if len(row[column]) > limit:
            raise CampaignBundleError(
                f"{here}: {column} is longer than {limit} characters ({row[column][:20]!r}...)"
            )
    if campaign.protocol.one_criterion and row["criterion"] != campaign.criterion:
        raise CampaignBundleError(
            f"{here}: criterion {row['criterion']!r} is not the campaign's "
            f"{campaign.criterion!r} (its analysis reads the judgements of its criterion)"
        )
    imported = campaign.imported is not None
    score = _score(row["score"], here, lambda found: campaign.protocol.score_error(found, imported))
    system = systems.get(row["team"], row["system"], here) if subject == SYSTEM else None
    return Judgement(
        campaign_id=campaign.id,
        unit_key=row["unit"],
        item_key=row["item"],
        system_name=row["judged_as"],
        system_id=system.id if system else None,
        is_reference=subject == REFERENCES,
        annotator=row["annotator"],
        criterion=row["criterion"],
        score=score,
        kind=row["kind"],
        subset=row["subset"],
        note=row.get("note") or None,
    )


def _subject_named(row: Mapping[str, str], here: str) -> str:
    subject = row["subject"]
    if subject not in (SYSTEM, REFERENCES, EXTERNAL):
        raise CampaignBundleError(
            f"{here}: subject {subject!r} is not system, references or external"
        )
    return subject


def _score(text: str, here: str, error_of: Callable[[float], str | None]) -> float:
    """A judgement's (or judge's) score: a finite number (NaN cannot be stored, infinities
    break the analysis) on its method's scale (``error_of``: the protocol's rule), as the
    board's own import reads one."""
    try:
        score = float(text)
    except ValueError:
        raise CampaignBundleError(f"{here}: score {text!r} is not a number") from None
    if not math.isfinite(score):
        raise CampaignBundleError(f"{here}: score {text!r} is not a finite number")
    error = error_of(score)
    if error:
        raise CampaignBundleError(f"{here}: score {text!r}{error}")
    return score


def _refuse_repeats(
    judgements: list[Judgement], rows: list[tuple[int, dict[str, str]]], path: str
) -> None:
    """One score per annotator, output and criterion in a unit (the table's unique key),
    refused naming both lines rather than left to the database."""
    seen: dict[tuple, int] = {}
    for j, (number, _) in zip(judgements, rows, strict=True):
        key = (j.unit_key, j.system_name, j.is_reference, j.annotator, j.criterion)
        if key in seen:
            raise CampaignBundleError(
                f"{path} line {number}: annotator {j.annotator!r} scores "
                f"{j.system_name!r} in unit {j.unit_key!r} again (first on line {seen[key]})"
            )
        seen[key] = number


def _import_judge(
    session: Session,
    campaign: Campaign,
    entry: Any,
    key: str,
    definition: str,
    read: Callable[[str, str], bytes],
    systems: _Systems,
) -> None:
    """One judge's run of a bundle's campaign, checked as the board's own judge import checks
    one (``human_judges``: its name, a campaign it can be set beside, its spec; each score on
    the campaign's protocol's scale) and each output scored once; stored with the campaign, its
    comparison waiting for the campaign's analysis (``NOT_COMPARED`` until then)."""
    where = f"{definition}: {key}"
    settings = _judge_settings(entry, where)
    try:
        check_judged(campaign)
        name = judge_name(settings["name"])
    except DomainError as error:
        raise CampaignBundleError(f"{where}: {error}") from None
    try:
        spec = JudgeSpec.parse(settings["spec"], f"{where}.spec")
    except InputError as error:
        raise CampaignBundleError(str(error)) from None
    if len(settings["filename"]) > FILENAME_MAX:
        raise CampaignBundleError(f"{where}.filename: longer than {FILENAME_MAX} characters")
    taken = select(JudgeRun.id).where(JudgeRun.campaign_id == campaign.id, JudgeRun.name == name)
    if session.scalar(taken) is not None:
        raise CampaignBundleError(
            f"{where}.name: campaign {campaign.name!r} has two judges {name!r}"
        )
    path = settings["scores"]
    rows = _rows(read(path, f"{key}.scores"), path, (JUDGE_COLUMNS,))
    scores = _judge_scores(campaign, rows, systems, path)
    run = JudgeRun(campaign_id=campaign.id, name=name, spec=spec.to_dict(),
                   filename=settings["filename"], comparison_error=NOT_COMPARED)  # fmt: skip
    session.add(run)
    session.flush()
    for score in scores:
        score.run_id = run.id
    session.add_all(scores)
    session.flush()


def _judge_settings(entry: Any, where: str) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise CampaignBundleError(f"{where}: expected a mapping")
    unknown = sorted(set(map(str, entry)) - set(JUDGE_SETTINGS))
    if unknown:
        raise CampaignBundleError(
            f"{where}.{unknown[0]}: unknown key (known here: {', '.join(JUDGE_SETTINGS)})"
        )
    for name, kind in JUDGE_SETTINGS.items():
        value = entry.get(name)
        if not isinstance(value, kind):
            raise CampaignBundleError(
                f"{where}.{name}: expected {kind.__name__}, got {value!r}"
                if value is not None
                else f"{where}.{name}: missing"
            )
    return dict(entry)


def _judge_scores(
    campaign: Campaign, rows: list[tuple[int, dict[str, str]]], systems: _Systems, path: str
) -> list[JudgeScore]:
    """A judge's scores file: what was scored named as a judgement names it, an item given,
    of the campaign's criterion (the only one the board's import keeps), a score the judge's
    import would store (``Protocol.judge_score_error``), each output once; a file with none is
    refused, as the board's import refuses one."""
    if not rows:
        raise CampaignBundleError(f"{path}: holds no scores for {campaign.criterion!r}")
    scores = []
    seen: dict[tuple[str, str, bool], int] = {}
    for number, row in rows:
        here = f"{path} line {number}"
        subject = _subject_named(row, here)
        if not row["item"].strip():
            raise CampaignBundleError(f"{here}: empty item")
        for column in ("item", "judged_as"):
            if len(row[column]) > TEXT_MAX[column]:
                raise CampaignBundleError(
                    f"{here}: {column} is longer than {TEXT_MAX[column]} characters "
                    f"({row[column][:20]!r}...)"
                )
        if row["criterion"] != campaign.criterion:
            raise CampaignBundleError(
                f"{here}: criterion {row['criterion']!r} is not the campaign's "
                f"{campaign.criterion!r} (a judge is compared on the campaign's criterion)"
            )
        score = _score(row["score"], here, campaign.protocol.judge_score_error)
        key = (row["item"], row["judged_as"], subject == REFERENCES)
        if key in seen:
            raise CampaignBundleError(
                f"{here}: the judge scores {row['judged_as']!r} on item {row['item']!r} again "
                f"(first on line {seen[key]})"
            )
        seen[key] = number
        system = systems.get(row["team"], row["system"], here) if subject == SYSTEM else None
        scores.append(JudgeScore(item_key=row["item"], system_name=row["judged_as"],
                                 system_id=system.id if system else None,
                                 is_reference=subject == REFERENCES, criterion=row["criterion"],
                                 score=score))  # fmt: skip
    return scores
