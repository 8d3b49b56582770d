"""A test set's published files read into items by the kind's reader: a reader whose release
keeps inputs and references apart names its own reading (``Reader.release``); the others read
the references file as ``nlg-score`` does. No table by reader name outside the registry."""

from __future__ import annotations

import pytest

from scorer.errors import SubsetsMissing
from scorer.io.folders import folder_as_zip
from scorer.kinds import build_profile, get_profile
from scorer.kinds.parts import READERS
from scorer.kinds.releases import conllu_release, drs_release, e2e_release
from tests.support.paths import DEMO_DATA
from tests.support.webnlg2020 import INSTANCE_TYPES, bundle_kind

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


def test_a_set_without_its_kinds_attribute_file_is_read_without_those_subsets():
    """WebNLG+ 2020's ``type`` comes from the instance-types file, which the XML alone lacks:
    the release leaves the subsets out and says which; with the file, it has them all."""
    profile = build_profile(bundle_kind("en"))
    assert profile.attribute_files == {"type": INSTANCE_TYPES.name}
    xml = DEMO_DATA / "webnlg" / "test" / "test_with_lex.xml"
    alone = READERS["webnlg-xml"].read_release(profile, None, (xml.read_bytes(), xml.name))
    assert alone.left_out == ("type",) and len(alone.items) == 6
    assert not any("type" in item.attributes for item in alone.items)
    folder = folder_as_zip(xml.parent, ".xml")
    assert READERS["webnlg-xml"].read_release(profile, None, folder).left_out == ()


def test_a_subset_no_file_gives_is_refused_not_left_out():
    """A kind naming ``seen`` without the categories that give it: no set could have it, so
    the import refuses it (it would be missing from every leaderboard)."""
    profile = build_profile(bundle_kind("en", name="no-seen", subsets=["seen", "type"]))
    assert profile.attribute_files == {"type": INSTANCE_TYPES.name}
    xml = DEMO_DATA / "webnlg" / "test" / "test_with_lex.xml"
    with pytest.raises(SubsetsMissing, match="scores the subsets of 'seen'"):
        READERS["webnlg-xml"].read_release(profile, None, (xml.read_bytes(), xml.name))
