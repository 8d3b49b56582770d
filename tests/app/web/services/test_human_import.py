"""Imported judgements reach systems only through a mapping the organiser confirms (issue 34,
point 4): a preview lists matched, ambiguous and unmatched names, on the CLI and the web; an
anonymised system named in the file never shows under that name to anyone else."""

from __future__ import annotations

import io
import json
import re

import pytest
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import AuditEvent, Campaign, Judgement, System
from app.web.services.human_import import AMBIGUOUS, MATCHED, UNMATCHED, read_import
from app.web.services.tracks import get_track
from tests.support.factories import login, scored_system
from tests.support.human import human_board

TRACK = "/challenges/demo/tracks/main"
#: alpha: exact; Gamma: gamma but for case; DELTA: delta and Delta; epsilon: no system.
RANKINGS = [
    ("alpha", 90, "Gamma", 40, "epsilon", 70, "DELTA", 20),
    ("alpha", 80, "Gamma", 30, "epsilon", 60, "DELTA", 10),
    ("alpha", 95, "Gamma", 50, "epsilon", 75, "DELTA", 5),
    ("alpha", 85, "Gamma", 35, "epsilon", 65, "DELTA", 15),
]


def judgements_file() -> bytes:
    lines = ["item,system,annotator,criterion,score,unit"]
    for number, ranking in enumerate(RANKINGS):
        for name, score in zip(ranking[::2], ranking[1::2], strict=True):
            lines.append(f"{number + 1},{name},ann{number % 2},quality,{score},u{number}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def board(app, settings, tmp_path):
    human_board(settings)
    with session_scope(settings.database_url) as session:
        for name in ("delta", "Delta"):
            scored_system(session, "demo", "main", name, {"BLEU": 0.2, "NIST": 2.0})
        ids = {s.name: s.id for s in session.scalars(select(System))}
    path = tmp_path / "ratings.csv"
    path.write_bytes(judgements_file())
    return ids, path


def stored(settings) -> tuple[int, int]:
    with session_scope(settings.database_url) as session:
        return (
            session.scalar(select(func.count()).select_from(Campaign)),
            session.scalar(select(func.count()).select_from(Judgement)),
        )


def test_the_preview_lists_matched_ambiguous_and_unmatched_names(settings, board):
    ids, path = board
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        read = read_import(session, track, "rankme", "quality", path.read_bytes(), path.name)
    found = {m.name: (m.status, m.candidates, m.judgements) for m in read.names}
    assert found == {
        "alpha": (MATCHED, ((ids["alpha"], "alpha"),), 4),
        "Gamma": (AMBIGUOUS, ((ids["gamma"], "gamma"),), 4),
        "DELTA": (AMBIGUOUS, ((ids["delta"], "delta"), (ids["Delta"], "Delta")), 4),
        "epsilon": (UNMATCHED, (), 4),
    }
    assert stored(settings) == (0, 0)


def cli_import(runner, path, *options):
    return runner.invoke(
        args=["human", "import", "demo", "main", "imported", "--method", "rankme",
              "--criterion", "quality", "--file", str(path), *options]
    )  # fmt: skip


def test_the_cli_stores_nothing_until_every_name_is_mapped(app, settings, board):
    ids, path = board
    runner = app.test_cli_runner()
    refused = cli_import(runner, path)
    assert refused.exit_code == 1
    assert re.search(r"matched\s+'alpha': 4 judgements; system alpha \(id \d+\)", refused.output)
    assert re.search(r"ambiguous\s+'DELTA': 4 judgements; system delta", refused.output)
    assert re.search(r"unmatched\s+'epsilon': 4 judgements\n", refused.output)
    assert (
        "not mapped to a system yet: 'alpha' (matched, lines 2, 6, 10, 14); "
        "'DELTA' (ambiguous, lines 5, 9, 13, 17); 'epsilon' (unmatched, lines 4, 8, 12, 16); "
        "'Gamma' (ambiguous, lines 3, 7, 11, 15); nothing was stored"
    ) in refused.output
    assert "--confirm" in refused.output and "--map NAME=SYSTEM_ID" in refused.output
    confirmed_only = cli_import(runner, path, "--confirm", "--unmatched-external")
    assert (
        confirmed_only.exit_code == 1
        and "'alpha'" not in confirmed_only.output.split("not mapped")[1]
    )
    for bad, says in (
        (["--map", "Gamma=external"], "'Gamma' cannot be external: this track has gamma"),
        (["--map", "Gamma=99999"], "track 'main' has no system with id 99999"),
        (["--map", "nosuch=1"], "the file has no system named 'nosuch'"),
        (["--map", "Gamma=gamma"], "'gamma' is not a system id, 'references' or 'external'"),
    ):
        maps = ["--map", f"DELTA={ids['Delta']}", "--map", f"Gamma={ids['gamma']}"]
        result = cli_import(runner, path, "--confirm", "--unmatched-external", *maps, *bad)
        assert result.exit_code == 1 and says in result.output, (bad, result.output)
        assert stored(settings) == (0, 0)
    result = cli_import(
        runner, path, "--confirm", "--map", f"Gamma={ids['gamma']}",
        "--map", f"DELTA={ids['Delta']}", "--map", "epsilon=external",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "imported 16 judgements into imported" in result.output
    with session_scope(settings.database_url) as session:
        mapped = {
            (j.system_name, j.system_id, j.is_reference) for j in session.scalars(select(Judgement))
        }
        notes = session.scalar(select(Campaign)).imported
    assert mapped == {
        ("alpha", ids["alpha"], False),
        ("Gamma", ids["gamma"], False),
        ("DELTA", ids["Delta"], False),
        ("epsilon", None, False),
    }
    assert notes["mapping"] == {
        "DELTA": str(ids["Delta"]), "Gamma": str(ids["gamma"]), "alpha": str(ids["alpha"]),
        "epsilon": "external",
    }  # fmt: skip


def test_an_anonymised_system_named_in_an_imported_file_stays_anonymous(app, settings, board):
    """Point 2: the import kept the file's "Gamma" and matched its scores case-insensitively,
    so the public table showed the anonymised gamma under its real name beside the numbers
    the leaderboard showed as "anonymous"."""
    ids, path = board
    with session_scope(settings.database_url) as session:
        session.get(System, ids["gamma"]).is_anonymous = True
    runner = app.test_cli_runner()
    result = cli_import(
        runner, path, "--confirm", "--unmatched-external",
        "--map", f"Gamma={ids['gamma']}", "--map", f"DELTA={ids['Delta']}",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    analysed = runner.invoke(args=["human", "analyse", "demo", "main", "imported", "--publish"])
    assert analysed.exit_code == 0, analysed.output
    public = app.test_client()
    page = public.get(TRACK).get_data(as_text=True)
    section = page[page.index('id="human-evaluation"') :]
    assert "<td>anonymous</td>" in section and "<td>epsilon</td>" in section
    assert "0.4321" in section  # gamma's BLEU, beside its human score, as "anonymous"
    files = [
        public.get(f"{TRACK}/plots/human-imported.svg?metric=BLEU"),
        public.get(f"{TRACK}/export.csv?all=1"),
        public.get(f"{TRACK}/export.json?all=1"),
        public.get(f"{TRACK}/export.tex?all=1"),
        *(public.get(f"{TRACK}/human-imported.{fmt}") for fmt in ("csv", "json", "tex")),
    ]
    assert [f.status_code for f in files] == [200] * 7
    for body in [page, *(f.get_data(as_text=True) for f in files)]:
        assert "gamma" not in body.casefold()
        assert "C / " not in body  # an anonymised system's team is not shown either
    assert b"anonymous" in files[0].data
    staff = app.test_client()
    login(staff, "org@x.org")
    assert "<td>C / gamma</td>" in staff.get(TRACK).get_data(as_text=True)


def web_preview(client, path):
    return client.post(
        f"{TRACK}/human/import",
        data={
            "import-name": "imported",
            "import-method": "rankme",
            "import-criterion": "quality",
            "import-file": (io.BytesIO(path.read_bytes()), "ratings.csv"),
        },
        content_type="multipart/form-data",
    )


def test_the_web_import_previews_then_stores_the_confirmed_mapping(app, settings, board):
    ids, path = board
    staff = app.test_client()
    login(staff, "org@x.org")
    preview = web_preview(staff, path)
    html = preview.get_data(as_text=True)
    assert preview.status_code == 200 and stored(settings) == (0, 0)
    rows = {
        name: row
        for name, row in re.findall(r"<tr class=\"[a-z-]+\"><td>([^<]+)</td>(.*?)</tr>", html, re.S)
    }
    assert set(rows) == {"alpha", "DELTA", "Gamma", "epsilon"}
    assert "ambiguous: delta (id" in rows["DELTA"] and "Delta (id" in rows["DELTA"]
    assert f'value="{ids["alpha"]}" selected' in rows["alpha"]
    assert "selected" not in rows["Gamma"] and 'value="external"' not in rows["Gamma"]
    assert 'value="external"' in rows["epsilon"]
    token = re.search(r'name="preview" value="([^"]+)"', html).group(1)
    fields = {re.search(r'name="(map-\d+)"', row).group(1): name for name, row in rows.items()}
    choice = {"alpha": ids["alpha"], "DELTA": ids["delta"], "Gamma": ids["gamma"]}
    partial = {field: str(choice[name]) for field, name in fields.items() if name in choice}
    refused = staff.post(f"{TRACK}/human/import/confirm", data={"preview": token, **partial})
    assert refused.status_code == 400
    assert (
        "not mapped to a system yet: &#39;epsilon&#39; (unmatched, lines 4, 8"
        in refused.get_data(as_text=True)
    )
    assert stored(settings) == (0, 0)
    stranger = app.test_client()
    login(stranger, "a@x.org")
    assert (
        stranger.post(f"{TRACK}/human/import/confirm", data={"preview": token}).status_code == 404
    )
    forged = staff.post(f"{TRACK}/human/import/confirm", data={"preview": token + "x", **partial})
    assert forged.status_code == 302 and stored(settings) == (0, 0)
    complete = {**partial, **{f: "external" for f, name in fields.items() if name == "epsilon"}}
    done = staff.post(f"{TRACK}/human/import/confirm", data={"preview": token, **complete})
    assert done.status_code == 302 and done.location.endswith("/human/imported")
    assert stored(settings) == (1, 16)
    with session_scope(settings.database_url) as session:
        by_name = {j.system_name: j.system_id for j in session.scalars(select(Judgement))}
        event = session.scalar(select(AuditEvent).where(AuditEvent.action == "human import"))
    assert by_name == {"alpha": ids["alpha"], "DELTA": ids["delta"], "Gamma": ids["gamma"],
                       "epsilon": None}  # fmt: skip
    assert (
        json.dumps(event.details["mapping"]) and event.details["mapping"]["epsilon"] == "external"
    )


@pytest.mark.parametrize("target", ["²", "¹²", "①", "-1", "1.0", "", "9" * 30])
def test_a_mapping_that_is_no_system_id_is_refused_not_500(app, settings, board, target):
    """``"²".isdigit()`` is true but ``int("²")`` fails: the confirmation answered HTTP 500."""
    _, path = board
    staff = app.test_client()
    login(staff, "org@x.org")
    html = web_preview(staff, path).get_data(as_text=True)
    token = re.search(r'name="preview" value="([^"]+)"', html).group(1)
    fields = {f"map-{k}": target or "external" for k in range(4)}
    answer = staff.post(f"{TRACK}/human/import/confirm", data={"preview": token, **fields})
    assert answer.status_code == 400
    assert stored(settings) == (0, 0)


def test_names_are_matched_within_the_files_team_or_by_system_id(app, settings, board):
    """WebNLG+ 2020: fourteen teams called their system "primary"; a team column (or the
    board's system id) tells them apart, and a row matching none is listed with its line."""
    with session_scope(settings.database_url) as session:
        for team in ("Amazon AI", "OSU Neural NLG"):
            scored_system(session, "demo", "main", "primary", {"BLEU": 0.3}, team=team)
        ids = {
            (s.team.name if s.team else None, s.name): s.id
            for s in session.scalars(select(System).where(System.name == "primary"))
        }
    rows = [
        "item,system,team,system_id,annotator,criterion,score",
        "1,primary,Amazon AI,,a,fluency,90",
        "1,primary,OSU Neural NLG,,a,fluency,60",
        f"1,primary,,{ids[('OSU Neural NLG', 'primary')]},b,fluency,70",
        "1,primary,Nobody,,b,fluency,20",
    ]
    data = ("\n".join(rows) + "\n").encode()
    with session_scope(settings.database_url) as session:
        read = read_import(session, get_track(session, "demo", "main"), "da", "fluency", data,
                           "webnlg.csv")  # fmt: skip
    found = {match.name: (match.status, match.proposed, match.lines) for match in read.names}
    assert found == {
        "Amazon AI / primary": (MATCHED, ids[("Amazon AI", "primary")], (2,)),
        "OSU Neural NLG / primary": (MATCHED, ids[("OSU Neural NLG", "primary")], (3,)),
        f"primary [id {ids[('OSU Neural NLG', 'primary')]}]": (
            MATCHED, ids[("OSU Neural NLG", "primary")], (4,)
        ),
        "Nobody / primary": (UNMATCHED, None, (5,)),
    }  # fmt: skip
    file = board[1].parent / "webnlg.csv"
    file.write_bytes(data)
    command = ["human", "import", "demo", "main", "w", "--method", "da", "--criterion", "fluency",
               "--file", str(file), "--confirm"]  # fmt: skip
    refused = app.test_cli_runner().invoke(args=command)
    assert refused.exit_code != 0
    assert "not mapped to a system yet: 'Nobody / primary' (unmatched, line 5)" in refused.output
    assert stored(settings) == (0, 0)
    result = app.test_cli_runner().invoke(args=[*command, "--unmatched-external"])
    assert result.exit_code == 0, result.output
    with session_scope(settings.database_url) as session:
        judged = {(j.annotator, j.score): j.system_id for j in session.scalars(select(Judgement))}
    assert judged == {
        ("a", 90): ids[("Amazon AI", "primary")],
        ("a", 60): ids[("OSU Neural NLG", "primary")],
        ("b", 70): ids[("OSU Neural NLG", "primary")],
        ("b", 20): None,
    }


def test_the_leaderboard_shows_the_system_ids_imports_match(app, settings, board):
    ids, _ = board
    page = app.test_client().get(TRACK).get_data(as_text=True)
    assert f"id {ids['alpha']}</span>" in page
    rows = app.test_client().get(f"/api/v1{TRACK}/leaderboard").json["rows"]
    assert {row["system"]: row["system_id"] for row in rows}["alpha"] == ids["alpha"]
