"""Games waiting for the table on the site: the entry form holds a member's game, the home
page asks the other seated members, one tap confirms, a dispute goes to the staff, the member
who entered it may delete it, and an organiser confirms a round's papers at once; each button
refuses who may not press it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings.entry.models import HeldGame, HeldStatus
from ratings.events import services as event_services
from ratings.models import Game, Player
from ratings.models.leagues import Confirmation
from tests.builders import check_then_save, entry_url, make_event
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(worked_example_league, worked_example_players, django_user_model):
    """Pedja's member enters; Marko's may confirm; a stranger sat nowhere."""
    worked_example_league.confirmation = Confirmation.ANOTHER_SEAT
    worked_example_league.save()
    users = {}
    for name in ("pedja", "marko", "stranger"):
        users[name] = django_user_model.objects.create_user(name, password="x")
    Player.objects.filter(name="Pedja").update(user=users["pedja"])
    Player.objects.filter(name="Marko").update(user=users["marko"])
    clients = {}
    for name, user in users.items():
        clients[name] = Client()
        clients[name].force_login(user)
    return worked_example_league, clients


def _enter(client, league) -> HeldGame:
    response = check_then_save(client, entry_url(league), WORKED_EXAMPLE_FORM)
    held = HeldGame.objects.get()
    assert response.status_code == 302 and response["Location"] == held.get_absolute_url()
    return held


def _post(client, held, action, **data):
    return client.post(reverse(f"ratings:held_{action}", args=[held.key]), data)


def test_the_form_holds_it_the_home_page_asks_and_one_tap_confirms(table, client):
    league, clients = table
    held = _enter(clients["pedja"], league)
    assert not Game.objects.exists()
    page = client.get(held.get_absolute_url())  # anyone reads it, as a game
    assert page.status_code == 200 and "awaiting confirmation" in page.content.decode()
    listed = client.get(reverse("ratings:league_games", args=[league.slug])).content.decode()
    assert "Awaiting confirmation" in listed and held.get_absolute_url() in listed

    home = clients["marko"].get(reverse("ratings:home")).content.decode()
    assert "Games waiting for you" in home
    assert reverse("ratings:held_confirm", args=[held.key]) in home
    assert (
        "Games waiting for you"
        not in clients["pedja"].get(reverse("ratings:home")).content.decode()
    )

    assert _post(client, held, "confirm").status_code == 302  # to the login
    assert _post(clients["stranger"], held, "confirm").status_code == 403
    assert _post(clients["pedja"], held, "confirm").status_code == 403
    assert not Game.objects.exists()
    confirmed = _post(clients["marko"], held, "confirm")
    game = Game.objects.get()
    assert confirmed["Location"] == game.get_absolute_url()
    # The waiting game's address now leads to the game.
    assert client.get(held.get_absolute_url())["Location"] == game.get_absolute_url()


def test_a_dispute_and_a_delete(table):
    league, clients = table
    held = _enter(clients["pedja"], league)
    assert _post(clients["stranger"], held, "dispute", note="no").status_code == 403
    assert _post(clients["pedja"], held, "withdraw").status_code == 302
    assert HeldGame.objects.get().status == HeldStatus.WITHDRAWN
    HeldGame.objects.all().delete()
    held = _enter(clients["pedja"], league)
    assert _post(clients["marko"], held, "withdraw").status_code == 403
    assert _post(clients["marko"], held, "dispute", note="Johnny had 20").status_code == 302
    held.refresh_from_db()
    assert held.status == HeldStatus.DISPUTED and held.dispute_note == "Johnny had 20"
    page = clients["stranger"].get(held.get_absolute_url()).content.decode()
    assert "Johnny had 20" in page and "the staff decide" in page


def test_staff_confirm_and_delete_in_the_admin(table, admin_client):
    league, clients = table
    held = _enter(clients["pedja"], league)
    changelist = reverse("admin:ratings_heldgame_changelist")
    assert admin_client.get(changelist + "?status__exact=pending").status_code == 200
    assert (
        admin_client.get(reverse("admin:ratings_heldgame_change", args=[held.pk])).status_code
        == 200
    )
    admin_client.post(changelist, {"action": "confirm_selected", "_selected_action": [held.pk]})
    held.refresh_from_db()
    assert held.status == HeldStatus.CONFIRMED and Game.objects.count() == 1


def test_an_organiser_confirms_a_rounds_papers_at_once(table, worked_example_players):
    league, clients = table
    organiser = clients["stranger"]
    user = Player.objects.model._meta.get_field("user").related_model.objects.get(
        username="stranger"
    )
    user.user_permissions.add(Permission.objects.get(codename="run_events"))
    event = make_event(league, worked_example_players, organiser=user)

    table_ = event_services.round_draw(event=event).tables.get()
    url = entry_url(league) + f"?table={table_.pk}"
    check_then_save(clients["pedja"], url, {**WORKED_EXAMPLE_FORM})
    held = HeldGame.objects.get()
    assert held.table == table_ and not Game.objects.exists()
    page = organiser.get(event.get_absolute_url()).content.decode()
    confirm_url = reverse("ratings:round_confirm", args=[event.pk, 1])
    assert confirm_url in page
    assert clients["marko"].post(confirm_url).status_code == 403
    assert organiser.post(confirm_url).status_code == 302
    assert Game.objects.get().event_table == table_
    assert HeldGame.objects.get().status == HeldStatus.CONFIRMED


def test_a_players_page_shows_a_game_held_after_it_was_cached(table, client):
    """The player's page is keyed by the player's versions: holding a game with them at it
    moves those versions (the held seats name the player), so the cached page is drawn again."""
    league, clients = table
    url = Player.objects.get(name="Marko").get_absolute_url()
    assert "Awaiting confirmation" not in client.get(url).content.decode()
    held = _enter(clients["pedja"], league)
    page = client.get(url).content.decode()
    assert "Awaiting confirmation" in page and held.get_absolute_url() in page
    _post(clients["marko"], held, "confirm")
    assert "Awaiting confirmation" not in client.get(url).content.decode()
