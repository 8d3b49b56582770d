"""The Team page: where a team finds the tracks to submit to and the API's description."""

from __future__ import annotations

from tests.support.factories import login


def test_the_team_page_links_to_each_tracks_submit_page(client, settings, two_teams):
    login(client, "a@x.org")
    page = client.get("/team").get_data(as_text=True)
    assert 'href="/challenges/demo/tracks/main/submit"' in page
    assert client.get("/challenges/demo/tracks/main/submit").status_code == 200


def test_the_team_page_links_to_the_api_description(client, settings, two_teams):
    login(client, "a@x.org")
    assert 'href="/api/v1/openapi.json"' in client.get("/team").get_data(as_text=True)
