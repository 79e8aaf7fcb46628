"""Merging a typo's player into the real one, and renaming: results move, ratings follow, the old
address keeps working."""

from __future__ import annotations

import contextlib
import uuid
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError
from django.urls import reverse
from django.utils.text import slugify
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine, entry
from ratings.accounts import services as account_services
from ratings.engine import players as engine_players
from ratings.events import planning as event_planning
from ratings.events import services as event_services
from ratings.events.models import EventRound, TableSeat
from ratings.forms import PlayerForm
from ratings.forms.games import PreferansGameForm
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
    League,
    Player,
    PlayerAlias,
    Result,
    Standing,
    System,
)
from ratings.models.leagues import Confirmation
from ratings.models.players import PlayerQuerySet
from ratings.papers import services as paper_services
from ratings.papers.models import DigitalPaper
from tests.builders import T0, make_event, make_night, play_round
from tests.papers.deals import SHORT_GAME
from tests.worked_example import WORKED_EXAMPLE_FORM, WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


def stored_ratings(league) -> list[tuple]:
    results = Result.objects.filter(game__league=league).order_by("game_id", "seat")
    standings = Standing.objects.filter(league=league).order_by("player_id")
    return [
        *results.values_list("game_id", "player_id", "rating_before", "rating_after"),
        *standings.values_list("player_id", "rating", "games", "peak_rating", "last_change"),
    ]


def assert_equals_a_fresh_replay(league) -> None:
    stored = stored_ratings(league)
    engine.league_recompute(league=league)
    assert stored_ratings(league) == stored


def test_merge_moves_every_result_and_rerates(typo_club):
    league, pedja, pedia = typo_club
    engine.player_merge(source=pedia, target=pedja)
    assert not Player.objects.filter(pk=pedia.pk).exists()
    assert Result.objects.filter(player=pedja).count() == 4
    assert Standing.objects.get(league=league, player=pedja).games == 4
    assert_equals_a_fresh_replay(league)


def test_merging_a_player_whose_games_are_gone_keeps_the_targets_games(typo_club):
    """The typo's games were deleted, its standing stayed: the merge moves no game, and the
    target keeps the games and rating they have (it used to be set back to a newcomer's)."""
    league, pedja, pedia = typo_club
    for game in Game.objects.filter(results__player=pedia).order_by("-played_at", "-pk"):
        engine.game_delete(game=game)
    before = Standing.objects.get(league=league, player=pedja)
    assert before.games == 2

    engine.player_merge(source=pedia, target=pedja)

    after = Standing.objects.get(league=league, player=pedja)
    assert (after.games, after.rating) == (before.games, before.rating)
    assert_equals_a_fresh_replay(league)


def test_merging_a_player_without_games_but_with_a_start_rating_rerates_the_target(typo_club):
    league, pedja, pedia = typo_club
    for game in Game.objects.filter(results__player=pedia).order_by("-played_at", "-pk"):
        engine.game_delete(game=game)
    engine.standing_set_start_rating(league=league, player=pedia, rating=1500)

    engine.player_merge(source=pedia, target=pedja)

    standing = Standing.objects.get(league=league, player=pedja)
    assert (standing.start_rating, standing.games) == (1500, 2)
    assert_equals_a_fresh_replay(league)


def test_merge_is_in_the_audit_trail_with_before_and_after(typo_club):
    league, pedja, pedia = typo_club
    engine.player_merge(source=pedia, target=pedja)
    entry = AuditEntry.objects.get(action=AuditAction.MERGE)
    assert entry.league == league
    assert entry.before["source"]["name"] == "Pedia"
    assert entry.after["target"]["name"] == "Pedja"
    assert len(entry.after["games"]) == 2


def test_merge_of_two_who_shared_a_table_is_refused_naming_the_game(typo_club):
    league, pedja, _pedia = typo_club
    marko = Player.objects.get(name="Marko")
    first = Game.objects.filter(league=league).order_by("played_at").first()
    before = stored_ratings(league)
    with pytest.raises(ValidationError, match=f"game #{first.pk}"):
        engine.player_merge(source=marko, target=pedja)
    assert stored_ratings(league) == before
    assert Player.objects.filter(pk=marko.pk).exists()


def test_source_start_rating_is_kept_where_the_target_has_none(typo_club):
    league, pedja, pedia = typo_club
    engine.standing_set_start_rating(league=league, player=pedia, rating=900)
    engine.player_merge(source=pedia, target=pedja)
    assert Standing.objects.get(league=league, player=pedja).start_rating == 900
    assert_equals_a_fresh_replay(league)


def test_merge_is_refused_when_both_have_a_start_rating(typo_club):
    league, pedja, pedia = typo_club
    engine.standing_set_start_rating(league=league, player=pedia, rating=900)
    engine.standing_set_start_rating(league=league, player=pedja, rating=1100)
    with pytest.raises(ValidationError, match="both have their own start rating"):
        engine.player_merge(source=pedia, target=pedja)
    assert Player.objects.filter(pk=pedia.pk).exists()


def test_old_address_redirects_permanently_after_a_merge(client, typo_club):
    _league, pedja, pedia = typo_club
    engine.player_merge(source=pedia, target=pedja)
    response = client.get(f"/players/{pedia.slug}/?x=1")
    assert response.status_code == 301
    assert response["Location"] == pedja.get_absolute_url()
    assert client.get(response["Location"]).status_code == 200


def test_rename_keeps_the_old_address_working(client, typo_club):
    _league, pedja, _pedia = typo_club
    old = pedja.get_absolute_url()
    renamed = engine.player_rename(player=pedja, name="Predrag")
    assert renamed.slug == "predrag"
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == renamed.get_absolute_url()
    assert AuditEntry.objects.get(action=AuditAction.RENAME).before["name"] == "Pedja"


def test_rename_to_a_name_the_club_has_is_refused(typo_club):
    _league, pedja, _pedia = typo_club
    with pytest.raises(ValidationError, match="already has a player called marko"):
        engine.player_rename(player=pedja, name="marko")


def test_merge_players_command(typo_club, capsys):
    league, pedja, pedia = typo_club
    call_command("merge_players", pedia.slug, pedja.slug)
    assert "Merged Pedia into Pedja" in capsys.readouterr().out
    assert_equals_a_fresh_replay(league)


def test_merge_players_command_refuses_an_unknown_slug(typo_club):
    _league, pedja, _pedia = typo_club
    with pytest.raises(CommandError, match="no player 'nobody': nothing was merged"):
        call_command("merge_players", "nobody", pedja.slug)


# A player named by every row that can name one ----------------------------------------------------


def player_references() -> list[tuple[type, str]]:
    """Every column that points at a player: found from the models, hidden relations
    (``related_name="+"``) and a many-to-many's own table included, so that a new model naming a
    player is here without anyone listing it."""
    return sorted(
        (
            (relation.related_model, relation.field.attname)
            for relation in Player._meta.get_fields(include_hidden=True)
            if relation.is_relation and not relation.concrete and not relation.many_to_many
        ),
        key=lambda reference: (reference[0]._meta.label, reference[1]),
    )


def rows_naming(player_id: int) -> dict[tuple[type, str], list]:
    """Each reference's rows that name the player, by primary key."""
    return {
        (model, column): list(
            model._base_manager.filter(**{column: player_id}).values_list("pk", flat=True)
        )
        for model, column in player_references()
    }


@pytest.fixture
def named_everywhere(make_league, record_game, django_user_model):
    """(league, source, target): a source named by a row of every model that names a player (a
    deleted game's correction, a start rating, an old name, a club night with a seat and a bye,
    papers open and finished in each seat, an invitation and a member's claim), and a target who
    was never at their tables."""
    league = make_league(System.PREFKO, name="Preferans")
    low, source, target, ana, high = (
        Player.objects.create_named(name) for name in ("Ana", "Pedya", "Pedja", "Bora", "Zoran")
    )
    # The source sits between players with a smaller and a bigger id: both sides of a tally.
    first = record_game(league, [low, source, high], papers=WORKED_EXAMPLE_PAPERS)
    record_game(league, [high, source, low], papers=WORKED_EXAMPLE_PAPERS)
    engine.game_delete(game=first)  # rates the source anew: a correction
    engine.standing_set_start_rating(league=league, player=source, rating=1180)
    source = engine.player_rename(player=source, name="Pedia")  # the old name: an alias
    event = make_event(league, [source, low, ana, high])
    # Four players at tables of three: one sits out each round, in turn.
    while not (
        TableSeat.objects.filter(player=source).exists()
        and EventRound.byes.through.objects.filter(player=source).exists()
    ):
        play_round(event_services.round_draw(event=event))
    for seats in ([source, low, high], [low, source, high], [low, high, source]):
        paper_services.paper_start(league=league, players=seats, bula=10)
    finished = DigitalPaper.objects.get(player_2=source)
    for number, deal in enumerate(SHORT_GAME):
        paper_services.deal_add(paper=finished, hand=deal, after=number)
    paper_services.paper_finish(paper=finished, played_at=T0 + timedelta(days=30))
    account_services.invitation_create(player=source)
    claimant = django_user_model.objects.create_user("claimant")
    account_services.claim_create(user=claimant, player=source)
    # A night planned ahead that the source answered.
    event_planning.night_answer(event=make_night(league), player=source, answer="coming")
    # A game waiting for the table's confirmation, with the source at it.
    League.objects.filter(pk=league.pk).update(confirmation=Confirmation.ANOTHER_SEAT)
    league.refresh_from_db()
    seats = tuple(
        entry.SeatIn(player=p.name, player_id=p.pk, left=left, middle=middle, right=right)
        for p, (left, middle, right) in zip([low, source, high], WORKED_EXAMPLE_PAPERS, strict=True)
    )
    held = entry.Submission(league=league, played_at=T0 + timedelta(days=40), seats=seats, bula=30)
    entry.submit(entry.check(held), entered_by=claimant)
    return league, source, target


def test_a_merge_moves_every_row_that_names_the_player(named_everywhere):
    league, source, target = named_everywhere
    before = rows_naming(source.pk)
    missing = [
        f"{model._meta.label}.{column}" for (model, column), ids in before.items() if not ids
    ]
    assert missing == [], "name the source in these too (named_everywhere)"

    engine.player_merge(source=source, target=target)

    assert not Player.objects.filter(pk=source.pk).exists()
    assert all(rows == [] for rows in rows_naming(source.pk).values())
    for (model, column), rows in rows_naming(target.pk).items():
        # Moved, not deleted with the source: the target has what the source had.
        assert rows, f"{model._meta.label}.{column}"
        still_there = model._base_manager.filter(pk__in=before[model, column])
        assert set(still_there.values_list(column, flat=True)) <= {target.pk}, model
    assert_equals_a_fresh_replay(league)


def test_a_paper_in_progress_goes_on_with_the_player_merged_into(make_league):
    league = make_league(System.PREFKO, name="Preferans")
    typo, real, bora, ceca = (
        Player.objects.create_named(name) for name in ("Pedia", "Pedja", "Bora", "Ceca")
    )
    paper = paper_services.paper_start(league=league, players=[bora, typo, ceca], bula=10)
    paper_services.deal_add(paper=paper, hand=SHORT_GAME[0], after=0)

    engine.player_merge(source=typo, target=real)

    paper.refresh_from_db()
    assert paper.players == (bora, real, ceca)
    for number, deal in enumerate(SHORT_GAME[1:], start=1):
        paper_services.deal_add(paper=paper, hand=deal, after=number)
    game = paper_services.paper_finish(paper=paper)
    assert [r.player for r in game.results.order_by("seat")] == [bora, real, ceca]
    assert_equals_a_fresh_replay(league)


def test_two_players_of_one_paper_are_not_merged_naming_the_paper(make_league):
    league = make_league(System.PREFKO, name="Preferans")
    pedja, pedia, bora = (Player.objects.create_named(n) for n in ("Pedja", "Pedia", "Bora"))
    paper = paper_services.paper_start(league=league, players=[pedja, bora, pedia], bula=10)

    with pytest.raises(ValidationError, match=f"same digital paper #{paper.pk} \\(Preferans, "):
        engine.player_merge(source=pedia, target=pedja)
    paper.refresh_from_db()
    assert paper.players == (pedja, bora, pedia)


def test_a_league_of_the_source_found_only_under_the_players_lock_is_merged_again(
    monkeypatch, typo_club
):
    """The source's first game in a league came in between the merge's first look and its lock
    of the players: the merge would write that league without its lock, so it asks for another
    go, writing nothing."""
    league, pedja, pedia = typo_club
    first_look = iter([(set(), set())])
    looked_up = engine_players.leagues_of
    monkeypatch.setattr(
        engine_players, "leagues_of", lambda player: next(first_look, None) or looked_up(player)
    )
    before = stored_ratings(league)

    with pytest.raises(ValidationError, match="Pedia was entered meanwhile: merge them again"):
        engine.player_merge(source=pedia, target=pedja)
    assert Player.objects.filter(pk=pedia.pk).exists()
    assert stored_ratings(league) == before


def test_merge_players_command_merges_a_player_of_a_paper(make_league, capsys):
    league = make_league(System.PREFKO, name="Preferans")
    pedja, pedia, *others = (
        Player.objects.create_named(n) for n in ("Pedja", "Pedia", "Bora", "Ceca")
    )
    paper = paper_services.paper_start(league=league, players=[pedia, *others], bula=10)

    call_command("merge_players", pedia.slug, pedja.slug)

    assert "Merged Pedia into Pedja" in capsys.readouterr().out
    paper.refresh_from_db()
    assert paper.player_1 == pedja
    others.insert(0, pedja)
    paper_services.paper_start(league=league, players=others, bula=10)
    with pytest.raises(CommandError, match="same digital paper #.*Nothing was merged"):
        call_command("merge_players", "bora", "pedja")


@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("game"), st.permutations(range(5)), st.integers(0, 50)),
            st.tuples(st.just("merge"), st.integers(0, 4), st.integers(0, 4)),
            st.tuples(st.just("edit"), st.integers(0, 30), st.integers(0, 50)),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_any_sequence_of_games_merges_and_edits_equals_a_replay(steps):
    # Examples share the test's transaction: each builds a league and players of its own.
    number = League.objects.count()
    league = League.objects.create(name=f"L{number}", slug=f"l{number}", system=System.PREFKO)
    people = [Player.objects.create_named(f"L{number} player {n}") for n in range(5)]
    for n, step in enumerate(steps):
        kind = step[0]
        alive = [p for p in people if Player.objects.filter(pk=p.pk).exists()]
        if kind == "game":
            seated = [people[i] for i in step[1] if people[i] in alive][:3]
            if len(seated) < 3:
                continue
            engine.game_record(
                league=league,
                played_at=T0 + timedelta(hours=step[2], minutes=n),
                entries=[
                    engine.Entry(player_id=p.pk, paper=paper)
                    for p, paper in zip(seated, WORKED_EXAMPLE_PAPERS, strict=True)
                ],
                bula=30,
            )
        elif kind == "merge":
            source, target = people[step[1]], people[step[2]]
            if source in alive and target in alive:
                # Refused when they shared a table or are one player: then nothing changes.
                with contextlib.suppress(ValidationError):
                    engine.player_merge(source=source, target=target)
        else:
            games = list(Game.objects.filter(league=league).order_by("pk"))
            if games:
                game = games[step[1] % len(games)]
                results = list(game.results.order_by("seat"))
                engine.game_update(
                    game=game,
                    played_at=T0 + timedelta(hours=step[2], minutes=n),
                    entries=[
                        engine.Entry(player_id=r.player_id, paper=paper)
                        for r, paper in zip(results, WORKED_EXAMPLE_PAPERS[::-1], strict=True)
                    ],
                    bula=30,
                )
        assert_equals_a_fresh_replay(league)


def test_many_new_players_are_made_at_once_with_free_slugs(db):
    """An import's new players: one INSERT, every slug free (those of players, of old
    addresses, and of each other: "Sluggy 0!" and "Sluggy 0?" make the same slug)."""
    taken = Player.objects.create_named("Sluggy 0")
    PlayerAlias.objects.create(player=taken, slug="sluggy-0-2")
    made = Player.objects.create_many_named(["Sluggy 0!", "Sluggy 0?", "Đorđe  Novak"])
    assert sorted(player.slug for player in made.values()) == [
        "sluggy-0-3",
        "sluggy-0-4",
        "đorđe-novak",
    ]
    assert made["đorđe novak"].search_key == Player.objects.get(slug="đorđe-novak").search_key
    assert all(player.pk for player in made.values())


def test_a_name_taken_meanwhile_falls_back_to_the_one_by_one_rules(db):
    """Another request made "Ana" after the import looked: the INSERT is refused, and one at a
    time the taken name is that player (get_or_create_named, the one way to name a player who
    may be new), the others are made."""
    ana = Player.objects.create_named("Ana")
    made = Player.objects.create_many_named(["Bojan", "ana"])
    assert made["ana"] == ana
    assert made["bojan"].name == "Bojan"
    assert Player.objects.count() == 2


# A new player created by two forms at once is one player ----------------------------------------


def paper_form(league, names, **extra) -> PreferansGameForm:
    """The worked example's paper with these names, checked (as when the member presses Save)."""
    data = {**WORKED_EXAMPLE_FORM, "submission_key": str(uuid.uuid4()), **extra}
    for seat, name in enumerate(names):
        data[f"player_{seat}"] = name
    form = PreferansGameForm(data, league=league)
    assert form.is_valid(), form.errors
    return form


@pytest.mark.parametrize("meanwhile", ["Newbie", "NEWBIE"])
def test_a_new_player_someone_created_meanwhile_is_the_one_the_game_gets(
    make_league, make_player, member_user, meanwhile
):
    league = make_league(System.PREFKO)
    make_player("Pedja"), make_player("Marko")
    form = paper_form(league, ["Pedja", "Marko", "Newbie"])
    assert form.checked.new_names == ["Newbie"]
    other = Player.objects.create_named(meanwhile)  # another table's form, a moment earlier

    game = form.save(entered_by=member_user)

    assert list(game.results.order_by("seat").values_list("player__name", flat=True)) == [
        "Pedja",
        "Marko",
        meanwhile,
    ]
    assert Player.objects.filter(name__iexact="newbie").get() == other


def take_the_slug_first(monkeypatch, name: str) -> None:
    """Make another request create ``name`` just after create_named read which slugs are taken,
    as a parallel request on PostgreSQL can (tests/engine/test_races.py does it for real)."""
    values_list = PlayerQuerySet.values_list
    done = []

    def racing_values_list(self, *fields, **options):
        if fields != ("slug",) or done:
            return values_list(self, *fields, **options)
        taken = list(values_list(self, *fields, **options))
        done.append(Player.objects.create(name=name, slug=slugify(name)))
        return taken

    monkeypatch.setattr(PlayerQuerySet, "values_list", racing_values_list)


def test_a_slug_taken_meanwhile_by_another_name_is_retried_with_the_next(
    monkeypatch, make_league, make_player, member_user
):
    league = make_league(System.PREFKO)
    make_player("Pedja"), make_player("Marko")
    form = paper_form(league, ["Pedja", "Marko", "Sluggy 0?"])
    take_the_slug_first(monkeypatch, "Sluggy 0!")

    game = form.save(entered_by=member_user)

    sluggy = game.results.get(seat=2).player
    assert (sluggy.name, sluggy.slug) == ("Sluggy 0?", "sluggy-0-2")
    assert Player.objects.get(name="Sluggy 0!").slug == "sluggy-0"


def test_create_named_still_refuses_a_name_the_club_has(make_player):
    make_player("Ana")

    with pytest.raises(IntegrityError):
        Player.objects.create_named("ANA")


def test_the_player_form_gives_the_player_someone_added_meanwhile(make_player):
    form = PlayerForm({"name": "Newbie"})
    assert form.is_valid()
    other = make_player("newbie")  # another member's form, saved a moment earlier

    assert form.save() == other
    assert Player.objects.filter(name__iexact="newbie").count() == 1


def test_the_player_form_retries_a_slug_taken_meanwhile(monkeypatch):
    form = PlayerForm({"name": "Sluggy 0?"})
    assert form.is_valid()
    take_the_slug_first(monkeypatch, "Sluggy 0!")

    player = form.save()

    assert (player.name, player.slug) == ("Sluggy 0?", "sluggy-0-2")


# Merging while games are entered -----------------------------------------------------------------
# merge_players S T with saves for S in flight answered 500 (a foreign key on the deleted player)
# and the game was lost; afterwards typing S created a new "S". Now the save is recorded for T,
# or refused with a message, and the merged name finds T.


def duel_entries(*players, scores=(1.0, 0.0)) -> list[engine.Entry]:
    return [engine.Entry(player_id=p.pk, score=s) for p, s in zip(players, scores, strict=True)]


def test_a_game_read_before_a_merge_is_recorded_for_the_player_merged_into(make_league):
    league = make_league(System.ELO, name="Chess")
    typo, real, other = (Player.objects.create_named(n) for n in ("Pedia", "Pedja", "Bo"))
    entries = duel_entries(typo, other)  # the form read Pedia's id
    engine.player_merge(source=typo, target=real)

    game = engine.game_record(league=league, played_at=T0, entries=entries)

    assert [r.player for r in game.results.order_by("seat")] == [real, other]
    assert_equals_a_fresh_replay(league)


def test_a_game_of_a_player_merged_into_their_opponent_meanwhile_is_refused(make_league):
    league = make_league(System.ELO, name="Chess")
    typo, real = Player.objects.create_named("Pedia"), Player.objects.create_named("Pedja")
    entries = duel_entries(typo, real)
    engine.player_merge(source=typo, target=real)

    with pytest.raises(ValidationError, match="Pedia was merged into Pedja meanwhile"):
        engine.game_record(league=league, played_at=T0, entries=entries)
    assert not Game.objects.exists()


def test_a_game_of_a_player_deleted_meanwhile_is_refused(make_league):
    league = make_league(System.ELO, name="Chess")
    gone, other = Player.objects.create_named("Gone"), Player.objects.create_named("Bo")
    entries = duel_entries(gone, other)
    gone.delete()

    with pytest.raises(ValidationError, match="deleted meanwhile"):
        engine.game_record(league=league, played_at=T0, entries=entries)


def test_a_member_saving_a_game_for_a_player_merged_meanwhile_saves_it_for_the_target(
    member_client, make_league
):
    league = make_league(System.ELO, name="Chess")
    typo, real = Player.objects.create_named("Pedia"), Player.objects.create_named("Pedja")
    Player.objects.create_named("Bo")
    url = reverse("ratings:game_new", args=[league.slug])
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "player_0": "Pedia",
        "player_1": "Bo",
        "outcome": "1",
    }
    token = member_client.post(url, {**data, "preview": "1"}).context["form"]["previewed"]
    engine.player_merge(source=typo, target=real)  # staff, between the preview and Save

    response = member_client.post(url, {**data, "previewed": token.value(), "save": "1"})

    assert response.status_code == 302
    assert Game.objects.get().results.get(seat=0).player == real
    assert Player.objects.named("Pedia") == real
