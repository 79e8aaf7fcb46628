"""One client-made key per game, whatever the path: the entry forms (paper, scored, head to
head), the API, a phone's offline queue. The same key again is the game already recorded.

A phone's offline queue and a bot's retries may send one game several times, at the same moment
from several connections. On PostgreSQL (what a club deploys) every copy answers with the one
game: the API's first 201 and the others 200 with the same body, the forms a redirect to the
game; never a second game and never a 500.
"""

import json
import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from ratings.models import ApiToken, Game, Standing, System
from tests.builders import Browser, api_post, api_posts_at_once, hidden, make_league, make_players
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import WORKED_EXAMPLE_FORM, WORKED_EXAMPLE_PAPERS, WORKED_EXAMPLE_PLAYERS

CLIENTS = 8

# Each kind of game's form, filled in.
FORMS = {
    System.PREFKO: WORKED_EXAMPLE_FORM,
    System.RAYTER_HIGHSCORE: {
        "played_at": "2026-03-12T21:30",
        "player_0": "Ann",
        "score_0": "30",
        "player_1": "Bo",
        "score_1": "10",
    },
    System.ELO: {
        "played_at": "2026-03-12T21:30",
        "player_0": "Ann",
        "player_1": "Bo",
        "outcome": "1",
    },
}


@pytest.mark.django_db
@pytest.mark.parametrize("system", FORMS)
def test_every_entry_form_carries_a_key_and_records_it_once(member_client, system):
    league = make_league(system, name="League")
    path = reverse("ratings:game_new", args=[league.slug])
    page = member_client.get(path)
    key = page.context["form"]["submission_key"].value()
    assert uuid.UUID(str(key))
    assert f'name="submission_key" value="{key}"'.encode() in page.content
    data = {**FORMS[system], "submission_key": key}
    preview = member_client.post(path, {**data, "preview": "1"})
    data["previewed"] = preview.context["form"]["previewed"].value()
    first = member_client.post(path, {**data, "save": "1"})
    again = member_client.post(path, {**data, "save": "1"})
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Game.objects.get().submission_key == uuid.UUID(str(key))


@pytest.mark.django_db(transaction=True)
def test_one_key_sent_by_many_clients_at_once_is_one_game(live_server, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(name="Friday")
    make_players(WORKED_EXAMPLE_PLAYERS)
    member = django_user_model.objects.create_user("member")
    key = str(uuid.uuid4())
    # Half the copies through the API, a token each (several devices: the per-token throttle
    # stays out of it), half through the entry form, previewed once.
    tokens = [ApiToken.objects.create_for(member, f"Device {n}")[1] for n in range(CLIENTS // 2)]
    body = {
        "key": key,
        "played_at": "2026-03-12T21:30:00+00:00",
        "bula": 30,
        "seats": [
            {"player": name, "left": left, "middle": middle, "right": right}
            for name, (left, middle, right) in zip(
                WORKED_EXAMPLE_PLAYERS, WORKED_EXAMPLE_PAPERS, strict=True
            )
        ],
    }
    api_url = f"{live_server.url}/api/v1/leagues/{league.slug}/games"
    form_path = reverse("ratings:game_new", args=[league.slug])
    form = {**WORKED_EXAMPLE_FORM, "played_at": "2026-03-12T21:30", "submission_key": key}
    browsers = [Browser(live_server.url, member) for _ in range(CLIENTS // 2)]
    for browser in browsers:
        browser.get(form_path)  # the CSRF cookie
    _status, preview = browsers[0].post(form_path, {**form, "preview": "1"})
    form["previewed"] = hidden(preview, "previewed")

    api_answers: list[tuple[int, dict]] = []
    form_answers: list[int] = []
    start = threading.Barrier(CLIENTS)

    def by_api(token):
        start.wait()
        api_answers.append(api_post(api_url, token, body))

    def by_form(browser):
        start.wait()
        status, _page = browser.post(form_path, {**form, "save": "1"})
        form_answers.append(status)

    threads = [threading.Thread(target=by_api, args=(token,)) for token in tokens]
    threads += [threading.Thread(target=by_form, args=(browser,)) for browser in browsers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a client hung: deadlock?"
    [game] = Game.objects.all()
    assert form_answers == [302] * (CLIENTS // 2)
    statuses = sorted(status for status, _body in api_answers)
    assert statuses in ([200] * (CLIENTS // 2), [200] * (CLIENTS // 2 - 1) + [201])
    assert {answer["id"] for _status, answer in api_answers} == {game.pk}
    assert len({json.dumps(answer, sort_keys=True) for _status, answer in api_answers}) == 1
    assert set(Standing.objects.values_list("games", flat=True)) == {1}
    assert_unchanged_by_recompute(league)


@pytest.mark.django_db(transaction=True)
def test_one_key_posted_to_the_api_by_many_clients_at_once_is_one_201(
    live_server, django_user_model
):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(name="Friday")
    make_players(WORKED_EXAMPLE_PLAYERS)
    member = django_user_model.objects.create_user("member")
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
    answers = api_posts_at_once(url, tokens, body)
    assert sorted(status for status, _body in answers) == [200] * (CLIENTS - 1) + [201]
    assert len({json.dumps(answer, sort_keys=True) for _status, answer in answers}) == 1
    assert Game.objects.count() == 1
