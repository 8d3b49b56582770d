"""SR'18 tracks in the app: import per language, uploads per file or zip, per-language boards and
the overview matrix (SR'18 paper Tables 3-5)."""

import io
import zipfile
from datetime import datetime

import pytest
from sqlalchemy import func, select

from app.data import models
from app.data.db import session_scope
from app.data.models import Score, Submission, Track
from scorer.io.sr18 import read_sentences
from tests.support.factories import SR18_REFS, participant, run_queue, sr18_tracks
from tests.support.paths import sr18_file
from tests.support.tracks import DEEP_INPUTS, SHALLOW, SHALLOW_INPUTS, post
from tests.support.tracks import SR18_DEV_SIZES as DEV_SIZES

EN_OUT = b"# sent_id = 1\n# text = The chef cooks fresh pasta .\n\n" + b"".join(
    f"# text = {s}\n\n".encode()
    for s in ("Our cat sleeps on the sofa .", "Visitors liked the old bridge .", "rained all day .")
)
FR_OUT = b"Le chat dort .\nMarie lit un livre .\nIl pleut .\n"


def make_zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def count(settings, model) -> int:
    with session_scope(settings.database_url) as session:
        return session.scalar(select(func.count()).select_from(model))


@pytest.mark.slow
def test_real_dev_files_of_every_language_import_with_table_2_sizes(runner, settings):
    sr18_file("Sentences/en-ud-dev_sentences.txt")
    assert runner.invoke(args=["challenge", "create", "sr18", "--title", "SR'18"]).exit_code == 0
    imports = [
        ("shallow", "sr-shallow", lang, f"T1-input/{lang}-ud-dev.conll") for lang in SHALLOW_INPUTS
    ]
    imports += [
        ("deep", "sr-deep", lang, f"T2-input/T2_{lang}-ud-dev.conll") for lang in DEEP_INPUTS
    ]
    for track, kind, lang, inputs in imports:
        code = lang.split("_")[0]
        refs = sr18_file(f"Sentences/{lang}-ud-dev_sentences.txt")
        args = ["track", "import", "sr18", track, "--kind", kind, "--language", code]
        result = runner.invoke(
            args=[*args, "--inputs", str(sr18_file(inputs)), "--refs", str(refs)]
        )
        assert result.exit_code == 0, result.output
        size = DEV_SIZES[lang]
        assert f"sr18/{track} ({code}): {size} items, {size} references" in result.output
    with session_scope(settings.database_url) as session:
        shallow = session.scalar(select(Track).where(Track.slug == "shallow"))
        assert shallow.languages == ["ar", "en", "es", "fi", "fr", "it", "nl", "pt"]
        assert session.scalar(select(Track).where(Track.slug == "deep")).languages == [
            "en",
            "es",
            "fr",
        ]
        en = shallow.test_set_for("en")
        first_ref = read_sentences(sr18_file("Sentences/en-ud-dev_sentences.txt").read_bytes())[0]
        assert en.items[0].references[0].text == first_ref
        assert en.items[0].input_text.startswith(
            sr18_file("T1-input/en-ud-dev.conll").read_text().split("\n")[0]
        )
    # cs and ru have references only in the released dev data (see the data README)
    again = runner.invoke(
        args=[*args, "--inputs", str(sr18_file(inputs)), "--refs", str(refs)]  # fr deep again
    )
    assert again.exit_code == 1 and "already has a fr test set" in again.output


def test_import_refuses_misaligned_or_invalid_files_and_keeps_nothing(runner, settings):
    runner.invoke(args=["challenge", "create", "sr18", "--title", "SR'18"])
    demo = "app/demo_data/sr18/"
    base = ["track", "import", "sr18", "shallow", "--kind", "sr-shallow", "--language", "fr"]
    mismatch = runner.invoke(
        args=[*base, "--inputs", demo + "en-shallow.conll", "--refs", demo + "fr-sentences.txt"]
    )
    assert mismatch.exit_code == 1
    assert "fr-sentences.txt: has 3 reference sentences but en-shallow.conll has 4 trees" in (
        mismatch.output
    )
    no_language = runner.invoke(
        args=[
            "track",
            "import",
            "sr18",
            "shallow",
            "--kind",
            "sr-shallow",
            "--refs",
            demo + "fr-sentences.txt",
        ]
    )
    assert (
        no_language.exit_code == 1 and "needs a language, the CoNLL-U inputs" in no_language.output
    )
    assert count(settings, Track) == 0 and count(settings, models.TestSet) == 0


def test_zip_with_a_file_per_language_scores_each_language(app, client, settings):
    sr18_tracks(settings)
    token = participant(settings, "a@x.org", team="A")
    archive = make_zip({"submission/en_out.txt": EN_OUT, "submission/fr_out.txt": FR_OUT})
    response = post(client, token, archive, "run.zip", system="A-1")
    assert response.status_code == 202, response.json
    assert [(s["language"], s["status"]) for s in response.json["submissions"]] == [
        ("en", "queued"),
        ("fr", "queued"),
    ]
    run_queue(app)
    fr = client.get(f"{SHALLOW}/leaderboard?language=fr").json
    assert fr["language"] == "fr"
    assert fr["metrics"] == ["BLEU", "NIST", "DIST", "DIST_char", "coverage"]
    scores = fr["rows"][0]["scores"]
    assert scores["coverage"] == 100
    assert scores["DIST"] == pytest.approx(
        100 * (1 - 1 / 13)
    )  # 'beaucoup' missing of 4 + 5 + 4 tokens
    assert "nltk-corpus_bleu-2018" in fr["rows"][0]["signatures"]["BLEU"]
    en = client.get(f"{SHALLOW}/leaderboard").json  # English first by default
    assert en["language"] == "en"
    assert en["rows"][0]["scores"]["DIST"] == pytest.approx(
        100 * (1 - 1 / 24)
    )  # 'it' of 6 + 7 + 6 + 5
    assert client.get(f"{SHALLOW}/leaderboard?language=de").status_code == 404


def test_partial_coverage_and_a_single_file_with_its_language(app, client, settings):
    sr18_tracks(settings)
    token = participant(settings, "a@x.org", team="A")
    assert post(client, token, FR_OUT, "out.txt", language="fr").status_code == 202
    assert post(client, token, FR_OUT, "fr_out.txt").status_code == 202  # named by language
    unnamed = post(client, token, FR_OUT, "out.txt")
    assert unnamed.status_code == 400
    assert "say which language 'out.txt' is for (en, fr)" in unnamed.json["error"]
    run_queue(app)
    assert client.get(f"{SHALLOW}/leaderboard?language=en").json["rows"] == []


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            {"en_out.txt": EN_OUT, "fr_out.txt": b"Le chat dort .\n"},
            "fr: fr_out.txt: expected 3 sentences (one per input tree, in input order), found 1",
        ),
        (
            {"de_out.txt": FR_OUT},
            "entry 'de_out.txt' is not named by one of this track's languages",
        ),
        ({"en.txt": EN_OUT, "en_out.txt": EN_OUT}, "are both for en"),
        ({"../en_out.txt": EN_OUT}, "points outside the archive"),
        ({"fr_out.txt": FR_OUT * 4000}, "the whole upload may unpack to at most"),
    ],
)
def test_a_bad_zip_entry_refuses_the_whole_upload(client, settings, app, entries, message):
    app.config["UPLOAD_MAX_BYTES"] = 50_000
    sr18_tracks(settings)
    token = participant(settings, "a@x.org", team="A")
    response = post(client, token, make_zip(entries), "run.zip")
    assert response.status_code == 400
    assert message in response.json["error"]
    assert "nothing was stored" in response.json["error"]
    assert count(settings, Submission) == 0
    stored = settings.uploads_path.rglob("*") if settings.uploads_path.exists() else []
    assert not [path for path in stored if path.is_file()]


def test_daily_limit_is_per_language(client, settings):
    sr18_tracks(settings, daily_limit=1)
    token = participant(settings, "a@x.org", team="A")
    assert post(client, token, FR_OUT, "fr_out.txt").status_code == 202
    assert post(client, token, EN_OUT, "en_out.txt").status_code == 202
    again = post(
        client, token, make_zip({"en.txt": EN_OUT, "fr.txt": FR_OUT}), "run.zip", system="sys2"
    )
    assert again.status_code == 400
    assert "submissions for this track (en) in the last 24 hours" in again.json["error"]
    assert count(settings, Submission) == 2


def test_overview_matrix_bold_best_late_asterisk_deep_on_the_right(app, client, settings):
    sr18_tracks(settings)
    with session_scope(settings.database_url) as session:
        deep = session.scalar(select(Track).where(Track.slug == "deep"))
        deep.deadline = datetime(2018, 5, 1)
    token_a = participant(settings, "a@x.org", team="Alpha")
    token_b = participant(settings, "b@x.org", team="Beta")
    post(client, token_a, make_zip({"en.txt": EN_OUT, "fr.txt": FR_OUT}), "a.zip", system="a1")
    post(client, token_b, SR18_REFS["en"], "en_out.txt", system="b1")  # the references: best
    deep_url = "/api/v1/challenges/sr18/tracks/deep"
    post(client, token_a, EN_OUT, "en.txt", system="a-deep", url=deep_url)  # late
    run_queue(app)

    matrix = client.get("/api/v1/challenges/sr18/overview?metric=DIST").json
    assert matrix["metric"] == "DIST"
    assert matrix["columns"] == [
        {"track": "shallow", "language": "en"},
        {"track": "shallow", "language": "fr"},
        {"track": "deep", "language": "en"},
    ]
    alpha, beta = matrix["rows"]
    assert alpha["team"] == "Alpha"  # more languages first
    assert [c and (c["best"], c["late"]) for c in alpha["cells"]] == [
        (False, False),
        (True, False),
        (True, True),
    ]
    assert beta["cells"][0] == {"value": 100.0, "late": False, "best": True}
    assert beta["cells"][1:] == [None, None]

    page = client.get("/challenges/sr18/overview?metric=DIST").data.decode()
    assert "<h1>DIST by language</h1>" in page
    assert page.index("Shallow track") < page.index("Deep track")
    assert "<strong>100.00</strong>" in page
    assert '<span title="late submission">*</span>' in page
    assert page.count("–") >= 2

    track_page = client.get("/challenges/sr18/tracks/shallow?lang=fr").data.decode()
    assert '<strong aria-current="page">fr</strong>' in track_page
    assert "3 test items" in track_page
    assert client.get("/challenges/sr18/tracks/shallow?lang=de").status_code == 404
    with session_scope(settings.database_url) as session:
        languages = session.scalars(select(Score.language).distinct()).all()
        assert sorted(languages) == ["en", "fr"]


def test_web_upload_page_lists_languages_and_takes_a_zip(client, settings):
    sr18_tracks(settings)
    participant(settings, "a@x.org", team="A")
    client.post("/login", data={"email": "a@x.org", "password": "password123"})
    page = client.get("/challenges/sr18/tracks/shallow/submit?lang=fr").data.decode()
    assert "<code>en</code>: 4 outputs" in page and "<code>fr</code>: 3 outputs" in page
    assert "one file per language" in page and "`# text = ...` line per output" not in page
    assert "<code># text = ...</code> line per output" in page
    assert '<option selected value="fr">fr</option>' in page
    refused = client.post(
        "/challenges/sr18/tracks/shallow/submit",
        data={"system": "s", "language": "en", "file": (io.BytesIO(FR_OUT), "out.txt")},
        content_type="multipart/form-data",
    ).data.decode()
    assert "Refused: en: out.txt: expected 4 sentences" in refused
    done = client.post(
        "/challenges/sr18/tracks/shallow/submit",
        data={
            "system": "s",
            "file": (io.BytesIO(make_zip({"en.txt": EN_OUT, "fr.txt": FR_OUT})), "r.zip"),
        },
        content_type="multipart/form-data",
        follow_redirects=True,
    ).data.decode()
    assert "Submissions 1 (en), 2 (fr) queued for scoring." in done


def test_outputs_page_gives_dist_once_published_and_overview_anonymises(app, client, settings):
    from tests.support.factories import login

    sr18_tracks(settings)
    token = participant(settings, "a@x.org", team="Word Order Lab")
    assert post(client, token, EN_OUT, "en.txt", language="en").status_code == 202
    run_queue(app)
    login(client, "a@x.org")
    page = client.get("/submissions/1/outputs").get_data(as_text=True)
    assert "rained all day ." in page and "DIST" not in page  # a probe of the reference
    with session_scope(settings.database_url) as session:
        for track in session.scalars(select(Track)):
            track.phase, track.is_published = "test", True
        session.commit()
    page = client.get("/submissions/1/outputs").get_data(as_text=True)
    assert '<th class="num">DIST</th>' in page
    # "rained all day ." against "It rained all day .": 1 edit in 5 tokens -> 80.0
    assert 'rained all day .</td>\n      <td class="num">80.0</td>' in page
    assert page.count('<td class="num">100.0</td>') == 3
    client.post("/systems/1/anonymous", follow_redirects=True)
    client.post("/logout")
    matrix = client.get("/api/v1/challenges/sr18/overview").json
    assert [row["team"] for row in matrix["rows"]] == ["anonymous"]
    assert "Word Order Lab" not in client.get("/challenges/sr18/overview").get_data(as_text=True)
    assert "Word Order Lab" not in client.get("/challenges/sr18/overview.tex").get_data(
        as_text=True
    )


def test_conllu_comments_never_reach_the_stored_or_downloaded_inputs(client, settings):
    from app.web.services.track_imports import import_items
    from app.web.services.tracks import create_challenge

    tree = (
        "# sent_id = 1\n# text = The hidden sentence .\n"
        "1\tsentence\tsentence\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
    )
    with session_scope(settings.database_url) as session:
        created = create_challenge(session, "ud", "UD")
        test_set, _ = import_items(
            session,
            created,
            "shallow",
            "sr-shallow",
            language="en",
            inputs=(tree.encode(), "en.conllu"),
            references=(b"The hidden sentence .\n", "en.txt"),
        )
        assert "hidden" not in test_set.items[0].input_text
    download = client.get("/challenges/ud/tracks/shallow/inputs").get_data(as_text=True)
    api = client.get("/api/v1/challenges/ud/tracks/shallow/inputs").json
    assert "1\tsentence" in download and "hidden" not in download
    assert "hidden" not in api["inputs"][0]
