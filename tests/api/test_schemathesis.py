"""The API against its own OpenAPI file: schemathesis generates requests for every operation
(reads and the game post) from the file, sends them to the app with a member's token on the
demo club, and checks each answer: never a server error, every status listed for the operation,
every body of the shape the file gives it.

Bounded so that it runs in CI on both databases: a few examples an operation, derandomized so a
run repeats the last one (docs/testing.md says how long it takes).
"""

import uuid

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import positive_data_acceptance

from ratings.entry.models import HeldGame
from ratings.events.models import Event
from ratings.management.commands.demo import MEMBER_USERNAME
from ratings.models import ApiToken, Game, League, Player

pytestmark = pytest.mark.django_db


# The file as the app serves it, read once at collection; each operation is a test of its own.
# The app reads SECURE_SSL_REDIRECT when it is made, before the suite's fixtures turn it off.
with override_settings(SECURE_SSL_REDIRECT=False):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", WSGIHandler())


def demo_values(path: str, name: str) -> list:
    """What a path parameter may name in the demo club."""
    if name in ("a", "b") or (name == "slug" and path.startswith("/api/v1/players/")):
        return list(Player.objects.order_by("pk").values_list("slug", flat=True)[:6])
    if name == "slug":
        return list(League.objects.order_by("pk").values_list("slug", flat=True))
    if name == "key":  # a waiting game's key, or a recorded game's (409), or none (404)
        held = list(HeldGame.objects.order_by("pk").values_list("key", flat=True)[:3])
        keys = Game.objects.exclude(submission_key=None).values_list("submission_key", flat=True)
        return [*held, *keys[:3], uuid.UUID(int=1)]
    model = {"game_id": Game, "event_id": Event}[name]
    return list(model.objects.order_by("pk").values_list("pk", flat=True)[:6])


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    """As generated (mostly nothing the club has: 404) or the demo club's own leagues, players,
    games and events, so that reads answer with real bodies and posts reach a league's rules."""
    if not path_parameters:
        return st.just(path_parameters)
    path = context.operation.path
    demo = {name: st.sampled_from(demo_values(path, name)) for name in path_parameters}
    return st.one_of(st.just(path_parameters), st.fixed_dictionaries(demo))


@pytest.fixture
def _connection_kept():
    """Every request runs in the test's transaction, on its connection: the WSGI app would close
    it as each request starts and ends, so it is kept open as Django's test client keeps it."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def member_headers(_connection_kept, demo_club, django_user_model, settings) -> dict:
    # Enough writes that the game post is tested beyond the throttle's first minute.
    settings.API_WRITE_RATE = "100000/min"
    member = django_user_model.objects.get(username=MEMBER_USERNAME)
    _row, token = ApiToken.objects.create_for(member, "schemathesis")
    # Uncompressed: the WSGI test client hands schemathesis the bytes as sent, and GZipMiddleware
    # compresses for a client that accepts it (every browser and HTTP library decompresses).
    return {"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"}


@schema.parametrize()
@settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_documented_and_none_is_a_server_error(case, member_headers):
    # A game of the right shape may still break the club's rules (its columns must add up, its
    # players be different): refused with 400 as documented, which no JSON Schema can foresee.
    excluded = [positive_data_acceptance] if case.method == "POST" else []
    case.call_and_validate(headers=member_headers, excluded_checks=excluded)
