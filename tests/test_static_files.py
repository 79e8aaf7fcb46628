"""Production's static files (club/settings.py's STORAGES): every page names the files by their
hashed addresses from the manifest `collectstatic` writes, never by a literal path, and each
address is served to be kept for ever (a changed file is a new address).

The rest of the suite draws pages with unhashed names (the root conftest.py); these tests collect
a copy of the files as a release does, the admin's and the API docs' included.
"""

import re

import pytest
from django.urls import reverse

from tests.builders import production_static_files

pytestmark = pytest.mark.django_db

STATIC_ADDRESS = re.compile(r"""["'(](/static/[^"')?#]+)""")
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    with production_static_files(tmp_path_factory.mktemp("release")):
        yield


def static_addresses(text: str) -> set[str]:
    return set(STATIC_ADDRESS.findall(text))


def test_every_page_names_its_static_files_by_their_hashed_addresses(
    collected, client, member_client, admin_client, worked_example_game
):
    league = worked_example_game.league
    pages = [
        (client, "/"),
        (client, reverse("ratings:game", args=[worked_example_game.pk])),
        (member_client, reverse("ratings:game_new", args=[league.slug])),
        (client, "/api/v1/docs"),
        (client, reverse("admin:login")),
        (admin_client, reverse("admin:ratings_game_change", args=[worked_example_game.pk])),
        (client, "/sw.js"),
    ]
    named = set()
    for who, path in pages:
        response = who.get(path)
        assert response.status_code == 200, path
        named |= static_addresses(response.content.decode())

    named.add(client.get("/favicon.ico")["Location"])

    for expected in ("paper.", "offline.", "forms.", "club.", "club-admin.", "api-docs."):
        assert any(f"/{expected}" in address for address in named), expected
    assert [address for address in named if not HASHED.search(address)] == []


def test_a_hashed_file_is_served_to_be_kept_for_ever_and_names_hashed_files_itself(
    collected, client
):
    page = client.get("/").content.decode()
    [stylesheet] = [a for a in static_addresses(page) if "/club." in a and a.endswith(".css")]
    response = client.get(stylesheet)

    assert response.status_code == 200
    assert "immutable" in response["Cache-Control"]
    content = b"".join(response.streaming_content).decode()
    assert [a for a in static_addresses(content) if not HASHED.search(a)] == []
