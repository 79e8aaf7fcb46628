"""The examples a developer pastes, the OpenAPI file's (on the docs page) and docs/api.md's,
posted to the demo club as they are: each is recorded as the league's newest game (nothing
before it re-rated) between players the club has (no new player made in silence)."""

import json
import re
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from ratings.models import ApiToken, Game, League, Player

pytestmark = pytest.mark.django_db

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def documented_bodies() -> list[str]:
    """The JSON bodies of docs/api.md's posts: the here-documents of its ``curl`` commands."""
    return re.findall(r"<<JSON\n(.*?)\nJSON\n", API_MD.read_text(encoding="utf-8"), re.S)


def as_the_shell_runs_it(body: str) -> dict:
    """A here-document's body with its commands' output: a fresh key, the time now."""
    now = timezone.localtime().replace(microsecond=0).isoformat()
    body = body.replace("$(uuidgen)", str(uuid.uuid4())).replace("$(date -Iseconds)", now)
    return json.loads(body)


@pytest.fixture
def demo_member(demo_club, django_user_model) -> Client:
    _row, token = ApiToken.objects.create_for(django_user_model.objects.get(username="member"), "x")
    return Client(headers={"Authorization": f"Bearer {token}"})


def test_docs_api_md_posts_the_columns_and_the_deals():
    assert len(documented_bodies()) == 2


def test_every_example_is_the_demo_leagues_newest_game_between_its_players(demo_member):
    league = League.objects.get(slug="preferans")
    players = Player.objects.count()
    schema = demo_member.get("/api/v1/openapi.json").json()
    examples = schema["components"]["schemas"]["GameIn"]["examples"]
    examples += [as_the_shell_runs_it(body) for body in documented_bodies()]
    assert len(examples) == 4
    for example in examples:
        response = demo_member.post(
            f"/api/v1/leagues/{league.slug}/games", example, content_type="application/json"
        )
        assert response.status_code == 201, response.content
        game = Game.objects.get(pk=response.json()["id"])
        assert not league.games.filter(played_at__gt=game.played_at).exclude(pk=game.pk).exists()
    assert Player.objects.count() == players


def test_the_openapi_files_examples_have_a_fresh_key_each_time(client):
    def keys():
        schema = client.get("/api/v1/openapi.json").json()
        return {example["key"] for example in schema["components"]["schemas"]["GameIn"]["examples"]}

    assert keys().isdisjoint(keys())
