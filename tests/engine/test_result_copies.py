"""Each result's copies of its game (league, time, place at the table) equal the game's, whatever
path wrote or changed it: record, back-dated record, edit, delete, restore, import, merge, a
change of system, and a backup restored."""

from __future__ import annotations

import itertools
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine
from ratings.models import AuditAction, AuditEntry, Game, League, OpponentTally, Result, System
from tests.builders import (
    FUZZ,
    T0,
    backup_objects,
    make_league,
    make_players,
    score_entries,
    write_backup,
)
from tests.replays import assert_opponents_match_results


def wrong_copies() -> list[tuple]:
    """Every result whose league, time or place differs from its game's, with what it should
    hold; empty when all agree."""
    games = {game.pk: game for game in Game.objects.select_related("league")}
    rows = Result.objects.order_by("game_id", "seat").values_list(
        "game_id", "id", "league_id", "played_at", "place", "score"
    )
    wrong = []
    for game_id, seats in itertools.groupby(rows, key=lambda row: row[0]):
        seats = list(seats)
        game = games[game_id]
        places = game.league.rating_system.places([seat[5] for seat in seats])
        for (_g, pk, league_id, played_at, place, _s), right_place in zip(
            seats, places, strict=True
        ):
            expected = (game.league_id, game.played_at, right_place)
            if (league_id, played_at, place) != expected:
                wrong.append((pk, (league_id, played_at, place), expected))
    return wrong


def record_scores(league, players, scores, at):
    return engine.game_record(league=league, played_at=at, entries=score_entries(players, scores))


@pytest.mark.django_db
def test_every_path_that_writes_results_keeps_the_copies():
    high = make_league(System.RAYTER_HIGHSCORE)
    duel = make_league(System.ELO)
    ann, bob, cid, dan = make_players(["Ann", "Bob", "Cid", "Dan"])

    newest = record_scores(high, [ann, bob, cid], [3, 1, 3], T0)
    record_scores(high, [ann, bob], [5, 2], T0 + timedelta(days=2))
    back_dated = record_scores(high, [bob, cid, ann], [1, 2, 2], T0 + timedelta(days=1))
    record_scores(duel, [ann, bob], [1, 0], T0)
    assert Result.objects.count() == 10
    assert not wrong_copies()

    # An edit that moves the game and changes its seats and scores.
    engine.game_update(
        game=back_dated,
        played_at=T0 + timedelta(days=3, hours=4),
        entries=score_entries([cid, dan], [7, 9]),
    )
    assert not wrong_copies()

    engine.game_delete(game=newest)
    assert not wrong_copies()
    entry = AuditEntry.objects.get(action=AuditAction.DELETE)
    engine.game_restore(entry=entry)
    assert not wrong_copies()

    engine.games_import(
        league=high,
        games=[
            engine.ImportedGame(T0 - timedelta(days=5), [("Ann", 1), ("Eve", 4)]),
            engine.ImportedGame(T0 + timedelta(days=9), [("Eve", 2), ("Bob", 2), ("Cid", 0)]),
        ],
    )
    assert not wrong_copies()

    eve = high.standings.get(player__name="Eve").player
    engine.player_merge(source=eve, target=dan)
    assert not wrong_copies()

    # The lowest score wins now: every place of the league turns round.
    League.objects.filter(pk=high.pk).update(system=System.RAYTER_LOWSCORE)
    high.refresh_from_db()
    engine.league_recompute(league=high)
    assert not wrong_copies()
    assert Result.objects.filter(league=high, place=1).exists()

    engine.games_import(
        league=high,
        games=[engine.ImportedGame(T0 + timedelta(days=20), [("Ann", 1), ("Bob", 4)])],
        replace=True,
    )
    assert not wrong_copies()
    assert Result.objects.filter(league=high).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_restored_backup_works_its_copies_out_again(tmp_path):
    """The file's copies are not trusted: a changed one comes back as the game says, and the
    opponents' tallies, which the file leaves out, are counted again."""
    league = make_league(System.RAYTER_HIGHSCORE)
    ann, bob = make_players(["Ann", "Bob"])
    record_scores(league, [ann, bob], [3, 1], T0)
    record_scores(league, [bob, ann], [3, 1], T0 + timedelta(days=1))
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    objects = backup_objects(backup)
    results = [obj["fields"] for obj in objects if obj["model"] == "ratings.result"]
    assert {fields["place"] for fields in results} == {1, 2}
    for fields in results:
        fields["place"] = 7
    write_backup(backup, objects)
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    assert Result.objects.count() == 4
    assert not wrong_copies()
    assert "ratings.opponenttally" not in {obj["model"] for obj in objects}
    [restored] = League.objects.all()
    assert OpponentTally.objects.count() == 1  # a row a pair
    assert_opponents_match_results(restored)


# A property: any sequence of records, edits and deletions -------------------------------------

operations = st.lists(
    st.tuples(
        st.sampled_from(["record", "edit", "delete"]),
        st.integers(0, 30),  # the day
        st.lists(st.integers(0, 5), min_size=2, max_size=4, unique=True),  # the players
        st.lists(st.integers(-3, 3), min_size=4, max_size=4),  # the scores
        st.integers(0, 100),  # which game, for an edit or a deletion
    ),
    max_size=12,
)


@pytest.mark.django_db
@FUZZ
@given(operations=operations, lowest_wins=st.booleans())
def test_the_copies_follow_any_sequence_of_writes(operations, lowest_wins):
    league = make_league(System.RAYTER_LOWSCORE if lowest_wins else System.RAYTER_HIGHSCORE)
    players = make_players(6)
    for action, day, seats, scores, which in operations:
        entries = score_entries([players[i] for i in seats], scores[: len(seats)])
        at = T0 + timedelta(days=day)
        games = list(Game.objects.filter(league=league).order_by("pk"))
        if action == "record" or not games:
            engine.game_record(league=league, played_at=at, entries=entries)
        elif action == "edit":
            engine.game_update(game=games[which % len(games)], played_at=at, entries=entries)
        else:
            engine.game_delete(game=games[which % len(games)])
        assert not wrong_copies()
