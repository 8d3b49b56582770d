"""A test set's published files read into items by the kind's reader: a reader whose release
keeps inputs and references apart names its own reading (``Reader.release``); the others read
the references file as ``nlg-score`` does. No table by reader name outside the registry."""

from __future__ import annotations

from scorer.kinds import get_profile
from scorer.kinds.parts import READERS
from scorer.kinds.releases import conllu_release, drs_release, e2e_release
from tests.support.paths import DEMO_DATA

SR18 = DEMO_DATA / "sr18"


def test_readers_of_aligned_files_describe_their_release_on_the_reader():
    own = {name: reader.release for name, reader in READERS.items() if reader.release}
    assert own == {"e2e-csv": e2e_release, "conllu": conllu_release, "drs": drs_release}


def test_a_reader_reads_its_release_itself_and_keeps_it_when_bound():
    references = ((DEMO_DATA / "references.csv").read_bytes(), "references.csv")
    release = READERS["e2e-csv"].read_release(get_profile("e2e"), None, references)
    assert len(release.items) == 10 and all(item.references for item in release.items)
    trees = ((SR18 / "fr-shallow.conll").read_bytes(), "fr-shallow.conll")
    sentences = ((SR18 / "fr-sentences.txt").read_bytes(), "fr-sentences.txt")
    bound = READERS["conllu"].bound({})
    assert len(bound.read_release(get_profile("sr-shallow"), trees, sentences).items) == 3
    assert READERS["jsonl"].bound({"input": "mr"}).release is None  # as nlg-score reads it


def test_a_references_file_that_says_everything_is_read_as_nlg_score_reads_it():
    webnlg = DEMO_DATA / "webnlg" / "test" / "test_with_lex.xml"
    release = READERS["webnlg-xml"].read_release(
        get_profile("webnlg2017"), None, (webnlg.read_bytes(), webnlg.name)
    )
    assert len(release.items) == 6 and release.items[0].attributes["seen"] in {"seen", "unseen"}
