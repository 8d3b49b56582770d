"""WebNLG+ 2020 files for the held-back checks and the job benchmark (``../shared/data/webnlg/
2020``): the real dev sets as the kinds read them, and the English test inputs made a
references file.

The test references are held back, so a test-set-sized references file is made from the test
inputs themselves: each entry gets four ``<lex lang="">`` written from its triples
(``pseudo_references``, underscores as spaces): reference-derived, never a real text.
Outputs for it are generated from those references (``webnlg_cases.outputs``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml

from tests.support.paths import DEMO_DATA, SHARED_DATA, shared_file

WEBNLG_2020 = SHARED_DATA / "webnlg" / "2020"
ENGLISH_TEST = WEBNLG_2020 / "en" / "test" / "rdf-to-text-generation-test-data-without-refs-en.xml"
INSTANCE_TYPES = WEBNLG_2020 / "en" / "test" / "rdf-to-text-generation-test-instance-types.json"
OFFICIAL_SPLIT = {"seen categories": 490, "unseen entities": 393, "unseen categories": 896}
"""The English test set's entries per type (the release's instance-types file)."""


def bundle_kind(language: str, **changes: Any) -> dict[str, Any]:
    """The example bundle's kind for ``language`` (``en``: app/demo_data/webnlg, ``ru``:
    app/demo_data/webnlg-ru), with ``changes``; ``metrics`` may name the columns to keep."""
    folder = DEMO_DATA / ("webnlg" if language == "en" else f"webnlg-{language}")
    definition = dict(yaml.safe_load((folder / "challenge.yaml").read_text())["kinds"][0])
    keep = changes.pop("keep", None)
    if keep is not None:
        definition["metrics"] = [m for m in definition["metrics"] if _metric(m) in keep]
    return {**definition, **changes}


def _metric(entry: Any) -> str:
    return entry if isinstance(entry, str) else str(entry["metric"])


def pseudo_references(entry: ET.Element) -> list[str]:
    """Four references written from an entry's modified triples (``subject property object.``
    and ``subject has property object.``, in the triples' order and reversed): four, so no
    reference file has an empty line (eval.py's METEOR files lose a last empty line)."""
    triples = []
    for triple in entry.iter("mtriple"):
        parts = [
            " ".join(p.strip().replace("_", " ").split()) for p in (triple.text or "").split("|")
        ]
        triples.append(parts)
    plain = [" ".join(parts) + "." for parts in triples]
    has = [f"{parts[0]} has {' '.join(parts[1:])}." for parts in triples]
    return [" ".join(plain), " ".join(has), " ".join(plain[::-1]), " ".join(has[::-1])]


def english_test_with_references() -> bytes:
    """The English test inputs, each entry with its reference-derived ``<lex lang="">``."""
    root = ET.parse(shared_file(ENGLISH_TEST)).getroot()
    for entry in root.iter("entry"):
        for number, text in enumerate(pseudo_references(entry), 1):
            attributes = {"comment": "good", "lang": "", "lid": f"Id{number}"}
            ET.SubElement(entry, "lex", attributes).text = text
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def english_test_folder(folder: Path) -> Path:
    """A test folder as the kind reads it: the XML with references and the instance types."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "test_with_lex.xml").write_bytes(english_test_with_references())
    (folder / INSTANCE_TYPES.name).write_bytes(shared_file(INSTANCE_TYPES).read_bytes())
    return folder
