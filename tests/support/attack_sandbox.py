"""The attacks that change things, aimed at the world's sandbox challenge (or at what they
may change anyway): organisers' forms with hostile values and bad files, teams' uploads of
the bad-upload corpus, annotation pages, registration and teams. Every answer goes through
the same checks as the read-only crawl (``attack.Attacker.check``)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

from tests.support.attack import HOSTILE, Attacker
from tests.support.attack_world import CSRF, E2E_REFS, SANDBOX, Http, csrf
from tests.support.paths import DEMO_DATA

BAD_UPLOADS = Path(__file__).resolve().parents[1] / "data" / "bad_uploads"
MARKDOWN = [
    "[x](javascript:alert(1))",
    "<img src=x onerror=alert(1)>",
    "![x](https://evil.example/x.png)",
    "<a href='javascript:alert(1)'>x</a>",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "```\n<script>alert(1)</script>\n```",
    "x" * 6000,
]
DEADLINES = [
    "2017-10-31T23:59",
    "9999-12-31T23:59",
    "0001-01-01T00:00",
    "2017-02-30T10:00",
    "2017-10-31",
    "2017-10-31T25:61",
]
TRACK = f"/organise/{SANDBOX}/tracks"
HUMAN = f"/challenges/{SANDBOX}/tracks/s-e2e/human"


def bad_files() -> Iterator[tuple[str, bytes]]:
    """The bad-upload corpus and a few more: an over-long CSV field, a zip bomb's header, NUL
    in a name, a file of one line feed."""
    for path in sorted(BAD_UPLOADS.iterdir()):
        yield path.name, path.read_bytes()
    yield "long-field.csv", b'mr,ref\n"' + b"x" * 200_000 + b'",y\n'
    yield "lf.txt", b"\n"
    yield "a\x00b.txt", b"x\n"
    yield "../../evil.txt", (DEMO_DATA / "baseline.txt").read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("en.txt", b"\n" * 5_000_000)
    yield "bomb.zip", buffer.getvalue()


def attack_sandbox(attackers: dict[str, Attacker], fresh: Http) -> None:
    organiser(attackers["org_x"])
    admin(attackers["admin"])
    team(attackers["team_e"])
    annotator(attackers["annotator"])
    newcomer(attackers["anonymous"], fresh)


def _post(attacker: Attacker, page: str, url: str, fields: dict, files=None, api=False):
    """Post ``fields`` to ``url`` with the CSRF token of ``page`` (none when it has no form:
    the post is then refused for that)."""
    shown = attacker.http.request("GET", page).text if page else ""
    token = csrf(shown) if CSRF.search(shown) else ""
    data = {**fields, "csrf_token": token}
    for name in list(fields):
        if "-" in name:
            data[f"{name.split('-')[0]}-csrf_token"] = token
    return attacker.send("POST", url, data=data, files=files, api=api)


def organiser(attacker: Attacker) -> None:
    page = f"/organise/{SANDBOX}"
    for value in [*HOSTILE, *MARKDOWN]:
        for field in ("edit-title", "edit-description"):
            fields = {
                "action": "edit",
                "edit-title": "Sandbox",
                "edit-description": "",
                field: value,
            }
            _post(attacker, page, page, fields)
        attacker.send("GET", f"/challenges/{SANDBOX}")
    track = {"action": "track", "track-slug": "s-new", "track-kind": "e2e", "track-language": ""}
    for value in HOSTILE:
        for field in ("track-slug", "track-kind", "track-language", "track-subset", "track-title"):
            files = {"track-references": ("references.csv", E2E_REFS)}
            _post(attacker, page, page, {**track, field: value}, files)
    for name, data in bad_files():
        for kind in ("e2e", "sr-shallow", "drs"):
            fields = {**track, "track-kind": kind, "track-language": "en"}
            files = {"track-references": (name, data), "track-inputs": (name, data)}
            _post(attacker, page, page, fields, files)
    settings = {
        "settings-title": "s", "settings-phase": "development", "settings-max_primary": "2",
        "settings-daily_limit": "10000",
    }  # fmt: skip
    for value in [*HOSTILE, *DEADLINES]:
        for field in (
            "settings-title", "settings-phase", "settings-deadline", "settings-daily_limit",
            "settings-max_systems", "settings-max_primary", "settings-hide_own_scores",
        ):  # fmt: skip
            url = f"{TRACK}/s-e2e"
            _post(attacker, url, url, {**settings, field: value})
    _post(attacker, f"{TRACK}/s-e2e", f"{TRACK}/s-e2e", settings)
    for value in HOSTILE:
        _post(attacker, f"{TRACK}/s-e2e", f"{TRACK}/s-e2e/publish", {"published": value})
        for field in ("baseline-name", "baseline-language"):
            fields = {"baseline-name": "b", "baseline-language": "", field: value}
            files = {"baseline-file": ("b.txt", (DEMO_DATA / "baseline.txt").read_bytes())}
            _post(attacker, f"{TRACK}/s-e2e", f"{TRACK}/s-e2e/baselines", fields, files)
    for name, data in bad_files():
        fields = {"baseline-name": "bad", "baseline-language": ""}
        for slug in ("s-e2e", "s-sr", "s-drs"):
            files = {"baseline-file": (name, data)}
            _post(attacker, f"{TRACK}/{slug}", f"{TRACK}/{slug}/baselines", fields, files)
    _post(attacker, f"{TRACK}/s-e2e", f"{TRACK}/s-e2e/rescore", {})
    campaigns(attacker)
    attacker.send("GET", f"/organise/{SANDBOX}/audit")
    attacker.send("GET", f"{TRACK}/s-e2e/submissions.zip")


def campaigns(attacker: Attacker) -> None:
    base = {
        "new-name": "c1", "new-method": "rankme", "new-criterion": "quality", "new-items": "3",
        "new-annotators_per_hit": "1", "new-systems": "", "new-subset": "",
    }  # fmt: skip
    for value in HOSTILE:
        for field in base:
            _post(attacker, HUMAN, HUMAN, {**base, field: value})
    _post(attacker, HUMAN, HUMAN, {**base, "new-name": "ok", "new-include_human": "y"})
    for method in ("da", "rose"):
        _post(attacker, HUMAN, HUMAN, {**base, "new-name": method, "new-method": method})
    judgements = (DEMO_DATA / "human_quality.csv").read_bytes()
    upload = {"import-name": "i1", "import-method": "rankme", "import-criterion": "quality"}
    for value in HOSTILE:
        for field in upload:
            files = {"import-file": ("j.csv", judgements)}
            _post(attacker, HUMAN, f"{HUMAN}/import", {**upload, field: value}, files)
    for name, data in [*bad_files(), ("names.csv", _strange_judgements())]:
        for method in ("rankme", "da", "rose"):
            fields = {**upload, "import-method": method}
            _post(attacker, HUMAN, f"{HUMAN}/import", fields, {"import-file": (name, data)})
    preview = _post(
        attacker, HUMAN, f"{HUMAN}/import", upload, {"import-file": ("j.csv", judgements)}
    )
    token = re.search(r'name="preview" value="([^"]+)"', preview.text)
    for value in [*HOSTILE, "references", "external", "1", "999999999"]:
        fields = {"preview": token.group(1) if token else "", "map-0": value, "map-1": value}
        _post(attacker, HUMAN, f"{HUMAN}/import/confirm", fields)
        _post(attacker, HUMAN, f"{HUMAN}/import/confirm", {**fields, "preview": value})
    for value in HOSTILE:
        _post(attacker, f"{HUMAN}/ok", f"{HUMAN}/ok/links", {"count": value})
        _post(attacker, f"{HUMAN}/ok", f"{HUMAN}/ok/{value}", {})
    for action in ("analyse", "publish", "open", "open"):
        _post(attacker, f"{HUMAN}/ok", f"{HUMAN}/ok/{action}", {})


def _strange_judgements() -> bytes:
    """A long CSV whose names try the mapping: case twins, the references' label, formulas."""
    lines = ["item,system,annotator,criterion,score"]
    for item in range(1, 4):
        for name in ("HUMAN", "human", "=cmd|' /C calc'!A0", "a\u202eb", "x" * 300, "Ⅻ"):
            lines.append(f'{item},"{name}",ann,quality,{item * 10}')
    return ("\n".join(lines) + "\n").encode()


def admin(attacker: Attacker) -> None:
    fields = {"email": "nobody@attack.test", "role": "organiser", "challenge": ""}
    for value in HOSTILE:
        for field in fields:
            _post(attacker, "/organise/accounts", "/organise/accounts", {**fields, field: value})


def team(attacker: Attacker) -> None:
    good = (DEMO_DATA / "baseline.txt").read_bytes()
    for slug in ("s-e2e", "s-sr", "s-drs"):
        page = f"/challenges/{SANDBOX}/tracks/{slug}/submit"
        api = f"/api/v1/challenges/{SANDBOX}/tracks/{slug}/submissions"
        for name, data in bad_files():
            files = {"file": (name, data)}
            _post(attacker, page, page, {"system": "bad", "language": ""}, files)
            attacker.send("POST", api, api=True, data={"system": "bad"}, files=files)
        for value in HOSTILE:
            for field in ("system", "language"):
                fields = {"system": "s", "language": "", field: value}
                _post(attacker, page, page, fields, {"file": ("out.txt", good)})
                attacker.send("POST", api, api=True, data=fields, files={"file": ("o.txt", good)})
    mine = attacker.http.request("GET", "/submissions").text
    systems = sorted({int(i) for i in re.findall(r'<tr id="system-(\d+)"', mine)})
    submissions = sorted({int(i) for i in re.findall(r'<tr id="submission-(\d+)"', mine)})
    sandboxed = [i for i in systems if i not in attacker.own_systems]
    for system_id in sandboxed[:3]:
        for value in HOSTILE:
            url = f"/systems/{system_id}/architecture"
            _post(attacker, "/submissions", url, {"architecture": value})
        for action in ("primary", "anonymous", "primary", "anonymous"):
            _post(attacker, "/submissions", f"/systems/{system_id}/{action}", {})
    for submission_id in [i for i in submissions if i not in attacker.own_submissions][:3]:
        for action in ("withdraw", "restore", "restore"):
            _post(attacker, "/submissions", f"/submissions/{submission_id}/{action}", {})


def annotator(attacker: Attacker) -> None:
    listing = attacker.http.request("GET", "/annotate").text
    for campaign_id in sorted(set(re.findall(r'href="/annotate/(\d+)"', listing))):
        url = f"/annotate/{campaign_id}"
        unit = re.search(r'name="unit" value="(\d+)"', attacker.send("GET", url).text)
        for value in [*HOSTILE, "²", "٣", "1e2", "inf", "-inf", "nan"]:
            fields = {"unit": unit.group(1) if unit else "1", "score-0": value, "score-1": "50"}
            _post(attacker, url, url, fields)
            _post(attacker, url, url, {**fields, "unit": value, "score-0": "50"})


def newcomer(attacker: Attacker, fresh: Http) -> None:
    """Registration, then teams, as someone new (the anonymous role's checks)."""
    link = f"/annotate/link/{attacker.link}" if attacker.link else ""
    if link:
        for value in [*HOSTILE, "²"]:
            _post(attacker, link, link, {"unit": value, "score-0": "50"})
            _post(attacker, link, link, {"unit": "1", "score-0": value})
    saved, attacker.http = attacker.http, fresh
    try:
        fields = {"email": "newcomer@attack.test", "password": "A long passphrase 1", "confirm": ""}
        for value in HOSTILE:
            for field in ("email", "password"):
                data = {**fields, field: value, "confirm": value if field == "password" else ""}
                _post(attacker, "/register", "/register", data)
        fields["confirm"] = fields["password"]
        _post(attacker, "/register", "/register", fields)
        link = attacker.board.mailed_link(fields["email"])
        for value in ["/verify/forged", link + "x", link[:-3]]:
            _post(attacker, value, value, {})
        _post(attacker, link, link, {})  # the account is made and logged in: teams next
        for value in HOSTILE:
            _post(attacker, "/team", "/team/join", {"join-name": value, "join-join_code": value})
            _post(
                attacker, "/team", "/team/join", {"join-name": "Web Team", "join-join_code": value}
            )
        for value in HOSTILE:
            _post(attacker, "/team", "/team/create", {"create-name": value})
    finally:
        attacker.http = saved
