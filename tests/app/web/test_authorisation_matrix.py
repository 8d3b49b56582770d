"""Every route x every role, in one table: who may read or do what.

Adding a route without a row here fails ``test_every_route_has_a_row``. Outcomes: ``ok`` (2xx,
or a redirect that is not to the login page), ``refused`` (allowed to try, the input was
refused: 400, 409, 410, 429), ``denied`` (401, 403, 404, or a redirect to the login page). A
500 is never expected.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

import pytest

from tests.conftest import make_app
from tests.support.factories import GOOD_OUTPUT, login
from tests.support.snapshots import restored
from tests.support.world import EMAILS, ROLES, build_world

OK, REFUSED, DENIED = "ok", "refused", "denied"


def every(outcome: str) -> dict[str, str]:
    return dict.fromkeys(ROLES, outcome)


def only(*allowed: str, otherwise: str = DENIED) -> dict[str, str]:
    return {role: OK if role in allowed else otherwise for role in ROLES}


SIGNED_IN = only("team_a", "team_b", "organiser_x", "organiser_y", "admin")
ORGANISERS_OF_X = only("organiser_x", "admin")
ANY_ORGANISER = only("organiser_x", "organiser_y", "admin")
TEAM_A = only("team_a")
TEAM_A_AND_ORGANISERS_OF_X = only("team_a", "organiser_x", "admin")


@dataclass(frozen=True)
class Case:
    endpoint: str
    method: str
    url: str
    expected: dict[str, str]
    data: dict = field(default_factory=dict)
    api: bool = False


X = "/challenges/x/tracks/main"
API = "/api/v1/challenges/x/tracks/main"
ORG = "/organise/x/tracks/main"


def upload_form(role: str) -> dict:
    return {"file": (io.BytesIO(GOOD_OUTPUT), "out.txt"), "system": f"run-{role}"}


MATRIX = [
    Case("health.healthz", "GET", "/healthz", every(OK)),
    Case("health.readyz", "GET", "/readyz", every(OK)),
    Case("favicon", "GET", "/favicon.ico", every(OK)),
    Case("challenges.index", "GET", "/", every(OK)),
    Case("challenges.challenge", "GET", "/challenges/x", every(OK)),
    Case("challenges.bundle_format", "GET", "/bundle-format", every(OK)),
    Case("challenges.challenge_overview", "GET", "/challenges/x/overview", every(OK)),
    Case("challenges.track", "GET", X, every(OK)),
    Case("challenges.inputs", "GET", f"{X}/inputs", every(OK)),
    Case("challenges.system", "GET", "/systems/1", every(OK)),
    Case(
        "challenges.submission_outputs",
        "GET",
        "/submissions/1/outputs",
        TEAM_A_AND_ORGANISERS_OF_X,
    ),
    Case(
        "challenges.submission_items", "GET", "/submissions/1/items.csv", ORGANISERS_OF_X
    ),  # development phase: per-item figures wait for published test results, organisers aside
    # No per-item statistics are stored in this world: nobody can compare (404 for all).
    Case("challenges.compare", "GET", f"{X}/compare?a=1&b=2", every(DENIED)),
    Case("api_v1.get_comparison", "GET", f"{API}/compare?a=1&b=2", every(DENIED), api=True),
    Case("api_v1.get_breakdown", "GET", f"{API}/breakdown?attribute=slots", every(OK), api=True),
    Case("exports.breakdown_export", "GET", f"{X}/breakdown.csv?attribute=slots", every(OK)),
    Case("exports.track_export", "GET", f"{X}/export.csv", every(OK)),
    Case("exports.overview_export", "GET", "/challenges/x/overview.tex", every(OK)),
    Case("exports.bars_plot", "GET", f"{X}/plots/bars.svg?metric=BLEU", every(OK)),
    Case("exports.dlevel_plot", "GET", f"{X}/plots/dlevel.svg", every(DENIED)),  # no D-levels
    Case("exports.similarity_plot", "GET", f"{X}/plots/similarity.svg", every(OK)),
    Case("exports.human_plot", "GET", f"{X}/plots/human-quality.svg", every(DENIED)),
    Case("exports.human_export", "GET", f"{X}/human-quality.csv", every(DENIED)),  # unpublished
    Case("api_v1.get_overview", "GET", "/api/v1/challenges/x/overview", every(OK), api=True),
    Case("api_v1.openapi", "GET", "/api/v1/openapi.json", every(OK), api=True),
    Case("api_v1.get_inputs", "GET", f"{API}/inputs", every(OK), api=True),
    Case("api_v1.get_kind", "GET", f"{API}/kind", every(OK), api=True),
    Case("api_v1.get_leaderboard", "GET", f"{API}/leaderboard", every(OK), api=True),
    Case("api_v1.get_human", "GET", f"{API}/human", every(OK), api=True),
    Case(
        "api_v1.get_submission",
        "GET",
        "/api/v1/submissions/1",
        TEAM_A_AND_ORGANISERS_OF_X,
        api=True,
    ),
    Case(
        "api_v1.create_submission",
        "POST",
        f"{API}/submissions",
        {
            **only("team_a", "team_b"),
            **dict.fromkeys(("organiser_x", "organiser_y", "admin"), REFUSED),
        },
        data={"upload": True},
        api=True,
    ),
    Case("auth.login", "GET", "/login", every(OK)),
    Case("auth.register", "GET", "/register", every(OK)),
    Case("account.forgot_password", "GET", "/password/forgot", every(OK)),
    Case("account.forgot_password", "POST", "/password/forgot", every(OK), {"email": "no@x.org"}),
    Case("account.reset", "GET", "/password/reset/forged.token", every(REFUSED)),
    Case("account.reset", "POST", "/password/reset/forged.token", every(REFUSED)),
    Case("account.verify", "GET", "/verify/forged.token", every(REFUSED)),
    Case("account.verify", "POST", "/verify/forged.token", every(REFUSED)),
    Case("account.resend_verification", "POST", "/account/verify", SIGNED_IN),
    Case(
        "account.notifications",
        "POST",
        "/account/notifications",
        SIGNED_IN,
        {"notify-submissions": "on"},
    ),
    Case("teams.team", "GET", "/team", SIGNED_IN),
    Case("teams.create", "POST", "/team/create", SIGNED_IN, data={"create-name": "New"}),
    Case("teams.join", "POST", "/team/join", SIGNED_IN, data={"join-name": "A"}),
    Case("submissions.mine", "GET", "/submissions", SIGNED_IN),
    Case("submissions.upload", "GET", f"{X}/submit", SIGNED_IN),
    Case("submissions.withdraw_submission", "GET", "/submissions/1/withdraw", TEAM_A),
    Case("submissions.withdraw_submission", "POST", "/submissions/1/withdraw", TEAM_A),
    Case("submissions.restore_submission", "POST", "/submissions/1/restore", TEAM_A),
    Case("submissions.toggle_anonymous", "POST", "/systems/1/anonymous", TEAM_A),
    Case(
        "submissions.architecture", "POST", "/systems/1/architecture", TEAM_A, {"architecture": ""}
    ),
    Case("submissions.toggle_primary", "POST", "/systems/1/primary", TEAM_A),
    Case("human.annotate_index", "GET", "/annotate", ANY_ORGANISER),
    Case("human.account_unit", "GET", "/annotate/1", ORGANISERS_OF_X),
    Case("human.link_unit", "GET", "/annotate/link/{link}", every(OK)),
    Case("human.campaigns", "GET", f"{X}/human", ORGANISERS_OF_X),
    Case("human.campaign", "GET", f"{X}/human/quality", ORGANISERS_OF_X),
    Case("human.heatmap", "GET", f"{X}/human/quality/heatmap.svg", ORGANISERS_OF_X),
    Case("human.judgements_csv", "GET", f"{X}/human/quality/judgements.csv", ORGANISERS_OF_X),
    Case("human.links", "POST", f"{X}/human/quality/links", ORGANISERS_OF_X, {"count": "1"}),
    Case("human.act", "POST", f"{X}/human/quality/open", ORGANISERS_OF_X),
    Case(  # no scores or spec sent: the campaign page again, with the reason
        "human.import_judge",
        "POST",
        f"{X}/human/quality/judges",
        {**every(DENIED), "organiser_x": REFUSED, "admin": REFUSED},
    ),
    Case(
        "human.import_file",
        "POST",
        f"{X}/human/import",
        ORGANISERS_OF_X,  # no file sent: back to the page with the reason
    ),
    Case(
        "human.confirm_import",
        "POST",
        f"{X}/human/import/confirm",
        ORGANISERS_OF_X,  # no signed preview: back to the page, "upload the file again"
    ),
    Case("organise.index", "GET", "/organise", ANY_ORGANISER),
    Case("organise.import_challenge_bundle", "POST", "/organise/bundle", ANY_ORGANISER),
    Case("organise.accounts", "GET", "/organise/accounts", only("admin")),
    Case(
        "organise.accounts",
        "POST",
        "/organise/accounts",
        only("admin"),
        {"email": "nobody@x.org", "role": "organiser"},
    ),
    Case(
        "organise.upload_rule",
        "POST",
        "/organise/accounts/uploads",
        only("admin"),
        {"rule-unverified_may_upload": "y"},
    ),
    Case("organise.message", "GET", f"{ORG}/message", ORGANISERS_OF_X),
    Case(
        "organise.message",
        "POST",
        f"{ORG}/message",
        ORGANISERS_OF_X,
        {"subject": "Hello", "text": "A preview only", "preview": "1"},
    ),
    Case("organise.challenge", "GET", "/organise/x", ORGANISERS_OF_X),
    Case("organise.audit", "GET", "/organise/x/audit", ORGANISERS_OF_X),
    Case("organise.teams", "GET", "/organise/x/teams", ORGANISERS_OF_X),
    Case(
        "organise.teams",
        "POST",
        "/organise/x/teams",
        ORGANISERS_OF_X,
        {"action": "unapprove", "team": "1"},  # changes nothing: no team is approved
    ),
    Case("organise.track", "GET", ORG, ORGANISERS_OF_X),
    Case("organise.archive", "GET", f"{ORG}/submissions.zip", ORGANISERS_OF_X),
    Case("organise.publish", "POST", f"{ORG}/publish", ORGANISERS_OF_X, {"published": "0"}),
    Case("organise.rescore", "GET", f"{ORG}/rescore", ORGANISERS_OF_X),
    Case("organise.rescore", "POST", f"{ORG}/rescore", ORGANISERS_OF_X),
    Case("organise.add_baseline", "POST", f"{ORG}/baselines", ORGANISERS_OF_X),
    # The world has an admin: no setup link works, a forged one least of all.
    Case("admin_setup.setup_admin", "GET", "/setup/admin/forged.token", every(DENIED)),
    Case("admin_setup.grant_admin", "POST", "/setup/admin/forged.token", every(DENIED)),
    # Last: these change the session or the credentials the other rows use.
    Case("auth.new_token", "POST", "/account/token", SIGNED_IN),
    Case("auth.revoke_token", "POST", "/account/token/revoke", SIGNED_IN),
    Case("auth.logout", "POST", "/logout", SIGNED_IN),
]


def outcome(response) -> str:
    status = response.status_code
    if status >= 500:
        return f"error {status}"
    if status in (401, 403, 404, 405):
        return DENIED
    if status in (301, 302, 303) and "/login" in response.headers.get("Location", ""):
        return DENIED
    if status in (400, 409, 410, 413, 429):
        return REFUSED
    return OK


def test_every_route_has_a_row(app):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()} - {"static"}
    covered = {case.endpoint for case in MATRIX}
    assert endpoints - covered == set(), "routes without a row in the authorisation matrix"
    assert covered - endpoints == set(), "rows for routes that no longer exist"


@pytest.fixture
def world(app, settings):
    return restored("world", settings, lambda _app, template: build_world(template))


def test_each_role_gets_exactly_what_the_matrix_says(app, world):
    clients = {role: app.test_client() for role in ROLES}
    for role, client in clients.items():
        if role != "anonymous":
            login(client, EMAILS[role])
    mismatches = []
    for case in MATRIX:
        for role in ROLES:
            headers = {}
            if case.api and role != "anonymous":
                headers["Authorization"] = f"Bearer {world.tokens[role]}"
            client = app.test_client() if case.api else clients[role]
            data = upload_form(role) if case.data.get("upload") else dict(case.data)
            response = client.open(
                case.url.format(link=world.link),
                method=case.method,
                data=data,
                headers=headers,
                content_type="multipart/form-data" if case.method == "POST" else None,
            )
            got = outcome(response)
            if got != case.expected[role]:
                mismatches.append(
                    f"{case.method} {case.url} as {role}: {got} ({response.status_code}), "
                    f"expected {case.expected[role]}"
                )
    assert mismatches == [], "\n".join(mismatches)


def test_every_form_post_needs_the_csrf_token(settings):
    """The same POST rows against an app with CSRF on (as production): without the token each
    is refused before anything else runs; the JSON API (bearer tokens) is exempt."""
    app = make_app(settings)
    world = restored("world", settings, lambda _app, template: build_world(template))
    posts = [case for case in MATRIX if case.method == "POST" and not case.api]
    posts += [
        Case("auth.login", "POST", "/login", {}),
        Case("auth.register", "POST", "/register", {}),
    ]
    for role in ("anonymous", "admin"):
        client = app.test_client()
        if role == "admin":
            page = client.get("/login").get_data(as_text=True)
            token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
            client.post(
                "/login",
                data={"email": EMAILS["admin"], "password": "password123", "csrf_token": token},
            )
            assert "Log out" in client.get("/").get_data(as_text=True)
        for case in posts:
            response = client.post(case.url.format(link=world.link), data=dict(case.data))
            assert response.status_code == 400, (role, case.url, response.status_code)
            assert "CSRF token is missing" in response.get_data(as_text=True), (role, case.url)
