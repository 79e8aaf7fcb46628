"""The invitation's page (a person chooses a login and becomes the player's member, logged in;
a clear page for a link that no longer works; throttled per address) and the member's account
page (claim a player, see the claim's state)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.accounts import services
from ratings.accounts.models import ClaimStatus, Invitation, PlayerClaim
from ratings.models import Player
from tests.builders import form_errors, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

GOOD_PASSWORD = "table-three-on-fridays"


def invitation_url(token: str) -> str:
    return reverse("ratings:invitation", args=[token])


def join(client: Client, token: str, username="pedja", password=GOOD_PASSWORD, again=None):
    return client.post(
        invitation_url(token),
        {"username": username, "password1": password, "password2": again or password},
    )


def test_the_invitation_page_names_the_player_in_a_fixed_number_of_queries(
    client, invited, django_assert_max_num_queries
):
    """One query for the invitation with its player; the page reads nothing per anything."""
    _invitation, token = invited
    with django_assert_max_num_queries(2):
        response = client.get(invitation_url(token))

    assert response.status_code == 200
    page = response.content.decode()
    assert "<strong>Pedja</strong>" in page
    assert 'name="password2"' in page
    assert "no-store" in response["Cache-Control"]


def test_joining_makes_a_member_linked_to_the_player_and_logged_in(client, invited, pedja):
    _invitation, token = invited

    response = join(client, token)

    assert response.status_code == 302
    assert response["Location"] == pedja.get_absolute_url()
    member = Player.objects.get(pk=pedja.pk).user
    assert member.get_username() == "pedja"
    home = client.get(reverse("ratings:home")).content.decode()
    assert f'<a href="{pedja.get_absolute_url()}">My page</a>' in home


def test_a_link_used_once_says_so_the_second_time(client, invited, django_user_model):
    _invitation, token = invited
    join(client, token)
    second = Client()

    response = join(second, token, username="someone")

    assert response.status_code == 410
    assert "This invitation has been used already" in response.content.decode()
    assert not django_user_model.objects.filter(username="someone").exists()


def test_an_expired_link_says_so(client, invited):
    invitation, token = invited
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())

    response = client.get(invitation_url(token))

    assert response.status_code == 410
    assert "This invitation has expired" in response.content.decode()
    assert 'name="password1"' not in response.content.decode()


def test_a_withdrawn_link_says_so(client, invited):
    invitation, token = invited
    services.invitation_revoke(invitation=invitation)

    response = client.get(invitation_url(token))

    assert response.status_code == 410
    assert "withdrawn" in response.content.decode()


def test_an_unknown_link_is_404(client, invited):
    assert client.get(invitation_url("not-a-token")).status_code == 404


def test_a_link_to_a_player_who_has_a_login_makes_none(client, invited, pedja, member_user):
    Player.objects.filter(pk=pedja.pk).update(user=member_user)
    _invitation, token = invited

    response = join(client, invited[1])

    assert response.status_code == 410
    assert "Pedja already has a login" in response.content.decode()
    assert Player.objects.get(pk=pedja.pk).user == member_user


@pytest.mark.parametrize(
    ("password", "again", "error"),
    [
        ("short", None, "This password is too short"),
        ("12345678901", None, "This password is entirely numeric"),
        ("password123", None, "This password is too common"),
        # Like the player's name, whatever the username.
        ("pedja1234", None, "too similar to the first name"),
        (GOOD_PASSWORD, "something-else-entirely", "The two password fields didn"),
    ],
)
def test_a_weak_password_is_refused_with_the_reason(client, invited, password, again, error):
    _invitation, token = invited

    response = join(client, token, username="marko", password=password, again=again)

    assert response.status_code == 200
    assert error in form_errors(response)
    assert Player.objects.get(pk=invited[0].player_id).user is None
    assert Invitation.objects.get(pk=invited[0].pk).used_at is None


def test_a_taken_username_is_refused(client, invited, member_user):
    response = join(client, invited[1], username="member")

    assert response.status_code == 200
    assert "already exists" in form_errors(response)


def test_a_member_logged_in_is_asked_to_log_out_first(member_client, invited):
    response = member_client.get(invitation_url(invited[1]))

    assert "log out to accept this invitation" in response.content.decode()
    assert 'name="password1"' not in response.content.decode()


def test_the_invitation_page_is_throttled_per_address(client, invited, settings):
    settings.INVITATION_RATE = "3/min"
    responses = [client.get(invitation_url(f"guess-{n}")) for n in range(4)]

    assert [r.status_code for r in responses] == [404, 404, 404, 429]
    assert int(responses[-1]["Retry-After"]) > 0
    # The right link from that address waits too: a guesser learns nothing more.
    assert client.get(invitation_url(invited[1])).status_code == 429


def test_joining_needs_the_csrf_token(invited):
    client = Client(enforce_csrf_checks=True)

    assert join(client, invited[1]).status_code == 403
    assert Invitation.objects.get(pk=invited[0].pk).used_at is None


# The member's account: claims --------------------------------------------------------------------


def test_the_account_page_needs_a_login(client):
    response = client.get(reverse("ratings:account"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_member_without_a_player_claims_one_and_sees_its_state(member_client, member_user, pedja):
    home = member_client.get(reverse("ratings:home")).content.decode()
    assert f'href="{reverse("ratings:account")}"' in home  # "Claim my player"

    response = member_client.post(
        reverse("ratings:account"), {"player": "pedja", "note": "Fridays, table 3"}
    )

    assert response.status_code == 302
    claim = PlayerClaim.objects.get()
    assert (claim.user, claim.player, claim.note) == (member_user, pedja, "Fridays, table 3")
    page = member_client.get(reverse("ratings:account")).content.decode()
    assert "waiting for the staff" in page
    assert 'name="player"' not in page  # one claim waiting at a time


def test_only_players_without_a_login_can_be_claimed(member_client, pedja, staff_user):
    Player.objects.filter(pk=pedja.pk).update(user=staff_user)
    make_player("Marko")

    response = member_client.post(reverse("ratings:account"), {"player": "Pedja"})

    assert response.status_code == 200
    assert "no player without a login called Pedja" in form_errors(response)
    page = member_client.get(reverse("ratings:account")).content.decode()
    assert '<option value="Marko">' in page
    assert '<option value="Pedja">' not in page


def test_a_member_with_a_player_sees_it_and_claims_nothing(member_client, member_user, pedja):
    Player.objects.filter(pk=pedja.pk).update(user=member_user)

    response = member_client.post(reverse("ratings:account"), {"player": "Marko"})

    assert response.status_code == 302
    assert not PlayerClaim.objects.exists()
    page = member_client.get(reverse("ratings:account")).content.decode()
    assert f'<a href="{pedja.get_absolute_url()}">Pedja</a>' in page


def test_a_refused_claim_shows_and_a_new_one_may_be_made(member_client, member_user, pedja):
    claim = services.claim_create(user=member_user, player=pedja)
    PlayerClaim.objects.filter(pk=claim.pk).update(status=ClaimStatus.REFUSED)

    page = member_client.get(reverse("ratings:account")).content.decode()

    assert "refused" in page
    assert 'name="player"' in page


def test_the_account_page_reads_a_fixed_number_of_queries(
    member_client, member_user, pedja, django_assert_max_num_queries
):
    for name in ("Ana", "Bora", "Ceca"):
        services.claim_create(user=member_user, player=make_player(name))
        PlayerClaim.objects.filter(user=member_user).update(status=ClaimStatus.REFUSED)
    # The session and user, the member's player, their claims with players, the names offered.
    with django_assert_max_num_queries(5):
        assert member_client.get(reverse("ratings:account")).status_code == 200


def test_claiming_needs_the_csrf_token(member_user, pedja):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member_user)

    assert client.post(reverse("ratings:account"), {"player": "Pedja"}).status_code == 403
    assert not PlayerClaim.objects.exists()


def test_no_page_signs_anyone_up(client):
    """No open sign-up: without an invitation's link nobody makes a login."""
    page = client.get(reverse("login")).content.decode()
    assert "password2" not in page
    assert client.get("/signup/").status_code == 404
