"""One key, many clients at once: one game, on PostgreSQL (what a club deploys).

A phone's offline queue and a bot's retries may send one game several times, at the same moment
from several connections. Every copy must answer with the one game: the first 201, the others
200 with the same body, never a second game and never a 500.
"""

import json
import threading
import urllib.error
import urllib.request
import uuid

import pytest
from django.db import connection

from ratings.models import ApiToken, Game, Standing
from tests.builders import make_league, make_players
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import WORKED_EXAMPLE_PAPERS, WORKED_EXAMPLE_PLAYERS

CLIENTS = 8


def post(url: str, token: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        response = urllib.request.urlopen(request, timeout=120)
    except urllib.error.HTTPError as error:
        response = error
    with response:
        return response.status, json.loads(response.read() or b"{}")


@pytest.mark.django_db(transaction=True)
def test_one_key_posted_by_many_clients_at_once_is_one_game(live_server, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(name="Friday")
    make_players(WORKED_EXAMPLE_PLAYERS)
    member = django_user_model.objects.create_user("member")
    # A token per client, as on several devices, so the per-token throttle stays out of it.
    tokens = [ApiToken.objects.create_for(member, f"Device {n}")[1] for n in range(CLIENTS)]
    body = {
        "key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30:00+00:00",
        "bula": 30,
        "seats": [
            {"player": name, "left": left, "middle": middle, "right": right}
            for name, (left, middle, right) in zip(
                WORKED_EXAMPLE_PLAYERS, WORKED_EXAMPLE_PAPERS, strict=True
            )
        ],
    }
    url = f"{live_server.url}/api/v1/leagues/{league.slug}/games"
    answers: list[tuple[int, dict]] = []
    start = threading.Barrier(CLIENTS)

    def client(token):
        start.wait()
        answers.append(post(url, token, body))

    threads = [threading.Thread(target=client, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a client hung: deadlock?"
    statuses = sorted(status for status, _body in answers)
    assert statuses == [200] * (CLIENTS - 1) + [201]
    assert len({json.dumps(answer, sort_keys=True) for _status, answer in answers}) == 1
    assert Game.objects.count() == 1
    assert set(Standing.objects.values_list("games", flat=True)) == {1}
    assert_unchanged_by_recompute(league)
