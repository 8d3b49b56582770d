"""The JSON API is described by an OpenAPI document the board serves: every route under
``/api/v1`` (a new one without a description fails here), and the answers carry the fields
it names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask

from app.web.api.openapi import openapi_document
from tests.support.board import API, bearer

IGNORED_METHODS = {"HEAD", "OPTIONS"}


def _openapi_path(rule: str) -> str:
    """``/submissions/<int:submission_id>`` -> ``/submissions/{submission_id}``."""
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


def _routes(app: Flask) -> list[tuple[str, str]]:
    return [
        (_openapi_path(rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1")
        for method in sorted((rule.methods or set()) - IGNORED_METHODS)
    ]


def _undocumented(app: Flask) -> list[tuple[str, str]]:
    paths = openapi_document(app)["paths"]
    return [(path, method) for path, method in _routes(app) if method not in paths.get(path, {})]


def test_every_api_route_is_described(app):
    paths = openapi_document(app)["paths"]
    routes = _routes(app)
    assert len(routes) >= 6
    assert _undocumented(app) == [], "API routes without an OpenAPI description"
    documented = {(path, method) for path, operations in paths.items() for method in operations}
    assert documented - set(routes) == set(), "descriptions of routes that do not exist"
    assert "/api/v1/submissions/{submission_id}" in paths
    for path, method in routes:
        operation = paths[path][method]
        assert operation["summary"] and operation["responses"], (path, method)


def test_the_document_is_valid_openapi_and_served_by_the_board(client):
    validator = pytest.importorskip("openapi_spec_validator")
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200 and answer.json == openapi_document(client.application)
    validator.validate(answer.json)
    assert answer.json["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"


def test_a_route_without_a_description_is_caught(app):
    """A route added under /api/v1 without ``@documented`` is missing from the document."""
    app.add_url_rule("/api/v1/teams/<int:team_id>", "undocumented", lambda team_id: "")
    assert _undocumented(app) == [("/api/v1/teams/{team_id}", "get")]


def test_the_document_is_the_one_written_by_hand_before_it_moved_beside_the_routes(app):
    """``openapi_document.json`` is the hand-written document of ``openapi.py`` (issue 43) as it
    stood before each route carried its own description: the move changed no word of it."""
    document = json.loads(json.dumps(openapi_document(app)))
    document["info"]["version"] = "VERSION"
    expected = json.loads((Path(__file__).parent / "openapi_document.json").read_text())
    assert document == expected


def _fields(app: Flask, name: str) -> tuple[set[str], set[str]]:
    schema = openapi_document(app)["components"]["schemas"][name]
    return set(schema["properties"]), set(schema.get("required", []))


@pytest.mark.parametrize(
    ("url", "schema"),
    [
        ("/api/v1/submissions/1", "Submission"),
        (f"{API}/inputs", "Inputs"),
        (f"{API}/leaderboard", "Leaderboard"),
        ("/api/v1/challenges/demo/overview", "Overview"),
    ],
)
def test_answers_carry_exactly_the_described_fields(client, two_teams, url, schema):
    answer = client.get(url, headers=bearer(two_teams["A"]))
    assert answer.status_code == 200, answer.json
    described, required = _fields(client.application, schema)
    assert required <= set(answer.json) <= described, url
    if schema == "Leaderboard":
        row_fields, _ = _fields(client.application, "LeaderboardRow")
        assert all(set(row) <= row_fields for row in answer.json["rows"])
