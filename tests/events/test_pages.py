"""The event pages: an organiser creates a night and runs it (its bula, the late arrivals, a
player leaving early), members enter each table's paper from its link, and everyone reads the
live standings, the tables and the table cards, in each language's words."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings import engine
from ratings.events import services
from ratings.events.models import Event, Scoring
from ratings.models import Game, Player, System
from tests.builders import (
    event_form,
    in_language,
    make_event,
    make_league,
    play_round,
    play_table,
)
from tests.views.pages import QUERIES
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]


# Creating ---------------------------------------------------------------------------------------


def test_an_organiser_creates_a_night_with_nine_players(organiser_client, organiser, league, nine):
    response = organiser_client.post(
        reverse("ratings:event_new", args=[league.slug]), event_form(p.name for p in nine)
    )

    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    assert event.organiser == organiser and event.rounds_total == 4
    assert event.event_players.count() == 9
    assert event.scoring == Scoring.PREFERANS_ORG


def test_a_typo_in_a_name_asks_before_adding_a_player(organiser_client, league, nine):
    url = reverse("ratings:event_new", args=[league.slug])
    names = [p.name for p in nine if p.name != "Pedja"] + ["Pedia"]  # Pedja, mistyped

    asked = organiser_client.post(url, event_form(names))
    picked = organiser_client.post(url, {**event_form(names), "use_player_8": "Pedja"})

    assert asked.status_code == 200 and not Event.objects.exists()
    assert "Did you mean Pedja?" in asked.content.decode()
    assert picked.status_code == 200  # the form again, Pedja in the row
    assert picked.context["form"]["player_8"].value() == "Pedja"
    created = organiser_client.post(url, event_form([*names[:8], "Pedja"]))
    assert created.status_code == 302
    assert Event.objects.get().event_players.filter(player__name="Pedja").exists()


def test_more_rows_keeps_every_name_typed(organiser_client, league, nine):
    url = reverse("ratings:event_new", args=[league.slug])
    typed = event_form(p.name for p in nine)

    more = organiser_client.post(url, {**typed, "rows": "12", "more_rows": "1"})

    form = more.context["form"]
    assert more.status_code == 200 and not Event.objects.exists()
    assert form.rows == 24 and not form.is_bound  # no error shown for a form half typed
    assert [form[f"player_{row}"].value() for row in range(9)] == [p.name for p in nine]
    assert form["name"].value() == typed["name"]
    assert 'name="rows" value="24"' in more.content.decode()
    # A name in a row only the longer form has is a player present.
    created = organiser_client.post(url, {**typed, "rows": "24", "player_20": "Zorana"})
    assert created.status_code == 302
    assert Event.objects.get().event_players.filter(player__name="Zorana").exists()


def test_a_new_name_far_from_everyone_is_a_new_player(organiser_client, league, nine):
    organiser_client.post(
        reverse("ratings:event_new", args=[league.slug]),
        event_form([p.name for p in nine[:8]] + ["Zorana"]),
    )

    assert Event.objects.get().event_players.filter(player__name="Zorana").exists()


def test_the_form_says_what_is_wrong(organiser_client, league, nine):
    response = organiser_client.post(
        reverse("ratings:event_new", args=[league.slug]),
        event_form(["Ana", "Bojan"], scoring="places", points_per_place="3 two 1"),
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["points_per_place"] == [
        "Write whole numbers separated by spaces, e.g. 3 2 1 0."
    ]
    assert not Event.objects.exists()


def test_members_without_the_right_cannot_create_events(member_client, league):
    url = reverse("ratings:event_new", args=[league.slug])

    assert member_client.get(url).status_code == 403
    assert member_client.post(url, event_form(["Ana", "Bojan", "Dragan"])).status_code == 403
    assert not Event.objects.exists()


# Running it ---------------------------------------------------------------------------------------


def test_the_organiser_draws_a_round_and_everyone_sees_its_tables(organiser_client, client, night):
    response = organiser_client.post(reverse("ratings:round_draw", args=[night.pk]))

    assert response.status_code == 302
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Round 1: 0 of 3 tables in" in page
    assert page.count("waiting for the paper") == 3
    assert "Enter the paper" not in page  # visitors read; members enter
    assert "Draw round" not in page


def test_members_see_each_table_s_link_to_its_paper(member_client, night):
    first = services.round_draw(event=night)

    page = member_client.get(night.get_absolute_url()).content.decode()

    for table in first.tables.all():
        link = reverse("ratings:game_new", args=[night.league.slug]) + f"?table={table.pk}"
        assert f'href="{link}"' in page


def test_a_table_s_link_opens_the_entry_form_with_its_players(member_client, night):
    table = services.round_draw(event=night).tables.get(number=2)
    names = list(table.seats.order_by("seat").values_list("player__name", flat=True))

    response = member_client.get(
        reverse("ratings:game_new", args=[night.league.slug]), {"table": table.pk}
    )

    form = response.context["form"]
    assert [form[f"player_{seat}"].value() for seat in range(3)] == names
    assert "Table 2, round 1" in response.content.decode()


def table_form(names, papers=WORKED_EXAMPLE_PAPERS) -> dict:
    data = {"submission_key": str(uuid.uuid4()), "played_at": "2026-03-13T20:30", "bula": "30"}
    for seat, (name, (left, middle, right)) in enumerate(zip(names, papers, strict=True)):
        data |= {
            f"player_{seat}": name,
            f"left_{seat}": left,
            f"middle_{seat}": middle,
            f"right_{seat}": right,
        }
    return data


def enter_table_paper(client, table, names, papers=WORKED_EXAMPLE_PAPERS):
    url = reverse("ratings:game_new", args=[table.round.event.league.slug]) + f"?table={table.pk}"
    data = table_form(names, papers)
    preview = client.post(url, {**data, "preview": "1"})
    assert preview.status_code == 200
    if preview.context["form"].errors:
        return preview
    return client.post(
        url, {**data, "previewed": preview.context["form"]["previewed"].value(), "save": "1"}
    )


def seat_names(table) -> list[str]:
    return list(table.seats.order_by("seat").values_list("player__name", flat=True))


def test_saving_a_table_s_paper_links_the_game_and_shows_the_table(member_client, night):
    table = services.round_draw(event=night).tables.get(number=1)

    response = enter_table_paper(member_client, table, seat_names(table))

    table.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.game is not None
    page = member_client.get(table.get_absolute_url()).content.decode()
    assert "The paper is in." in page
    assert reverse("ratings:game", args=[table.game_id]) in page
    # And on the event page: the progress, and the winner of the table's 4 points.
    event_page = member_client.get(night.get_absolute_url()).content.decode()
    assert "Round 1: 1 of 3 tables in" in event_page


def test_a_table_s_paper_with_other_players_is_refused(member_client, night, nine):
    table = services.round_draw(event=night).tables.get(number=1)
    others = [p.name for p in nine if p.name not in seat_names(table)][:3]

    response = enter_table_paper(member_client, table, others)

    assert response.status_code == 200
    assert "Table 1 seats" in response.content.decode()
    assert not Game.objects.exists()


def test_the_players_may_be_typed_in_the_order_they_sat(member_client, night):
    table = services.round_draw(event=night).tables.get(number=1)
    names = seat_names(table)

    response = enter_table_paper(member_client, table, [names[1], names[2], names[0]])

    assert response.status_code == 302
    game = Game.objects.get()
    assert [r.player.name for r in game.results.order_by("seat")] == [names[1], names[2], names[0]]


def test_a_table_whose_paper_is_in_sends_its_link_to_the_table(member_client, night):
    table = services.round_draw(event=night).tables.get(number=1)
    play_table(table)

    response = member_client.get(
        reverse("ratings:game_new", args=[night.league.slug]), {"table": table.pk}
    )

    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()


def test_a_table_of_another_league_is_not_found(member_client, night):
    table = services.round_draw(event=night).tables.get(number=1)
    other = make_league(System.PREFKO, name="Other")

    url = reverse("ratings:game_new", args=[other.slug])
    assert member_client.get(url, {"table": table.pk}).status_code == 404
    assert member_client.get(url, {"table": "x1"}).status_code == 404


def test_a_paper_that_arrives_after_another_is_refused_with_a_message(member_client, night):
    table = services.round_draw(event=night).tables.get(number=1)
    url = reverse("ratings:game_new", args=[night.league.slug]) + f"?table={table.pk}"
    data = table_form(seat_names(table))
    preview = member_client.post(url, {**data, "preview": "1"})
    play_table(table)  # someone else's paper for the table, meanwhile

    response = member_client.post(
        url,
        {**data, "previewed": preview.context["form"]["previewed"].value(), "save": "1"},
        follow=True,
    )

    game = Game.objects.get()
    assert f"The paper of table 1 is already in: game #{game.pk}." in response.content.decode()
    assert response.redirect_chain[-1][0] == table.get_absolute_url()


def test_closing_a_round_marks_its_unplayed_tables(organiser_client, night):
    first = services.round_draw(event=night)
    play_table(first.tables.get(number=1))
    # The browser asks first (static/forms.js): closing cannot be undone.
    page = organiser_client.get(night.get_absolute_url()).content.decode()
    assert (
        'data-confirm="Close round 1? Its tables without a paper will be marked not played,'
        ' for good.">' in page
    )

    response = organiser_client.post(
        reverse("ratings:round_close", args=[night.pk, 1]), follow=True
    )

    assert "Round 1 is closed; 2 tables marked not played." in response.content.decode()
    assert first.tables.filter(not_played=True).count() == 2
    assert "Draw round 2" in response.content.decode()


def test_drawing_before_the_papers_are_in_says_why(organiser_client, night):
    services.round_draw(event=night)

    response = organiser_client.post(reverse("ratings:round_draw", args=[night.pk]), follow=True)

    assert "Round 1 still waits for the papers of 3 tables" in response.content.decode()


def test_the_closed_night_names_its_winner(organiser_client, client, night):
    first = services.round_draw(event=night)
    play_round(first, {1: WORKED_EXAMPLE_PAPERS})
    winner = first.tables.get(number=1).seats.get(seat=0).player

    organiser_client.post(reverse("ratings:event_close", args=[night.pk]))

    page = client.get(night.get_absolute_url()).content.decode()
    assert re.search(rf'<p class="winner-name"><a href="[^"]+">{winner.name}</a></p>', page)
    assert "Close the event" not in organiser_client.get(night.get_absolute_url()).content.decode()


def test_a_closed_nights_table_whose_game_is_deleted_reads_not_played(client, night):
    """Deleting a game in the admin frees its table, for a paper to be entered again: once the
    night is closed, none can be, and the table is one that was not played."""
    first = services.round_draw(event=night)
    play_round(first)
    services.event_close(event=night)
    table = first.tables.get(number=2)
    engine.game_delete(game=table.game)

    page = client.get(night.get_absolute_url()).content.decode()
    card = re.search(rf'id="table-{table.pk}".*?</h3>', page, re.S)[0]
    assert "not played" in card and "waiting" not in card
    page = client.get(table.get_absolute_url()).content.decode()
    assert "This table was not played." in page and "Waiting for the paper" not in page


def test_a_night_closed_before_any_game_says_there_is_no_winner(client, night):
    services.event_close(event=night)

    page = client.get(night.get_absolute_url()).content.decode()

    assert '<h2 id="winner-title">No winner</h2>' in page
    assert "Nobody played a game." in page and "Winners" not in page


def test_only_the_organiser_or_staff_run_an_event(member_client, night, django_user_model):
    for name in ("round_draw", "event_close"):
        assert member_client.post(reverse(f"ratings:{name}", args=[night.pk])).status_code == 403
    staff = django_user_model.objects.create_user("chief", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_event"))
    client = Client()
    client.force_login(staff)
    assert client.post(reverse("ratings:round_draw", args=[night.pk])).status_code == 302
    assert night.rounds.count() == 1


def test_late_arrivals_join_from_the_event_page(organiser_client, night):
    response = organiser_client.post(
        reverse("ratings:event_players_add", args=[night.pk]), {"player_0": "Zorana"}, follow=True
    )

    assert "Present from the next round: Zorana." in response.content.decode()
    assert night.event_players.count() == 10


def test_a_late_arrival_already_present_is_named(organiser_client, night):
    url = reverse("ratings:event_players_add", args=[night.pk])

    both = organiser_client.post(url, {"player_0": "Zorana", "player_1": "ana"}, follow=True)
    again = organiser_client.post(url, {"player_0": "Zorana"}, follow=True)

    page = both.content.decode()
    assert "Present from the next round: Zorana. Already present: Ana." in page
    assert "Already present: Zorana." in again.content.decode()
    assert night.event_players.count() == 10


# Reading ----------------------------------------------------------------------------------------


def test_table_cards_name_the_event_round_table_and_seats(client, night):
    first = services.round_draw(event=night)

    page = client.get(reverse("ratings:round_cards", args=[night.pk, 1])).content.decode()

    assert page.count('class="table-card"') == 3
    for table in first.tables.all():
        for name in seat_names(table):
            assert name in page
    assert "events.css" in page
    assert client.get(reverse("ratings:round_cards", args=[night.pk, 2])).status_code == 404


def test_the_league_page_lists_its_events(client, night):
    page = client.get(reverse("ratings:leaderboard", args=[night.league.slug])).content.decode()
    listed = client.get(reverse("ratings:event_list", args=[night.league.slug])).content.decode()

    assert night.name in page and night.get_absolute_url() in page
    assert night.get_absolute_url() in listed


def test_a_player_s_page_lists_the_events_they_played_with_their_place(client, night):
    first = services.round_draw(event=night)
    play_round(first, {1: WORKED_EXAMPLE_PAPERS})
    winner = first.tables.get(number=1).seats.get(seat=0).player

    page = client.get(winner.get_absolute_url()).content.decode()

    assert night.name in page
    assert re.search(r"1st of 9|place 1 of 9", page), page


def test_an_event_that_does_not_exist_is_404(client):
    assert client.get(reverse("ratings:event", args=[999])).status_code == 404
    assert client.get(reverse("ratings:event_table", args=[999])).status_code == 404


def test_a_double_click_on_save_records_one_game_and_says_it_is_saved(member_client, night):
    table = services.round_draw(event=night).tables.get(number=1)
    url = reverse("ratings:game_new", args=[night.league.slug]) + f"?table={table.pk}"
    data = table_form(seat_names(table))
    preview = member_client.post(url, {**data, "preview": "1"})
    save = {**data, "previewed": preview.context["form"]["previewed"].value(), "save": "1"}

    first = member_client.post(url, save)
    second = member_client.post(url, save, follow=True)

    assert first["Location"] == table.get_absolute_url()
    assert second.redirect_chain[-1][0] == table.get_absolute_url()
    assert "This game was saved already" in second.content.decode()
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("ru", ["Положение", "Тур 1: введено 1 из 3 столов", "Ввести лист", "лист введён"]),
        ("sr-latn", ["Plasman", "Kolo 1: uneto 1 od 3 stola", "Unesi papir", "papir unet"]),
    ],
)
def test_the_event_page_speaks_the_member_s_language(member_client, night, settings, code, words):
    first = services.round_draw(event=night)
    play_table(first.tables.get(number=1))
    member_client.cookies[settings.LANGUAGE_COOKIE_NAME] = code

    page = member_client.get(night.get_absolute_url()).content.decode()

    for word in words:
        assert word in page


@pytest.mark.parametrize(
    "path",
    [
        "/events/99999999999999999999/",
        "/events/tables/99999999999999999999/",
        "/events/{pk}/rounds/99999999999999999999/cards/",
        "/events/{pk}/rounds/70000/cards/",
    ],
)
def test_numbers_beyond_any_id_are_not_found(client, night, path):
    assert client.get(path.format(pk=night.pk)).status_code == 404


def test_a_table_id_beyond_any_id_is_not_found_on_the_entry_form(member_client, night):
    url = reverse("ratings:game_new", args=[night.league.slug])

    assert member_client.get(url, {"table": "9" * 30}).status_code == 404
    assert member_client.get(url, {"table": "²"}).status_code == 404


def test_a_scored_league_s_table_of_four_is_entered_from_its_link(member_client, nine):
    hearts = make_league(System.RAYTER_LOWSCORE, name="Hearts")
    event = make_event(hearts, nine[:8], table_size=4)
    table = services.round_draw(event=event).tables.get(number=2)
    names = seat_names(table)
    url = reverse("ratings:game_new", args=[hearts.slug]) + f"?table={table.pk}"

    form = member_client.get(url).context["form"]
    assert form.seat_count == 4 and not form.more_rows
    assert [form[f"player_{seat}"].value() for seat in range(4)] == names
    data = {"submission_key": str(uuid.uuid4()), "played_at": "2026-03-13T20:30"}
    data |= {f"player_{seat}": name for seat, name in enumerate(names)}
    data |= {f"score_{seat}": str(score) for seat, score in enumerate((26, 0, 13, 5))}
    preview = member_client.post(url, {**data, "preview": "1"})
    saved = member_client.post(
        url, {**data, "previewed": preview.context["form"]["previewed"].value(), "save": "1"}
    )

    table.refresh_from_db()
    assert saved["Location"] == table.get_absolute_url()
    assert sorted(table.game.results.values_list("score", flat=True)) == [0, 5, 13, 26]


def test_a_head_to_head_table_is_a_game_of_two(member_client, nine):
    chess = make_league(System.ELO, name="Chess")
    event = make_event(chess, nine[:4], scoring=Scoring.TOTAL)
    table = services.round_draw(event=event).tables.get(number=1)
    names = seat_names(table)
    url = reverse("ratings:game_new", args=[chess.slug]) + f"?table={table.pk}"
    data = {"submission_key": str(uuid.uuid4()), "played_at": "2026-03-13T20:30", "outcome": "1"}
    data |= {f"player_{seat}": name for seat, name in enumerate(names)}

    preview = member_client.post(url, {**data, "preview": "1"})
    member_client.post(
        url, {**data, "previewed": preview.context["form"]["previewed"].value(), "save": "1"}
    )

    standings = member_client.get(event.get_absolute_url()).context["page"].standings
    assert (standings[0].player.name, standings[0].points) == (names[0], 1.0)
    assert event.table_size == 2


def test_a_table_s_game_links_back_to_its_event_and_table(client, night, django_assert_num_queries):
    table = services.round_draw(event=night).tables.get(number=3)
    game = play_table(table)

    with django_assert_num_queries(QUERIES["game"]):
        page = client.get(game.get_absolute_url()).content.decode()

    assert night.get_absolute_url() in page and table.get_absolute_url() in page
    assert "Table 3, round 1" in page


# The night's bula ---------------------------------------------------------------------------------
# A club night's bula, agreed once: every table's paper form starts with it.


def test_the_organiser_sets_the_night_s_bula_and_each_table_starts_with_it(
    organiser_client,
    league,
    nine,
):
    names = [player.name for player in nine]
    created = organiser_client.post(
        reverse("ratings:event_new", args=[league.slug]), event_form(names, bula="50")
    )
    assert created.status_code == 302, created.context["form"].errors
    event = Event.objects.get()
    assert event.bula == 50
    assert "Starting bula" in organiser_client.get(event.get_absolute_url()).content.decode()

    table = services.round_draw(event=event).tables.order_by("number").first()
    form = organiser_client.get(
        reverse("ratings:game_new", args=[league.slug]), {"table": table.pk}
    ).context["form"]
    assert form["bula"].value() == 50


def test_a_night_without_a_bula_starts_with_the_leagues_usual_one(organiser_client, league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.first()
    form = organiser_client.get(
        reverse("ratings:game_new", args=[league.slug]), {"table": table.pk}
    ).context["form"]
    assert form["bula"].value() == 30  # the league has no game yet to tell another


def test_a_league_without_a_paper_is_asked_for_no_bula(organiser_client):
    chess = make_league(System.ELO, name="Chess")
    page = organiser_client.get(reverse("ratings:event_new", args=[chess.slug]))
    assert "bula" not in page.context["form"].fields


# Words --------------------------------------------------------------------------------------------
# Words of the event pages that mean one thing in English and two in Serbian and Russian.


# The table draw of a night, and a drawn game: one English word, two in each language.
TABLE_DRAW = {"ru": ("Жеребьёвка", "Ничья"), "sr-latn": ("Žreb", "Remi")}


@pytest.mark.parametrize("code", TABLE_DRAW)
def test_the_table_draw_is_not_a_drawn_game(organiser_client, night, code):
    seating, drawn_game = TABLE_DRAW[code]
    in_language(organiser_client, code)
    pages = [
        organiser_client.get(reverse("ratings:event", args=[night.pk])),
        organiser_client.get(reverse("ratings:event_new", args=[night.league.slug])),
    ]
    for response in pages:
        page = response.content.decode()
        assert seating in page
        assert drawn_game not in page


def test_an_event_has_a_title_not_a_person_s_name_in_russian(organiser_client, league):
    url = reverse("ratings:event_new", args=[league.slug])
    page = in_language(organiser_client, "ru").get(url).content.decode()
    assert "Название:" in page
    assert "об имени, похожем" in page
    assert "о имени" not in page


# Late arrivals ------------------------------------------------------------------------------------
# Late arrivals on a club night's page: a "Did you mean …?" tap adds the player, and the page
# goes back to the event after a post (its address never becomes one that answers 405).


def test_did_you_mean_adds_the_late_player_and_goes_back_to_the_event(
    organiser_client,
    night,
):
    zoran = Player.objects.create_named("Zoran")
    url = reverse("ratings:event_players_add", args=[night.pk])
    asked = organiser_client.post(url, {"player_0": "Zorana"})
    assert "Did you mean Zoran?" in asked.content.decode()

    tapped = organiser_client.post(url, {"player_0": "Zorana", "use_player_0": "Zoran"})

    assert tapped.status_code == 302
    assert tapped["Location"] == night.get_absolute_url()
    assert night.event_players.filter(player=zoran).exists()
    page = organiser_client.get(tapped["Location"]).content.decode()
    assert "Present from the next round: Zoran." in page


def test_the_late_arrivals_address_opened_again_leads_to_the_event(
    organiser_client,
    night,
):
    """A refused name shows the page again with the box open, at the box; opened again (a
    reload, a shared link) the address goes to the event instead of answering 405."""
    url = reverse("ratings:event_players_add", args=[night.pk])
    refused = organiser_client.post(url, {"player_0": "Zorana", "player_1": "Zorana"})
    page = refused.content.decode()
    assert refused.status_code == 200
    assert '<details id="late-arrivals" open>' in page
    assert "#late-arrivals" in page  # the form's answer opens at the box

    again = organiser_client.get(url)

    assert again.status_code == 302
    assert again["Location"] == night.get_absolute_url()


# Leaving early ------------------------------------------------------------------------------------
# A player who leaves a club night early: withdrawn from the next rounds (the draw and the
# byes follow), their games and standings line kept.


def seated(event_round) -> set[str]:
    return {
        seat.player.name
        for table in event_round.tables.all()
        for seat in table.seats.select_related("player")
    }


def test_a_withdrawn_player_is_not_drawn_again_and_keeps_their_games(
    organiser_client,
    night,
):
    first = services.round_draw(event=night)
    for table in first.tables.all():
        play_table(table)
    leaving = Player.objects.get(name="Vesna")
    assert "Vesna" in seated(first)

    response = organiser_client.post(
        reverse("ratings:event_player_withdraw", args=[night.pk]), {"player": "vesna"}, follow=True
    )

    page = response.content.decode()
    assert "Vesna leaves: not drawn in the next rounds; the games played stay." in page
    assert not night.event_players.filter(player=leaving).exists()
    second = services.round_draw(event=night)
    assert "Vesna" not in seated(second)
    # Eight present: two tables of three and two byes, none of them Vesna's.
    byes = {player.name for player in second.byes.all()}
    assert len(byes) == 2
    assert seated(second) | byes == {"Ana", "Bojan", "Dragan", "Jelena", "Marko", "Milica",
                                     "Nikola", "Pedja"}  # fmt: skip
    standings = organiser_client.get(night.get_absolute_url()).context["page"].standings
    assert "Vesna" in {row.player.name for row in standings}


def test_the_event_page_offers_it_to_the_organiser_only(organiser_client, client, night):
    url = reverse("ratings:event_player_withdraw", args=[night.pk])
    assert f'action="{url}"' in organiser_client.get(night.get_absolute_url()).content.decode()
    assert f'action="{url}"' not in client.get(night.get_absolute_url()).content.decode()
