"""The attacker's run: every route of the url_map as every role, with valid and hostile
parameters; each answer is checked against what the role may not read
(``attack_rules.py``), for HTTP 500s, unescaped script, off-site redirects and caching.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import quote

from tests.support.attack_holdings import Holdings
from tests.support.attack_rules import Who, forbidden, leaks, who
from tests.support.attack_world import EMAILS, PASSWORD, ROLES, Answer, Board, Http, csrf

HOSTILE = [
    "0",
    "-1",
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    str(2**64),
    "9" * 40,
    "1e309",
    "NaN",
    "-0",
    "ü",
    "²",
    "١٢",
    "日本語",
    "\u202eevil",
    "a\x00b",
    "\x00",
    "\r\nSet-Cookie: x=1",
    "x" * 3000,
    "' OR '1'='1",
    "1; DROP TABLE users; --",
    "1 UNION SELECT password_hash FROM users--",
    '" OR ""="',
    "../../../../etc/passwd",
    "..\\..\\windows\\win.ini",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "<script>alert(1)</script>",
    "{{7*7}}",
    "${7*7}",
    "%s%s%s%n",
    "[]",
    "{}",
]
QUERY_PARAMETERS = {
    "challenges.track": ("lang", "all", "sort", "order"),
    "challenges.inputs": ("lang",),
    "challenges.challenge_overview": ("metric",),
    "challenges.submission_outputs": ("errors",),
    "challenges.compare": ("a", "b", "lang", "breakdown", "filter"),
    "exports.breakdown_export": ("attribute", "lang", "all"),
    "api_v1.get_breakdown": ("attribute", "language", "all"),
    "api_v1.get_comparison": ("a", "b", "attribute", "filter", "limit", "language"),
    "exports.track_export": ("lang", "all"),
    "exports.overview_export": ("metric",),
    "exports.bars_plot": ("lang", "metric"),
    "exports.dlevel_plot": ("lang",),
    "exports.similarity_plot": ("lang",),
    "exports.human_plot": ("lang", "metric"),
    "api_v1.get_inputs": ("language", "filename"),
    "api_v1.get_leaderboard": ("language", "all", "sort", "order"),
    "api_v1.get_overview": ("metric",),
    "submissions.upload": ("lang",),
    "auth.login": ("next",),
    "auth.register": ("next",),
}
"""What each page reads from its query string (the others get a stray parameter)."""
PLAIN_VALUES = ["1", "0", "asc", "BLEU", "DIST", "chrF", "SER", "norm_avg", "en", "fr", "mul"]
METHODS = ("PUT", "DELETE", "PATCH")
NEXT_TARGETS = [
    "//evil.example",
    "/%09/evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "http:evil.example",
    "///evil.example",
    "/\t/evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "/%2F%2Fevil.example",
    "/.//evil.example",
    "%2F%2Fevil.example",
    "evil.example",
]


@dataclass(frozen=True)
class Finding:
    role: str
    method: str
    url: str
    kind: str
    detail: str

    def line(self) -> str:
        return f"{self.kind:10} {self.role:10} {self.method:6} {self.url[:120]}: {self.detail}"


@dataclass
class Report:
    requests: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        lines = ["requests per role:"]
        lines += [f"  {role:10} {self.requests[role]:6d}" for role in ROLES]
        lines.append(f"  {'total':10} {sum(self.requests.values()):6d}")
        kinds = Counter(finding.kind for finding in self.findings)
        lines.append(f"findings: {len(self.findings)} " + str(dict(kinds)))
        seen = set()
        for finding in self.findings:
            key = (finding.kind, finding.role, finding.detail)
            if key not in seen:
                seen.add(key)
                lines.append("  " + finding.line())
        return "\n".join(lines)


# Making the requests --------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    endpoint: str
    methods: tuple[str, ...]
    rule: str


def routes(board: Board) -> list[Route]:
    """The url_map as ``nlgboard routes`` prints it (columns as wide as its dashes)."""
    lines = board.cli("routes").splitlines()
    widths = [len(dashes) + 2 for dashes in lines[1].split()]
    found = []
    for line in lines[2:]:
        endpoint = line[: widths[0]].strip()
        methods = line[widths[0] : widths[0] + widths[1]].strip()
        rule = line[widths[0] + widths[1] :].strip()
        found.append(Route(endpoint, tuple(m.strip() for m in methods.split(",")), rule))
    return found


ARGUMENT = re.compile(r"<(?:[a-z]+:)?([a-z_]+)>")


def fill(rule: str, values: dict[str, str]) -> str:
    return ARGUMENT.sub(lambda m: values[m.group(1)], rule)


def valid_arguments(holdings: Holdings, route: Route, link: str) -> list[dict[str, str]]:
    """Every meaningful instantiation of the route's arguments on this board."""
    names = ARGUMENT.findall(route.rule)
    tracks = sorted(holdings.tracks.values(), key=lambda t: t.id)
    if "track_slug" in names:
        base = [{"slug": t.challenge, "track_slug": t.slug, "_track": str(t.id)} for t in tracks]
    elif "slug" in names:
        base = [{"slug": s} for s in sorted({t.challenge for t in tracks})]
    else:
        base = [{}]
    expanded = []
    for values in base:
        options = [dict(values)]
        if "name" in names:
            track_id = int(values["_track"])
            options = [{**values, "name": n} for n in holdings.campaigns.get(track_id, [])]
            options += [{**values, "name": "quality"}]
        if "action" in names:
            options = [{**o, "action": a} for o in options for a in ("analyse", "publish", "open")]
        if "fmt" in names:
            options = [{**o, "fmt": f} for o in options for f in ("csv", "json", "tex")]
        expanded += options
    if "submission_id" in names:
        formats = [{"fmt": f} for f in ("csv", "jsonl")] if "fmt" in names else [{}]
        expanded = [
            {"submission_id": str(i), **f} for i in holdings.submission_ids for f in formats
        ]
    if "system_id" in names:
        expanded = [{"system_id": str(i)} for i in sorted(holdings.systems)]
    if "campaign_id" in names:
        expanded = [{"campaign_id": str(i)} for i in holdings.campaign_ids]
    if "token" in names:
        expanded = [{"token": link}] if link and "annotate" in route.rule else [{"token": "x.y"}]
    if "filename" in names:
        expanded = [{"filename": "style.css"}]
    return [{k: v for k, v in e.items() if not k.startswith("_")} for e in expanded]


def hostile_arguments(route: Route) -> list[dict[str, str]]:
    names = ARGUMENT.findall(route.rule)
    if not names:
        return []
    fixed = {
        "slug": "demo-e2e", "track_slug": "main", "name": "quality", "action": "publish",
        "fmt": "csv", "submission_id": "1", "system_id": "1", "campaign_id": "1",
        "token": "x", "filename": "style.css",
    }  # fmt: skip
    found = []
    for name in names:
        for value in HOSTILE:
            found.append({**{n: fixed[n] for n in names}, name: quote(value, safe="")})
        found.append({**{n: fixed[n] for n in names}, name: "../" * 6 + "etc/passwd"})
    return found


STATEFUL = {
    "auth.logout",
    "auth.new_token",
    "auth.revoke_token",
    "submissions.toggle_anonymous",
    "submissions.toggle_primary",
    "submissions.withdraw_submission",
    "submissions.restore_submission",
    "organise.publish",
    "organise.rescore",
    "organise.accounts",
    "organise.index",
    "organise.challenge",
    "organise.track",
    "human.act",
    "human.links",
    "human.campaigns",
    "human.import_file",
    "human.confirm_import",
    "human.account_unit",
    "human.link_unit",
    "teams.create",
    "teams.join",
    "admin_setup.grant_admin",
    "api_v1.create_submission",
    "organise.add_baseline",
    "organise.upload_rule",
    "organise.message",
    "account.notifications",
    "account.resend_verification",
    "auth.login",
    "auth.register",
}
"""POSTs that change the world when they succeed: sent with a valid CSRF token only where the
role may not act (other teams' ids, others' challenges) or with refused values."""


@dataclass
class Attacker:
    board: Board
    holdings: Holdings
    viewer: Who
    http: Http
    token: str | None
    report: Report
    link: str = ""
    own_systems: set[int] = field(default_factory=set)
    own_submissions: set[int] = field(default_factory=set)
    thorough: bool = True
    """False: valid parameters and the hostile path arguments only (no query-string, field,
    method or body fuzzing), for the quick test."""

    def __post_init__(self) -> None:
        self.hidden = forbidden(self.viewer, self.holdings, publication=False)
        self.published = forbidden(self.viewer, self.holdings, publication=True)
        self.csrf = ""

    def send(self, method: str, url: str, *, api: bool = False, **options) -> Answer:
        headers = dict(options.pop("headers", {}) or {})
        if api and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        answer = self.http.request(method, url, headers=headers, **options)
        self.report.requests[self.viewer.role] += 1
        signed_in = self.viewer.email is not None or "Authorization" in headers
        self.check(method, url, answer, signed_in)
        return answer

    def check(self, method: str, url: str, answer: Answer, signed_in: bool) -> None:
        role = self.viewer.role
        if answer.status >= 500:
            self.report.findings.append(Finding(role, method, url, "HTTP 500", str(answer.status)))
        publication = "/plots/" in url or "/export." in url or "overview.tex" in url
        hidden = self.published if publication and answer.status == 200 else self.hidden
        for kind, what in leaks(url, answer, hidden):
            self.report.findings.append(Finding(role, method, url, kind, what))
        content_type = answer.headers.get("Content-Type", "")
        if content_type.startswith(("text/html", "image/svg")):
            raw = answer.text
            for marker in SCRIPT_MARKERS:
                if marker in raw:
                    self.report.findings.append(Finding(role, method, url, "script", marker))
        location = answer.headers.get("Location", "")
        if location and _off_site(location):
            self.report.findings.append(Finding(role, method, url, "redirect", location))
        cache = answer.headers.get("Cache-Control", "")
        personal = signed_in and not url.startswith("/static/") and answer.status < 400
        if personal and not ("private" in cache and "no-store" in cache) and cache != "no-store":
            self.report.findings.append(Finding(role, method, url, "cache", cache or "none"))

    def page_token(self) -> str:
        if not self.csrf:
            page = self.http.request("GET", "/login" if not self.viewer.email else "/team")
            try:
                self.csrf = csrf(page.text)
            except AssertionError:
                self.csrf = ""
        return self.csrf

    def run(self, all_routes: list[Route]) -> None:
        self.login_redirects()
        for route in all_routes:
            if route.endpoint in ("static",):
                self.static()
                continue
            for method in route.methods:
                if method in ("HEAD", "OPTIONS"):
                    continue
                getattr(self, method.lower())(route)
            for method in METHODS if self.thorough else ():
                for values in valid_arguments(self.holdings, route, self.link)[:3]:
                    self.send(method, fill(route.rule, values), api=self.api(route))

    def api(self, route: Route) -> bool:
        return route.rule.startswith("/api/")

    def get(self, route: Route) -> None:
        api = self.api(route)
        valid = valid_arguments(self.holdings, route, self.link)
        for values in valid:
            url = fill(route.rule, values)
            self.send("GET", url, api=api)
            if api and self.token:
                self.send("GET", url)  # the same without the token
        sample = fill(route.rule, valid[0]) if valid else route.rule
        for parameter in QUERY_PARAMETERS.get(route.endpoint, ("x",)) if self.thorough else ():
            for value in [*PLAIN_VALUES, *HOSTILE]:
                joined = "&" if "?" in sample else "?"
                self.send("GET", f"{sample}{joined}{parameter}={quote(value, safe='')}", api=api)
        for values in hostile_arguments(route):
            self.send("GET", fill(route.rule, values), api=api)
        for values in valid[:1]:
            for query in ("all=1&lang=en&sort=BLEU&order=asc", "lang=fr&all=1", "metric=NIST"):
                self.send("GET", f"{fill(route.rule, values)}?{query}", api=api)

    def post(self, route: Route) -> None:
        api = self.api(route)
        valid = valid_arguments(self.holdings, route, self.link)
        token = self.page_token()
        for values in valid:
            url = fill(route.rule, values)
            self.send("POST", url, api=api, data={"csrf_token": "forged"})
            if not api and self.may_act(route, values):
                continue
            fields = self.fields(route, token)
            self.send("POST", url, api=api, data=fields, files=self.files(route))
        sample = fill(route.rule, valid[0]) if valid else route.rule
        stateless = not self.may_act(route, valid[0] if valid else {})
        for values in hostile_arguments(route):
            fields = self.fields(route, token)
            self.send("POST", fill(route.rule, values), api=api, data=fields)
        if not self.thorough:
            return
        self.send("POST", sample, api=api, data={})  # no CSRF token
        if stateless or api or route.endpoint in HOSTILE_FIELDS_REFUSED:
            for field_name, value in self.hostile_fields(route):
                fields = {**self.fields(route, token), field_name: value}
                self.send("POST", sample, api=api, data=fields, files=self.files(route))
        for content_type, body in MALFORMED:
            self.send("POST", sample, api=api, data=body, content_type=content_type)

    def may_act(self, route: Route, values: dict[str, str]) -> bool:
        """Whether a valid POST of this route would change something for this role: skipped,
        so that the world stays as built while the attack runs."""
        if route.endpoint not in STATEFUL:
            return False
        if "system_id" in values:
            return int(values["system_id"]) in self.own_systems
        if "submission_id" in values:
            return int(values["submission_id"]) in self.own_submissions
        if "slug" in values:
            tracks = [t for t in self.holdings.tracks.values() if t.challenge == values["slug"]]
            return any(self.viewer.organiser_of(t) for t in tracks) or route.endpoint in (
                "api_v1.create_submission",
            )
        return True

    def fields(self, route: Route, token: str) -> dict[str, str]:
        fields = {"csrf_token": token}
        if route.endpoint == "submissions.architecture":
            fields["architecture"] = "rule-based"
        if route.endpoint == "api_v1.create_submission":
            fields["system"] = f"zq-attack-{self.viewer.role}"
        return fields

    def files(self, route: Route) -> dict[str, tuple[str, bytes]] | None:
        if route.endpoint in ("api_v1.create_submission", "submissions.upload"):
            return {"file": ("out.txt", b"not an output\n")}
        return None

    def hostile_fields(self, route: Route) -> Iterator[tuple[str, str]]:
        names = {
            "submissions.architecture": ["architecture"],
            "api_v1.create_submission": ["system", "language"],
            "submissions.upload": ["system", "language"],
            "human.act": ["x"],
            "organise.publish": ["published"],
            "human.links": ["count"],
            "human.account_unit": ["unit", "score"],
            "human.link_unit": ["unit"],
            "teams.join": ["join-name", "join-join_code"],
            "auth.login": ["email", "password"],
            "auth.register": ["email", "password"],
        }.get(route.endpoint, ["x"])
        for name in names:
            for value in HOSTILE:
                yield name, value

    def static(self) -> None:
        for path in ("style.css", "../app.py", "..%2F__init__.py", "%2e%2e/config.py", "x" * 300):
            self.send("GET", f"/static/{path}")

    def login_redirects(self) -> None:
        """After logging in, the ``next`` page is followed only on this site."""
        if not self.viewer.email:
            return
        for target in NEXT_TARGETS:
            page = self.http.request("GET", "/login")
            data = {"email": self.viewer.email, "password": PASSWORD, "csrf_token": csrf(page.text)}
            self.send("POST", f"/login?next={quote(target, safe='')}", data=data)
        self.csrf = ""


SCRIPT_MARKERS = (
    "<script>alert(1)",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:',
    "<a href='javascript:",
)
"""What a hostile value would leave in a page's HTML if it were not escaped or sanitised."""

HOSTILE_FIELDS_REFUSED = {
    "auth.login",
    "auth.register",
    "submissions.architecture",
    "teams.join",
    "human.account_unit",
}
"""Where a hostile value of the field is refused whoever sends it (nothing changes)."""

MALFORMED = [
    ("multipart/form-data", b'--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc'),
    ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data\r\n\r\n"),
    ("multipart/form-data; boundary=" + "a" * 80, b"--" + b"a" * 80 + b"\r\n"),
    ("application/json", b'{"csrf_token": {"$ne": null}, "system": [1, 2]}'),
    ("application/json", b"{not json"),
    ("text/plain", b"csrf_token=x&system=y"),
    ("application/x-www-form-urlencoded", b"csrf_token=%&system=%zz&&=&"),
    ("application/x-www-form-urlencoded", b"a=" + b"b" * 200_000),
    ("application/xml", b"<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>"),
]


def _off_site(location: str) -> bool:
    """A redirect that leaves the site (absolute to another host, protocol-relative, or a
    path a browser reads as another host)."""
    cleaned = re.sub(r"[\x00-\x20]", "", location)
    if cleaned.startswith(("http://127.0.0.1", "http://localhost")):
        return False
    return not cleaned.startswith("/") or cleaned.startswith(("//", "/\\"))


def make_attackers(
    board: Board, world, holdings: Holdings, roles: tuple[str, ...], report: Report
) -> dict[str, Attacker]:
    """One attacker per role, with the role's browser (its session) and API token, knowing
    which systems and submissions are its own (their buttons it does not press)."""
    attackers = {}
    for role in roles:
        viewer = who(role, holdings, EMAILS)
        own = {
            s.id
            for s in holdings.systems.values()
            if viewer.team_id is not None and s.team_id == viewer.team_id
        }
        attackers[role] = Attacker(
            board, holdings, viewer, world.browsers[role], world.tokens.get(role), report,
            link=world.link, own_systems=own,
            own_submissions={i for i, system in holdings.submission_systems.items() if system in own},
        )  # fmt: skip
    return attackers
