"""The JSON API's OpenAPI 3 description, served at ``/api/v1/openapi.json``.

Each route in ``app/web/api/v1.py`` carries its own operation, written where the route is
(``@documented(summary=..., responses=...)`` under ``@bp.get``/``@bp.post``); the path and its
path parameters come from the route's rule (``<int:submission_id>`` -> ``{submission_id}``, an
integer). ``openapi_document`` reads them off the app's URL map and adds the shared schemas
below (apispec assembles and checks the document). ``tests/app/web/api/test_openapi.py`` fails
when a route under ``/api/v1`` has no description, so a new route cannot go undocumented.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from apispec import APISpec
from flask import Flask

from scorer import __version__

PREFIX = "/api/v1"
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""Public answers; with a token, what that account may see besides (its own or, for
organisers, hidden scores)."""

OPERATION = "openapi_operation"
"""The attribute ``documented`` sets on a view: its OpenAPI operation."""
IGNORED_METHODS = frozenset({"HEAD", "OPTIONS"})
PATH_TYPES = {"int": "integer", "float": "number"}
"""OpenAPI types of Flask's path converters (any other, ``string`` and ``path``: a string)."""
VIEW = TypeVar("VIEW", bound=Callable[..., object])


def query(name: str, description: str, *, required: bool = False, **schema: object) -> dict:
    return {
        "name": name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": {"type": "string", **schema},
    }


def json_response(schema: str, description: str) -> dict:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def error_response(description: str) -> dict:
    return json_response("Error", description)


def documented(
    *,
    summary: str,
    responses: dict[str, dict],
    description: str | None = None,
    security: list[dict[str, list[str]]] | None = None,
    parameters: Sequence[dict] = (),
    request_body: dict | None = None,
) -> Callable[[VIEW], VIEW]:
    """The route's OpenAPI operation, for each of its methods. Its path parameters come from
    its rule; ``parameters`` are the others (query...)."""
    operation: dict[str, object] = {"summary": summary}
    if description is not None:
        operation["description"] = description
    if security is not None:
        operation["security"] = security
    operation["parameters"] = list(parameters)
    if request_body is not None:
        operation["requestBody"] = request_body
    operation["responses"] = responses

    def attach(view: VIEW) -> VIEW:
        setattr(view, OPERATION, operation)
        return view

    return attach


def openapi_path(rule: str) -> tuple[str, list[dict]]:
    """``/submissions/<int:submission_id>`` -> ``/submissions/{submission_id}`` and its path
    parameter ``submission_id``, an integer."""
    parameters = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": PATH_TYPES.get(converter, "string")},
        }
        for converter, name in re.findall(r"<(?:([^:<>(]+)(?:\([^)]*\))?:)?([^:<>]+)>", rule)
    ]
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule), parameters


NUMBERS = {"type": "object", "additionalProperties": {"type": "number"}}
TEXTS = {"type": "object", "additionalProperties": {"type": "string"}}

SCHEMAS: dict[str, dict] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "string", "description": "What was wrong, in words."}},
    },
    "SubmissionCreated": {
        "type": "object",
        "required": ["id", "status", "submissions"],
        "properties": {
            "id": {"type": "integer", "description": "The first submission's id."},
            "status": {"type": "string", "enum": ["queued", "running", "scored", "failed"]},
            "submissions": {
                "type": "array",
                "description": "One per language of the upload (a zip may answer several).",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer"},
                        "language": {"type": "string"},
                        "status": {"type": "string"},
                    },
                },
            },
            "warnings": {
                "type": "array",
                "items": {"type": "string"},
                "description": "What is odd about the accepted file (an empty output, another "
                "language's script), each naming the file, the line and the rule.",
            },
        },
    },
    "Submission": {
        "type": "object",
        "required": ["id", "system", "language", "status", "scores", "signatures"],
        "properties": {
            "id": {"type": "integer"},
            "system": {"type": "string"},
            "language": {"type": "string"},
            "status": {"type": "string", "enum": ["queued", "running", "scored", "failed"]},
            "error": {"type": "string", "nullable": True, "description": "Why it failed."},
            "late": {"type": "boolean", "description": "Uploaded after the track's deadline."},
            "created_at": {"type": "string", "format": "date-time"},
            "finished_at": {"type": "string", "format": "date-time", "nullable": True},
            "withdrawn": {"type": "boolean"},
            "scores_hidden": {
                "type": "boolean",
                "description": "Test phase: the scores stay hidden until the organisers publish.",
            },
            "position": {
                "type": "integer",
                "description": "While queued or running: 1 = being scored or next.",
            },
            "estimate_seconds": {
                "type": "number",
                "nullable": True,
                "description": "While waiting: seconds until the scores, from measured job times.",
            },
            "metrics": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The metric names in the track's column order (the papers').",
            },
            "scores": {**NUMBERS, "description": "Metric name -> corpus score."},
            "signatures": {**TEXTS, "description": "Metric name -> the score's signature."},
        },
    },
    "Inputs": {
        "type": "object",
        "properties": {
            "challenge": {"type": "string"},
            "track": {"type": "string"},
            "language": {"type": "string"},
            "profile": {"type": "string", "description": "The scorer profile (nlg-score)."},
            "languages": {"type": "array", "items": {"type": "string"}},
            "inputs": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The test inputs in order: one output per input.",
            },
        },
    },
    "Kind": {
        "type": "object",
        "required": ["challenge", "track", "profile", "built_in", "definition", "title", "submit"],
        "properties": {
            "challenge": {"type": "string"},
            "track": {"type": "string"},
            "profile": {
                "type": "string",
                "description": "The profile that scores the track: a built-in kind's name, or "
                "an organiser's kind as NAME@DIGEST (the digest of its definition).",
            },
            "built_in": {"type": "boolean"},
            "definition": {
                "type": "object",
                "nullable": True,
                "description": "An organiser's kind definition, as in its bundle (null for a "
                "built-in kind): readers, normalisation, metrics with their options, subsets.",
            },
            "title": {"type": "string", "description": "What the kind is called."},
            "submit": {
                "type": "object",
                "required": ["layout", "example"],
                "description": "What an output file looks like: the kind's words (Markdown) "
                "and the start of an example file.",
                "properties": {"layout": {"type": "string"}, "example": {"type": "string"}},
            },
        },
    },
    "Breakdown": {
        "type": "object",
        "required": ["attribute", "metrics", "buckets", "rows"],
        "properties": {
            "attribute": {"type": "string"},
            "attributes": {"type": "array", "items": {"type": "string"}},
            "metrics": {"type": "array", "items": {"type": "string"}},
            "buckets": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"value": {"type": "string"}, "items": {"type": "integer"}},
                },
            },
            "hidden_buckets": {"type": "array", "items": {"type": "string"}},
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "system_id": {"type": "integer"},
                        "system": {"type": "string"},
                        "team": {"type": "string", "nullable": True},
                        "baseline": {"type": "boolean"},
                        "buckets": {
                            "type": "object",
                            "description": "bucket -> metric -> "
                            "{value, low, high} (low/high only with exact scores)",
                        },
                    },
                },
            },
        },
    },
    "Comparison": {
        "type": "object",
        "required": ["a", "b", "metrics", "items"],
        "properties": {
            "a": {"type": "object"},
            "b": {"type": "object"},
            "metrics": {
                "type": "array",
                "items": {
                    "type": "object",
                    "description": "metric, a, b, difference, p_value (paired bootstrap), low, high",
                },
            },
            "attribute": {"type": "string", "nullable": True},
            "attributes": {"type": "array", "items": {"type": "string"}},
            "buckets": {"type": "array", "items": {"type": "object"}},
            "hidden_buckets": {"type": "array", "items": {"type": "string"}},
            "item_metric": {"type": "string", "nullable": True},
            "filter": {"type": "string"},
            "items_matching": {"type": "integer", "nullable": True},
            "items": {
                "type": "array",
                "nullable": True,
                "items": {
                    "type": "object",
                    "description": "position, input, output_a, output_b, figure_a, figure_b, "
                    "difference, wrong_a, wrong_b, references, attributes",
                },
            },
        },
    },
    "LeaderboardRow": {
        "type": "object",
        "properties": {
            "system_id": {
                "type": "integer",
                "description": "The board's id (human-evaluation imports match it).",
            },
            "system": {"type": "string", "description": '"anonymous" for an anonymised system.'},
            "team": {"type": "string", "nullable": True},
            "baseline": {"type": "boolean"},
            "primary": {"type": "boolean"},
            "late": {"type": "boolean"},
            "architecture": {"type": "string"},
            "scores": NUMBERS,
            "signatures": TEXTS,
            "described": {**NUMBERS, "description": "Textual statistics of the outputs (E2E)."},
            "subsets": {
                "type": "object",
                "additionalProperties": NUMBERS,
                "description": "Scores on named subsets (DRS challenge sets).",
            },
        },
    },
    "HumanRow": {
        "type": "object",
        "properties": {
            "system_id": {
                "type": "integer",
                "nullable": True,
                "description": "The board's id; none for the references and for an "
                "imported name that is no system of this board.",
            },
            "team": {"type": "string", "nullable": True},
            "system": {
                "type": "string",
                "description": '"anonymous" for an anonymised system, "HUMAN" for the references.',
            },
            "label": {
                "type": "string",
                "description": 'As the pages, plots and exports name it: "team / system".',
            },
            "references": {"type": "boolean"},
            "cluster": {"type": "integer", "nullable": True},
            "values": {
                "type": "object",
                "description": "The human figures by column, as the table prints them: "
                "numbers, a rank range as text.",
            },
            "scores": {
                **NUMBERS,
                "description": "The automatic metrics beside, as the caller's leaderboard "
                "gives them.",
            },
            "printed": {
                **TEXTS,
                "description": "The same as the track's kind prints them (decimals, scale).",
            },
        },
    },
    "HumanEvaluation": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "method": {"type": "string"},
            "criterion": {"type": "string"},
            "language": {"type": "string"},
            "clusters": {
                "type": "string",
                "description": "The cluster procedure the table was published by (wmt, "
                "webnlg2020, trueskill, rank-ranges, none).",
            },
            "options": {
                "type": "object",
                "description": "The protocol's options the campaign set (Likert: criteria with "
                "scale and direction, aggregate; pairwise: ties); empty: its defaults.",
            },
            "options_text": {"type": "string", "description": "The options in words."},
            "agreement": {
                "type": "object",
                "nullable": True,
                "description": "krippendorff_alpha, level, units, complete_share, judges.",
            },
            "judgements": {"type": "integer"},
            "quality_control": {"type": "string", "description": "Direct Assessment only."},
            "annotators": {
                "type": "object",
                "description": "Direct Assessment only: total, kept, dropped by rule.",
            },
            "columns": {"type": "array", "items": {"type": "string"}},
            "metrics": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The automatic metrics beside: those a row has, at most five.",
            },
            "printing": {**TEXTS, "description": "How each metric is printed, in words."},
            "rows": {"type": "array", "items": {"$ref": "#/components/schemas/HumanRow"}},
            "correlation": {"type": "object", "nullable": True},
        },
    },
    "HumanEvaluations": {
        "type": "object",
        "properties": {
            "challenge": {"type": "string"},
            "track": {"type": "string"},
            "campaigns": {
                "type": "array",
                "items": {"$ref": "#/components/schemas/HumanEvaluation"},
            },
        },
    },
    "Leaderboard": {
        "type": "object",
        "properties": {
            "challenge": {"type": "string"},
            "track": {"type": "string"},
            "language": {"type": "string", "nullable": True},
            "phase": {"type": "string", "enum": ["development", "test"]},
            "published": {"type": "boolean", "description": "Whether scores are public."},
            "metrics": {"type": "array", "items": {"type": "string"}},
            "rows": {"type": "array", "items": {"$ref": "#/components/schemas/LeaderboardRow"}},
            "references": {
                "type": "object",
                "description": "Textual statistics of the references, once public.",
            },
            "subsets": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "items": {"type": "integer"},
                        "paired_with_originals": {"type": "integer"},
                    },
                },
            },
        },
    },
    "Overview": {
        "type": "object",
        "properties": {
            "challenge": {"type": "string"},
            "metric": {"type": "string", "nullable": True},
            "metrics": {"type": "array", "items": {"type": "string"}},
            "signatures": {"type": "array", "items": {"type": "string"}},
            "columns": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"track": {"type": "string"}, "language": {"type": "string"}},
                },
            },
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "team": {"type": "string"},
                        "baseline": {"type": "boolean"},
                        "cells": {
                            "type": "array",
                            "description": "One per column; null where not submitted.",
                            "items": {
                                "type": "object",
                                "nullable": True,
                                "properties": {
                                    "value": {"type": "number"},
                                    "late": {"type": "boolean"},
                                    "best": {"type": "boolean"},
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def openapi_document(app: Flask) -> dict:
    """The document of ``app``'s routes under ``/api/v1`` (built once per app)."""
    if "openapi_document" not in app.extensions:
        app.extensions["openapi_document"] = _document(app)
    document: dict = app.extensions["openapi_document"]
    return document


def _document(app: Flask) -> dict:
    spec = APISpec(
        title="NLG shared-task board API",
        version=__version__,
        openapi_version="3.0.3",
        info={
            "description": (
                "Submit system outputs, follow their scoring and read leaderboards. Send the "
                "team's API token (Team page) as 'Authorization: Bearer <token>'."
            )
        },
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema)
    for rule in app.url_map.iter_rules():
        operation = getattr(app.view_functions[rule.endpoint], OPERATION, None)
        if not rule.rule.startswith(f"{PREFIX}/") or operation is None:
            continue  # an undocumented route under /api/v1 fails tests/app/web/api/test_openapi.py
        path, path_parameters = openapi_path(rule.rule)
        operation = copy.deepcopy(operation)
        operation["parameters"] = path_parameters + operation["parameters"]
        if not operation["parameters"]:
            del operation["parameters"]
        methods = sorted((rule.methods or set()) - IGNORED_METHODS)
        spec.path(path=path, operations={method.lower(): operation for method in methods})
    return spec.to_dict()
