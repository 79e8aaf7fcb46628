"""Players in the admin: the typo check on a new name, renaming through the engine, merging."""

from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings.models import AuditAction, AuditEntry, Player, PlayerAlias, Result, System


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


def merge(client, players, target=None):
    data = {"action": "merge_players", "_selected_action": [p.pk for p in players]}
    if target is not None:
        data["target"] = target.pk
    return client.post(reverse("admin:ratings_player_changelist"), data)


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
