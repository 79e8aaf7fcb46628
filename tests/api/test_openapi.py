"""The API describes itself: /api/v1/openapi.json, and the docs page drawn from it."""

import re

import pytest

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
        ("post", "/api/v1/games/{key}/confirm"): {
            "200", "400", "401", "403", "404", "409", "429"
        },
        ("post", "/api/v1/games/{key}/dispute"): {
            "200", "400", "401", "403", "404", "409", "429"
        },
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


def test_the_docs_page_is_a_page_of_the_site_drawn_from_the_openapi_file(
    client, django_assert_max_num_queries
):
    """Every operation with every status it answers and every shape, drawn on the server
    (ratings/api/docs.py) in the site's layout, with no script of its own."""
    schema = client.get("/api/v1/openapi.json").json()
    with django_assert_max_num_queries(2):  # the layout's own (the language, the session)
        response = client.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<main id="content"' in html and "swagger" not in html
    # The layout's own scripts only, from the club's files (the site's CSP: no inline script).
    assert all(tag.startswith('<script src="/static/') for tag in re.findall("<script[^>]*>", html))
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            anchor = operation["operationId"]
            assert f"{method.upper()}</span> {path}</code></h3>" in html
            section = html[html.index(f'id="{anchor}"') :].split("</section>")[0]
            for status in operation["responses"]:
                assert f"<dt><code>{status}</code>" in section, (path, status)
    for shape in schema["components"]["schemas"]:
        assert f'id="shape-{shape}"' in html
    assert 'href="/api/v1/openapi.json"' in html and 'href="/account/tokens/"' in html
    assert "docs/api.md" not in html


def test_the_docs_page_speaks_the_requests_language(client):
    response = client.get("/api/v1/docs", headers={"Accept-Language": "ru"})
    assert '<html lang="ru"' in response.content.decode()


def test_the_description_says_where_a_member_makes_a_token(client):
    """Tokens are made on /account/tokens/ ("API tokens" in the menu), not on "My page"."""
    description = client.get("/api/v1/openapi.json").json()["info"]["description"]
    assert "/account/tokens/" in description
    assert "member's page" not in description
    # A file the site does not serve is no help to a developer reading the file.
    assert "docs/api.md" not in description
