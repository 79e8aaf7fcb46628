"""Players in the admin: the typo check on a new name, renaming through the engine, merging."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from ratings.models import (
    AuditAction,
    AuditEntry,
    Player,
    PlayerAlias,
    Result,
    System,
)
from ratings.papers.services import paper_start
from tests.builders import T0_2025


def add(client, **data):
    return client.post(reverse("admin:ratings_player_add"), {"name": "", **data})


def test_adding_a_close_name_asks_for_confirmation(admin_client, typo_club):
    response = add(admin_client, name="Johny")
    assert response.status_code == 200
    assert "The club has Johnny: a typo?" in response.content.decode()
    assert not Player.objects.filter(name="Johny").exists()
    assert add(admin_client, name="Johny", new_member="on").status_code == 302
    assert Player.objects.get(name="Johny").slug == "johny"


def test_renaming_in_the_admin_keeps_the_old_address(admin_client, client, typo_club):
    pedja = Player.objects.get(name="Pedja")
    url = reverse("admin:ratings_player_change", args=[pedja.pk])
    response = admin_client.post(url, {"name": "Predrag"})
    assert response.status_code == 302
    pedja.refresh_from_db()
    assert (pedja.name, pedja.slug) == ("Predrag", "predrag")
    assert client.get("/players/pedja/").status_code == 301
    assert AuditEntry.objects.filter(action=AuditAction.RENAME).exists()


def merge(client, players, target=None, *, follow=False, **fields):
    """The admin's "merge players" action on ``players``, keeping ``target`` when given."""
    data = {"action": "merge_players", "_selected_action": [p.pk for p in players], **fields}
    if target is not None:
        data["target"] = target.pk
    return client.post(reverse("admin:ratings_player_changelist"), data, follow=follow)


def test_merge_action_asks_who_stays_then_merges(admin_client, typo_club):
    pedja, pedia = Player.objects.get(name="Pedja"), Player.objects.get(name="Pedia")
    asked = merge(admin_client, [pedja, pedia])
    assert asked.status_code == 200
    assert "Who stays?" in asked.content.decode()
    assert Player.objects.filter(pk=pedia.pk).exists()

    done = merge(admin_client, [pedja, pedia], target=pedja)
    assert done.status_code == 302
    assert not Player.objects.filter(pk=pedia.pk).exists()
    assert Result.objects.filter(player=pedja).count() == 4
    assert PlayerAlias.objects.get(slug="pedia").player == pedja


def test_merge_action_refuses_two_who_shared_a_table(admin_client, typo_club):
    pedja, marko = Player.objects.get(name="Pedja"), Player.objects.get(name="Marko")
    response = merge(admin_client, [pedja, marko], target=pedja)
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("sat at the same table in game #" in m for m in messages)
    assert Player.objects.filter(pk=marko.pk).exists()


def test_merge_action_merges_a_player_of_a_paper_and_refuses_two_of_one(admin_client, make_league):
    league = make_league(System.PREFKO)
    pedja, pedia, bora, ceca = (
        Player.objects.create_named(n) for n in ("Pedja", "Pedia", "Bora", "Ceca")
    )
    paper_start(league=league, players=[pedia, bora, ceca], bula=10)
    paper_start(league=league, players=[pedja, bora, ceca], bula=10)

    done = merge(admin_client, [pedja, pedia], target=pedja)
    assert done.status_code == 302
    assert not Player.objects.filter(pk=pedia.pk).exists()

    refused = merge(admin_client, [pedja, bora], target=pedja)
    assert refused.status_code == 302
    messages = [str(m) for m in refused.wsgi_request._messages]
    assert any("sat at the same digital paper #" in m for m in messages)
    assert Player.objects.filter(pk=bora.pk).exists()


def test_merge_needs_delete_player_and_change_game(client, django_user_model, typo_club):
    staff = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_player"]))
    client.force_login(staff)
    pedja, pedia = Player.objects.get(name="Pedja"), Player.objects.get(name="Pedia")
    merge(client, [pedja, pedia], target=pedja)
    assert Player.objects.filter(pk=pedia.pk).exists()


def test_leaderboard_offers_the_import_only_to_staff_who_may_import(
    client, django_user_model, make_league
):
    league = make_league(System.RAYTER_HIGHSCORE, name="Hearts")
    url = reverse("ratings:leaderboard", args=[league.slug])
    viewer = django_user_model.objects.create_user("viewer", password="pw", is_staff=True)
    client.force_login(viewer)
    assert "Import a rayter file" not in client.get(url).content.decode()
    viewer.user_permissions.add(Permission.objects.get(codename="add_game"))
    assert "Import a rayter file" in client.get(url).content.decode()


# Birth dates are in the past and before every game of their player -----------------------------


def player_change(client, player, **changes):
    data = {"name": player.name, "slug": player.slug, "user": "", "birth_date": ""}
    return client.post(
        reverse("admin:ratings_player_change", args=[player.pk]), {**data, **changes}
    )


@pytest.mark.django_db
def test_the_admin_refuses_a_birth_date_in_the_future(admin_client, make_player):
    player = make_player("Ana")
    tomorrow = timezone.localdate() + timedelta(days=1)

    response = player_change(admin_client, player, birth_date=tomorrow.isoformat())

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["birth_date"] == [
        "A birth date cannot be in the future."
    ]
    player.refresh_from_db()
    assert player.birth_date is None


@pytest.mark.django_db
def test_the_admin_refuses_a_new_player_born_in_the_future(admin_client):
    tomorrow = timezone.localdate() + timedelta(days=1)

    response = admin_client.post(
        reverse("admin:ratings_player_add"),
        {"name": "Ana", "slug": "ana", "birth_date": tomorrow.isoformat()},
    )

    assert response.status_code == 200
    assert "birth_date" in response.context["adminform"].form.errors


@pytest.mark.django_db
def test_the_admin_refuses_a_birth_date_after_a_game_of_the_player_naming_it(
    admin_client, make_league, make_player, record_game
):
    league = make_league(System.FIDE, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    first = record_game(league, [ana, bo], scores=[1, 0], played_at=T0_2025)
    record_game(league, [ana, bo], scores=[0, 1], played_at=T0_2025 + timedelta(days=30))

    response = player_change(admin_client, ana, birth_date="2025-03-02")

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["birth_date"] == [
        f"Ana played game #{first.pk} (Chess) on 2025-03-01, before this birth date: check the"
        " date."
    ]
    ana.refresh_from_db()
    assert ana.birth_date is None


@pytest.mark.django_db
def test_the_admin_takes_a_birth_date_on_or_before_the_first_game(
    admin_client, make_league, make_player, record_game
):
    league = make_league(System.FIDE, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    record_game(league, [ana, bo], scores=[1, 0], played_at=T0_2025)

    response = player_change(admin_client, ana, birth_date="2025-03-01")

    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.birth_date.isoformat() == "2025-03-01"


def test_the_admin_merge_page_says_what_is_missing_and_counts_in_the_singular(
    admin_client, typo_club
):
    _league, pedja, pedia = typo_club
    asked = merge(admin_client, [pedja, pedia], follow=True).content.decode()
    app = reverse("admin:app_list", args=["ratings"])
    assert f'<a href="{app}">Club ratings</a>' in asked
    assert "Choose who stays." not in asked

    unchosen = merge(admin_client, [pedja, pedia], follow=True, asked="1").content.decode()
    assert "Choose who stays." in unchosen
    assert Player.objects.filter(pk=pedia.pk).exists()

    done = merge(admin_client, [pedja, pedia], pedja, follow=True, asked="1").content.decode()
    assert "Pedia is merged into Pedja; 1 league re-rated." in done
