"""The JSON API's OpenAPI 3 description, served at ``/api/v1/openapi.json``.

Written by hand beside the routes in ``app/web/api/v1.py`` (apispec assembles and checks the
document); ``tests/app/web/api/test_openapi.py`` fails when a route under ``/api/v1`` has no
description here, so a new route cannot go undocumented.
"""

from __future__ import annotations

from functools import cache

from apispec import APISpec

from scorer import __version__

PREFIX = "/api/v1"
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""Public answers; with a token, what that account may see besides (its own or, for
organisers, hidden scores)."""

TRACK = f"{PREFIX}/challenges/{{slug}}/tracks/{{track_slug}}"
SLUG = {"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}}
TRACK_SLUG = {"name": "track_slug", "in": "path", "required": True, "schema": {"type": "string"}}


def _query(name: str, description: str, **schema: object) -> dict:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": {"type": "string", **schema},
    }


def _json(schema: str, description: str) -> dict:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _error(description: str) -> dict:
    return _json("Error", description)


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
        "required": ["challenge", "track", "profile", "built_in", "definition"],
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

PATHS: dict[str, dict] = {
    f"{TRACK}/submissions": {
        "post": {
            "summary": "Upload a system's outputs",
            "description": (
                "The file is checked at once with the scorer's readers (one output per test "
                "input, in order); a refused file stores nothing. Accepted files are queued "
                "and scored by a worker: poll the submission."
            ),
            "security": BEARER,
            "parameters": [SLUG, TRACK_SLUG],
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["file", "system"],
                            "properties": {
                                "file": {"type": "string", "format": "binary"},
                                "system": {"type": "string", "description": "Your system's name."},
                                "language": {
                                    "type": "string",
                                    "description": "Test set of a multilingual track.",
                                },
                            },
                        }
                    }
                },
            },
            "responses": {
                "202": {
                    **_json("SubmissionCreated", "Stored and queued."),
                    "headers": {"Location": {"schema": {"type": "string"}}},
                },
                "400": _error("Refused (the reason names the line and the rule); nothing stored."),
                "401": _error("No valid API token."),
                "404": _error("No such track."),
            },
        }
    },
    f"{PREFIX}/submissions/{{submission_id}}": {
        "get": {
            "summary": "A submission's status, place in the queue and scores",
            "security": BEARER,
            "parameters": [
                {
                    "name": "submission_id",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "integer"},
                }
            ],
            "responses": {
                "200": _json("Submission", "Its state; scores once scored and visible to you."),
                "401": _error("No valid API token."),
                "404": _error("No submission of that id visible to you."),
            },
        }
    },
    f"{TRACK}/inputs": {
        "get": {
            "summary": "The test inputs an output file answers line by line",
            "parameters": [
                SLUG,
                TRACK_SLUG,
                _query("language", "Test set language (default: the track's first)."),
                _query("filename", "Without language: the test set an upload so named goes to."),
            ],
            "responses": {
                "200": _json("Inputs", "The inputs in test order."),
                "400": _error("The file name names no language of the track."),
                "404": _error("No such track or test set."),
            },
        }
    },
    f"{TRACK}/kind": {
        "get": {
            "summary": "The track's kind: its profile's name and an organiser's definition",
            "description": (
                "nlgboard-submit and nlg-score build the board's own profile from the "
                "definition, so a file is read and scored offline as the board reads and "
                "scores it."
            ),
            "parameters": [SLUG, TRACK_SLUG],
            "responses": {
                "200": _json("Kind", "The profile name and the definition (null if built in)."),
                "404": _error("No such track."),
            },
        }
    },
    f"{TRACK}/leaderboard": {
        "get": {
            "summary": "A track's leaderboard, as the page shows it to the caller",
            "security": OPTIONAL_BEARER,
            "parameters": [
                SLUG,
                TRACK_SLUG,
                _query("language", "Test set language."),
                _query("all", "1: secondary systems too.", enum=["1"]),
                _query("sort", "A metric to sort by (default: the track's primary one)."),
                _query("order", "Sort direction.", enum=["asc", "desc"]),
            ],
            "responses": {
                "200": _json("Leaderboard", "Rows in rank order."),
                "404": _error("No such track or test set."),
            },
        }
    },
    f"{TRACK}/breakdown": {
        "get": {
            "summary": "The leaderboard by an item attribute: every metric per bucket",
            "description": (
                "Each bucket's figures come from the stored per-item statistics, with its item "
                "count and, where the caller sees exact scores, a 95% bootstrap interval. "
                "Buckets under 30 items are hidden from teams until the results are published."
            ),
            "security": OPTIONAL_BEARER,
            "parameters": [
                SLUG,
                TRACK_SLUG,
                {
                    **_query("attribute", "WebNLG: seen, category, size; E2E: slots, slot:food..."),
                    "required": True,
                },
                _query("language", "Test set language."),
                _query("all", "1: secondary systems too.", enum=["1"]),
            ],
            "responses": {
                "200": _json("Breakdown", "One entry per leaderboard row."),
                "404": _error("No such track, test set or attribute."),
            },
        }
    },
    f"{TRACK}/compare": {
        "get": {
            "summary": "Two systems compared: paired bootstrap per metric, per bucket, per item",
            "description": (
                "Both systems must be on the caller's leaderboard. items is null until the "
                "caller may see per-item figures (organisers; everyone once the results are "
                "published)."
            ),
            "security": OPTIONAL_BEARER,
            "parameters": [
                SLUG,
                TRACK_SLUG,
                {
                    **_query("a", "System A's id (leaderboard rows link to it).", type="integer"),
                    "required": True,
                },
                {**_query("b", "System B's id.", type="integer"), "required": True},
                _query("attribute", "Also compare on each value of this item attribute."),
                _query("filter", "Which items to list.", enum=["all", "only-a", "only-b", "both"]),
                _query("limit", "Items listed (0: all; default 100).", type="integer"),
                _query("language", "Test set language."),
            ],
            "responses": {
                "200": _json("Comparison", "A minus B."),
                "400": _error("a or b missing."),
                "404": _error("No such track, test set, attribute or listed system."),
            },
        }
    },
    f"{PREFIX}/challenges/{{slug}}/overview": {
        "get": {
            "summary": "Teams by (track, language) for one metric (SR'18 Tables 3-5)",
            "security": OPTIONAL_BEARER,
            "parameters": [SLUG, _query("metric", "Default: the challenge's first metric.")],
            "responses": {
                "200": _json("Overview", "One row per team."),
                "404": _error("No such challenge."),
            },
        }
    },
    f"{PREFIX}/openapi.json": {
        "get": {
            "summary": "This description",
            "responses": {"200": {"description": "An OpenAPI 3 document."}},
        }
    },
}


@cache
def openapi_document() -> dict:
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
    for path, operations in PATHS.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()
