"""Helpers that more than one test module uses to build tracks and post files."""

from __future__ import annotations

import io

from tests.support.factories import GOOD_OUTPUT, demo_track, participant
from tests.support.paths import DEMO_DATA

DEMO_DRS = DEMO_DATA / "drs"
DRS_API = "/api/v1/challenges/drs/tracks/gen"
SHALLOW = "/api/v1/challenges/sr18/tracks/shallow"

SR18_DEV_SIZES = {
    "ar": 897,
    "cs": 9016,
    "en": 1978,
    "es_ancora": 1651,
    "fi": 1336,
    "fr": 1473,
    "it": 562,
    "nl": 720,
    "pt": 559,
    "ru_syntagrus": 6441,
}
"""Sentences per SR'18 dev set (SR'18 paper, Table 2)."""
SHALLOW_INPUTS = ["ar", "en", "es_ancora", "fi", "fr", "it", "nl", "pt"]
DEEP_INPUTS = ["en", "es_ancora", "fr"]


def invoke(runner, *args: object):
    return runner.invoke(args=[str(a) for a in args])


def post(client, token, data, filename, system="sys", language=None, url=SHALLOW):
    """An API upload (SR'18 shallow track unless ``url`` says otherwise)."""
    form = {"file": (io.BytesIO(data), filename), "system": system}
    if language:
        form["language"] = language
    return client.post(
        f"{url}/submissions",
        data=form,
        headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )


def demo_drs_track(runner) -> None:
    """Track drs/gen, English: 4 standard items, a tense set of 2 and a polarity set of 1."""
    assert invoke(runner, "challenge", "create", "drs", "--title", "DRS").exit_code == 0
    result = invoke(
        runner, "track", "import", "drs", "gen", "--kind", "drs", "--language", "en",
        "--inputs", DEMO_DRS / "test.txt", "--refs", DEMO_DRS / "test.txt.raw",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for name in ("tense", "polarity"):
        result = invoke(
            runner, "track", "challenge-set", "drs", "gen", "--language", "en", "--name", name,
            "--inputs", DEMO_DRS / f"{name}.txt", "--refs", DEMO_DRS / f"{name}.txt.raw",
        )  # fmt: skip
        assert result.exit_code == 0, result.output


def upload_drs(client, settings, data: bytes, system: str = "charlstm") -> int:
    token = participant(settings, f"{system}@example.org", team=f"team-{system}")
    response = post(client, token, data, "en_out.txt", system, "en", url=DRS_API)
    assert response.status_code == 202, response.get_json()
    return response.get_json()["id"]


def queued_submission(client, settings) -> int:
    """One E2E demo-track upload by team A, queued (nobody runs the queue)."""
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    response = client.post(
        "/api/v1/challenges/demo/tracks/main/submissions",
        data={"file": (io.BytesIO(GOOD_OUTPUT), "out.txt"), "system": "s"},
        headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )
    return response.json["id"]
