"""Liveness and readiness for load balancers and container healthchecks.

``/healthz``: the process answers (restart it if not). ``/readyz``: it can serve, i.e. the
database is reachable and migrated, Redis answers and uploads can be stored (send it traffic
only then). Neither needs a login, neither tells more than the kind of a failure.
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from app.web.extensions import settings, storage, submission_queue
from app.web.services.status import readiness

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz() -> ResponseReturnValue:
    checks = readiness(settings(), submission_queue(), storage())
    ready = all(check.ok for check in checks)
    body = {
        "status": "ready" if ready else "not ready",
        "checks": {check.name: {"ok": check.ok, "detail": check.detail} for check in checks},
    }
    return jsonify(body), 200 if ready else 503
