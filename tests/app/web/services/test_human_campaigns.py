"""Human evaluation in the app: campaigns, annotator pages, one-time links, imports, results."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import (
    AnnotationLink,
    Campaign,
    CampaignUnit,
    ChallengeAnnotator,
    ChallengeOrganiser,
    Judgement,
    Role,
    System,
    Track,
)
from app.web.errors import DomainError
from app.web.services import human_results
from app.web.services.access import ORGANISERS
from app.web.services.accounts import create_user
from app.web.services.campaigns import CampaignSpec, create_campaign, get_campaign
from app.web.services.human_results import campaign_table
from app.web.services.tracks import get_track
from tests.support.factories import demo_track, login, run_queue, scored_system
from tests.support.paths import e2e_file

SYSTEMS = ["slug", "tgen", "chen", "sheff2", "zhang", "adapt"]
TRACK_URL = "/challenges/demo/tracks/main"


@pytest.fixture
def track_with_systems(app, settings):
    """Track demo/main with six primary systems and a baseline; users of every role."""
    demo_track(settings)
    with session_scope(settings.database_url) as session:
        for rank, name in enumerate(SYSTEMS):
            scored_system(
                session, "demo", "main", name, {"BLEU": 0.7 - rank / 20, "NIST": 8 - rank}
            )
        scored_system(
            session, "demo", "main", "baseline", {"BLEU": 0.6}, primary=False, baseline=True
        )
        create_user(session, "org@example.org", "password123", Role.ORGANISER)
        annotator = create_user(session, "ann@example.org", "password123", Role.ANNOTATOR)
        create_user(session, "par@example.org", "password123", Role.PARTICIPANT)
        own = create_user(session, "org2@example.org", "password123", Role.ORGANISER)
        challenge = get_track(session, "demo", "main").challenge
        session.add(ChallengeOrganiser(challenge_id=challenge.id, user_id=own.id))
        session.add(ChallengeAnnotator(challenge_id=challenge.id, user_id=annotator.id))
        create_user(session, "stranger@example.org", "password123", Role.ANNOTATOR)


def organiser(app):
    client = app.test_client()
    login(client, "org2@example.org")
    return client


def create(session, **spec):
    track = get_track(session, "demo", "main")
    return create_campaign(session, track, CampaignSpec(**spec))


def test_rankme_units_show_five_different_systems_each(settings, track_with_systems):
    with session_scope(settings.database_url) as session:
        campaign = create(session, name="quality", method="rankme", criterion="quality", items=10)
        assert campaign.show_input and not campaign.show_reference
        units = campaign.units
        assert len(units) == 20 and {u.hit for u in units} == {0, 1}
        for unit in units:
            names = [entry.system_name for entry in unit.entries]
            assert len(names) == 5 == len(set(names)) and "baseline" not in names
        per_item = {}
        for unit in units:
            per_item.setdefault(unit.item_id, set()).update(e.system_name for e in unit.entries)
        assert all(names == set(SYSTEMS) for names in per_item.values())
        naturalness = create(session, name="nat", method="rankme", criterion="naturalness", items=2)
        assert not naturalness.show_input


def test_campaigns_showing_references_wait_for_the_deadline(settings, track_with_systems):
    with session_scope(settings.database_url) as session:
        with pytest.raises(DomainError, match="give the track a deadline first"):
            create(session, name="da", method="da", criterion="readability")
        track = session.scalar(select(Track))
        track.deadline = datetime.now(UTC) + timedelta(days=1)
        with pytest.raises(DomainError, match="references stay hidden until the track's deadline"):
            create(session, name="rm", method="rankme", criterion="quality", include_human=True)
        track.deadline = datetime.now(UTC) - timedelta(days=1)
        campaign = create(session, name="da", method="da", criterion="readability", hit_size=40)
        units = campaign.units
        genuine = [u for u in units if u.kind == "genuine"]
        assert len(genuine) == 60
        by_hit = {}
        for unit in units:
            by_hit.setdefault(unit.hit, []).append(unit)
        first = by_hit[0]
        assert sum(u.kind == "genuine" for u in first) == 20
        assert {u.kind for u in first} == {"genuine", "repeat", "damaged", "reference"}
        for position, unit in enumerate(first):
            if unit.kind in ("repeat", "damaged"):
                original = next(
                    k for k, u in enumerate(first)
                    if u.kind == "genuine" and u.item_id == unit.item_id
                    and u.entries[0].system_name == unit.entries[0].system_name
                )  # fmt: skip
                assert original < position
                if unit.kind == "damaged":
                    assert unit.entries[0].text != first[original].entries[0].text


def test_annotator_judges_a_hit_without_seeing_system_names(app, settings, track_with_systems):
    with session_scope(settings.database_url) as session:
        campaign = create(session, name="quality", method="rankme", criterion="quality", items=2)
        campaign_id = campaign.id
    client = app.test_client()
    login(client, "ann@example.org")
    listing = client.get("/annotate").get_data(as_text=True)
    assert f'href="/annotate/{campaign_id}"' in listing and 'href="/annotate">Annotate' in listing
    url = f"/annotate/{campaign_id}"
    page = client.get(url)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count('type="number"') == 5 and "name[" in html
    texts = re.findall(r'<p class="output">(.*?)</p>', html)
    assert len(texts) == 5
    for name in SYSTEMS:
        assert f">{name}<" not in html and f'"{name}"' not in html
    unit = re.search(r'name="unit" value="(\d+)"', html).group(1)
    refused = client.post(url, data={"unit": unit, "score-0": "50", "score-1": "101"})
    assert "score from 0 to 100" in refused.get_data(as_text=True)
    assert "Nothing of this page was stored" in refused.get_data(as_text=True)
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count()).select_from(Judgement)) == 0
    pages = 0
    while True:
        html = client.get(url).get_data(as_text=True)
        if "HIT done" in html or "Nothing left" in html:
            break
        unit = re.search(r'name="unit" value="(\d+)"', html).group(1)
        scores = {f"score-{k}": str(100 - 10 * k) for k in range(5)}
        response = client.post(url, data={"unit": unit, **scores})
        assert response.status_code in (200, 302)
        pages += 1
    assert pages == 4
    again = client.post(url, data={"unit": unit, **scores})
    assert again.status_code == 200
    with session_scope(settings.database_url) as session:
        rows = session.scalars(select(Judgement)).all()
        assert len(rows) == 20
        assert {r.annotator for r in rows} == {"u2"} and all(r.created_at for r in rows)
        assert {r.criterion for r in rows} == {"quality"}


def test_one_time_link_is_spent_when_its_hit_is_done(app, settings, track_with_systems):
    with session_scope(settings.database_url) as session:
        create(session, name="quality", method="rankme", criterion="quality", items=1)
    client = organiser(app)
    page = client.post(f"{TRACK_URL}/human/quality/links", data={"count": "2"})
    urls = re.findall(r"<code>(http[^<]+)</code>", page.get_data(as_text=True))
    assert len(urls) == 2
    with session_scope(settings.database_url) as session:
        hashes = session.scalars(select(AnnotationLink.token_hash)).all()
    assert all(url.rsplit("/", 1)[1] not in hashes for url in urls)
    crowd = app.test_client()
    path = urls[0].replace("http://localhost", "")
    for _ in range(2):
        html = crowd.get(path).get_data(as_text=True)
        unit = re.search(r'name="unit" value="(\d+)"', html).group(1)
        crowd.post(path, data={"unit": unit, **{f"score-{k}": "70" for k in range(5)}})
    spent = crowd.get(path)
    assert spent.status_code == 410 and "has been used" in spent.get_data(as_text=True)
    assert app.test_client().get("/annotate/link/not-a-token").status_code == 410
    with session_scope(settings.database_url) as session:
        annotators = set(session.scalars(select(Judgement.annotator)))
        assert len(annotators) == 1 and next(iter(annotators)).startswith("link")


def test_rankme_results_published_beside_the_automatic_metrics(app, settings, track_with_systems):
    with session_scope(settings.database_url) as session:
        create(
            session,
            name="quality",
            method="rankme",
            criterion="quality",
            items=10,
            annotators_per_hit=1,
        )
    quality = {name: 100 - 15 * rank for rank, name in enumerate(SYSTEMS)}
    client = app.test_client()
    login(client, "ann@example.org")
    url = "/annotate/1"
    while True:
        html = client.get(url).get_data(as_text=True)
        if "HIT done" in html or "Nothing left" in html:
            if "Continue" in html:
                continue
            break
        unit_id = int(re.search(r'name="unit" value="(\d+)"', html).group(1))
        with session_scope(settings.database_url) as session:
            entries = session.get(CampaignUnit, unit_id).entries
            scores = {f"score-{e.slot}": str(quality[e.system_name]) for e in entries}
        client.post(url, data={"unit": unit_id, **scores})
    org = organiser(app)
    assert org.post(f"{TRACK_URL}/human/quality/publish").status_code == 302
    assert "compute the results before" in org.get(f"{TRACK_URL}/human/quality").get_data(
        as_text=True
    )
    org.post(f"{TRACK_URL}/human/quality/analyse")
    org.post(f"{TRACK_URL}/human/quality/publish")
    public = app.test_client().get(TRACK_URL).get_data(as_text=True)
    section = public[public.index('id="human-evaluation"') :]
    order = [section.index(f"<td>{name}</td>") for name in SYSTEMS]
    assert order == sorted(order)
    assert "cluster-start" in section and "0.7000" in section
    with session_scope(settings.database_url) as session:
        campaign = session.scalar(select(Campaign))
        assert [row["name"] for row in campaign.results["systems"]] == SYSTEMS
        assert "correlation" not in campaign.results  # computed per viewer, not stored
        correlation = campaign_table(session, campaign, ORGANISERS).correlation
    assert correlation["pearson"]["BLEU"] > 0.9
    csv_text = org.get(f"{TRACK_URL}/human/quality/judgements.csv").get_data(as_text=True)
    assert csv_text.startswith("item,system,annotator,criterion,score,kind,subset,unit,system_id\n")
    assert len(csv_text.splitlines()) == 1 + 20 * 5


def test_pages_are_for_organisers_and_annotators_only(app, settings, track_with_systems):
    with session_scope(settings.database_url) as session:
        create(session, name="quality", method="rankme", criterion="quality", items=1)
    participant = app.test_client()
    login(participant, "par@example.org")
    assert participant.get(f"{TRACK_URL}/human").status_code == 404
    assert participant.get(f"{TRACK_URL}/human/quality/judgements.csv").status_code == 404
    assert participant.get("/annotate/1").status_code == 404
    assert participant.get("/annotate").status_code == 403
    other = app.test_client()
    login(other, "org@example.org")  # organiser, but not of this challenge
    assert other.get(f"{TRACK_URL}/human").status_code == 404
    assert app.test_client().get(f"{TRACK_URL}/human/quality/heatmap.svg").status_code == 404


def test_published_e2e_ratings_import_and_rank(app, settings, track_with_systems):
    path = e2e_file("human_ratings_quality_sample.csv")
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=["human", "import", "demo", "main", "e2e-quality", "--method", "rankme",
              "--criterion", "quality", "--file", str(path), "--confirm", "--unmatched-external"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "imported 200 judgements" in result.output
    result = runner.invoke(
        args=["human", "analyse", "demo", "main", "e2e-quality", "--publish", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert '"comparisons": 400' in result.output
    page = app.test_client().get(TRACK_URL).get_data(as_text=True)
    assert "RankME + TrueSkill" in page and "<td>slug-alt</td>" in page
    exported = runner.invoke(args=["human", "export", "demo", "main", "e2e-quality"]).output
    assert len(exported.splitlines()) == 201


def test_a_bad_import_stores_nothing(app, settings, track_with_systems, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "item,system,annotator,criterion,score\n1,slug,a,quality,50\n1,tgen,a,quality,x\n"
    )
    result = app.test_cli_runner().invoke(
        args=["human", "import", "demo", "main", "q", "--method", "rankme", "--criterion", "quality", "--file", str(bad)]
    )  # fmt: skip
    assert result.exit_code != 0
    assert "bad.csv, line 3: score 'x' is not a number from 0 to 100" in result.output
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count()).select_from(Campaign)) == 0
        assert session.scalar(select(func.count()).select_from(Judgement)) == 0


def judge_all(client, url, answer) -> int:
    """Answer every page the annotator is given; ``answer(html, unit_id)`` -> form fields."""
    pages = 0
    while True:
        html = client.get(url).get_data(as_text=True)
        found = re.search(r'name="unit" value="(\d+)"', html)
        if found is None:
            return pages
        client.post(url, data={"unit": found.group(1), **answer(html, int(found.group(1)))})
        pages += 1


def test_da_meaning_similarity_shows_the_reference_and_filters_annotators(
    app, settings, track_with_systems
):
    with session_scope(settings.database_url) as session:
        session.scalar(select(Track)).deadline = datetime.now(UTC) - timedelta(days=1)
        create(session, name="meaning", method="da", criterion="meaning-similarity", items=10)
    quality = {name: 90 - 8 * rank for rank, name in enumerate(SYSTEMS)}
    client = app.test_client()
    login(client, "ann@example.org")
    html = client.get("/annotate/1").get_data(as_text=True)
    assert "First text" in html and html.count('type="number"') == 1
    assert '<p class="reference">' in html

    def careful(_html, unit_id):
        with session_scope(settings.database_url) as session:
            unit = session.get(CampaignUnit, unit_id)
            name = unit.entries[0].system_name
            score = {"genuine": quality.get(name, 50), "repeat": quality.get(name, 50)}
            return {"score-0": str(score.get(unit.kind, 100 if unit.kind == "reference" else 5))}

    assert judge_all(client, "/annotate/1", careful) == 60 + 20
    org = organiser(app)
    assert org.post(f"{TRACK_URL}/human/meaning/analyse").status_code == 302
    page = org.get(f"{TRACK_URL}/human/meaning").get_data(as_text=True)
    said = re.sub(r"\s+", " ", page)
    assert "Quality control: damaged, repeat, reference. 1 of 1 annotators kept; 1 of those" in said
    assert org.get(f"{TRACK_URL}/human/meaning/heatmap.svg").status_code == 200
    assert app.test_client().get(f"{TRACK_URL}/human/meaning/heatmap.svg").status_code == 404
    org.post(f"{TRACK_URL}/human/meaning/publish")
    svg = app.test_client().get(f"{TRACK_URL}/human/meaning/heatmap.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    with session_scope(settings.database_url) as session:
        results = session.scalar(select(Campaign)).results
    assert [row["name"] for row in results["systems"]] == SYSTEMS
    assert results["systems"][0]["n"] == 10 and results["systems"][0]["raw"] == 90
    key = {row["name"]: row["system"] for row in results["systems"]}
    assert results["wilcoxon"][key["slug"]][key["adapt"]] < 0.05

    with session_scope(settings.database_url) as session:
        session.scalar(select(System).where(System.name == "tgen")).is_anonymous = True
    public = app.test_client()
    for url in (TRACK_URL, f"{TRACK_URL}/human/meaning/heatmap.svg"):
        body = public.get(url).get_data(as_text=True)
        assert "tgen" not in body and "anonymous" in body, url
    assert "tgen" in org.get(TRACK_URL).get_data(as_text=True)  # organisers' page
    assert "tgen" not in org.get(f"{TRACK_URL}/human/meaning/heatmap.svg").get_data(as_text=True)


def test_rose_on_a_challenge_set_beside_its_originals(app, settings, runner):
    from tests.support.tracks import demo_drs_track

    demo_drs_track(runner)
    with session_scope(settings.database_url) as session:
        session.scalar(select(Track)).deadline = datetime.now(UTC) - timedelta(days=1)
        for name in ("charlstm", "wordlstm"):
            scored_system(session, "drs", "gen", name, {"BLEU": 50.0}, language="en")
        user = create_user(session, "exp@example.org", "password123", Role.ANNOTATOR)
        assert user.role == Role.ANNOTATOR
        track = get_track(session, "drs", "gen")
        session.add(ChallengeAnnotator(challenge_id=track.challenge_id, user_id=user.id))
        campaign = create_campaign(
            session, track, CampaignSpec("tense", "rose", "rose", "en", subset="tense", items=5)
        )
        assert {u.subset for u in campaign.units} == {"tense", "tense:orig"}
        assert len(campaign.units) == 2 * 2 * 2
    client = app.test_client()
    login(client, "exp@example.org")
    html = client.get(f"/annotate/{campaign.id}").get_data(as_text=True)
    assert html.count('type="radio"') == 6 and "<pre" in html

    def expert(_html, unit_id):
        with session_scope(settings.database_url) as session:
            unit = session.get(CampaignUnit, unit_id)
            right = "1" if unit.subset == "tense:orig" else "0"
            return {"semantics": "1", "grammaticality": "1", "phenomenon": right}

    assert judge_all(client, f"/annotate/{campaign.id}", expert) == 8
    with session_scope(settings.database_url) as session:
        found = session.get(Campaign, campaign.id)
        from app.web.services.human_results import analyse

        rows = {(r["name"], r["subset"]): r for r in analyse(session, found)["rows"]}
    assert rows[("charlstm", "tense:orig")]["rose"] == 100
    assert rows[("charlstm", "tense")]["rose"] == 0
    assert rows[("charlstm", "tense")]["semantics"] == 100


def test_da_import_keeps_a_repeat_beside_its_original(app, settings, track_with_systems, tmp_path):
    path = tmp_path / "da.csv"
    path.write_text(
        "item,system,annotator,criterion,score,kind\n"
        "1,slug,a,readability,80,genuine\n1,slug,a,readability,78,repeat\n"
    )
    result = app.test_cli_runner().invoke(
        args=["human", "import", "demo", "main", "da", "--method", "da",
              "--criterion", "readability", "--file", str(path), "--confirm"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    with session_scope(settings.database_url) as session:
        kinds = sorted(session.scalars(select(Judgement.kind)))
    assert kinds == ["genuine", "repeat"]


def test_references_stay_hidden_when_the_deadline_moves_after_the_campaign(
    app, settings, track_with_systems
):
    """Finding 1: past deadline, campaign made, deadline moved into the future: neither the
    annotator page nor a one-time link may show a reference until it has passed again."""
    from app.web.services.annotation import create_links

    with session_scope(settings.database_url) as session:
        track = session.scalar(select(Track))
        track.deadline = datetime.now(UTC) - timedelta(days=1)
        campaign = create(session, name="meaning", method="da", criterion="meaning-similarity")
        (token,) = create_links(session, campaign, 1)
        track.deadline = datetime.now(UTC) + timedelta(days=1)
        reference = get_track(session, "demo", "main").test_sets[0].items[0].references[0].text
    client = app.test_client()
    login(client, "ann@example.org")
    for page in (client.get("/annotate/1"), app.test_client().get(f"/annotate/link/{token}")):
        html = page.get_data(as_text=True)
        assert page.status_code == 403 and "stay hidden until the track&#39;s deadline" in html
        assert 'class="reference"' not in html and reference not in html
    posted = client.post("/annotate/1", data={"unit": "1"})
    assert posted.status_code == 403
    with session_scope(settings.database_url) as session:
        session.scalar(select(Track)).deadline = datetime.now(UTC) - timedelta(seconds=1)
    assert '<p class="reference">' in client.get("/annotate/1").get_data(as_text=True)


def test_annotators_open_only_the_campaigns_of_their_own_challenge(
    app, settings, track_with_systems
):
    with session_scope(settings.database_url) as session:
        create(session, name="quality", method="rankme", criterion="quality", items=2)
    stranger = app.test_client()
    login(stranger, "stranger@example.org")
    assert stranger.get("/annotate/1").status_code == 404
    assert 'href="/annotate/1"' not in stranger.get("/annotate").get_data(as_text=True)
    member = app.test_client()
    login(member, "ann@example.org")
    assert member.get("/annotate/1").status_code == 200
    # issue 22, finding 5: a unit id past the database's integers is a 400, not a 500
    assert member.post("/annotate/1", data={"unit": str(2**63)}).status_code == 400


@pytest.mark.parametrize("unit", ["²", "¹", "٣", "-1", "0", "9" * 20, "1e3", "x"])
def test_an_annotators_unit_that_is_no_id_is_refused_not_500(
    app, settings, track_with_systems, unit
):
    """A posted unit of superscript digits passed ``isdigit`` and failed ``int``: HTTP 500."""
    with session_scope(settings.database_url) as session:
        campaign_id = create(session, name="quality", method="rankme", criterion="quality").id
    client = app.test_client()
    login(client, "ann@example.org")
    url = f"/annotate/{campaign_id}"
    assert client.get(url).status_code == 200
    answer = client.post(url, data={"unit": unit, **{f"score-{k}": "50" for k in range(5)}})
    assert answer.status_code == 400


def test_da_quality_control_is_the_organisers_choice_and_drops_are_said(
    app, settings, track_with_systems
):
    with session_scope(settings.database_url) as session:
        with pytest.raises(DomainError, match="references stay hidden"):
            create(session, name="r", method="da", criterion="readability", items=2,
                   quality_control="damaged,reference")  # fmt: skip
        with pytest.raises(DomainError, match="'damage'"):
            create(
                session, name="r", method="da", criterion="readability", quality_control="damage"
            )
        plain = create(session, name="plain", method="da", criterion="readability", items=5,
                       quality_control="none")  # fmt: skip
        assert plain.quality_control == "none"
        assert {unit.kind for unit in plain.units} == {"genuine"} and len(plain.units) == 30
        damaged = create(session, name="damaged", method="da", criterion="readability", items=5,
                         quality_control="damaged")  # fmt: skip
        assert sorted({unit.kind for unit in damaged.units}) == ["damaged", "genuine"]
        assert len(damaged.units) == 30 + 7
    quality = {name: 90 - 8 * rank for rank, name in enumerate(SYSTEMS)}
    client = app.test_client()
    login(client, "ann@example.org")

    def careless(_html, unit_id):  # damaged copies scored like the originals
        with session_scope(settings.database_url) as session:
            return {
                "score-0": str(quality[session.get(CampaignUnit, unit_id).entries[0].system_name])
            }

    for campaign_id in (1, 2):
        judge_all(client, f"/annotate/{campaign_id}", careless)
    org = organiser(app)
    pages = {}
    for name in ("plain", "damaged"):
        assert org.post(f"{TRACK_URL}/human/{name}/analyse").status_code == 302
        pages[name] = re.sub(
            r"\s+", " ", org.get(f"{TRACK_URL}/human/{name}").get_data(as_text=True)
        )
    assert "Quality control: none. 1 of 1 annotators kept." in pages["plain"]
    assert "Quality control: damaged. 0 of 1 annotators kept; 1 dropped (1 damaged copies not " \
        "scored lower)." in pages["damaged"]  # fmt: skip
    org.post(f"{TRACK_URL}/human/plain/publish")
    track_page = re.sub(r"\s+", " ", app.test_client().get(TRACK_URL).get_data(as_text=True))
    assert "Quality control: none. 1 of 1 annotators kept." in track_page
    api = app.test_client().get("/api/v1/challenges/demo/tracks/main/human").json["campaigns"]
    assert [(c["name"], c["quality_control"]) for c in api] == [("plain", "none")]
    assert api[0]["annotators"] == {"total": 1, "kept": 1, "dropped": {"without_damaged_copies": 0}}
    assert [(row["system"], row["cluster"]) for row in api[0]["rows"]] == [
        (name, rank + 1) for rank, name in enumerate(SYSTEMS)
    ]
    assert api[0]["rows"][0]["values"]["%"] == 90.0
    with session_scope(settings.database_url) as session:
        results = get_campaign(session, get_track(session, "demo", "main"), "plain").results
    assert [row["cluster"] for row in results["systems"]] == [1, 2, 3, 4, 5, 6]


def test_a_da_import_has_the_quality_control_its_file_had(
    app, settings, track_with_systems, tmp_path
):
    path = tmp_path / "plain.csv"
    path.write_text(
        "item,system,annotator,criterion,score\n"
        + "".join(f"{n},{s},a{n % 3},readability,{90 - 20 * k + n}\n"
                  for n in range(6) for k, s in enumerate(("slug", "tgen")))
    )  # fmt: skip
    command = ["human", "import", "demo", "main", "plain", "--method", "da",
               "--criterion", "readability", "--file", str(path), "--confirm"]  # fmt: skip
    runner = app.test_cli_runner()
    refused = runner.invoke(args=[*command, "--quality-control", "damaged,repeat"])
    assert refused.exit_code != 0
    assert "plain.csv holds no damaged, repeat rows" in refused.output
    assert "give quality control 'none'" in refused.output
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count()).select_from(Campaign)) == 0
    result = runner.invoke(args=command)
    assert result.exit_code == 0, result.output
    assert "(quality control: none)" in result.output
    analysed = runner.invoke(args=["human", "analyse", "demo", "main", "plain", "--json"])
    assert analysed.exit_code == 0, analysed.output
    annotators = json.loads(analysed.output)["annotators"]
    assert (annotators["kept"], annotators["total"], annotators["required"]) == (3, 3, [])
    said = runner.invoke(args=["human", "analyse", "demo", "main", "plain"]).output
    assert "quality control none: 3 of 3 annotators kept" in said


def _links(app, name: str, count: int) -> list[str]:
    page = organiser(app).post(f"{TRACK_URL}/human/{name}/links", data={"count": str(count)})
    urls = re.findall(r"<code>(http[^<]+)</code>", page.get_data(as_text=True))
    return [url.replace("http://localhost", "") for url in urls]


def _judge_hit(app, path: str, answer) -> int:
    """Answer every page of the link's HIT with ``answer(page html)``; the pages answered."""
    crowd, pages = app.test_client(), 0
    while (response := crowd.get(path)).status_code == 200:
        html = response.get_data(as_text=True)
        found = re.search(r'name="unit" value="(\d+)"', html)
        if found is None:
            break
        crowd.post(path, data={"unit": found.group(1), **answer(html)})
        pages += 1
    return pages


def test_a_likert_campaign_is_collected_through_links_a_radio_row_per_criterion(
    app, settings, track_with_systems
):
    with session_scope(settings.database_url) as session:
        create(session, name="likert", method="likert", criterion="fluency", items=2,
               systems=["slug", "tgen"], annotators_per_hit=2)  # fmt: skip
    first, second = _links(app, "likert", 2)
    html = app.test_client().get(first).get_data(as_text=True)
    assert html.count('type="radio" name="likert-fluency"') == 3
    assert 'name="likert-semantics"' in html and 'name="likert-grammar"' in html
    refused = app.test_client().post(first, data={"unit": "1", "likert-fluency": "9"})
    assert "choose a point from 1-3" in refused.get_data(as_text=True)
    points = {"slug": "3", "tgen": "1"}

    def answer(html: str) -> dict:
        text = re.search(r'<p class="output">([^<]*)</p>', html).group(1)
        point = points[text.split(" says ")[0]]
        return {f"likert-{c}": point for c in ("semantics", "grammar", "fluency")}

    assert _judge_hit(app, first, answer) == 4 and _judge_hit(app, second, answer) == 4
    client = organiser(app)
    client.post(f"{TRACK_URL}/human/likert/analyse")
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "likert")
        assert campaign.clusters == "wmt"
        table = campaign_table(session, campaign, ORGANISERS)
        assert [row.subject.label for row in table.rows] == ["slug", "tgen"]
        assert [row.values[1] for row in table.rows] == ["3.00", "1.00"]
        assert campaign.results["agreement"]["krippendorff_alpha"] == 1.0


def test_a_pairwise_campaign_shows_two_outputs_and_takes_a_b_or_tie_with_a_reason(
    app, settings, track_with_systems
):
    with session_scope(settings.database_url) as session:
        campaign = create(session, name="pairs", method="pairwise", criterion="preference",
                          items=3, systems=["slug", "tgen", "chen"])  # fmt: skip
        assert len(campaign.units) == 9 and all(len(u.entries) == 2 for u in campaign.units)
        firsts = {u.entries[0].system_name for u in campaign.units}
        assert len(firsts) > 1  # the order is drawn, not the systems' order
    (link,) = _links(app, "pairs", 1)
    html = app.test_client().get(link).get_data(as_text=True)
    assert "Text A" in html and "Text B" in html and 'name="winner"' in html
    strength = {"slug": 3, "tgen": 2, "chen": 1}

    def answer(html: str) -> dict:
        a, b = (t.split(" says ")[0] for t in re.findall(r'<p class="output">([^<]*)</p>', html))
        return {"winner": "a" if strength[a] > strength[b] else "b", "note": "reads better"}

    assert _judge_hit(app, link, answer) == 9
    organiser(app).post(f"{TRACK_URL}/human/pairs/analyse")
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "pairs")
        notes = set(session.scalars(select(Judgement.note).where(Judgement.note.is_not(None))))
        assert notes == {"reads better"}
        assert campaign.clusters == "rank-ranges"
        assert [r["name"] for r in campaign.results["systems"]] == ["slug", "tgen", "chen"]
        assert campaign.results["agreement"]["level"] == "nominal"


def test_a_likert_campaign_made_on_the_page_asks_its_own_criteria_on_their_scales(
    app, settings, track_with_systems
):
    client = organiser(app)
    page = client.get(f"{TRACK_URL}/human").get_data(as_text=True)
    assert '<option selected value="">choose a method</option>' in page, "no campaign yet"
    made = client.post(
        f"{TRACK_URL}/human",
        data={"new-name": "gem", "new-method": "likert", "new-criteria": "fluency 1-5\neffort 1-7 lower",
              "new-aggregate": "median", "new-items": "2", "new-systems": "slug,tgen",
              "new-annotators_per_hit": "1", "new-quality_control": "none"},
    )  # fmt: skip
    assert made.status_code == 302, made.get_data(as_text=True)
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "gem")
        assert campaign.criterion == "fluency", "the first asked, none named"
        assert campaign.options["aggregate"] == "median"
    (link,) = _links(app, "gem", 1)
    html = app.test_client().get(link).get_data(as_text=True)
    assert html.count('type="radio" name="likert-fluency"') == 5
    assert html.count('type="radio" name="likert-effort"') == 7
    assert "Effort (1-7; best: 1)" in html and "Fluency (1-5; best: 5)" in html
    assert 'name="likert-semantics"' not in html
    refused = app.test_client().post(link, data={"unit": "1", "likert-fluency": "5"})
    assert "choose a point from 1-7 for effort" in refused.get_data(as_text=True)
    points = {"slug": ("5", "1"), "tgen": ("2", "6")}

    def answer(html: str) -> dict:
        fluency, effort = points[re.search(r'<p class="output">([^ <]*)', html).group(1)]
        return {"likert-fluency": fluency, "likert-effort": effort}

    assert _judge_hit(app, link, answer) == 4
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "gem")
        items = sorted({unit.item for unit in campaign.units}, key=lambda item: item.position)
        for item, seen in zip(items, ("seen", "unseen"), strict=True):
            item.attributes = {"type": seen, "size": item.position, "slots": ["a"], "references": 3}
    client.post(f"{TRACK_URL}/human/gem/analyse")
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "gem")
        effort = campaign.results["criteria"]["effort"]
        assert (effort["scale"], effort["direction"], effort["aggregate"]) == (
            "1-7",
            "lower",
            "median",
        )
        assert [row["name"] for row in campaign.results["systems"]] == ["slug", "tgen"]
        by = campaign.results["systems"][0]["by"]
        assert set(by) == {"type", "size"}, "no list, no count of the hidden references"
        assert {value["n"] for value in by["type"].values()} == {1}
        table = campaign_table(session, campaign, ORGANISERS)
        assert [c for c in table.columns if c.startswith("fluency (type")] == [
            "fluency (type: seen)", "fluency (type: unseen)"
        ]  # fmt: skip
        assert table.rows[0].values[table.columns.index("fluency (type: seen)")] == "5.00"
    shown = client.get(f"{TRACK_URL}/human/gem").get_data(as_text=True)
    assert "effort 1-7 (lower is better)" in shown
    again = client.get(f"{TRACK_URL}/human").get_data(as_text=True)
    assert '<option selected value="likert">' in again, "the method the challenge uses"


def test_options_another_protocol_takes_are_refused_on_the_page(app, settings, track_with_systems):
    client = organiser(app)
    refused = client.post(
        f"{TRACK_URL}/human",
        data={"new-name": "x", "new-method": "da", "new-criterion": "fluency",
              "new-ties": "drop", "new-items": "2", "new-annotators_per_hit": "1",
              "new-quality_control": "none"},
    )  # fmt: skip
    assert "Direct Assessment takes no options (given: ties)" in refused.get_data(as_text=True)
    with session_scope(settings.database_url) as session, pytest.raises(DomainError):
        get_campaign(session, get_track(session, "demo", "main"), "x")


def test_the_command_line_sets_a_campaigns_options_and_refuses_bad_ones(
    app, settings, track_with_systems, runner, tmp_path
):
    made = runner.invoke(
        args=["human", "create", "demo", "main", "gem", "--method", "likert", "--items", "2",
              "--criteria", "clarity bad,fair,good; fluency 1-5", "--aggregate", "median"]
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(
        "item,system_a,system_b,winner,annotator\n1,slug,tgen,tie,r1\n2,slug,tgen,a,r1\n"
    )
    imported = runner.invoke(
        args=["human", "import", "demo", "main", "arena", "--method", "pairwise",
              "--criterion", "preference", "--file", str(pairs), "--confirm", "--ties", "drop"]
    )  # fmt: skip
    assert imported.exit_code == 0, imported.output
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        gem = get_campaign(session, track, "gem")
        assert gem.criterion == "clarity" and gem.options["aggregate"] == "median"
        assert gem.options["criteria"][0] == {
            "name": "clarity", "scale": "bad,fair,good", "direction": "higher"
        }  # fmt: skip
        assert get_campaign(session, track, "arena").options == {"ties": "drop"}
    bad = runner.invoke(
        args=["human", "create", "demo", "main", "bad", "--method", "likert", "--criteria", "clarity"]
    )  # fmt: skip
    assert bad.exit_code == 1 and "give NAME SCALE" in bad.output


def test_a_campaign_too_large_to_analyse_in_the_request_is_left_to_the_worker(
    app, settings, track_with_systems, monkeypatch
):
    """Past ``ANALYSED_IN_REQUEST`` judgements, "Compute results" marks the campaign pending
    and queues its analysis (TrueSkill over a whole RankME campaign outlasts a web process's
    timeout); the page says so, and the worker's results are the request's would have been."""
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=["human", "import", "demo", "main", "e2e-quality", "--method", "rankme",
              "--criterion", "quality", "--file", str(e2e_file("human_ratings_quality_sample.csv")),
              "--confirm", "--unmatched-external"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    monkeypatch.setattr(human_results, "ANALYSED_IN_REQUEST", 199)  # the file has 200
    client = organiser(app)
    response = client.post(f"{TRACK_URL}/human/e2e-quality/analyse", follow_redirects=True)
    assert "The board&#39;s worker is computing the results" in response.get_data(as_text=True)
    page = client.get(f"{TRACK_URL}/human/e2e-quality").get_data(as_text=True)
    assert "Results being computed" in page
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "e2e-quality")
        assert campaign.analysis == "pending" and campaign.results is None
    run_queue(app)
    with session_scope(settings.database_url) as session:
        campaign = get_campaign(session, get_track(session, "demo", "main"), "e2e-quality")
        assert campaign.analysis == "done" and campaign.results["comparisons"] == 400
    monkeypatch.setattr(human_results, "ANALYSED_IN_REQUEST", 200)
    response = client.post(f"{TRACK_URL}/human/e2e-quality/analyse", follow_redirects=True)
    assert "Results computed." in response.get_data(as_text=True)
