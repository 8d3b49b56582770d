"""A board in every state an attacker cares about, built as its people would build it: the
``nlgboard`` CLI for accounts and imports, the web forms for everything a person clicks.

From the demo challenges (``nlgboard run --demo``: demo-e2e, demo-sr18, demo-drs) it makes:

- accounts: an admin; the organiser of demo-e2e (``org_x``) and of demo-sr18 and demo-drs
  (``org_y``); an annotator of demo-e2e; members of the four demo teams (``team_a`` Word Order
  Lab, ``team_b`` Linearise, ``team_c`` Demo team, ``team_d`` Groningen demo); one who
  registered on the web and made a team there (``team_e`` Web Team) and one in no team;
- tracks in every phase: demo-e2e ``main`` in the test phase unpublished (with the demo's
  published human evaluation), ``dev`` in development, ``hidden`` in the test phase hiding
  teams' own scores, ``pub`` in the test phase published (with an imported human evaluation
  naming an anonymised system); demo-sr18 ``shallow`` unpublished and ``deep`` published;
  demo-drs ``gen`` (tiny challenge sets) unpublished;
- anonymised systems, a withdrawn system, a failed submission, a similarity matrix.

Every name a viewer must not see is distinctive (``zq...``) so that the attack can look for it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.paths import DEMO_DATA

PASSWORD = "Attack-pass-2026!"
ROLES = (
    "anonymous",
    "team_a",
    "team_b",
    "team_c",
    "team_d",
    "team_e",
    "no_team",
    "org_x",
    "org_y",
    "annotator",
    "admin",
)
EMAILS = {role: f"{role.replace('_', '-')}@attack.test" for role in ROLES if role != "anonymous"}
TEAMS = {
    "team_a": "Word Order Lab",
    "team_b": "Linearise",
    "team_c": "Demo team",
    "team_d": "Groningen demo",
    "team_e": "Web Team",
}
E2E_REFS = (DEMO_DATA / "references.csv").read_bytes()
CSRF = re.compile(r'name="(?:[a-z]+-)?csrf_token"[^>]*? value="([^"]+)"')


class Http:
    """What the attack needs of a browser: one cookie jar, any request, the raw answer."""

    def request(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        data: dict | bytes | str | None = None,
        files: dict[str, tuple[str, bytes]] | None = None,
        content_type: str | None = None,
    ) -> Answer:
        raise NotImplementedError

    def cookies(self) -> dict[str, str]:
        raise NotImplementedError


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    set_cookies: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Board:
    """A running board: its CLI and a way to open a fresh browser on it."""

    cli: Callable[..., str]
    browser: Callable[[], Http]
    sql: Callable[[str], object]
    """Run one SQL statement on the board's database (what no page does: a failed run)."""
    mailed_link: Callable[[str], str]
    """The path of the confirmation link in the newest mail to an address (what the owner of
    the address reads: a registration makes its account when the link is opened)."""


@dataclass
class AttackWorld:
    tokens: dict[str, str] = field(default_factory=dict)
    browsers: dict[str, Http] = field(default_factory=dict)
    system_ids: dict[str, int] = field(default_factory=dict)
    link: str = ""
    """A one-time annotation link of the open campaign zqrank."""


def csrf(page: str) -> str:
    found = CSRF.search(page)
    assert found, "no CSRF token on the page"
    return found.group(1)


def form_post(
    http: Http, page_url: str, url: str, fields: dict, files=None, prefix: str = ""
) -> Answer:
    """Open ``page_url`` for its CSRF token and post ``fields`` (and ``files``) to ``url``
    (``prefix``: the form's field prefix, e.g. ``track-``)."""
    token = csrf(http.request("GET", page_url).text)
    return http.request("POST", url, data={**fields, f"{prefix}csrf_token": token}, files=files)


def web_login(http: Http, email: str) -> None:
    answer = form_post(http, "/login", "/login", {"email": email, "password": PASSWORD})
    assert answer.status in (302, 303), (email, answer.status, answer.text[:300])


def web_register(board: Board, http: Http, email: str) -> None:
    """Register on the web, then open the mailed link, which makes the account and logs in."""
    answer = form_post(
        http,
        "/register",
        "/register",
        {"email": email, "password": PASSWORD, "confirm": PASSWORD},
    )
    assert answer.status == 200 and "Check your mail" in answer.text, (email, answer.status)
    link = board.mailed_link(email)
    confirmed = form_post(http, link, link, {})
    assert confirmed.status in (302, 303), (email, confirmed.status, confirmed.text[:300])


def variant(path: Path, k: int) -> tuple[str, bytes]:
    """The run at ``path`` with its first output lengthened by ``k`` words: every system of
    the world scores differently, so a hidden score cannot pass for a public one."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines):
        if line.strip() and not line.startswith(("MR\t", "# sent_id")):
            lines[n] = line + " indeed" * k
            break
    return path.name, ("\n".join(lines) + "\n").encode()


UPLOADS = iter(range(1, 1000))


def web_upload(http: Http, challenge: str, track: str, system: str, path: Path, language=""):
    url = f"/challenges/{challenge}/tracks/{track}/submit"
    answer = form_post(
        http,
        url,
        url,
        {"system": system, "language": language},
        files={"file": variant(path, next(UPLOADS))},
    )
    assert answer.status in (302, 303), (system, answer.status, answer.text[-2000:])


def settings(http: Http, challenge: str, track: str, **values) -> None:
    url = f"/organise/{challenge}/tracks/{track}"
    fields = {
        "settings-title": values.pop("title", track),
        "settings-phase": values.pop("phase", "test"),
        "settings-max_primary": "2",
        "settings-daily_limit": values.pop("daily_limit", "50"),
    }
    if "deadline" in values:
        fields["settings-deadline"] = values.pop("deadline")
    if values.pop("hide_own_scores", False):
        fields["settings-hide_own_scores"] = "y"
    answer = form_post(http, url, url, fields, prefix="settings-")
    assert answer.status in (302, 303), (track, answer.status, answer.text[-1500:])


def publish(http: Http, challenge: str, track: str) -> None:
    base = f"/organise/{challenge}/tracks/{track}"
    answer = form_post(http, base, f"{base}/publish", {"published": "1"})
    assert answer.status in (302, 303), answer.status


def own_action(http: Http, url: str, fields: dict | None = None) -> None:
    """A team's button on My submissions (anonymise, withdraw...)."""
    answer = form_post(http, "/submissions", url, fields or {})
    assert answer.status in (302, 303), (url, answer.status)


def build(board: Board, wait: Callable[[], None]) -> AttackWorld:
    """Make the world on a board seeded with the demo challenges; ``wait`` returns once the
    queue is empty."""
    world = AttackWorld()
    _accounts(board, world)
    org_x, org_y = world.browsers["org_x"], world.browsers["org_y"]
    for slug, title in (("dev", "Development"), ("hidden", "Hidden"), ("pub", "Published")):
        fields = {"action": "track", "track-slug": slug, "track-kind": "e2e", "track-title": title}
        files = {"track-references": ("references.csv", E2E_REFS)}
        page = "/organise/demo-e2e"
        answer = form_post(org_x, page, page, fields, files=files, prefix="track-")
        assert answer.status in (302, 303), answer.text[-1500:]
    wait()
    _uploads(world)
    wait()
    _own_choices(world)
    settings(org_x, "demo-e2e", "main", title="Main")
    settings(org_x, "demo-e2e", "dev", title="Development", phase="development")
    settings(org_x, "demo-e2e", "hidden", title="Hidden", hide_own_scores=True)
    settings(org_x, "demo-e2e", "pub", title="Published", deadline="2020-01-01T00:00")
    settings(org_y, "demo-sr18", "shallow", title="Shallow")
    settings(org_y, "demo-sr18", "deep", title="Deep")
    settings(org_y, "demo-drs", "gen", title="Generation")
    ids = world.system_ids
    mapping = {"demo-seq2seq": ids["zqc-pubanon"], "Template baseline": ids["zqe-pub"]}
    import_human(org_x, "pub", mapping)
    publish(org_x, "demo-e2e", "pub")
    publish(org_y, "demo-sr18", "deep")
    campaign(org_x, "main", "zqrank", "rankme", "quality")
    campaign(org_x, "pub", "zqda", "da", "readability", include_human=True)
    board.cli("track", "similarity", "demo-e2e", "main", "--all")
    board.cli("track", "similarity", "demo-e2e", "pub", "--all")
    train = str(DEMO_DATA / "references.csv")
    for slug in ("main", "pub"):
        board.cli("track", "split-report", "demo-e2e", slug, "--train", train)
    page = "/challenges/demo-e2e/tracks/main/human/zqrank"
    links = form_post(org_x, page, f"{page}/links", {"count": "2"})
    world.link = re.findall(r"/annotate/link/([A-Za-z0-9_.\-]+)", links.text)[0]
    sandbox(org_x)
    board.sql(
        "UPDATE submissions SET status = 'failed', error = 'zqfailed: the scorer stopped' "
        f"WHERE id = (SELECT max(id) FROM submissions WHERE system_id = {ids['zqe-dev']})"
    )
    for http in world.browsers.values():
        http.request("GET", "/")  # shows (and so drops) the messages the set-up left
    return world


def _accounts(board: Board, world: AttackWorld) -> None:
    """Staff and the demo teams' members from the CLI; team E and the teamless one register
    on the web (team E makes its team there); every role signed in, in a browser of its own,
    with an API token."""
    roles = {
        "admin": ["--role", "admin"],
        "org_x": ["--role", "organiser", "--challenge", "demo-e2e"],
        "org_y": ["--role", "organiser", "--challenge", "demo-sr18", "--challenge", "demo-drs"],
        "annotator": ["--role", "annotator", "--challenge", "demo-e2e"],
        **{role: ["--team", TEAMS[role]] for role in ("team_a", "team_b", "team_c", "team_d")},
    }
    for role, options in roles.items():
        world.tokens[role] = board.cli(
            "user", "create", EMAILS[role], "--password", PASSWORD, *options
        )
    world.browsers = {role: board.browser() for role in ROLES}
    for role in ROLES:
        if role in ("team_e", "no_team"):
            web_register(board, world.browsers[role], EMAILS[role])
        elif role != "anonymous":
            web_login(world.browsers[role], EMAILS[role])
    fields = {"create-name": TEAMS["team_e"]}
    answer = form_post(world.browsers["team_e"], "/team", "/team/create", fields, prefix="create-")
    assert answer.status in (302, 303)
    for role in ("team_e", "no_team"):
        page = form_post(world.browsers[role], "/team", "/account/token", {})
        found = re.search(r'<code class="token">([^<]+)</code>', page.text)
        assert found, page.text[-1500:]
        world.tokens[role] = found.group(1)


def _uploads(world: AttackWorld) -> None:
    """Each team's runs, on the web form: one per E2E track for teams C and E, an anonymised
    and a withdrawn one, SR'18 runs for teams A and B."""
    team_a, team_b, team_c, team_e = (world.browsers[f"team_{t}"] for t in "abce")
    e2e_out, e2e_base = DEMO_DATA / "team_output.tsv", DEMO_DATA / "baseline.txt"
    for track in ("main", "dev", "hidden", "pub"):
        web_upload(team_c, "demo-e2e", track, f"zqc-{track}", e2e_out)
        web_upload(team_e, "demo-e2e", track, f"zqe-{track}", e2e_base)
    web_upload(team_c, "demo-e2e", "main", "zqc-anon", e2e_base)
    web_upload(team_c, "demo-e2e", "pub", "zqc-pubanon", e2e_base)
    web_upload(team_c, "demo-e2e", "main", "zqc-gone", e2e_out)
    web_upload(team_e, "demo-e2e", "pub", "zqe-pubgone", e2e_out)
    web_upload(team_e, "demo-e2e", "dev", "zqe-devgone", e2e_out)
    sr18 = DEMO_DATA / "sr18"
    web_upload(
        team_a, "demo-sr18", "shallow", "zqa-shallow", sr18 / "wordorder-lab_en_out.txt", "en"
    )
    web_upload(team_b, "demo-sr18", "shallow", "zqb-anon", sr18 / "linearise_en_out.txt", "en")
    web_upload(
        team_b, "demo-sr18", "deep", "zqb-deep", sr18 / "wordorder-lab_en-deep_out.txt", "en"
    )


def _own_choices(world: AttackWorld) -> None:
    """Teams anonymise (and make primary) three systems and withdraw every submission of
    three others, with their buttons on My submissions."""
    owners = {role: world.browsers[role] for role in ("team_a", "team_b", "team_c", "team_e")}
    world.system_ids = {
        name: system_id for http in owners.values() for name, system_id in own_systems(http).items()
    }
    for role, name in (("team_c", "zqc-anon"), ("team_c", "zqc-pubanon"), ("team_b", "zqb-anon")):
        own_action(owners[role], f"/systems/{world.system_ids[name]}/anonymous")
        own_action(owners[role], f"/systems/{world.system_ids[name]}/primary")
    for role, name in (
        ("team_c", "zqc-gone"),
        ("team_e", "zqe-pubgone"),
        ("team_e", "zqe-devgone"),
    ):
        for submission_id in own_submissions(owners[role])[name]:
            own_action(owners[role], f"/submissions/{submission_id}/withdraw")


SANDBOX = "sandbox"
"""A challenge of org_x's whose tracks the attack may change: hostile settings, imports,
baselines, campaigns and uploads land there, never on the world it checks."""


def sandbox(http: Http) -> None:
    """Challenge ``sandbox`` with an E2E, an SR'18 and a DRS track in the development phase."""
    fields = {"slug": SANDBOX, "title": "Sandbox", "description": "For the attack."}
    answer = form_post(http, "/organise", "/organise", fields)
    assert answer.status in (302, 303), answer.text[-1500:]
    sr18, drs = DEMO_DATA / "sr18", DEMO_DATA / "drs"
    imports = [
        ("s-e2e", "e2e", "", None, ("references.csv", E2E_REFS)),
        ("s-sr", "sr-shallow", "en", sr18 / "en-shallow.conll", sr18 / "en-sentences.txt"),
        ("s-drs", "drs", "en", drs / "test.txt", drs / "test.txt.raw"),
    ]
    for slug, kind, language, inputs, references in imports:
        files = {
            "track-references": references
            if isinstance(references, tuple)
            else (references.name, references.read_bytes())
        }
        if inputs is not None:
            files["track-inputs"] = (inputs.name, inputs.read_bytes())
        fields = {"action": "track", "track-slug": slug, "track-kind": kind}
        fields["track-language"] = language
        page = f"/organise/{SANDBOX}"
        answer = form_post(http, page, page, fields, files=files, prefix="track-")
        assert answer.status in (302, 303), answer.text[-1500:]
        settings(http, SANDBOX, slug, phase="development", daily_limit="10000")


SYSTEM_ROW = re.compile(r'<tr id="system-(\d+)">\s*<td><a href="/systems/\d+">([^<]+)</a>')
SUBMISSION_ROW = re.compile(
    r'<tr id="submission-(\d+)"[^>]*>\s*<td>\d+</td>\s*<td>.*?</td>\s*<td>([^<]+)</td>', re.S
)


def own_systems(http: Http) -> dict[str, int]:
    """System name -> id, from My submissions."""
    page = http.request("GET", "/submissions").text
    return {name: int(system_id) for system_id, name in SYSTEM_ROW.findall(page)}


def own_submissions(http: Http) -> dict[str, list[int]]:
    """System name -> its submission ids, from My submissions."""
    found: dict[str, list[int]] = {}
    for submission_id, name in SUBMISSION_ROW.findall(http.request("GET", "/submissions").text):
        found.setdefault(name, []).append(int(submission_id))
    return found


def import_human(http: Http, track: str, mapping: dict[str, int]) -> None:
    """Import the demo's RankME judgements on ``track``, each name mapped to a system id,
    then compute and publish the results."""
    base = f"/challenges/demo-e2e/tracks/{track}/human"
    preview = form_post(
        http,
        base,
        f"{base}/import",
        {"import-name": "zqimported", "import-method": "rankme", "import-criterion": "quality"},
        files={
            "import-file": ("human_quality.csv", (DEMO_DATA / "human_quality.csv").read_bytes())
        },
        prefix="import-",
    )
    assert preview.status == 200, preview.text[-1500:]
    token = re.search(r'name="preview" value="([^"]+)"', preview.text).group(1)
    names = re.findall(r'<tr class="[a-z-]+"><td>([^<]+)</td>', preview.text)
    fields = {f"map-{k}": str(mapping[name]) for k, name in enumerate(names)}
    fields.update(preview=token, csrf_token=csrf(preview.text))
    done = http.request("POST", f"{base}/import/confirm", data=fields)
    assert done.status in (302, 303), done.text[-1500:]
    for action in ("analyse", "publish"):
        answer = form_post(http, base, f"{base}/zqimported/{action}", {})
        assert answer.status in (302, 303), answer.status


def campaign(http: Http, track: str, name: str, method: str, criterion: str, **options) -> None:
    """A campaign made on the organisers' form (open to annotators from the start)."""
    base = f"/challenges/demo-e2e/tracks/{track}/human"
    fields = {
        "new-name": name,
        "new-method": method,
        "new-criterion": criterion,
        "new-items": "10",
        "new-annotators_per_hit": "1",
        "new-include_baselines": "y",
    }
    if options.get("include_human"):
        fields["new-include_human"] = "y"
    answer = form_post(http, base, base, fields, prefix="new-")
    assert answer.status in (302, 303), answer.text[-2500:]


class ClientHttp(Http):
    """A browser made of Flask's test client (in process: the tests' board)."""

    def __init__(self, client):
        self.client = client

    def request(self, method, url, *, headers=None, data=None, files=None, content_type=None):
        body = data
        if files:
            body = {**(data or {}), **{k: (io.BytesIO(v), n) for k, (n, v) in files.items()}}
            content_type = "multipart/form-data"
        response = self.client.open(
            url, method=method, headers=headers or {}, data=body, content_type=content_type
        )
        answer = Answer(
            response.status_code,
            dict(response.headers),
            response.get_data(),
            response.headers.getlist("Set-Cookie"),
        )
        response.close()
        return answer

    def cookies(self) -> dict[str, str]:
        return {cookie.key: cookie.value for cookie in self.client._cookies.values()}
