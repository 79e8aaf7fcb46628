"""Staff link a login to a player in the admin: the player's "user account" field finds users by
username (an autocomplete), and saving links them, so the member gets "My page"."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings.models import Player
from tests.builders import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_staff(django_user_model) -> Client:
    """Staff who may change players and look at users (what the autocomplete asks for)."""
    staff = django_user_model.objects.create_user("clerk", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_player", "change_player", "view_user"])
    )
    client = Client()
    client.force_login(staff)
    return client


def autocomplete(client: Client, term: str):
    return client.get(
        reverse("admin:autocomplete"),
        {"app_label": "ratings", "model_name": "player", "field_name": "user", "term": term},
    )


def test_the_user_field_finds_a_user_by_username(player_staff, django_user_model):
    pedja = django_user_model.objects.create_user("pedja.k", password=PASSWORD)
    django_user_model.objects.create_user("marko", password=PASSWORD)

    response = autocomplete(player_staff, "pedja")

    assert response.status_code == 200
    assert response.json()["results"] == [{"id": str(pedja.pk), "text": "pedja.k"}]


def test_the_user_field_is_an_autocomplete_on_the_player_form(player_staff, make_player):
    pedja = make_player("Pedja")

    response = player_staff.get(reverse("admin:ratings_player_change", args=[pedja.pk]))

    assert response.status_code == 200
    assert 'class="admin-autocomplete' in response.content.decode()
    assert 'data-field-name="user"' in response.content.decode()


def test_members_cannot_look_users_up(member_client):
    assert autocomplete(member_client, "member").status_code == 302


def test_staff_link_a_user_to_a_player_and_the_member_gets_my_page(
    player_staff, make_player, member_user, member_client
):
    pedja = make_player("Pedja")

    response = player_staff.post(
        reverse("admin:ratings_player_change", args=[pedja.pk]),
        {"name": "Pedja", "slug": "pedja", "user": member_user.pk, "birth_date": ""},
    )

    assert response.status_code == 302
    assert Player.objects.get(pk=pedja.pk).user == member_user
    home = member_client.get(reverse("ratings:home")).content.decode()
    assert f'<a href="{pedja.get_absolute_url()}">My page</a>' in home
