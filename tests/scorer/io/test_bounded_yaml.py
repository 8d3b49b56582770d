"""Given YAML nested deeper than a loader composes is a refusal naming the file, never a
``RecursionError``: a ``--kinds`` file and a bundle's ``challenge.yaml``, with libyaml's loader
and with PyYAML's own (what a PyYAML built without libyaml uses)."""

from __future__ import annotations

import pytest
import yaml

from app.web.services import bundles
from app.web.services.bundles import Bundle, BundleError, load_definition
from scorer.errors import KindError
from scorer.io import bounded_yaml
from scorer.kinds.definitions import read_kinds

DEEP = "kinds: " + "[" * 1_200 + "]" * 1_200 + "\n"
"""Past libyaml's limit (1,000) and past what PyYAML's loader composes within Python's recursion
limit (its pure-Python scanner takes minutes on 50,000 levels, quadratic in the depth)."""
LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


@pytest.fixture(params=LOADERS, ids=lambda loader: loader.__name__)
def loader(request, monkeypatch):
    monkeypatch.setattr(bounded_yaml, "LOADER", request.param)
    monkeypatch.setattr(bundles, "LOADER", request.param)
    return request.param


def test_a_kinds_file_nested_too_deep_is_refused_naming_it(loader):
    with pytest.raises(KindError, match=r"^deep\.yaml: not a YAML file \("):
        read_kinds(DEEP.encode(), "deep.yaml")


def test_a_bundle_definition_nested_too_deep_is_refused_naming_it():
    """(With the default loader: the bundle reader parses twice, and PyYAML's pure-Python
    scanner is quadratic in the depth; its loader's refusal is the kinds file's above.)"""
    bundle = Bundle(files={"challenge.yaml": ("format: 1\n" + DEEP).encode()})
    with pytest.raises(BundleError, match=r"^challenge\.yaml( line \d+)?: not valid YAML: "):
        load_definition(bundle)


def test_shallow_yaml_still_reads(loader):
    assert bounded_yaml.load_yaml("kinds: [[1, [2]]]") == {"kinds": [[1, [2]]]}
