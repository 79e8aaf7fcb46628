"""The phone at the table: start a paper, tap the deals in, undo, repeal, watch, finish."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.events import services as event_services
from ratings.models import AuditAction, AuditEntry, Game, Player, System
from ratings.papers import selectors, services
from ratings.papers.models import DigitalPaper
from tests.builders import make_event, make_league, make_players
from tests.papers.deals import ROUND_TRIP, SHORT_GAME, enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper(make_league, make_player):
    league = make_league(System.PREFKO, name="Friday")
    players = [make_player(name) for name in ("Ana", "Boris", "Ceca")]
    return services.paper_start(league=league, players=players, bula=10)


def deal_post(after, **taps):
    """A deal as the form posts it: each seat followed by default, with no tricks."""
    data = {"after": str(after), "kind": "played", "kontra": "0"}
    for seat in (1, 2, 3):
        data |= {f"play_{seat}": "passed", f"tricks_{seat}": "0"}
    data |= {key: str(value) for key, value in taps.items()}
    return data


def test_a_member_starts_a_paper_with_three_players_in_seat_order(member_client, paper):
    url = reverse("ratings:paper_new", args=[paper.league.slug])
    assert member_client.get(url).status_code == 200
    response = member_client.post(
        url, {"player_1": "ceca", "player_2": "Ana", "player_3": "Boris", "bula": "20"}
    )
    started = DigitalPaper.objects.latest("pk")
    assert response["Location"] == reverse("ratings:paper", args=[started.pk])
    assert [p.name for p in started.players] == ["Ceca", "Ana", "Boris"]
    assert (started.bula, started.refas) == (20, None)


def test_a_new_paper_takes_the_leagues_refe_cap_unless_changed(member_client, paper):
    league = paper.league
    league.settings = {"refas": 2}
    league.save()
    url = reverse("ratings:paper_new", args=[league.slug])
    assert member_client.get(url).context["form"]["refas"].value() == 2
    seats = {"player_1": "Ana", "player_2": "Boris", "player_3": "Ceca", "bula": "20"}
    member_client.post(url, seats | {"refas": "2"})
    member_client.post(url, seats | {"refas": ""})  # no cap for this one
    assert [p.refas for p in DigitalPaper.objects.order_by("pk")[1:]] == [2, None]


def test_a_paper_needs_three_different_players_and_an_even_bula(member_client, paper):
    url = reverse("ratings:paper_new", args=[paper.league.slug])
    response = member_client.post(
        url, {"player_1": "Zed", "player_2": "Ana", "player_3": "Ana", "bula": "21"}
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "A paper needs three different players." in text
    assert "The bula is an even number." in text
    assert DigitalPaper.objects.count() == 1
    assert not Player.objects.filter(name="Zed").exists()


def test_the_start_offers_the_clubs_names_and_asks_about_a_close_one(member_client, paper):
    url = reverse("ratings:paper_new", args=[paper.league.slug])
    page = member_client.get(url).content.decode()
    assert 'list="club-players"' in page and '<option value="Boris">' in page
    # "Boriss" is close to Boris: did they mean him? The tap puts him in the seat, starting nothing.
    seats = {"player_1": "Ana", "player_2": "Boriss", "player_3": "Ceca", "bula": "10"}
    response = member_client.post(url, seats)
    assert "Did you mean Boris?" in response.content.decode()
    chosen = member_client.post(url, {**seats, "use_player_2": "Boris"})
    assert chosen.status_code == 200 and DigitalPaper.objects.count() == 1
    assert chosen.context["form"]["player_2"].value() == "Boris"
    # A new member at the table, confirmed: added with the paper, by the one name rule.
    response = member_client.post(url, {**seats, "new_player_2": "1"})
    started = DigitalPaper.objects.latest("pk")
    assert response["Location"] == reverse("ratings:paper", args=[started.pk])
    assert started.player_2.name == "Boriss"
    # A name the club does not know and close to no one: a new member at once.
    member_client.post(url, {**seats, "player_2": "Zlatoje"})
    assert DigitalPaper.objects.latest("pk").player_2.name == "Zlatoje"


def test_the_same_table_again_starts_the_last_papers_players_and_bula(member_client, paper):
    url = reverse("ratings:paper_new", args=[paper.league.slug])
    page = member_client.get(url).content.decode()
    form = page.split('class="card same-table"', 1)[1].split("</form>", 1)[0]
    assert "The same table again" in form and "Ana, Boris, Ceca" in form
    fields = dict(re.findall(r'name="(player_\d|bula|refas)" value="([^"]*)"', form))
    response = member_client.post(url, fields)  # one tap
    again = DigitalPaper.objects.latest("pk")
    assert response["Location"] == reverse("ratings:paper", args=[again.pk])
    assert (again.players, again.bula) == (paper.players, paper.bula) and again.pk != paper.pk


def test_a_paper_started_by_mistake_is_discarded_and_audited(member_client, member_user, paper):
    member = member_user
    paper.started_by = member
    paper.save()
    page = member_client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    url = reverse("ratings:paper_discard", args=[paper.pk])
    assert url in page
    assert "Discard the paper?" in member_client.get(url).content.decode()  # asked first
    assert member_client.post(url).status_code == 302
    paper.refresh_from_db()
    assert paper.discarded_at is not None
    entry = AuditEntry.objects.get(action=AuditAction.PAPER_DISCARD)
    assert entry.user == member and entry.before["players"] == ["Ana", "Boris", "Ceca"]
    # Gone from the lists of papers in progress, and it takes no deal.
    assert selectors.papers_in_progress([paper.league_id]) == {}
    deal = deal_post(0, kind="refa")
    response = member_client.post(reverse("ratings:paper_deal", args=[paper.pk]), deal)
    assert "This paper was discarded" in response.content.decode()


def test_deals_tapped_in_draw_the_paper(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    assert member_client.post(url, deal_post(0, kind="refa")).status_code == 302
    response = member_client.post(
        url,
        deal_post(1, declarer=1, contract="karo", on_refa="on", play_2="followed", tricks_2=2),
    )
    assert response.status_code == 302
    assert selectors.drawn_paper(paper).columns == [(0, -2, 0), (24, 10, 0), (0, 10, 0)]
    page = member_client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    assert "Deal 3" in page and "△✓" in page


def test_a_deal_the_rules_refuse_shows_why_and_records_nothing(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    response = member_client.post(
        url,
        deal_post(0, declarer=1, contract="pik", failed="on", play_2="followed", tricks_2=2),
    )
    assert response.status_code == 200
    assert "a failed contract gives the followers exactly 5 tricks" in response.content.decode()
    assert not paper.deals.exists()


def test_a_second_phone_with_the_same_deal_is_told(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    member_client.post(url, deal_post(0, kind="refa"))
    response = member_client.post(url, deal_post(0, kind="refa"))
    assert "another phone entered one meanwhile" in response.content.decode()
    assert paper.deals.count() == 1


def test_the_same_deal_sent_again_with_its_key_is_recorded_once(member_client, paper):
    """A deal kept on the phone while offline may reach the server twice: its key finds it."""
    page = member_client.get(reverse("ratings:paper", args=[paper.pk]))
    key = str(page.context["form"]["submission_key"].value())
    url = reverse("ratings:paper_deal", args=[paper.pk])
    first = member_client.post(url, deal_post(0, kind="refa", submission_key=key))
    again = member_client.post(url, deal_post(0, kind="refa", submission_key=key))
    assert (first.status_code, again.status_code) == (302, 302)
    assert [str(k) for k in paper.deals.values_list("submission_key", flat=True)] == [key]
    # The next deal's form has a key of its own.
    page = member_client.get(reverse("ratings:paper", args=[paper.pk]))
    assert str(page.context["form"]["submission_key"].value()) != key


def test_a_deals_key_with_another_deal_or_paper_is_409_naming_the_deal_that_has_it(
    member_client, paper
):
    page = member_client.get(reverse("ratings:paper", args=[paper.pk]))
    key = str(page.context["form"]["submission_key"].value())
    url = reverse("ratings:paper_deal", args=[paper.pk])
    assert member_client.post(url, deal_post(0, kind="refa", submission_key=key)).status_code == 302
    other = services.paper_start(league=paper.league, players=paper.players, bula=10)
    other_url = reverse("ratings:paper_deal", args=[other.pk])
    played = deal_post(1, kind="played", declarer="1", contract="pik", submission_key=key)

    for sent in (member_client.post(url, played), member_client.post(other_url, played)):
        assert sent.status_code == 409
        assert f"for deal 1 of paper #{paper.pk}" in sent.content.decode()
        # The taps come back under a key of their own, to add as a new deal.
        assert str(sent.context["form"]["submission_key"].value()) != key
        assert sent.context["form"]["contract"].value() == "pik"
    assert [deal.entered for deal in paper.deals.all()] == [{"refa": True}]
    assert not other.deals.exists()


def test_the_deal_address_opened_sends_to_the_paper(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    assert member_client.get(url)["Location"] == reverse("ratings:paper", args=[paper.pk])


def test_undo_and_repeal_from_the_page(member_client, paper):
    enter(paper, SHORT_GAME[:3])
    member_client.post(reverse("ratings:paper_undo", args=[paper.pk]), {"after": "3"})
    assert paper.deals.count() == 2
    member_client.post(
        reverse("ratings:paper_repeal", args=[paper.pk]), {"number": "2", "repealed": "1"}
    )
    assert paper.deals.get(number=2).repealed
    page = member_client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    assert "<s" in page and "bring back" in page


def test_a_visitor_watches_the_paper_without_the_form(client, paper):
    enter(paper, SHORT_GAME[:2])
    response = client.get(reverse("ratings:paper", args=[paper.pk]))
    text = response.content.decode()
    assert response.status_code == 200
    assert "data-live-paper" in text and "Ana" in text
    assert "Add the deal" not in text and "Undo the last deal" not in text


def test_finishing_shows_the_preview_then_saves_the_rated_game(member_client, paper):
    enter(paper, SHORT_GAME)
    url = reverse("ratings:paper_finish", args=[paper.pk])
    preview = member_client.get(url)
    assert preview.status_code == 200
    assert "Check before saving" in preview.content.decode()
    assert not Game.objects.exists()
    response = member_client.post(url, {"save": "1"})
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 16),
        (8, -6, 0),
    ]
    # The finished paper shows its game, and takes no more deals.
    page = member_client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    assert game.get_absolute_url() in page and "Add the deal" not in page


def test_once_the_bulas_run_out_the_finish_replaces_the_deal_form(member_client, paper):
    enter(paper, SHORT_GAME)  # the last deal takes the bulas to -6
    url = reverse("ratings:paper", args=[paper.pk])
    page = member_client.get(url).content.decode()
    assert "Add the deal" not in page and "Finish and rate" in page
    assert "Undo the last deal" in page  # the deal that ended it may still be a mistake
    # A deal sent anyway (a second phone, the offline queue) is refused, saying why.
    response = member_client.post(
        reverse("ratings:paper_deal", args=[paper.pk]), deal_post(4, kind="refa")
    )
    assert response.status_code == 200
    assert "The bulas ran out with deal 4" in response.content.decode()
    assert paper.deals.count() == 4


def test_a_played_out_paper_asked_to_finish_as_ended_early_is_saved_played_out(
    member_client, paper
):
    enter(paper, SHORT_GAME)
    url = reverse("ratings:paper_finish", args=[paper.pk])
    assert "saved as ended early" not in member_client.get(url + "?ended_early=1").content.decode()
    member_client.post(url, {"save": "1", "ended_early": "1"})
    assert not Game.objects.get().ended_early


def test_watching_phones_see_the_finish_and_the_rating_changes(
    client, member_client, paper, django_assert_num_queries
):
    """The finish is drawn inside the live paper (paper_live.js swaps it when its text changes):
    a watcher sees the bulas run out, then the game finished with each rating's change. One
    more query for a finished paper: its game's results; and first the versions its answer is
    keyed by (a watcher's refresh that changed nothing is answered 304 after that one)."""
    enter(paper, SHORT_GAME)
    url = reverse("ratings:paper", args=[paper.pk])
    assert "The bulas have run out" in client.get(url).content.decode()
    member_client.post(reverse("ratings:paper_finish", args=[paper.pk]), {"save": "1"})
    with django_assert_num_queries(4):
        response = client.get(url)
    sheet = response.content.decode().split("data-live-paper", 1)[1].split("data-live-deals")[0]
    assert "Finished: played out" in sheet and "Ended early" not in sheet
    rows = response.context["page"].result
    assert [row["name"] for row in rows] == ["Ana", "Boris", "Ceca"]
    assert [row["change"] for row in rows] == [
        r.rating_after - r.rating_before for r in Game.objects.get().results.order_by("seat")
    ]


def test_a_paper_not_over_is_finished_only_as_ended_early(member_client, paper):
    enter(paper, SHORT_GAME[:2])
    url = reverse("ratings:paper_finish", args=[paper.pk])
    assert member_client.get(url).status_code == 302  # back to the paper, with why
    assert member_client.get(url + "?ended_early=1").status_code == 200
    member_client.post(url, {"save": "1", "ended_early": "1"})
    assert Game.objects.get().ended_early


def test_the_paper_page_runs_the_same_queries_however_many_deals(
    client, member_client, paper, django_assert_num_queries
):
    """No N+1: the versions of its players (ratings.page_cache.conditional_page); the paper with
    its league, players and game; its deals. A member adds their session and user (as on every
    page)."""
    url = reverse("ratings:paper", args=[paper.pk])
    for deals in (SHORT_GAME[:1], SHORT_GAME[1:3] + ROUND_TRIP * 5):
        enter(paper, deals)
        with django_assert_num_queries(1 + 2):
            assert client.get(url).status_code == 200
        with django_assert_num_queries(1 + 4):
            assert member_client.get(url).status_code == 200


def test_a_club_night_tables_paper_kept_on_a_phone_becomes_the_tables_game(member_client):
    league = make_league(System.PREFKO, name="Night")
    players = make_players(["Ana", "Boris", "Ceca"])
    table = event_services.round_draw(event=make_event(league, players)).tables.get()
    table_page = member_client.get(reverse("ratings:event_table", args=[table.pk]))
    start_url = reverse("ratings:paper_new", args=[league.slug]) + f"?table={table.pk}"
    assert start_url.replace("&", "&amp;") in table_page.content.decode()

    form = member_client.get(start_url).context["form"]
    seated = [s.player.name for s in table.seats.order_by("seat").select_related("player")]
    assert [form[f"player_{seat}"].value() for seat in (1, 2, 3)] == seated
    response = member_client.post(
        start_url, {"player_1": "Ana", "player_2": "Boris", "player_3": "Ceca", "bula": "10"}
    )
    paper = DigitalPaper.objects.get(event_table=table)
    assert response["Location"] == reverse("ratings:paper", args=[paper.pk])
    enter(paper, SHORT_GAME)
    member_client.post(reverse("ratings:paper_finish", args=[paper.pk]), {"save": "1"})
    table.refresh_from_db()
    assert table.game == Game.objects.get() == DigitalPaper.objects.get().game


def test_a_tables_paper_is_kept_by_the_players_drawn_to_it(member_client, make_player):
    league = make_league(System.PREFKO, name="Night")
    table = event_services.round_draw(
        event=make_event(league, make_players(["Ana", "Boris", "Ceca"]))
    ).tables.get()
    make_player("Zed")
    start_url = reverse("ratings:paper_new", args=[league.slug]) + f"?table={table.pk}"
    response = member_client.post(
        start_url, {"player_1": "Ana", "player_2": "Boris", "player_3": "Zed", "bula": "10"}
    )
    assert "A table&#x27;s paper is kept by the players drawn to it." in response.content.decode()
    assert not DigitalPaper.objects.exists()


def test_a_member_finds_the_digital_paper_on_a_preferans_leaderboard(
    member_client, client, paper, make_league
):
    start = reverse("ratings:paper_new", args=[paper.league.slug])
    leaderboard = reverse("ratings:leaderboard", args=[paper.league.slug])
    assert f'href="{start}"' in member_client.get(leaderboard).content.decode()
    assert f'href="{start}"' not in client.get(leaderboard).content.decode()
    chess = make_league(System.ELO, name="Chess")
    chess_page = member_client.get(reverse("ratings:leaderboard", args=[chess.slug]))
    assert "/papers/new/" not in chess_page.content.decode()


def test_the_deal_list_names_contracts_and_kontra_in_the_pages_language(client, paper):
    enter(paper, SHORT_GAME)
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    deals = page[page.index('class="deal-list"') :]
    deals = deals[: deals.index("</ol>")]
    assert "бубны (3)" in deals
    assert "пики (2)" in deals
    assert "контра" in deals
    assert "karo" not in deals
    assert "kontra" not in deals


def test_a_players_deal_statistics_name_contracts_in_the_pages_language(client, paper):
    enter(paper, SHORT_GAME)
    client.cookies["django_language"] = "ru"
    ana = paper.players[0]
    page = client.get(reverse("ratings:player_deals", args=[ana.slug])).content.decode()
    assert "<td>бубны (3)</td>" in page
    assert "<td>karo</td>" not in page


def test_a_deal_refused_after_another_phones_comes_back_for_the_next_deal(member_client, paper):
    """The form comes back with the taps kept and the deal number after the other phone's, so
    the member sends it again if it is still to come (not refused forever)."""
    url = reverse("ratings:paper_deal", args=[paper.pk])
    member_client.post(url, deal_post(0, kind="refa"))  # the other phone
    mine = deal_post(0, declarer=2, contract="pik", play_1="followed", tricks_1=2)
    response = member_client.post(url, mine)
    form = response.context["form"]
    assert "another phone entered one meanwhile" in response.content.decode()
    assert (form["after"].value(), form["contract"].value()) == ("1", "pik")
    assert "Deal 2" in response.content.decode()
    assert member_client.post(url, mine | {"after": "1"}).status_code == 302
    assert paper.deals.count() == 2


def test_the_paper_reads_minus_signs_and_names_a_repealed_number(member_client, paper):
    enter(paper, SHORT_GAME[:3])
    member_client.post(
        reverse("ratings:paper_repeal", args=[paper.pk]), {"number": "2", "repealed": "1"}
    )
    page = member_client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    sheet = page[page.index("data-live-paper") : page.index('id="deals-title"')]
    assert "\u2212" in sheet and not re.search(r">-\d", sheet)
    # A screen reader hears the word, not only a line through the number.
    assert '<span class="visually-hidden"> (repealed)</span></s>' in sheet
    # A box's label after it reads as a sentence: no colon.
    assert re.search(
        r'for="id_fell_1"><input [^>]*name="fell_1"[^>]*><span>Fell</span></label>', page
    )
    assert "Fell:" not in page


def test_a_new_paper_starts_with_the_leagues_usual_bula(member_client, paper):
    start = member_client.get(reverse("ratings:paper_new", args=[paper.league.slug]))
    assert start.context["form"]["bula"].value() == 30  # no game yet: 30
