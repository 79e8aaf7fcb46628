"""POST /api/v1/leagues/<slug>/games with ``"deals"``: the digital paper's deal log, rated as the
paper it draws and kept with its deals as a finished digital paper."""

import json
import uuid

import pytest
from django.db import connection

from ratings.algorithms.paper import Hand, hand_from_entry
from ratings.models import ApiToken, Game, System
from ratings.papers import selectors
from ratings.papers.models import Deal, DigitalPaper
from tests.builders import api_game_post, api_posts_at_once, make_league, make_players
from tests.worked_example import WORKED_EXAMPLE_PLAYERS

pytestmark = pytest.mark.django_db


def played(declarer, contract, follower, tricks, *, on_refa=False, kontra=0):
    """A deal as the table says it, in the log's form: one follower followed, the other passed."""
    other = ({1, 2, 3} - {declarer, follower}).pop()
    return hand_from_entry(
        {
            "declarer": declarer,
            "contract": contract,
            "on_refa": on_refa,
            "kontra": kontra,
            "followers": [
                {"seat": follower, "play": "followed", "tricks": tricks},
                {"seat": other, "play": "passed"},
            ],
        }
    )


# Bula 10: a refa, then each declares on it; seat 2 gives kontra on seat 3.
SHORT_GAME = [
    {"refa": True},
    played(1, "karo", 2, 2, on_refa=True),
    played(2, "pik", 3, 1, on_refa=True),
    played(3, "pik", 2, 1, on_refa=True, kontra=1),
]
COLUMNS = [(0, -2, 0), (24, 2, 16), (8, -6, 0)]


def deals_body(hands=SHORT_GAME, **extra) -> dict:
    return {
        "key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30:00+00:00",
        "bula": 10,
        "seats": [{"player": name} for name in WORKED_EXAMPLE_PLAYERS],
        "deals": hands,
        **extra,
    }


def test_it_rates_the_columns_the_deals_give_and_keeps_the_deals(
    api, client, worked_example_league, worked_example_players
):
    response = api_game_post(api, worked_example_league, deals_body())
    assert response.status_code == 201, response.json()
    game = Game.objects.get()
    assert [r.paper for r in game.results.order_by("seat")] == COLUMNS
    assert [s["player"] for s in response.json()["seats"]] == list(WORKED_EXAMPLE_PLAYERS)
    paper = DigitalPaper.objects.get()
    assert paper.game == game and paper.finished and paper.bula == 10
    # The last deal took the bulas to -6: played out, not ended early (game and paper).
    assert not game.ended_early and not paper.ended_early
    assert [p.name for p in paper.players] == list(WORKED_EXAMPLE_PLAYERS)
    assert Deal.objects.filter(paper=paper).count() == 4
    # Its page lists the deals by value (the log tells no contract).
    page = client.get(f"/papers/{paper.pk}/")
    assert page.status_code == 200 and [d.value for d in page.context["page"].deals[1:]] == [
        12,
        8,
        16,
    ]
    # The stored paper gives its game's columns, and exports the log as posted.
    assert selectors.first_paper_difference() is None
    assert selectors.deal_logs_of_games([game.pk])[game.pk]["hands"] == [
        {**hand, "repealed": False} if "value" in hand else hand for hand in SHORT_GAME
    ]


def test_the_posted_deals_are_kept_in_the_one_shape_a_deal_has(
    api, worked_example_league, worked_example_players
):
    """Each posted hand is kept as the paper module's Hand: its value, declarer and followers
    as the log says them, no contract (the log tells none), the crossing out the deal's own."""
    mistake = {**played(1, "sans", 2, 3), "repealed": True}
    hands = [SHORT_GAME[0], mistake, *SHORT_GAME[1:]]
    assert api_game_post(api, worked_example_league, deals_body(hands)).status_code == 201
    deals = list(Deal.objects.order_by("number"))
    kept = [Hand.from_json(deal.entered) for deal in deals]
    assert [hand.to_json() for hand in kept] == [deal.entered for deal in deals]
    assert kept[0].refa and all(hand.contract is None for hand in kept[1:])
    assert kept[2].to_json() == {
        "contract": None,
        "value": 12,
        "declarer": {"seat": 1, "failed": False},
        "followers": [
            {"seat": 2, "play": "followed", "tricks": 2, "failed": False},
            {"seat": 3, "play": "passed", "tricks": 0, "failed": False},
        ],
    }
    assert [deal.repealed for deal in deals] == [False, True, False, False, False]


def test_the_same_key_again_is_the_same_game_and_paper(
    api, worked_example_league, worked_example_players
):
    body = deals_body()
    first = api_game_post(api, worked_example_league, body)
    again = api_game_post(api, worked_example_league, body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert (Game.objects.count(), DigitalPaper.objects.count(), Deal.objects.count()) == (1, 1, 4)


def test_the_same_key_with_another_log_giving_the_same_columns_is_refused_409(
    api, worked_example_league, worked_example_players
):
    body = deals_body()
    assert api_game_post(api, worked_example_league, body).status_code == 201
    mistake = {**played(1, "sans", 2, 3), "repealed": True}  # crossed out: the same columns
    other = {**body, "deals": [SHORT_GAME[0], mistake, *SHORT_GAME[1:]]}

    again = api_game_post(api, worked_example_league, other)

    assert again.status_code == 409
    assert [error["field"] for error in again.json()["errors"]] == ["key"]
    assert Deal.objects.count() == 4


def test_a_repealed_deal_is_kept_crossed_out(api, worked_example_league, worked_example_players):
    mistake = {**played(1, "sans", 2, 3), "repealed": True}
    hands = [SHORT_GAME[0], mistake, *SHORT_GAME[1:]]
    response = api_game_post(api, worked_example_league, deals_body(hands))
    assert response.status_code == 201, response.json()
    assert [r.paper for r in Game.objects.get().results.order_by("seat")] == COLUMNS
    assert list(Deal.objects.values_list("repealed", flat=True)) == [False, True] + [False] * 3


def test_a_log_the_rules_refuse_is_400_naming_the_hand(
    api, worked_example_league, worked_example_players
):
    wrong = played(1, "karo", 2, 2)
    wrong["declarer"]["failed"] = True  # a failed contract gives the followers exactly 5
    response = api_game_post(api, worked_example_league, deals_body([SHORT_GAME[0], wrong]))
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "deals"
    assert "hand 2: a failed contract gives the followers exactly 5" in error["message"]
    assert not Game.objects.exists() and not DigitalPaper.objects.exists()


def test_a_game_whose_bulas_have_not_run_out_is_refused_unless_ended_early(
    api, worked_example_league, worked_example_players
):
    response = api_game_post(api, worked_example_league, deals_body(SHORT_GAME[:2]))
    assert response.status_code == 400
    message = response.json()["errors"][0]["message"]
    assert "The bulas add up to" in message
    assert 'Send "ended_early": true if the clock stopped it.' in message
    response = api_game_post(
        api, worked_example_league, deals_body(SHORT_GAME[:2], ended_early=True)
    )
    assert response.status_code == 201
    game = Game.objects.get()
    assert game.ended_early and DigitalPaper.objects.get().ended_early


def test_a_hand_after_the_bulas_ran_out_is_refused(
    api, worked_example_league, worked_example_players
):
    body = deals_body([*SHORT_GAME, {"refa": True}], ended_early=True)
    response = api_game_post(api, worked_example_league, body)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "deals" and "ran out with deal 4" in error["message"]
    assert not Game.objects.exists() and not DigitalPaper.objects.exists()


def test_a_log_is_drawn_by_its_leagues_house_rules(
    api, worked_example_league, worked_example_players
):
    # The double fall near the end: 6 bulas left, seat 3 falls on herc (8) with seat 1 taking
    # 5 tricks: +16, not +8 (docs/digital-paper.md's worked example).
    worked_example_league.settings = {"double_fall": True}
    worked_example_league.save()
    hands = [
        played(1, "sans", 2, 0),
        played(2, "tref", 3, 0),
        {
            "value": 8,
            "declarer": {"seat": 3, "failed": True},
            "followers": [
                {"seat": 1, "followed": True, "tricks": 5},
                {"seat": 2, "followed": False},
            ],
        },
    ]
    response = api_game_post(api, worked_example_league, deals_body(hands, ended_early=True))
    assert response.status_code == 201, response.json()
    game = Game.objects.get()
    assert [r.paper for r in game.results.order_by("seat")] == [(40, -4, 0), (0, 0, 0), (0, 26, 0)]
    assert DigitalPaper.objects.get().house_rules == {"double_fall": True}
    assert selectors.first_paper_difference() is None


def test_the_refe_cap_is_the_leagues_unless_sent(
    api, worked_example_league, worked_example_players
):
    worked_example_league.settings = {"refas": 0}
    worked_example_league.save()
    response = api_game_post(api, worked_example_league, deals_body())
    assert response.status_code == 400
    assert "hand 1" in response.json()["errors"][0]["message"]
    response = api_game_post(api, worked_example_league, deals_body(refas=None))
    assert response.status_code == 201
    assert DigitalPaper.objects.get().refas is None


@pytest.mark.parametrize("refas", [32768, 2**40, 101])
def test_a_refe_cap_beyond_the_papers_is_refused_naming_it(
    api, worked_example_league, worked_example_players, refas
):
    """The paper keeps its cap in a small column: 32768 was a 500 on PostgreSQL."""
    response = api_game_post(api, worked_example_league, deals_body(refas=refas))
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "refas"
    assert not Game.objects.exists() and not DigitalPaper.objects.exists()


def test_deals_need_three_names_and_no_columns(api, worked_example_league, worked_example_players):
    body = deals_body()
    body["seats"][0]["left"] = 4
    body["seats"].pop()
    errors = api_game_post(api, worked_example_league, body).json()["errors"]
    assert [error["field"] for error in errors] == ["seats", "seats"]


def test_deals_cost_a_fixed_number_of_queries_however_many(
    api, worked_example_league, worked_example_players, django_assert_num_queries
):
    """Recording a game from its deals: the posted paper's queries (the token, the league, the
    key, the names, the birth-date rule as the form asks it and again under the engine's lock,
    the engine's, its season and opponent rows among them), and for its paper one row, its
    deals in one insert and the game's seats read back, however long the log: no query per
    deal."""
    with django_assert_num_queries(QUERIES):
        assert api_game_post(api, worked_example_league, deals_body()).status_code == 201
    refe = [{"refa": True}] * 20  # bula 10 never runs out: ended early
    # One fewer: the token, used a moment ago, is not marked again.
    with django_assert_num_queries(QUERIES - 1):
        body = deals_body([*refe, *SHORT_GAME[1:]], ended_early=True)
        assert api_game_post(api, worked_example_league, body).status_code == 201


# One of them the club's voice asking whether the league has a channel posting games.
QUERIES = 31


CLIENTS = 6


@pytest.mark.django_db(transaction=True)
def test_one_key_of_deals_posted_by_many_clients_at_once_is_one_game_and_one_paper(
    live_server, django_user_model
):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(System.PREFKO, name="Friday")
    make_players(WORKED_EXAMPLE_PLAYERS)
    member = django_user_model.objects.create_user("member")
    tokens = [ApiToken.objects.create_for(member, f"Device {n}")[1] for n in range(CLIENTS)]
    body = deals_body()
    url = f"{live_server.url}/api/v1/leagues/{league.slug}/games"
    answers = api_posts_at_once(url, tokens, body)
    assert sorted(status for status, _body in answers) == [200] * (CLIENTS - 1) + [201]
    assert len({json.dumps(answer, sort_keys=True) for _status, answer in answers}) == 1
    assert (Game.objects.count(), DigitalPaper.objects.count(), Deal.objects.count()) == (1, 1, 4)
