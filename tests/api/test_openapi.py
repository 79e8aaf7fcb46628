"""The API describes itself: /api/v1/openapi.json, and a docs page from the app's own files."""

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_the_openapi_file_lists_every_route(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert set(schema["paths"]) >= {
        "/api/v1/leagues",
        "/api/v1/leagues/{slug}/standings",
        "/api/v1/leagues/{slug}/games",
        "/api/v1/leagues/{slug}/events",
        "/api/v1/players",
        "/api/v1/players/{slug}/history",
        "/api/v1/players/{a}/vs/{b}",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/events/{event_id}",
        "/api/v1/events/{event_id}/rsvp",
    }
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"


def test_each_operation_lists_every_status_it_answers_each_refusal_an_errors(client):
    """A client reads from the file what each call may answer: 401 wherever a token may be sent,
    404 wherever the path names something, 400 wherever a parameter or body may be refused; no
    422 (ninja's own, in another shape), and every refusal is the ``Errors`` shape."""
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    statuses = {
        (method, path): set(operation["responses"])
        for path, operations in paths.items()
        for method, operation in operations.items()
    }
    assert statuses == {
        ("get", "/api/v1/leagues"): {"200", "401"},
        ("get", "/api/v1/leagues/{slug}/standings"): {"200", "401", "404"},
        ("get", "/api/v1/leagues/{slug}/events"): {"200", "401", "404"},
        ("post", "/api/v1/leagues/{slug}/games"): {
            "200", "201", "400", "401", "403", "404", "409", "413", "429"
        },
        ("get", "/api/v1/players"): {"200", "400", "401"},
        ("get", "/api/v1/players/{slug}/history"): {"200", "401", "404"},
        ("get", "/api/v1/players/{a}/vs/{b}"): {"200", "401", "404"},
        ("get", "/api/v1/games"): {"200", "400", "401"},
        ("get", "/api/v1/games/{game_id}"): {"200", "401", "404"},
        ("get", "/api/v1/events/{event_id}"): {"200", "401", "404"},
        ("post", "/api/v1/events/{event_id}/rsvp"): {
            "200", "400", "401", "403", "404", "413", "429"
        },
    }  # fmt: skip
    for operations in paths.values():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                if status >= "400":
                    content = response["content"]["application/json"]["schema"]
                    assert content == {"$ref": "#/components/schemas/Errors"}


def test_reads_take_a_token_or_none_and_the_post_a_token(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            if method == "get":
                assert operation["security"] == [{"TokenAuth": []}, {}], path
            else:
                assert operation["security"] == [{"TokenAuth": []}], path


def test_the_docs_page_loads_only_the_apps_own_files_under_the_sites_csp(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources, html
    for source in sources:
        assert source.startswith("/static/"), source
        assert finders.find(source.removeprefix("/static/")), source
    # No script the CSP would block: only files and a JSON block, which browsers do not run.
    for attributes in re.findall(r"<script([^>]*)>", html):
        assert "src=" in attributes or 'type="application/json"' in attributes
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    # A phone shows it at its own width.
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_the_description_says_where_a_member_makes_a_token(client):
    """Tokens are made on /account/tokens/ ("API tokens" in the menu), not on "My page"."""
    description = client.get("/api/v1/openapi.json").json()["info"]["description"]
    assert "/account/tokens/" in description
    assert "member's page" not in description
