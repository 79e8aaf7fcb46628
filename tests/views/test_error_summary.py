"""After a failed submit every form page opens on an error summary (the GOV.UK pattern): each
problem once, linked to its field, the fields marked ``aria-invalid`` and described by their own
message."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings.events import services
from ratings.models import System
from tests.builders import make_event, make_players
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


def summary(response) -> str:
    """The error summary's HTML (the first on the page), or "" without one."""
    found = re.search(
        r'<div class="error-summary" data-error-summary tabindex="-1" autofocus>.*?</ul>',
        response.content.decode(),
        re.S,
    )
    return found[0] if found else ""


def summary_links(response) -> list[tuple[str, str]]:
    """(href, text) of each of the summary's links."""
    return [
        (href, " ".join(text.split()))
        for href, text in re.findall(r'<a href="([^"]*)">(.*?)</a>', summary(response), re.S)
    ]


def field_tag(response, name: str) -> str:
    return re.search(rf'<input [^>]*name="{name}"[^>]*>', response.content.decode())[0]


def post_paper(client, league, **change):
    data = {**WORKED_EXAMPLE_FORM, **change, "submission_key": str(uuid.uuid4()), "preview": "1"}
    return client.post(reverse("ratings:game_new", args=[league.slug]), data)


def test_an_empty_seat_is_summarised_at_the_top_with_a_link_to_the_seat(
    member_client, worked_example_league, worked_example_players
):
    response = post_paper(member_client, worked_example_league, player_1="")

    page = response.content.decode()
    assert page.index("data-error-summary") < page.index("<h1>")
    assert "There is a problem" in summary(response)
    assert summary_links(response) == [
        ("#id_player_1", "Seat 2 player: Every seat needs a player.")
    ]
    # The field says it too, and is tied to its message.
    tag = field_tag(response, "player_1")
    assert 'aria-invalid="true"' in tag
    assert 'aria-describedby="id_player_1_error"' in tag
    assert '<ul class="errorlist" id="id_player_1_error"><li>Every seat needs a player.' in page
    assert page.count("Every seat needs a player.") == 2
    assert re.search(r"<title>Error: ", page)


def test_a_seat_column_is_named_with_its_seat(
    member_client, worked_example_league, worked_example_players
):
    response = post_paper(member_client, worked_example_league, left_2="", right_0="x")

    assert summary_links(response) == [
        ("#id_right_0", "Seat 1, Right: Enter a whole number."),
        ("#id_left_2", "Seat 3, Left: Enter a whole number (0 if nothing is written)."),
    ]


def test_the_middle_sum_is_said_once_and_marks_the_three_middle_boxes(
    member_client, worked_example_league, worked_example_players
):
    response = post_paper(member_client, worked_example_league, middle_2="22")

    page = response.content.decode()
    message = "The middle column sums to 6"
    assert summary_links(response) == [
        ("#id_middle_0", f"{message}, not 0: the game ends when the bulas add up to zero. "
         "Mark the game as ended early if it was stopped before that."),
    ]  # fmt: skip
    # Once in the summary, once on the paper's middle-column line; never under the boxes.
    assert page.count(message) == 2
    assert re.search(rf'<p class="totals sum-bad" id="middle-sum"[^>]*>{message}', page)
    for seat in range(3):
        tag = field_tag(response, f"middle_{seat}")
        assert 'aria-invalid="true"' in tag
        assert 'aria-describedby="middle-sum"' in tag
        assert f'id="id_middle_{seat}_error"' not in page


def test_a_fresh_form_has_no_summary(member_client, worked_example_league):
    response = member_client.get(reverse("ratings:game_new", args=[worked_example_league.slug]))

    assert summary(response) == ""
    assert "<title>Error: " not in response.content.decode()


def test_a_scored_game_with_one_player_links_to_the_first_player(member_client, make_league):
    league = make_league(System.RAYTER_LOWSCORE, name="Hearts")
    response = member_client.post(
        reverse("ratings:game_new", args=[league.slug]),
        {
            "played_at": "2026-03-12T21:30",
            "player_0": "Ana",
            "score_0": "x",
            "submission_key": str(uuid.uuid4()),
            "preview": "1",
        },
    )

    assert summary_links(response) == [
        ("#id_player_0", "A game needs at least two players."),
        ("#id_score_0", "Player 1, Score: Enter a whole number."),
    ]


def test_a_duel_without_a_result_links_to_the_first_choice(member_client, make_league):
    league = make_league(System.ELO, name="Chess")
    response = member_client.post(
        reverse("ratings:game_new", args=[league.slug]),
        {
            "played_at": "2026-03-12T21:30",
            "player_0": "Ana",
            "player_1": "ana",
            "submission_key": str(uuid.uuid4()),
            "preview": "1",
        },
    )

    assert summary_links(response) == [
        ("#id_player_1", "Player 2: ana is already player 1: a player plays once in a game."),
        ("#id_outcome_0", "Result: This field is required."),
    ]


def test_a_wrong_password_links_to_the_username(client, member_user):
    response = client.post(reverse("login"), {"username": "member", "password": "wrong"})

    assert [href for href, _text in summary_links(response)] == ["#id_username"]
    assert "correct username and password" in summary_links(response)[0][1]


def test_a_new_player_without_a_name(member_client):
    response = member_client.post(reverse("ratings:player_new"), {"name": ""})

    assert summary_links(response) == [("#id_name", "Name: This field is required.")]
    assert 'aria-invalid="true"' in field_tag(response, "name")


def test_a_rayter_upload_without_a_file(staff_client, staff_user, make_league):
    staff_user.user_permissions.add(*Permission.objects.filter(codename="add_game"))
    league = make_league(System.RAYTER_HIGHSCORE, name="Kille", game_name="Kille")
    response = staff_client.post(reverse("ratings:rayter_import", args=[league.slug]), {})

    assert summary_links(response) == [("#id_file", "Rayter file: This field is required.")]


def test_the_filters_summarise_their_errors(client, worked_example_game):
    league = worked_example_game.league
    board = client.get(reverse("ratings:leaderboard", args=[league.slug]), {"min_games": "-1"})
    games = client.get(reverse("ratings:league_games", args=[league.slug]), {"player": "Nobody"})

    assert [href for href, _text in summary_links(board)] == ["#id_min_games"]
    tag = field_tag(board, "min_games")
    assert 'aria-invalid="true" aria-describedby="id_min_games_error"' in tag
    assert summary_links(games) == [
        ("#id_player", "Player: No player “Nobody” has played in this league.")
    ]
    assert 'aria-invalid="true"' in field_tag(games, "player")


def test_the_password_reset_form(client, settings):
    settings.EMAIL_HOST = "smtp.example.org"  # the pages exist only with a mail server
    response = client.post(reverse("password_reset"), {"email": "not an address"})

    assert [href for href, _text in summary_links(response)] == ["#id_email"]


# Club nights: the new event's form and the late arrivals' form on the event page.


def test_a_new_event_with_a_player_twice_opens_on_the_summary(admin_client, make_league):
    league = make_league(System.PREFKO, name="Friday")
    players = {f"player_{row}": name for row, name in enumerate(["Ana", "Bo", "Cid", "ana"])}
    response = admin_client.post(
        reverse("ratings:event_new", args=[league.slug]),
        {"name": "Friday night", "starts_at": "2026-03-12T20:00", "table_size": "3",
         "draw_method": "random", "scoring": "total", **players},
    )  # fmt: skip

    page = response.content.decode()
    assert page.index("data-error-summary") < page.index("<h1>")
    assert "<title>Error: " in page
    assert [href for href, _text in summary_links(response)] == ["#id_player_3"]


def test_a_late_arrival_twice_opens_the_event_page_on_the_summary(admin_client, make_league):
    event = make_event(make_league(System.PREFKO, name="Friday"), make_players(6))
    response = admin_client.post(
        reverse("ratings:event_players_add", args=[services.round_draw(event=event).event.pk]),
        {"player_0": "Zorana", "player_1": "zorana"},
    )

    page = response.content.decode()
    assert page.index("data-error-summary") < page.index("<h1>")
    assert "<title>Error: " in page
    assert [href for href, _text in summary_links(response)] == ["#id_player_1"]
