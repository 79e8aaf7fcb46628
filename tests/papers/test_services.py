"""The digital paper's writes: deals in order, two phones at once, undo, repeal, finish, edit."""

import json
import uuid
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from ratings import engine, exports
from ratings.algorithms.paper import Hand, draw_paper, paper_result, parse_log
from ratings.events.services import round_draw
from ratings.models import AuditAction, AuditEntry, Game, Result, System
from ratings.papers import selectors, services
from ratings.papers.models import Deal
from tests.builders import T0, make_event, make_league, make_players, paper_entries
from tests.papers.deals import REFA, SHORT_GAME, enter, played, start
from tests.replays import assert_unchanged_by_recompute

pytestmark = pytest.mark.django_db


def test_it_keeps_the_deals_in_order_and_draws_the_librarys_paper(table):
    paper = start(table)
    enter(paper, SHORT_GAME)
    assert list(paper.deals.values_list("number", flat=True)) == [1, 2, 3, 4]
    drawn = selectors.drawn_paper(paper)
    assert drawn.columns == [(0, -2, 0), (24, 2, 16), (8, -6, 0)]
    assert drawn.seats[0].middle_entries == (
        10,
        {"left": 0, "middle": 1, "right": 0},
        {"hat": 1},
        -2,
    )


def test_a_second_phone_entering_the_same_deal_is_told_and_nothing_is_recorded_twice(table):
    paper = start(table)
    services.deal_add(paper=paper, hand=REFA, after=0)
    with pytest.raises(ValidationError, match="another phone entered one meanwhile"):
        services.deal_add(paper=paper, hand=REFA, after=0)
    assert paper.deals.count() == 1


def test_a_deal_the_rules_refuse_is_not_recorded_and_the_error_names_it(table):
    paper = start(table, refas=1)
    services.deal_add(paper=paper, hand=REFA, after=0)
    with pytest.raises(ValidationError, match="hand 2: no more refe, the cap is 1"):
        services.deal_add(paper=paper, hand=REFA, after=1)
    made_with_five = played(
        1, "pik", followers=[(2, "followed", 3, False), (3, "followed", 2, False)]
    )
    with pytest.raises(ValidationError, match="hand 2: a made contract leaves the followers"):
        services.deal_add(paper=paper, hand=made_with_five, after=1)
    assert paper.deals.count() == 1


def test_undo_takes_back_the_last_deal_only_when_the_phone_saw_it(table):
    paper = start(table)
    enter(paper, SHORT_GAME[:2])
    with pytest.raises(ValidationError, match="not 1"):
        services.deal_undo(paper=paper, after=1)
    services.deal_undo(paper=paper, after=2)
    assert list(paper.deals.values_list("number", flat=True)) == [1]


def test_a_repealed_deal_stays_crossed_out_and_counts_nothing(table):
    paper = start(table)
    enter(paper, SHORT_GAME[:2])
    services.deal_repeal(paper=paper, number=2)
    drawn = selectors.drawn_paper(paper)
    assert drawn.columns == [(0, 10, 0), (0, 10, 0), (0, 10, 0)]
    assert drawn.seats[0].middle_entries[-1] == {"value": -2, "repealed": True}
    assert drawn.has_open_refa(1)  # a repealed deal plays no refa
    with pytest.raises(ValidationError, match="a refa cannot be repealed"):
        services.deal_repeal(paper=paper, number=1)


def test_a_paper_is_not_finished_before_the_bulas_reach_zero(table):
    paper = start(table)
    enter(paper, SHORT_GAME[:2])
    with pytest.raises(ValidationError, match="The bulas add up to 18"):
        services.paper_finish(paper=paper)
    assert not Game.objects.exists()


def test_a_finished_paper_is_rated_exactly_as_the_same_paper_typed_at_the_end(table, make_league):
    league, players = table
    paper = start(table)
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, played_at=T0)
    typed_league = make_league(System.PREFKO)
    typed = engine.game_record(
        league=typed_league,
        played_at=T0,
        entries=paper_entries(players, [(0, -2, 0), (24, 2, 16), (8, -6, 0)]),
        bula=10,
        ended_early=False,  # the bulas add up to -6: played out, not ended early
    )

    def rows(g):
        return list(
            Result.objects.filter(game=g)
            .order_by("seat")
            .values_list("player_id", "seat", "left", "middle", "right", "score", "rating_after")
        )

    assert rows(game) == rows(typed)
    paper.refresh_from_db()
    assert paper.game == game and paper.finished
    assert not game.ended_early and not paper.ended_early
    assert services.paper_finish(paper=paper) == game  # a second tap finds the same game
    with pytest.raises(ValidationError, match="finished"):
        services.deal_add(paper=paper, hand=REFA, after=4)


def test_a_paper_ended_early_by_the_clock_is_rated_as_ended_early(table):
    paper = start(table)
    enter(paper, SHORT_GAME[:2])
    game = services.paper_finish(paper=paper, ended_early=True, played_at=T0)
    assert game.ended_early
    assert [r.paper for r in game.results.order_by("seat")] == [(0, -2, 0), (24, 10, 0), (0, 10, 0)]


def test_an_admin_edit_of_a_deal_redraws_the_paper_and_rerates_the_game(table, record_game):
    league, players = table
    paper = start(table)
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, played_at=T0)
    later = record_game(
        league,
        players,
        papers=[(0, 10, 0), (0, -10, 0), (0, 0, 0)],
        played_at=T0 + timedelta(hours=1),
    )
    deal = Deal.objects.get(paper=paper, number=4)
    changed = played(3, "pik", on_refa=True, kontra=2, followers=[(2, "followed", 1, False)])
    services.deal_update(deal=deal, hand=changed, repealed=False)
    results = list(game.results.order_by("seat"))
    assert [r.paper for r in results] == [(0, -2, 0), (24, 2, 32), (8, -22, 0)]
    assert later.results.exists()
    assert_unchanged_by_recompute(league)


def test_an_admin_edit_that_would_leave_the_game_unfinished_is_refused(table):
    paper = start(table)
    enter(paper, SHORT_GAME)
    services.paper_finish(paper=paper, played_at=T0)
    deal = Deal.objects.get(paper=paper, number=4)
    with pytest.raises(ValidationError, match="the game would not be over"):
        services.deal_update(deal=deal, hand=Hand.from_json(deal.entered), repealed=True)
    deal.refresh_from_db()
    assert not deal.repealed


def test_only_a_preferans_league_keeps_a_paper(make_league, make_player):
    league = make_league(System.ELO)
    players = [make_player() for _ in range(3)]
    with pytest.raises(ValidationError, match="Only a Preferans league"):
        services.paper_start(league=league, players=players, bula=30)


@pytest.mark.parametrize(
    ("bula", "refas", "says"),
    [
        (31, None, "even number"),
        (0, None, "above zero"),
        (10_002, None, "less than or equal to 10000"),
        (30, -1, "0 or more"),
    ],
)
def test_a_paper_starts_with_an_even_bula_and_a_cap_of_zero_or_more(table, bula, refas, says):
    with pytest.raises(ValidationError, match=says):
        start(table, bula=bula, refas=refas)


@pytest.mark.parametrize(("bula", "taken"), [(30, True), (31, False), (0, False), (10_002, False)])
def test_an_events_bula_is_one_its_tables_papers_can_start_from(db, bula, taken):
    """One rule for the starting bula: a night's agreed bula is one a digital paper takes, so
    none of its tables is left unable to keep its paper on a phone."""
    league = make_league(System.PREFKO)
    players = make_players(6)
    try:
        event = make_event(league, players, bula=bula)
    except ValidationError as error:
        assert not taken
        assert list(error.message_dict) == ["bula"]
    else:
        assert taken
        table = round_draw(event=event).tables.first()
        seated = [seat.player for seat in table.seats.order_by("seat")]
        assert services.paper_start(league=league, players=seated, bula=event.bula, table=table)


def test_the_deal_log_of_a_finished_game_replays_to_its_columns(table):
    paper = start(table)
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, played_at=T0)
    log = selectors.deal_logs_of_games([game.pk])[game.pk]
    assert draw_paper(parse_log(log)).columns == [r.paper for r in game.results.order_by("seat")]


def test_the_json_export_carries_each_digital_papers_deal_log(table, record_game):
    league, players = table
    typed = record_game(league, players, papers=[(0, 10, 0), (0, -10, 0), (0, 0, 0)], played_at=T0)
    paper = start(table)
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, played_at=T0 + timedelta(hours=1))
    start(table)  # a paper in progress is no game: not exported
    exported = json.loads("".join(exports.stream(league, "json")))
    assert [g["id"] for g in exported] == [typed.pk, game.pk]
    assert "deals" not in exported[0]
    assert exported[1]["ended_early"] is False  # played out (to -6), not ended early
    log = exported[1]["deals"]
    assert log == selectors.deal_log(paper)
    assert log["bula"] == 10 and len(log["hands"]) == 4
    replayed = paper_result(log)["seats"]
    assert [(s["left"], s["middle"], s["right"]) for s in replayed] == [
        (r["left"], r["middle"], r["right"]) for r in exported[1]["results"]
    ]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Deals on the paper now: 2, not 1"),
        ("ru", "Раздач на листе теперь: 2, а не 1"),
        ("sr-latn", "Deljenja na papiru sada: 2, a ne 1"),
    ],
)
def test_a_late_phone_is_told_the_count_in_words_that_need_no_plural(table, language, said):
    """A number before a noun needs plural forms ("1 deals", "2 раздач"); after a colon not."""
    paper = start(table)
    enter(paper, [REFA, REFA])
    with translation.override(language), pytest.raises(ValidationError) as refused:
        services.deal_add(paper=paper, hand=REFA, after=1)
    with translation.override(language):
        assert said in refused.value.messages[0]


def test_a_deals_key_again_returns_the_deal_recorded_never_a_second(table):
    paper = start(table)
    first = services.deal_add(paper=paper, hand=REFA, after=0, key=KEY)
    # The phone did not hear back and sends it again, seeing no deal yet: the deal recorded.
    again = services.deal_add(paper=paper, hand=REFA, after=0, key=KEY)
    assert again.pk == first.pk
    assert list(paper.deals.values_list("number", flat=True)) == [1]
    # Another key with the same "after" is another phone: told.
    with pytest.raises(ValidationError, match="another phone entered one meanwhile"):
        services.deal_add(paper=paper, hand=REFA, after=0, key=uuid.uuid4())


def test_a_deals_key_with_another_deal_is_refused_naming_the_deal_that_has_it(table):
    paper = start(table)
    services.deal_add(paper=paper, hand=REFA, after=0, key=KEY)
    # The phone reused the key for the next deal: that deal is told, never dropped as recorded.
    with pytest.raises(services.DealKeyReused, match=f"for deal 1 of paper #{paper.pk}"):
        services.deal_add(paper=paper, hand=SHORT_GAME[1], after=1, key=KEY)
    assert [deal.entered for deal in paper.deals.all()] == [REFA.to_json()]


def test_a_deals_key_sent_to_another_paper_is_refused_and_records_nothing_there(table):
    paper, other = start(table), start(table)
    services.deal_add(paper=paper, hand=REFA, after=0, key=KEY)
    with pytest.raises(services.DealKeyReused, match=f"for deal 1 of paper #{paper.pk}"):
        services.deal_add(paper=other, hand=REFA, after=0, key=KEY)
    assert (paper.deals.count(), other.deals.count()) == (1, 0)


KEY = uuid.UUID("6b0d1f3c-8a52-4a8e-9d61-0f2c4e7a9b10")


def test_every_change_of_a_deal_is_in_the_audit_trail(table, member_user):
    """Adding, taking back, repealing and bringing back a deal each leave an entry naming the
    paper, the deal and what it said, by the member who tapped it: a paper the table disputes
    can be followed deal by deal."""
    paper = start(table)
    first = services.deal_add(paper=paper, hand=REFA, after=0, actor=member_user)
    second = services.deal_add(paper=paper, hand=SHORT_GAME[1], after=1, actor=member_user)
    services.deal_repeal(paper=paper, number=2, actor=member_user)
    services.deal_repeal(paper=paper, number=2, repealed=False, actor=member_user)
    services.deal_undo(paper=paper, after=2, actor=member_user)

    entries = list(AuditEntry.objects.filter(league=paper.league).order_by("pk"))
    assert [entry.action for entry in entries] == [
        AuditAction.DEAL_ADD,
        AuditAction.DEAL_ADD,
        AuditAction.DEAL_REPEAL,
        AuditAction.DEAL_BACK,
        AuditAction.DEAL_UNDO,
    ]
    assert {entry.user for entry in entries} == {member_user}
    assert entries[0].after == {"paper": paper.pk, "deal": 1, "entered": first.entered,
                                "repealed": False}  # fmt: skip
    assert entries[2].after["repealed"] is True
    assert entries[4].before == {"paper": paper.pk, "deal": 2, "entered": second.entered,
                                 "repealed": False}  # fmt: skip
    assert entries[4].after is None


def test_an_admins_edit_of_a_deal_is_in_the_audit_trail_with_before_and_after(table, admin_user):
    paper = start(table)
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, played_at=T0)
    deal = Deal.objects.get(paper=paper, number=4)
    said = deal.entered
    changed = played(3, "pik", on_refa=True, kontra=2, followers=[(2, "followed", 1, False)])

    services.deal_update(deal=deal, hand=changed, repealed=False, actor=admin_user)

    edit = AuditEntry.objects.get(action=AuditAction.DEAL_EDIT)
    assert (edit.user, edit.game_id) == (admin_user, game.pk)
    assert (edit.before["entered"], edit.after["entered"]) == (said, changed.to_json())


def test_a_paper_whose_bulas_ran_out_takes_no_more_deals(table):
    paper = start(table)
    enter(paper, SHORT_GAME)  # the last deal takes the bulas to -6
    with pytest.raises(ValidationError, match="ran out with deal 4") as refused:
        services.deal_add(paper=paper, hand=REFA, after=4)
    assert refused.value.code == "over"
    assert paper.deals.count() == 4
    # The deal that ended it is undone (a mistake): the paper goes on.
    services.deal_undo(paper=paper, after=4)
    services.deal_add(paper=paper, hand=REFA, after=3)
    assert paper.deals.count() == 4


def test_a_repeal_that_would_end_the_paper_before_its_last_deal_is_refused(table):
    paper = start(table)
    # Seat 2 falls on sans (+14: bulas 30 -> 44), made deals bring the sum to 2, a refa.
    fall = played(2, "sans", failed=True, followers=[(1, "followed", 5, False)])
    enter(paper, [fall, played(1, "sans"), played(2, "sans"), played(3, "sans"), REFA])
    assert selectors.drawn_paper(paper).bula_sum == 2
    # Without the fall the bulas would have run out with deal 4, before deal 5.
    with pytest.raises(ValidationError, match="ran out with deal 4"):
        services.deal_repeal(paper=paper, number=1)
    assert not paper.deals.get(number=1).repealed


def test_a_played_out_paper_is_not_ended_early_even_when_asked(table):
    paper = start(table)
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, ended_early=True, played_at=T0)
    paper.refresh_from_db()
    assert not game.ended_early and not paper.ended_early
