"""Exports (CSV, JSON, LaTeX), plots and significance groups: the papers' layouts, the
signatures, and anonymity that holds whoever downloads them."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import TEST, System
from app.data.models import TestSet as StoredTestSet
from app.web.services.plots import STYLE
from app.web.services.rank_groups import p_value, rank_groups, resample
from scorer.compare.significance import paired_bootstrap
from scorer.kinds import get_profile
from tests.support.board import TRACK, set_track, upload
from tests.support.factories import login, run_queue

FILES = [f"{TRACK}/export.csv", f"{TRACK}/export.json", f"{TRACK}/export.tex"]
PLOTS = [
    f"{TRACK}/plots/bars.svg",
    f"{TRACK}/plots/bars.svg?metric=BLEU",
    f"{TRACK}/plots/dlevel.svg",
]


def anonymise_quokka(client) -> None:
    login(client, "b@x.org")
    client.post("/systems/2/anonymous", follow_redirects=True)
    client.post("/logout")


def test_exports_carry_scores_and_signatures(client, two_teams):
    table = json.loads(client.get(FILES[1]).data)
    assert [row["system"] for row in table["rows"]] == ["marlin", "quokka"]
    assert table["signatures"]["BLEU"][0].startswith("BLEU|mteval-v13a")
    rows = list(csv.DictReader(io.StringIO(client.get(FILES[0]).data.decode())))
    assert [row["system"] for row in rows] == ["marlin", "quokka"]
    assert rows[0]["BLEU signature"].startswith("BLEU|mteval-v13a")
    tex = client.get(FILES[2]).data.decode()
    assert "% BLEU: BLEU|mteval-v13a" in tex and r"\begin{tabular}" in tex
    assert r"ROUGE\_L" in tex


def test_csv_export_is_plain_csv_that_pandas_reads(client, two_teams):
    """One header row, then one row per system, every row as wide as the header: no ``#``
    comment lines (``pandas.read_csv(url)`` failed on them); signatures in their own columns."""
    text = client.get(FILES[0]).data.decode()
    records = list(csv.reader(io.StringIO(text)))
    header, body = records[0], records[1:]
    assert not text.startswith("#") and len(body) == 2
    assert all(len(record) == len(header) for record in body)
    assert header[:4] == ["challenge", "track", "language", "phase"]
    metrics = json.loads(client.get(FILES[1]).data)["metrics"]
    assert header[-len(metrics) - 1 : -1] == [f"{m} signature" for m in metrics]
    first = dict(zip(header, body[0], strict=True))
    assert (first["challenge"], first["track"], first["phase"]) == ("demo", "main", "development")
    assert float(first["norm_avg"]) > 0 and first["CIDEr signature"].startswith("CIDEr|coco")


def test_anonymity_holds_in_every_export_and_plot_even_for_organisers(client, settings, two_teams):
    anonymise_quokka(client)
    for email in (None, "org@x.org"):
        if email:
            login(client, email)
        for url in FILES + PLOTS:
            response = client.get(url)
            assert response.status_code == 200, url
            body = response.data.decode()
            assert "quokka" not in body and "anonymous" in body, (email, url)
    login(client, "org@x.org")
    assert "quokka" in client.get(TRACK).data.decode()  # the organisers' page still names it


def test_withdrawn_rows_are_left_out_of_exports(client, two_teams):
    login(client, "b@x.org")
    client.post("/submissions/2/withdraw", follow_redirects=True)
    login(client, "org@x.org")
    for url in FILES:
        assert "quokka" not in client.get(url).data.decode(), url


def test_test_phase_exports_are_empty_for_the_public_until_published(client, settings, two_teams):
    set_track(settings, phase=TEST)
    assert json.loads(client.get(FILES[1]).data)["rows"] == []
    assert client.get(PLOTS[0]).status_code == 404
    set_track(settings, is_published=True)
    assert len(json.loads(client.get(FILES[1]).data)["rows"]) == 2


def test_latex_puts_the_baseline_first_and_bolds_what_beats_it(app, client, settings):
    from tests.support.factories import GOOD_OUTPUT, demo_track, organiser, participant

    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    token = participant(settings, "a@x.org", team="A&B_lab")
    login(client, "org@x.org")
    weak = b"\n".join(b"a place" for _ in range(10)) + b"\n"
    client.post(
        "/organise/demo/tracks/main/baselines",
        data={
            "baseline-name": "Weak #1",
            "baseline-file": (__import__("io").BytesIO(weak), "b.txt"),
        },
        content_type="multipart/form-data",
    )
    upload(client, token, "strong", GOOD_OUTPUT)
    run_queue(app)
    tex = client.get(FILES[2]).data.decode()
    body = [line for line in tex.splitlines() if line.endswith(r"\\")]
    assert body[0].startswith("Rank & Group & System & ")
    assert body[1].startswith(r"2 & 2 & \textsc{Weak \#1}")  # the baseline first, in its place
    assert body[2].startswith(r"1 & 1 & A\&B\_lab / strong & ") and r"\textbf{" in body[2]
    page = client.get(TRACK).data.decode()
    assert 'title="better than the baseline"' in page


def test_plots_are_svg_cached_by_their_data(client, settings, two_teams):
    first = client.get(PLOTS[0])
    assert first.mimetype == "image/svg+xml" and first.data.startswith(b"<?xml")
    cached = list((settings.instance_path / "cache" / STYLE).iterdir())
    assert client.get(PLOTS[0]).data == first.data
    assert list((settings.instance_path / "cache" / STYLE).iterdir()) == cached
    anonymise_quokka(client)
    assert client.get(PLOTS[0]).data != first.data  # new labels: drawn again
    assert len(list((settings.instance_path / "cache" / STYLE).iterdir())) == len(cached) + 1


def test_similarity_heatmap_from_the_stored_matrix_relabels_anonymous_systems(
    client, settings, two_teams
):
    assert client.get(f"{TRACK}/plots/similarity.svg").status_code == 404
    with session_scope(settings.database_url) as session:
        test_set = session.get(StoredTestSet, 1)
        ids = dict(session.execute(select(System.name, System.id)).all())
        marlin, quokka = ids["marlin"], ids["quokka"]
        test_set.similarity = {
            "rows": ["test set all", marlin, quokka],
            "tested": [marlin, quokka],
            "values": [[0.6, 0.2], [None, 0.3], [0.3, None]],
        }
    anonymise_quokka(client)
    svg = client.get(f"{TRACK}/plots/similarity.svg").data.decode()
    assert "quokka" not in svg and "anonymous" in svg and "marlin" in svg
    set_track(settings, phase=TEST)
    assert client.get(f"{TRACK}/plots/similarity.svg").status_code == 404


def dist_statistics(errors: np.ndarray) -> dict[str, np.ndarray]:
    """DIST's per-item statistics: (token edit distance, max length) with 10 tokens per item."""
    return {"DIST": np.column_stack([errors, np.full(len(errors), 10.0)])}


def test_rank_groups_tie_systems_the_bootstrap_cannot_separate():
    profile = get_profile("sr18")
    rng = np.random.default_rng(0)
    strong = rng.integers(0, 3, 400).astype(float)
    close = strong.copy()
    close[:3] += 1  # 3 more edits in 4,000 tokens
    weak = rng.integers(2, 6, 400).astype(float)
    statistics = {1: dist_statistics(strong), 2: dist_statistics(close), 3: dist_statistics(weak)}
    resampled = {k: resample(profile, v, "DIST") for k, v in statistics.items()}
    assert rank_groups([1, 2, 3], resampled) == {1: 1, 2: 1, 3: 2}
    assert rank_groups([3, 1], resampled) == {3: 1, 1: 2}


def test_shared_resamples_give_paired_bootstraps_p_values():
    profile = get_profile("sr18")
    rng = np.random.default_rng(1)
    a = dist_statistics(rng.integers(0, 4, 200).astype(float))
    b = dist_statistics(rng.integers(0, 5, 200).astype(float))
    (expected,) = [c for c in paired_bootstrap(profile, a, b) if c.metric == "DIST"]
    got = p_value(resample(profile, a, "DIST"), resample(profile, b, "DIST"))
    assert got == expected.p_value
    low, high = resample(profile, a, "DIST").interval
    assert low < profile.scores_from_statistics(a)["DIST"] < high


def test_a_system_name_with_mathtext_does_not_break_the_plots(app, client, settings, two_teams):
    """Finding 2: a participant's system named like TeX math made every plot of the track 500."""
    from scorer.human.heatmap import heatmap_svg
    from tests.support.factories import participant

    token = participant(settings, "c@x.org", team="C")
    assert upload(client, token, "$\\foo{$").status_code == 202
    run_queue(app)
    for plot in PLOTS[:2]:
        page = client.get(plot)
        assert page.status_code == 200 and b"foo" in page.data
    svg = heatmap_svg(["$\\foo{$", "b"], np.full((2, 2), 0.5))
    assert "foo" in svg
