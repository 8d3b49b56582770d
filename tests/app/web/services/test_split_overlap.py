"""Train/test word overlap (Zhang et al. 2024, Eq. 3, Fig. 3): by hand, on the real PMB 5 split,
and the organisers-only report on the track page."""

import pytest

from app.data.db import session_scope
from app.data.models import ChallengeOrganiser, Role
from app.web.services.accounts import create_user
from app.web.services.tracks import get_challenge
from scorer.describe.split_overlap import nearest_overlaps, overlap_report
from scorer.io import drs
from tests.support.paths import DEMO_DATA, drs_file
from tests.support.tracks import demo_drs_track, invoke


def test_overlap_is_jaccard_of_lowercased_word_sets_by_hand():
    tests = ["I like chocolate ice cream.", "The dog slept."]
    trains = ["I like chocolate ice cream!", "A dog sleeps.", "the DOG barked"]
    overlaps, nearest = nearest_overlaps(tests, trains)
    # {i, like, chocolate, ice, cream} twice: 5/5. {the, dog, slept} vs {the, dog, barked}:
    # 2 shared of 4, better than {a, dog, sleeps}: 1 of 5.
    assert overlaps.tolist() == pytest.approx([1.0, 0.5])
    assert nearest.tolist() == [0, 2]


def test_report_histogram_and_near_duplicates():
    report = overlap_report(
        ["a b c d e", "a b c d x", "p q"], ["a b c d e", "z y"]
    )  # overlaps 1.0, 4/6, 0
    assert report["near_duplicates"] == 1 and report["identical"] == 1
    assert [count for _, _, count in report["bins"]] == [1, 0, 0, 0, 0, 0, 1, 0, 0, 1]
    assert report["closest"][0] == {"test": "a b c d e", "train": "a b c d e", "overlap": 1.0}


def test_real_pmb5_dev_against_train_finds_the_papers_kind_of_leak():
    def texts(name):
        return [item.text for item in drs.read_sbn_file(drs_file(name).read_bytes())]

    report = overlap_report(
        texts("pmb5.0.0_en_sbn/seq2seq/dev/standard.sbn"),
        texts("pmb5.0.0_en_sbn/seq2seq/train/gold.sbn"),
    )
    assert (report["test_items"], report["train_items"]) == (1132, 9057)
    assert sum(count for _, _, count in report["bins"]) == 1132
    pairs = {(pair["test"], pair["train"]) for pair in report["closest"]}
    assert ("I'm starving!", "I'm starving.") in pairs  # the paper's ice-cream case, in dev
    assert 0 < report["near_duplicate_share"] < 0.1


def test_split_report_is_stored_and_shown_to_organisers_only(client, runner, settings):
    demo_drs_track(runner)
    train = DEMO_DATA / "drs" / "tense.txt.raw"  # "Anna read a book." / "The dog will sleep."
    result = invoke(runner, "track", "split-report", "drs", "gen", "--train", train)
    assert result.exit_code == 0, result.output
    assert "4 test texts vs 2 training texts" in result.output
    with session_scope(settings.database_url) as session:
        user = create_user(session, "org@example.org", "password123", Role.ORGANISER)
        session.add(
            ChallengeOrganiser(challenge_id=get_challenge(session, "drs").id, user_id=user.id)
        )
    page = client.get("/challenges/drs/tracks/gen?lang=en").get_data(as_text=True)
    assert 'id="split-report"' not in page and "Anna read a book" not in page
    client.post("/login", data={"email": "org@example.org", "password": "password123"})
    page = client.get("/challenges/drs/tracks/gen?lang=en").get_data(as_text=True)
    assert 'id="split-report"' in page
    assert "4 test references" in page and "tense.txt.raw" in page
