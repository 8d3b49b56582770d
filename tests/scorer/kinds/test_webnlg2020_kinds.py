"""WebNLG+ 2020 as a kind defined in a bundle: the test set's three-way split read from the
instance-types file beside the XML, subsets refused when no item has their attribute, a kind
whose parts are made for another language refused with why, and a training file's seen
categories for a defined kind."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import yaml

from scorer.errors import InputError, SubsetsMissing
from scorer.io.folders import as_zip, folder_as_zip
from scorer.kinds import KindError, build_profile, trained_variant
from tests.support.paths import DEMO_DATA

TYPES = "rdf-to-text-generation-test-instance-types.json"
ENGLISH = DEMO_DATA / "webnlg"
RUSSIAN = DEMO_DATA / "webnlg-ru"


def bundle_kind(folder, **changes):
    definition = dict(yaml.safe_load((folder / "challenge.yaml").read_text())["kinds"][0])
    return {**definition, **changes}


def english_test(types: dict[str, str] | None = None) -> tuple[bytes, str]:
    files = {"test_with_lex.xml": (ENGLISH / "test" / "test_with_lex.xml").read_bytes()}
    if types is not None:
        files[TYPES] = json.dumps(types).encode()
    return as_zip(files), "test/"


def test_each_entry_gets_its_type_from_the_file_beside_the_xml():
    profile = build_profile(bundle_kind(ENGLISH))
    items = profile.read_references(*folder_as_zip(ENGLISH / "test", ".xml"))
    assert [item.attributes["type"] for item in items] == [
        "seen categories",
        "unseen entities",
        "seen categories",
        *["unseen categories"] * 3,
    ]
    assert "seen" not in items[0].attributes  # 2017's seen categories are not 2020's
    assert profile.subsets == ("type",)


@pytest.mark.parametrize(
    "given",
    [english_test, lambda: ((ENGLISH / "test" / "test_with_lex.xml").read_bytes(), "t.xml")],
)
def test_a_set_without_the_types_file_is_read_without_its_subsets(given):
    """The dev folder has no instance types: its items come without ``type``; the reader says
    so (``SubsetsMissing``), and ``nlg-score`` and the board's import go on without the
    subsets (tests/app/web/services/test_track_imports.py)."""
    profile = build_profile(bundle_kind(ENGLISH))
    with pytest.raises(SubsetsMissing, match="subsets of 'type', but no item has") as refused:
        profile.read_references(*given())
    assert isinstance(refused.value, InputError)
    assert refused.value.missing == ("type",)
    assert len(refused.value.items) == 6
    assert all("type" not in item.attributes for item in refused.value.items)


def test_types_for_another_test_set_are_refused():
    profile = build_profile(bundle_kind(ENGLISH))
    short = {f"Id{n}": "type1" for n in range(1, 6)}
    with pytest.raises(InputError, match=r"gives no type for entry eid='Id6' \(.*line 66\)"):
        profile.read_references(*english_test(short))
    extra = {f"Id{n}": "type2" for n in range(1, 8)}
    with pytest.raises(InputError, match=r"gives types for 1 entries .* not have .first: Id7"):
        profile.read_references(*english_test(extra))
    data, name = english_test()
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.writestr(TYPES, b"[1, 2]")
    with pytest.raises(InputError, match="not an object of entry ids to types"):
        profile.read_references(buffer.getvalue(), name)


@pytest.mark.parametrize(
    ("reader", "attribute"),
    [
        ({"name": "webnlg-xml", "language": "en"}, "type"),  # no instance_types
        ({"name": "webnlg-xml", "language": "en"}, "seen"),  # no seen categories given
    ],
)
def test_subsets_no_item_has_are_refused_not_left_out(reader, attribute):
    profile = build_profile(bundle_kind(ENGLISH, name=f"no-{attribute}", reader=reader,
                                        subsets=[attribute]))  # fmt: skip
    with pytest.raises(InputError) as refused:
        profile.read_references(*english_test({}))
    message = str(refused.value)
    assert f"kind no-{attribute} scores the subsets of {attribute!r}, but no item has" in message
    assert "(the items have: category, eid, size)" in message


def test_a_subset_of_a_computed_attribute_is_scored():
    profile = build_profile(
        bundle_kind(
            ENGLISH, name="by-references", reader={"name": "webnlg-xml", "language": "en"},
            subsets=["references"], attributes=["reference-count"],
        )
    )  # fmt: skip
    items = profile.read_references(*english_test({}))
    attributes = [profile.item_attributes(i.input, i.references, i.attributes) for i in items]
    assert profile.subsets_problem(attributes) is None
    assert [profile.subset_names(found) for found in attributes][:2] == [["3"], ["2"]]


def test_a_kind_whose_parts_are_made_for_two_languages_is_refused():
    kind = bundle_kind(RUSSIAN, name="mixed")
    kind["metrics"] = [*kind["metrics"][:2], {**kind["metrics"][2], "tokens": "nltk-punkt"}]
    with pytest.raises(KindError) as refused:
        build_profile(kind)
    assert str(refused.value) == (
        "kind: its reader's language 'ru' and metrics[2]'s tokens nltk-punkt (en) are made for "
        "different languages: a kind scores one language (make one kind per language)"
    )


def test_a_file_in_a_language_the_kind_has_no_tokens_for_is_refused_saying_why():
    """No reader language: the tokeniser says what the kind is for; the Russian references
    alone (no English <lex> beside) cannot be scored with English tokens."""
    kind = bundle_kind(ENGLISH, name="tokens-only", reader="webnlg-xml", subsets=[])
    russian = (RUSSIAN / "test_with_lex.xml").read_text(encoding="utf-8")
    only_russian = "\n".join(line for line in russian.splitlines() if 'lang="en"' not in line)
    with pytest.raises(InputError) as refused:
        build_profile(kind).read_references(only_russian.encode(), "ru.xml")
    assert str(refused.value).startswith(
        "ru.xml, line 13: has <lex> references in ru only, but the kind is made for 'en' "
        "(metrics[2]'s tokens nltk35-punkt (en)): it cannot score this file"
    )


def test_the_russian_kind_reads_the_russian_references_and_refuses_the_english_file():
    profile = build_profile(bundle_kind(RUSSIAN))
    items = profile.read_references((RUSSIAN / "test_with_lex.xml").read_bytes(), "ru.xml")
    assert items[0].references[0].startswith("Аэропорт Тарн-Вэлли")
    assert all(not ref.isascii() for item in items for ref in item.references)
    english = (ENGLISH / "test" / "test_with_lex.xml").read_text().replace("<lex ", '<lex lang="" ')
    with pytest.raises(InputError, match=r"no <lex> reference in language 'ru' \(the file's "):
        profile.read_references(english.encode(), "en.xml")


def test_a_training_file_sets_the_seen_categories_of_a_bundle_defined_kind():
    kind = bundle_kind(ENGLISH, subsets=["seen", "type"])
    name = build_profile({**kind, "subsets": ["type"]}).name
    train = (ENGLISH / "test" / "test_with_lex.xml").read_bytes()
    for given in (name, kind):  # the profile's name (as a track has it), or the definition
        variant = trained_variant(given, train, "train.xml")
        assert variant["name"] == "webnlg2020-en-split"
        assert variant["reader"]["seen_categories"] == [
            "Airport", "Athlete", "Building", "CelestialBody", "Food", "Politician",
        ]  # fmt: skip
        assert variant["reader"]["instance_types"] == TYPES
    items = build_profile(variant).read_references(*folder_as_zip(ENGLISH / "test", ".xml"))
    assert {item.attributes["seen"] for item in items} == {"seen"}


def test_a_kind_whose_reader_takes_no_training_file_says_so():
    with pytest.raises(KindError, match=r"kind k: its reader \(parallel\) takes no training"):
        trained_variant({"name": "k", "reader": "parallel"}, b"x\n", "train.txt")
