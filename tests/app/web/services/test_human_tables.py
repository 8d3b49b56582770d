"""The human page as the paper prints it (issue 48, item 2): on a WebNLG+ 2020-like board where
every team calls its system "primary", each system is named "team / system" in the human table,
the API, the exports, the scatter plot and the significance heatmap; the automatic metrics
beside are printed as the kind declares (BLEU 0.540, not 53.9787), and a metric no system has
(BERTScore, BLEURT) is no column."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import System, Team
from tests.support.human import WEBNLG2020_TRACK, webnlg2020_board

TRACK = WEBNLG2020_TRACK
API = "/api/v1/challenges/webnlg2020/tracks/en/human"
LABELS = ["HUMAN", "A / primary", "B / primary", "C / primary"]
"""The DA ranking: the references (their reserved label), then the teams' systems."""
ABSENT = ("BERTScore-P", "BERTScore-R", "BERTScore-F1", "BLEURT")


@pytest.fixture
def board(app, settings, runner, tmp_path):
    webnlg2020_board(settings, runner, tmp_path)


def human_table(page: str) -> str:
    section = page[page.index('id="human-evaluation"') :]
    return section[section.index('<table class="human">') : section.index("</table>")]


def cells(table: str) -> list[list[str]]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S) for row in rows]


def test_the_table_names_each_system_by_team_and_prints_the_metrics_as_the_kind(app, board):
    header, *rows = cells(human_table(app.test_client().get(TRACK).get_data(as_text=True)))
    assert header == ["System", "#", "%", "z", "n", "Assess.", "BLEU", "chrF++", "METEOR", "TER"]
    assert [row[0].split(" <span")[0] for row in rows] == LABELS
    by_label = {row[0]: row[6:] for row in rows}
    assert by_label["A / primary"] == ["0.540", "0.691", "0.416", "0.404"]
    assert by_label["B / primary"] == ["0.512", "0.673", "0.400", "0.422"]
    assert by_label[LABELS[0] + ' <span class="tag">references</span>'] == ["–"] * 4


def test_the_api_rows_carry_team_system_id_label_and_printed_scores(app, settings, board):
    (campaign,) = app.test_client().get(API).json["campaigns"]
    assert campaign["metrics"] == ["BLEU", "chrF++", "METEOR", "TER"]
    assert campaign["printing"]["BLEU"] == "rounded to 3 decimals x 0.01"
    with session_scope(settings.database_url) as session:
        ids = {
            team: system_id
            for team, system_id in session.execute(
                select(Team.name, System.id).join(System.team).where(System.name == "primary")
            )
        }
    rows = campaign["rows"]
    assert [row["label"] for row in rows] == LABELS
    assert [(row["team"], row["system"], row["system_id"]) for row in rows] == [
        (None, "HUMAN", None),
        *((team, "primary", ids[team]) for team in "ABC"),
    ]
    assert rows[0]["references"] is True and rows[0]["scores"] == {} == rows[0]["printed"]
    assert rows[1]["scores"]["BLEU"] == 53.9787 and rows[1]["printed"]["BLEU"] == "0.540"
    assert rows[2]["printed"] == {"BLEU": "0.512", "chrF++": "0.673", "METEOR": "0.400",
                                  "TER": "0.422"}  # fmt: skip
    assert campaign["correlation"]["systems"] == LABELS[1:]


def test_the_exports_write_the_same_rows(app, board):
    client = app.test_client()
    page = client.get(TRACK).get_data(as_text=True)
    for fmt in ("csv", "json", "tex"):
        assert f'href="{TRACK}/human-readability.{fmt}"' in page
    answers = {
        fmt: client.get(f"{TRACK}/human-readability.{fmt}") for fmt in ("csv", "json", "tex")
    }
    assert [answer.status_code for answer in answers.values()] == [200, 200, 200]
    table = list(csv.DictReader(io.StringIO(answers["csv"].get_data(as_text=True))))
    assert [row["label"] for row in table] == LABELS
    assert [row["team"] for row in table] == ["", "A", "B", "C"]
    assert (table[1]["BLEU"], table[1]["BLEU printed"]) == ("53.9787", "0.540")
    assert table[0]["references"] == "True" and table[0]["BLEU printed"] == ""
    exported = json.loads(answers["json"].data)
    assert exported["challenge"] == "webnlg2020" and exported["track"] == "en"
    assert exported["rows"] == client.get(API).json["campaigns"][0]["rows"]
    latex = answers["tex"].get_data(as_text=True)
    assert "System & \\# & \\% & z & n & Assess. & BLEU & chrF++ & METEOR & TER \\\\" in latex
    assert re.search(r"^A / primary & .* & 0\.540 & 0\.691 & 0\.416 & 0\.404 \\\\$", latex, re.M)
    assert re.search(r"^HUMAN & .* & -- & -- & -- & -- \\\\$", latex, re.M)
    assert "% BLEU printed rounded to 3 decimals x 0.01" in latex
    assert "53.9787" not in latex
    for answer in answers.values():
        assert not any(metric.encode() in answer.data for metric in ABSENT)


def test_no_column_for_a_metric_no_system_has(app, board):
    table = human_table(app.test_client().get(TRACK).get_data(as_text=True))
    assert not any(metric in table for metric in ABSENT)
    (campaign,) = app.test_client().get(API).json["campaigns"]
    assert not any(metric in row["scores"] for row in campaign["rows"] for metric in ABSENT)


def test_the_scatter_plot_and_the_heatmap_name_team_and_system(app, board, monkeypatch):
    drawn = {}

    def scatter(metric, human, labels, x, y):
        drawn["scatter"] = dict(zip(labels, x, strict=True))
        return b"<svg/>"

    def heatmap(labels, p_values, criterion):
        drawn["heatmap"] = list(labels)
        return "<svg/>"

    monkeypatch.setattr("app.web.exports.human_scatter", scatter)
    monkeypatch.setattr("app.web.human.heatmap_svg", heatmap)
    client = app.test_client()
    assert client.get(f"{TRACK}/plots/human-readability.svg?metric=BLEU").status_code == 200
    assert client.get(f"{TRACK}/human/readability/heatmap.svg").status_code == 200
    assert list(drawn["scatter"]) == LABELS[1:]
    assert drawn["scatter"]["A / primary"] == pytest.approx(0.539787)  # the tables' scale
    assert drawn["heatmap"] == LABELS


def test_an_anonymised_system_stays_anonymous_without_its_team(app, settings, board):
    with session_scope(settings.database_url) as session:
        system = session.scalar(select(System).join(System.team).where(Team.name == "B"))
        system.is_anonymous = True
    client = app.test_client()
    rows = client.get(API).json["campaigns"][0]["rows"]
    assert [(row["team"], row["system"], row["label"]) for row in rows[2:3]] == [
        (None, "anonymous", "anonymous")
    ]
    table = human_table(client.get(TRACK).get_data(as_text=True))
    assert "<td>anonymous</td>" in table and "B / " not in table
    for fmt in ("csv", "json", "tex"):
        body = client.get(f"{TRACK}/human-readability.{fmt}").get_data(as_text=True)
        assert "anonymous" in body and "B / " not in body and ',"B",' not in body, fmt
