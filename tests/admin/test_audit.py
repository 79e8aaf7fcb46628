"""The audit trail in the admin: read-only for everyone, and where staff restore a deleted game.

Every change here is made the way staff make it, through the admin's pages, so the entries are
those the engine writes for a real request (with the staff member as the actor).
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import engine
from ratings.models import AuditEntry, Game, Player, RatingCorrection, Result, Standing
from tests.builders import (
    T0,
    game_post,
    league_post,
    make_league,
    paper_entries,
    record_history,
)
from tests.worked_example import WORKED_EXAMPLE_PAPERS, five_games

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:ratings_auditentry_changelist"


@pytest.fixture
def club(worked_example_league, worked_example_players):
    """Five games of the worked example's three players, with their own start ratings."""
    games = record_history(worked_example_league, worked_example_players, five_games())
    return worked_example_league, worked_example_players, games


def all_ratings(league) -> tuple[list, list]:
    """Every result's ratings by id, and every standing: what a replay must reproduce."""
    results = Result.objects.filter(game__league=league).order_by("game_id", "seat")
    standings = Standing.objects.filter(league=league).order_by("player_id")
    return (
        list(results.values_list("game_id", "player_id", "rating_before", "rating_after")),
        list(standings.values_list("player_id", "rating", "games", "peak_rating", "last_change")),
    )


def delete_in_admin(client: Client, game: Game):
    # Followed, so its "deleted" message is shown and gone before the next request.
    return client.post(
        reverse("admin:ratings_game_delete", args=[game.pk]), {"post": "yes"}, follow=True
    )


def restore_in_admin(client: Client, *entries: AuditEntry):
    return client.post(
        reverse(CHANGELIST),
        {"action": "restore_deleted_games", "_selected_action": [e.pk for e in entries]},
        follow=True,
    )


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


# Deleting and restoring -------------------------------------------------------------------------


def test_deleting_games_says_how_many_games_and_players_it_re_rated(admin_client, club):
    league, _players, games = club

    one = delete_in_admin(admin_client, games[3])
    two = admin_client.post(
        reverse("admin:ratings_game_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": [games[0].pk, games[1].pk],
            "post": "yes",
        },
        follow=True,
    )

    assert "Re-rated 1 game; 3 players' ratings changed." in messages_of(one)
    # Newest first: game 1 (2 games after it left), then game 0 (2 again).
    assert "Re-rated 4 games; 3 players' ratings changed." in messages_of(two)
    assert RatingCorrection.objects.filter(league=league).count() >= 3


def test_deleting_a_game_in_the_admin_keeps_a_snapshot_of_it(admin_client, admin_user, club):
    league, players, games = club
    game = games[2]

    delete_in_admin(admin_client, game)

    entry = AuditEntry.objects.get(action="delete")
    assert (entry.user, entry.league, entry.game_id) == (admin_user, league, game.pk)
    assert entry.after is None
    snapshot = entry.before
    assert snapshot["id"] == game.pk
    assert snapshot["bula"] == 30
    assert [row["player_id"] for row in snapshot["results"]] == [
        players[i].pk for i in five_games()[2][1]
    ]
    assert [row["paper"] for row in snapshot["results"]] == [list(p) for p in five_games()[2][0]]


def test_restoring_a_deleted_game_brings_it_back_with_its_old_id_and_ratings(
    admin_client, admin_user, club
):
    league, _players, games = club
    game = games[1]
    original = all_ratings(league)
    delete_in_admin(admin_client, game)
    assert all_ratings(league) != original
    entry = AuditEntry.objects.get(action="delete")

    response = restore_in_admin(admin_client, entry)

    assert messages_of(response) == [
        f"Game {game.pk} is back in {league.name}; the league is re-rated. "
        "Re-rated 4 games; 2 players' ratings changed."
    ]
    restored = Game.objects.get(pk=game.pk)
    assert (restored.played_at, restored.bula) == (game.played_at, game.bula)
    # The history is whole again: every rating as before the deletion, and as a fresh replay.
    assert all_ratings(league) == original
    engine.league_recompute(league=league)
    assert all_ratings(league) == original
    restore = AuditEntry.objects.get(action="restore")
    assert (restore.user, restore.game_id) == (admin_user, game.pk)


def test_restoring_a_game_twice_says_why_the_second_time_did_nothing(admin_client, club):
    league, _players, games = club
    delete_in_admin(admin_client, games[3])
    entry = AuditEntry.objects.get(action="delete")
    restore_in_admin(admin_client, entry)
    restored = all_ratings(league)

    response = restore_in_admin(admin_client, entry)

    assert messages_of(response) == [
        f"Game {games[3].pk} was not restored: That game has already been restored."
    ]
    assert all_ratings(league) == restored


def test_a_game_whose_player_left_cannot_be_restored(admin_client, make_league, make_player):
    league = make_league()
    players = [make_player() for _ in range(3)]
    game = engine.game_record(
        league=league,
        played_at=T0,
        entries=paper_entries(players, WORKED_EXAMPLE_PAPERS),
        bula=30,
    )
    delete_in_admin(admin_client, game)
    Player.objects.filter(pk=players[0].pk).delete()

    response = restore_in_admin(admin_client, AuditEntry.objects.get(action="delete"))

    assert messages_of(response) == [
        f"Game {game.pk} was not restored: A player of that game no longer exists."
    ]
    assert not Game.objects.filter(pk=game.pk).exists()


def test_only_deletions_can_be_restored(admin_client, club):
    league, _players, games = club
    created = AuditEntry.objects.get(action="create", game_id=games[0].pk)
    stored = all_ratings(league)

    response = restore_in_admin(admin_client, created)

    assert messages_of(response) == [
        f"Entry {created.pk} is not a deletion: only a deleted game can be restored."
    ]
    assert all_ratings(league) == stored


def test_staff_who_may_not_add_games_cannot_restore_them(client, django_user_model, club):
    _league, _players, games = club
    engine.game_delete(game=games[0])
    reader = django_user_model.objects.create_user("reader", is_staff=True)
    reader.user_permissions.add(*Permission.objects.filter(codename="view_auditentry"))
    client.force_login(reader)

    page = client.get(reverse(CHANGELIST))
    response = restore_in_admin(client, AuditEntry.objects.get(action="delete"))

    assert page.status_code == 200
    assert page.context["action_form"] is None  # no action at all for this reader
    assert response.status_code == 200
    assert not Game.objects.filter(pk=games[0].pk).exists()
    assert not AuditEntry.objects.filter(action="restore").exists()


# Edits and start ratings ------------------------------------------------------------------------


def test_an_edit_in_the_admin_records_before_and_after(admin_client, admin_user, club):
    league, _players, games = club
    game = games[0]
    results = list(game.results.order_by("seat"))
    new_papers = [(100, -10, 40), (0, 6, 20), (60, 4, 0)]
    seats = [(r.player, r.seat, paper, None) for r, paper in zip(results, new_papers, strict=True)]

    admin_client.post(
        reverse("admin:ratings_game_change", args=[game.pk]),
        game_post(league, game.played_at + timedelta(hours=1), seats, results=results, game=game),
    )

    entry = AuditEntry.objects.get(action="update")
    assert (entry.user, entry.game_id) == (admin_user, game.pk)
    assert [row["paper"] for row in entry.before["results"]] == [
        list(p) for p in WORKED_EXAMPLE_PAPERS
    ]
    assert [row["paper"] for row in entry.after["results"]] == [list(p) for p in new_papers]
    assert entry.after["played_at"] > entry.before["played_at"]


def test_a_start_rating_change_in_the_admin_records_before_and_after(
    admin_client, admin_user, club
):
    league, players, _games = club
    marko = players[1]
    rows = [
        (s, 1234 if s.player == marko else s.start_rating)
        for s in Standing.objects.filter(league=league).order_by("player__name")
    ]

    admin_client.post(
        reverse("admin:ratings_league_change", args=[league.pk]), league_post(league, rows)
    )

    entry = AuditEntry.objects.filter(action="start_rating", player=marko).latest("id")
    assert entry.user == admin_user
    assert (entry.before, entry.after) == ({"start_rating": 1150}, {"start_rating": 1234})


# Read-only, readable ----------------------------------------------------------------------------


def test_nobody_adds_changes_or_deletes_audit_entries(admin_client, club):
    entry = AuditEntry.objects.first()
    count = AuditEntry.objects.count()

    add = admin_client.get(reverse("admin:ratings_auditentry_add"))
    change = admin_client.post(
        reverse("admin:ratings_auditentry_change", args=[entry.pk]), {"action": "delete"}
    )
    delete = admin_client.post(
        reverse("admin:ratings_auditentry_delete", args=[entry.pk]), {"post": "yes"}
    )
    bulk = admin_client.get(reverse(CHANGELIST))

    assert (add.status_code, change.status_code, delete.status_code) == (403, 403, 403)
    actions = [name for name, _label in bulk.context["action_form"].fields["action"].choices]
    assert "delete_selected" not in actions
    assert AuditEntry.objects.count() == count
    entry.refresh_from_db()
    assert entry.action == "create"


def test_the_trail_shows_a_game_as_its_seats(admin_client, club):
    _league, _players, games = club
    engine.game_delete(game=games[0])
    entry = AuditEntry.objects.get(action="delete")

    response = admin_client.get(reverse("admin:ratings_auditentry_change", args=[entry.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    assert "bula 30" in page
    assert "<td>Pedja (#" in page
    assert "<td>320 / -20 / 160</td>" in page
    assert "<td>-500.0</td>" in page


def test_the_trail_lists_who_did_what_with_filters(admin_client, admin_user, club):
    _league, _players, games = club
    delete_in_admin(admin_client, games[0])

    response = admin_client.get(reverse(CHANGELIST), {"action": "delete"})

    changelist = response.context["cl"]
    assert changelist.list_display[1:] == ["at", "user", "action", "league", "game_id", "player"]
    assert [(e.action, e.user) for e in changelist.result_list] == [("delete", admin_user)]


def test_the_trail_list_takes_the_same_queries_for_more_entries(admin_client, club):
    """User, league and player come with the entries: no query per row (an n+1)."""
    league, players, _games = club
    url = reverse(CHANGELIST)
    with CaptureQueriesContext(connection) as few:
        admin_client.get(url)

    record_history(make_league(), players, five_games())
    for player in players:
        engine.standing_set_start_rating(league=league, player=player, rating=1000)
    with CaptureQueriesContext(connection) as more:
        response = admin_client.get(url)

    assert len(response.context["cl"].result_list) > 15
    assert len(more.captured_queries) == len(few.captured_queries)


# The "Restore this game" button on a deletion's page ----------------------------------------


def entry_page(client, entry: AuditEntry):
    return client.get(reverse("admin:ratings_auditentry_change", args=[entry.pk]))


def restore_button(client, entry: AuditEntry):
    return client.post(reverse("admin:ratings_auditentry_restore", args=[entry.pk]), follow=True)


def test_a_deletions_page_has_a_restore_button_that_restores_the_game(admin_client, club):
    league, _players, games = club
    original = all_ratings(league)
    delete_in_admin(admin_client, games[1])
    entry = AuditEntry.objects.get(action="delete")
    url = reverse("admin:ratings_auditentry_restore", args=[entry.pk])

    page = entry_page(admin_client, entry).content.decode()
    assert f'<form method="post" action="{url}" class="restore-game">' in page
    assert "csrfmiddlewaretoken" in page.split(url)[1].split("</form>")[0]
    response = restore_button(admin_client, entry)

    assert response.redirect_chain[-1][0] == reverse(
        "admin:ratings_auditentry_change", args=[entry.pk]
    )
    assert messages_of(response) == [
        f"Game {games[1].pk} is back in {league.name}; the league is re-rated. "
        "Re-rated 4 games; 2 players' ratings changed."
    ]
    assert all_ratings(league) == original
    # Restored: the button is gone, and a second press says why it does nothing.
    assert url not in entry_page(admin_client, entry).content.decode()
    assert messages_of(restore_button(admin_client, entry)) == [
        f"Game {games[1].pk} was not restored: That game has already been restored."
    ]


def test_the_restore_button_is_post_only_and_only_on_deletions(admin_client, club):
    _league, _players, games = club
    engine.game_delete(game=games[0])
    deletion = AuditEntry.objects.get(action="delete")
    creation = AuditEntry.objects.filter(action="create").first()
    url = reverse("admin:ratings_auditentry_restore", args=[deletion.pk])

    assert admin_client.get(url).status_code == 405
    assert not Game.objects.filter(pk=games[0].pk).exists()
    if creation is not None:
        assert "restore-game" not in entry_page(admin_client, creation).content.decode()
        response = restore_button(admin_client, creation)
        assert "is not a deletion" in messages_of(response)[0]


def test_staff_who_may_not_add_games_get_no_button_and_are_refused(client, django_user_model, club):
    _league, _players, games = club
    engine.game_delete(game=games[0])
    entry = AuditEntry.objects.get(action="delete")
    reader = django_user_model.objects.create_user("reader", is_staff=True)
    reader.user_permissions.add(*Permission.objects.filter(codename="view_auditentry"))
    client.force_login(reader)

    assert "restore-game" not in entry_page(client, entry).content.decode()
    response = client.post(reverse("admin:ratings_auditentry_restore", args=[entry.pk]))
    assert response.status_code == 403
    assert not Game.objects.filter(pk=games[0].pk).exists()
