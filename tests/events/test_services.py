"""Club nights and tournaments (ratings/events/services.py): creating an event, drawing rounds,
recording a table's paper through the engine, closing rounds and events, the audit trail, and
standings derived from the games (so an admin's edit or deletion shows at once)."""

from __future__ import annotations

import itertools
import uuid
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ratings import engine
from ratings.events import selectors, services
from ratings.events.models import Event, EventTable, Scoring, TableSeat
from ratings.models import AuditAction, AuditEntry, Game, Player, System
from tests.builders import (
    T0,
    make_event,
    make_league,
    make_players,
    paper_entries,
    play_round,
    play_table,
)
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import MORE_PAPERS, WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return make_league(System.PREFKO, name="Friday")


@pytest.fixture
def nine(league):
    return make_players(9)


def tables_of(event_round) -> list[list[int]]:
    return [
        list(t.seats.order_by("seat").values_list("player_id", flat=True))
        for t in event_round.tables.order_by("number")
    ]


def pairs(event) -> Counter:
    met: Counter = Counter()
    for table in EventTable.objects.filter(round__event=event):
        ids = sorted(table.seats.values_list("player_id", flat=True))
        met.update(itertools.combinations(ids, 2))
    return met


# Creating ---------------------------------------------------------------------------------------


def test_an_event_of_a_preferans_league_seats_three_at_a_table(league, nine):
    event = make_event(league, nine)

    assert event.table_size == 3
    assert set(event.event_players.values_list("player_id", flat=True)) == {p.pk for p in nine}
    entry = AuditEntry.objects.get(action=AuditAction.EVENT_CREATE)
    assert entry.league == league
    assert entry.after["event"] == "Club night"


def test_new_names_become_players_of_the_club(league, nine):
    event = make_event(league, nine[:2], new_names=["Zorana", "  " + nine[2].name.upper()])

    assert Player.objects.filter(name="Zorana").exists()
    # The third name is a player's in other case and spacing: that player, not a new one.
    names = set(event.event_players.values_list("player__name", flat=True))
    assert "Zorana" in names and nine[2].name in names
    assert Player.objects.count() == 10


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"table_size": 4}, "seats exactly 3 players"),
        ({"scoring": Scoring.PLACES}, "points of each place"),
        ({"scoring": Scoring.PLACES, "points_per_place": [3, -1]}, "whole numbers from 0"),
        ({"rounds_total": 0}, "1 to 100 rounds"),
    ],
)
def test_an_event_s_rules_are_checked(league, nine, fields, message):
    with pytest.raises(ValidationError, match=message):
        make_event(league, nine, **fields)
    assert not Event.objects.exists()


def test_the_preferans_org_table_is_for_preferans_only(nine):
    hearts = make_league(System.RAYTER_LOWSCORE, name="Hearts")

    with pytest.raises(ValidationError, match="cannot use that scoring"):
        make_event(hearts, nine, table_size=4, scoring=Scoring.PREFERANS_ORG)
    assert make_event(hearts, nine, table_size=4, scoring=Scoring.TOTAL).table_size == 4


def test_a_table_needs_enough_players(league):
    with pytest.raises(ValidationError, match="A table needs 3 players: 2 are present"):
        make_event(league, make_players(2))


# Drawing ------------------------------------------------------------------------------------------


def test_nine_players_meet_everyone_once_over_four_rounds(league, nine):
    event = make_event(league, nine, rounds_total=4)

    for _ in range(4):
        play_round(services.round_draw(event=event))

    met = pairs(event)
    assert len(met) == 36 and set(met.values()) == {1}  # every pair of nine, exactly once
    with pytest.raises(ValidationError, match="All 4 rounds"):
        services.round_draw(event=event)


def test_players_beyond_the_tables_sit_out_in_turn(league):
    event = make_event(league, make_players(10), rounds_total=3)

    byes = []
    for _ in range(3):
        drawn = services.round_draw(event=event)
        assert len(tables_of(drawn)) == 3
        byes += list(drawn.byes.values_list("pk", flat=True))
        play_round(drawn)

    assert len(byes) == 3 and len(set(byes)) == 3  # nobody sits out twice


@pytest.mark.parametrize("seed", range(8))
def test_the_players_of_a_table_not_played_are_not_sat_out_again_next(league, seed):
    """A table not played sat its players out as a bye would have: the next round's bye goes to
    a player who played (at random among six, it went to one of them half the time)."""
    first = services.round_draw(event=make_event(league, make_players(7), seed=seed))
    played, not_played = tables_of(first)
    play_table(first.tables.get(number=1))
    assert services.round_close(event_round=first) == [2]

    second = services.round_draw(event=first.event)

    (bye,) = second.byes.values_list("pk", flat=True)
    assert bye in played


def test_the_next_round_waiting_for_one_paper_says_so_in_the_singular(league, nine):
    first = services.round_draw(event=make_event(league, nine))
    play_table(first.tables.get(number=1))
    play_table(first.tables.get(number=2))

    with pytest.raises(ValidationError, match="for the paper of 1 table: enter it, or close"):
        services.round_draw(event=first.event)


def test_the_next_round_waits_for_every_paper(league, nine):
    event = make_event(league, nine)
    first = services.round_draw(event=event)
    play_table(first.tables.get(number=1))

    with pytest.raises(ValidationError, match="still waits for the papers of 2 tables"):
        services.round_draw(event=event)

    assert services.round_close(event_round=first) == [2, 3]
    assert list(first.tables.values_list("not_played", flat=True).order_by("number")) == [
        False,
        True,
        True,
    ]
    second = services.round_draw(event=event)
    assert second.number == 2


def test_drawing_after_every_paper_closes_the_round(league, nine):
    event = make_event(league, nine)
    first = services.round_draw(event=event)
    play_round(first)

    services.round_draw(event=event)

    first.refresh_from_db()
    assert first.closed_at is not None
    assert not first.tables.filter(not_played=True).exists()


def test_by_standings_seats_the_leaders_together(league, nine):
    event = make_event(league, nine, scoring=Scoring.PREFERANS_ORG)
    first = services.round_draw(event=event)
    # Every table: the first seat wins alone (−…), the second is behind, the third last.
    play_round(first, {n: MORE_PAPERS[2] for n in (1, 2, 3)})
    standings = [row.player.pk for row in selectors.event_standings(event)]

    second = services.round_draw(event=event, method="by_standings")

    assert second.method == "by_standings"
    leaders = set(standings[:3])
    assert set(tables_of(second)[0]) == leaders


def test_the_same_seed_draws_the_same_tables(league, nine):
    one = make_event(league, nine, seed=99)
    two = make_event(league, nine, seed=99, name="Twin")

    assert tables_of(services.round_draw(event=one)) == tables_of(services.round_draw(event=two))


def test_late_arrivals_are_drawn_from_the_next_round(league, nine):
    event = make_event(league, nine[:6])
    play_round(services.round_draw(event=event))

    added = services.event_players_add(event=event, players=nine[6:], new_names=["Zorana"])
    again = services.event_players_add(event=event, players=nine[6:])

    assert len(added) == 4 and again == []
    second = services.round_draw(event=event)
    assert len(tables_of(second)) == 3
    assert second.byes.count() == 1


# A table's paper --------------------------------------------------------------------------------


def test_a_table_s_paper_is_a_game_of_the_league_linked_to_the_table(league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.get(number=1)

    game = play_table(table, WORKED_EXAMPLE_PAPERS)

    table.refresh_from_db()
    assert table.game == game and game.league == league
    assert [r.score for r in game.results.order_by("seat")] == [-500, 40, 460]
    assert AuditEntry.objects.filter(action=AuditAction.TABLE_GAME, game_id=game.pk).exists()
    assert AuditEntry.objects.filter(action=AuditAction.CREATE, game_id=game.pk).exists()
    assert_unchanged_by_recompute(league)


def test_the_players_may_have_sat_in_another_order(league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.get(number=1)
    drawn = list(table.seats.order_by("seat").values_list("player_id", flat=True))

    game = play_table(table, WORKED_EXAMPLE_PAPERS, order=[2, 0, 1])

    assert list(game.results.order_by("seat").values_list("player_id", flat=True)) == [
        drawn[2],
        drawn[0],
        drawn[1],
    ]


def test_a_paper_of_other_players_is_refused(league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.get(number=1)
    others = [p for p in nine if not table.seats.filter(player=p).exists()][:3]

    with pytest.raises(ValidationError, match="Table 1 seats"):
        services.table_record_game(
            table=table, played_at=T0, entries=paper_entries(others, MORE_PAPERS[0]), bula=30
        )
    assert not Game.objects.exists()


def test_the_same_submission_twice_records_one_game(league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.get(number=1)
    key = uuid.uuid4()

    first = play_table(table, submission_key=key)
    again = play_table(table, submission_key=key)

    assert first == again
    assert Game.objects.count() == 1


def test_a_tables_paper_sent_again_is_its_game_only_with_the_same_note(league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.get(number=1)
    key = uuid.uuid4()
    first = play_table(table, submission_key=key, note="late start")

    assert play_table(table, submission_key=key, note="late start") == first
    with pytest.raises(engine.SubmissionReused, match=f"game #{first.pk}"):
        play_table(table, submission_key=key, note="early finish")
    assert Game.objects.get().note == "late start"


def test_a_second_paper_for_a_table_is_refused(league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.get(number=1)
    game = play_table(table, submission_key=uuid.uuid4())

    with pytest.raises(ValidationError, match=f"already in: game #{game.pk}"):
        play_table(table, submission_key=uuid.uuid4())
    assert Game.objects.count() == 1


def test_a_table_marked_not_played_takes_no_paper(league, nine):
    event = make_event(league, nine)
    first = services.round_draw(event=event)
    services.round_close(event_round=first)

    with pytest.raises(ValidationError, match="marked not played"):
        play_table(first.tables.get(number=2))
    assert not Game.objects.exists()


# Standings, closing -------------------------------------------------------------------------------


def test_standings_follow_an_admin_s_edit_and_deletion(league, nine):
    event = make_event(league, nine, scoring=Scoring.PREFERANS_ORG)
    first = services.round_draw(event=event)
    games = play_round(first, {1: WORKED_EXAMPLE_PAPERS})
    table = first.tables.get(number=1)
    seated = [s.player for s in table.seats.order_by("seat").select_related("player")]
    assert selectors.event_standings(event)[0].player.pk == seated[0].pk

    # The admin corrects the paper: now the third seat won alone.
    engine.game_update(
        game=games[0],
        played_at=games[0].played_at,
        entries=paper_entries(seated[::-1], WORKED_EXAMPLE_PAPERS),
        bula=30,
    )
    winner = selectors.event_standings(event)[0]
    assert winner.player.pk == seated[2].pk and winner.points == 4

    # Deleting the game frees the table: its paper may be entered again.
    engine.game_delete(game=games[0])
    table.refresh_from_db()
    assert table.game is None and table.is_open
    rows = {row.player.pk: row for row in selectors.event_standings(event)}
    assert all(rows[p.pk].place is None for p in seated)


def test_the_rating_change_over_an_event_adds_its_games(league, nine):
    event = make_event(league, nine, rounds_total=2)
    games = play_round(services.round_draw(event=event))
    games += play_round(services.round_draw(event=event))

    rows = selectors.event_standings(event)
    for row in rows:
        results = [r for g in games for r in g.results.all() if r.player_id == row.player.pk]
        assert row.games == 2
        assert row.rating_change == pytest.approx(sum(r.change for r in results))


def test_closing_the_event_names_the_winner_and_closes_its_round(league, nine):
    event = make_event(league, nine, scoring=Scoring.PREFERANS_ORG)
    first = services.round_draw(event=event)
    play_table(first.tables.get(number=1), WORKED_EXAMPLE_PAPERS)

    services.event_close(event=event)

    event.refresh_from_db()
    assert event.is_closed
    assert first.tables.filter(not_played=True).count() == 2
    entry = AuditEntry.objects.get(action=AuditAction.EVENT_CLOSE)
    winner = first.tables.get(number=1).seats.get(seat=0).player
    assert entry.after["winner"] == winner.name
    with pytest.raises(ValidationError, match="closed"):
        services.round_draw(event=event)


def test_every_step_is_in_the_audit_trail(league, nine):
    event = make_event(league, nine)
    first = services.round_draw(event=event)
    play_table(first.tables.get(number=1))
    services.round_close(event_round=first)
    services.event_close(event=event)

    actions = list(
        AuditEntry.objects.filter(after__event_id=event.pk)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["event_create", "round_draw", "table_game", "round_close", "event_close"]


# Merging players ----------------------------------------------------------------------------------


def test_merging_a_typo_moves_their_events(league, nine):
    typo = Player.objects.create_named("Pedia")
    real = nine[0]
    event = make_event(league, [typo, *nine[1:]])
    first = services.round_draw(event=event)
    play_round(first)

    engine.player_merge(source=typo, target=real)

    assert event.event_players.filter(player=real).exists()
    assert TableSeat.objects.filter(player=real).count() == 1
    assert not TableSeat.objects.filter(player_id=typo.pk).exists()


def test_two_players_present_at_one_event_are_not_merged(league, nine):
    event = make_event(league, nine)

    with pytest.raises(ValidationError, match="both present at Club night"):
        engine.player_merge(source=nine[0], target=nine[1])
    assert event.event_players.count() == 9


# The admin --------------------------------------------------------------------------------------


def test_staff_read_and_rename_an_event_in_the_admin(league, nine, admin_client):
    event = make_event(league, nine)
    play_round(services.round_draw(event=event))
    url = reverse("admin:ratings_event_change", args=[event.pk])

    assert admin_client.get(reverse("admin:ratings_event_changelist")).status_code == 200
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(reverse("admin:ratings_eventtable_changelist")).status_code == 200
    response = admin_client.post(
        url,
        {
            "name": "Renamed night",
            "starts_at_0": "2026-01-01",
            "starts_at_1": "19:00:00",
            "organiser": "",
            "event_players-TOTAL_FORMS": "9",
            "event_players-INITIAL_FORMS": "9",
            "event_players-MIN_NUM_FORMS": "0",
            "event_players-MAX_NUM_FORMS": "1000",
            **{
                f"event_players-{n}-id": ep.pk
                for n, ep in enumerate(event.event_players.order_by("player__name"))
            },
            **{f"event_players-{n}-event": event.pk for n in range(9)},
        },
    )
    assert response.status_code == 302, response.context and response.context["errors"]
    event.refresh_from_db()
    assert event.name == "Renamed night"


def test_deleting_an_event_keeps_its_games(league, nine, admin_client):
    event = make_event(league, nine)
    games = play_round(services.round_draw(event=event))

    admin_client.post(reverse("admin:ratings_event_delete", args=[event.pk]), {"post": "yes"})

    assert not Event.objects.exists()
    assert Game.objects.filter(pk__in=[g.pk for g in games]).count() == 3


def test_the_audit_trail_shows_an_event_s_steps(league, nine, admin_client):
    event = make_event(league, nine)
    services.round_draw(event=event)
    drawn = AuditEntry.objects.get(action=AuditAction.ROUND_DRAW)

    listing = admin_client.get(reverse("admin:ratings_auditentry_changelist")).content.decode()
    page = admin_client.get(reverse("admin:ratings_auditentry_change", args=[drawn.pk]))

    assert "round drawn" in listing and "event created" in listing
    text = page.content.decode()
    assert "event: Club night" in text
    assert "tables: 1: " in text


@pytest.mark.parametrize("size", [None, "", "abc", "99"], ids=["missing", "empty", "word", "99"])
def test_a_missing_or_odd_table_size_is_a_form_answer_not_a_500(admin_client, league, nine, size):
    """A Preferans league's form writes its one table size from the league, never the posted
    value (a non-numeric one answered 500 in the page's plural)."""
    data = {
        "name": "Saturday",
        "starts_at": "2026-03-14T19:00",
        "rounds_total": "",
        "draw_method": "random",
        "scoring": "total",
        **{f"player_{n}": p.name for n, p in enumerate(nine)},
    }
    if size is not None:
        data["table_size"] = size

    response = admin_client.post(reverse("ratings:event_new", args=[league.slug]), data)

    assert response.status_code == 200
    assert "3 players at each table." in response.content.decode()
    assert not Event.objects.exists()
