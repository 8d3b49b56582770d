"""The Team page: where a team finds the tracks to submit to and the API's description."""

from __future__ import annotations

import pytest

from tests.support.factories import login, participant


def test_the_team_page_links_to_each_tracks_submit_page(client, settings, two_teams):
    login(client, "a@x.org")
    page = client.get("/team").get_data(as_text=True)
    assert 'href="/challenges/demo/tracks/main/submit"' in page
    assert client.get("/challenges/demo/tracks/main/submit").status_code == 200


def test_the_team_page_links_to_the_api_description(client, settings, two_teams):
    login(client, "a@x.org")
    assert 'href="/api/v1/openapi.json"' in client.get("/team").get_data(as_text=True)


@pytest.mark.parametrize("code", ["ü", "日本語", "²", "\u202e"])
def test_a_join_code_with_non_ascii_characters_is_a_wrong_code_not_500(
    client, settings, two_teams, code
):
    """``hmac.compare_digest`` refuses str with non-ASCII characters (TypeError): joining team
    A with such a code answered HTTP 500."""
    participant(settings, "new@x.org")
    login(client, "new@x.org")
    answer = client.post("/team/join", data={"join-name": "A", "join-join_code": code})
    assert answer.status_code == 302
    assert "no team with that name and join code" in client.get("/team").get_data(as_text=True)
