"""A member reports a mistake in a game they played: a note to the staff, shown in the admin
with the game. Only a player of the game may; it changes nothing by itself."""

import pytest
from django.urls import reverse

from ratings.models import GameReport, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def pedja_member(member_user, worked_example_game):
    Player.objects.filter(name="Pedja").update(user=member_user)
    return member_user


def test_a_player_of_the_game_reports_a_mistake(member_client, pedja_member, worked_example_game):
    game_url = reverse("ratings:game", args=[worked_example_game.pk])
    page = member_client.get(game_url).content.decode()
    assert "Report a mistake in this game" in page

    sent = member_client.post(
        reverse("ratings:game_report", args=[worked_example_game.pk]),
        {"note": "Marko's Left was 20, not 120."},
        follow=True,
    )

    assert sent.redirect_chain[-1][0] == game_url
    assert "Thank you: the staff will look at this game." in sent.content.decode()
    report = GameReport.objects.get()
    assert (report.game, report.reported_by, report.resolved) == (
        worked_example_game,
        pedja_member,
        False,
    )


def test_the_staff_read_it_on_the_game_s_admin_page(admin_client, worked_example_game):
    GameReport.objects.create(game=worked_example_game, note="Wrong date: it was Friday.")
    page = admin_client.get(reverse("admin:ratings_game_change", args=[worked_example_game.pk]))
    assert "Wrong date: it was Friday." in page.content.decode()
    listed = admin_client.get(reverse("admin:ratings_gamereport_changelist")).content.decode()
    assert "Wrong date: it was Friday." in listed


def test_who_did_not_play_cannot_report(client, member_client, worked_example_game):
    url = reverse("ratings:game_report", args=[worked_example_game.pk])
    game_url = reverse("ratings:game", args=[worked_example_game.pk])
    assert "Report a mistake" not in member_client.get(game_url).content.decode()
    assert member_client.post(url, {"note": "x"}).status_code == 403
    assert reverse("login") in client.post(url, {"note": "x"})["Location"]
    assert member_client.get(url).status_code == 405
    assert not GameReport.objects.exists()


def test_an_empty_note_is_refused(member_client, pedja_member, worked_example_game):
    url = reverse("ratings:game_report", args=[worked_example_game.pk])
    sent = member_client.post(url, {"note": "  "}, follow=True)
    assert "Write what is wrong" in sent.content.decode()
    assert not GameReport.objects.exists()


def test_the_reporter_sees_their_report_open_then_resolved(
    member_client, pedja_member, worked_example_game
):
    game_url = reverse("ratings:game", args=[worked_example_game.pk])
    member_client.post(
        reverse("ratings:game_report", args=[worked_example_game.pk]), {"note": "Left was 20."}
    )
    page = member_client.get(game_url).content.decode()
    assert "Your reports of a mistake" in page
    assert "the staff have not resolved it yet" in page and "Left was 20." in page

    GameReport.objects.update(resolved=True)  # as the admin's list does
    page = member_client.get(game_url).content.decode()  # the page cache sees the change
    assert "resolved by the staff" in page


def test_staff_see_the_open_reports_counted_in_the_header_and_the_admin(
    admin_client, client, worked_example_game
):
    GameReport.objects.create(game=worked_example_game, note="Wrong date.")
    GameReport.objects.create(game=worked_example_game, note="Wrong seat.")
    GameReport.objects.create(game=worked_example_game, note="Done.", resolved=True)
    link = f"{reverse('admin:ratings_gamereport_changelist')}?resolved__exact=0"

    home = admin_client.get(reverse("ratings:home")).content.decode()
    assert f'<a href="{link}">2 open mistake reports</a>' in home
    index = admin_client.get(reverse("admin:index")).content.decode()
    assert f'<a href="{link}">2 open mistake reports</a>' in index
    assert "open mistake report" not in client.get(reverse("ratings:home")).content.decode()

    GameReport.objects.update(resolved=True)
    # Counted on every response, not kept with the cached page.
    assert "open mistake report" not in admin_client.get(reverse("ratings:home")).content.decode()
