"""Invitations and claims in the admin: staff invite from the players' list (each link shown
once), withdraw invitations, approve or refuse claims; each action asks Django's permissions, so
a member, or staff without them, does none of it."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings.accounts import services
from ratings.accounts.models import ClaimStatus, Invitation, PlayerClaim
from ratings.models import Player
from ratings.models.api_tokens import token_digest
from tests.builders import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

LINK = re.compile(r"<code>(http://testserver/invitations/([-\w]+)/)</code>")


def admin_action(client: Client, model: str, action: str, rows) -> object:
    return client.post(
        reverse(f"admin:ratings_{model}_changelist"),
        {"action": action, ACTION_CHECKBOX_NAME: [row.pk for row in rows]},
        follow=True,
    )


def test_staff_invite_from_the_players_list_and_see_each_link_once(clerk_client, pedja, clerk):
    marko = make_player("Marko")

    response = admin_action(clerk_client, "player", "invite_people", [pedja, marko])

    assert response.status_code == 200
    links = LINK.findall(response.content.decode())
    assert len(links) == 2
    by_player = {
        invitation.player: invitation for invitation in Invitation.objects.select_related("player")
    }
    assert set(by_player) == {pedja, marko}
    for _url, token in links:
        invitation = Invitation.objects.get(digest=token_digest(token))
        assert invitation.invited_by == clerk
    # The list shows no link again, only the invitations' states.
    listing = clerk_client.get(reverse("admin:ratings_invitation_changelist")).content.decode()
    assert all(token not in listing for _url, token in links)
    assert "open" in listing


def test_the_link_from_the_admin_opens_the_invitation(clerk_client, pedja, client):
    response = admin_action(clerk_client, "player", "invite_people", [pedja])
    ((url, _token),) = LINK.findall(response.content.decode())

    assert "<strong>Pedja</strong>" in client.get(url).content.decode()


def test_a_player_with_a_login_is_skipped_with_a_warning(clerk_client, pedja, member_user):
    Player.objects.filter(pk=pedja.pk).update(user=member_user)

    response = admin_action(clerk_client, "player", "invite_people", [pedja])

    assert "Pedja already has a login." in response.content.decode()
    assert not Invitation.objects.exists()


def test_staff_without_the_invitation_permission_cannot_invite(staff_client, pedja, staff_user):
    staff_user.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_player", "change_player"])
    )

    page = staff_client.get(reverse("admin:ratings_player_changelist")).content.decode()
    admin_action(staff_client, "player", "invite_people", [pedja])

    assert 'value="invite_people"' not in page
    assert not Invitation.objects.exists()


def test_staff_withdraw_an_invitation(clerk_client, invited):
    invitation, _token = invited

    admin_action(clerk_client, "invitation", "revoke", [invitation])

    assert Invitation.objects.get(pk=invitation.pk).revoked_at is not None


def test_staff_approve_a_claim(clerk_client, clerk, member_user, pedja):
    claim = services.claim_create(user=member_user, player=pedja)

    response = admin_action(clerk_client, "playerclaim", "approve", [claim])

    assert "1 claim approved." in response.content.decode()
    assert Player.objects.get(pk=pedja.pk).user == member_user
    assert PlayerClaim.objects.get(pk=claim.pk).decided_by == clerk


def test_staff_refuse_a_claim(clerk_client, member_user, pedja):
    claim = services.claim_create(user=member_user, player=pedja)

    admin_action(clerk_client, "playerclaim", "refuse", [claim])

    assert PlayerClaim.objects.get(pk=claim.pk).status == ClaimStatus.REFUSED
    assert Player.objects.get(pk=pedja.pk).user is None


def test_an_approval_the_player_cannot_take_says_why(clerk_client, member_user, pedja, invited):
    claim = services.claim_create(user=member_user, player=pedja)
    services.invitation_accept(invitation=invited[0], username="pedja", password="a-long-one-7")

    response = admin_action(clerk_client, "playerclaim", "approve", [claim])

    assert "Pedja already has a login." in response.content.decode()
    assert PlayerClaim.objects.get(pk=claim.pk).status == ClaimStatus.PENDING


def test_a_member_cannot_approve_a_claim(member_client, member_user, pedja):
    claim = services.claim_create(user=member_user, player=pedja)

    response = admin_action(member_client, "playerclaim", "approve", [claim])

    assert response.redirect_chain[0][0].startswith(reverse("admin:login"))
    assert PlayerClaim.objects.get(pk=claim.pk).status == ClaimStatus.PENDING
    assert Player.objects.get(pk=pedja.pk).user is None


def test_staff_who_may_only_view_claims_cannot_decide_them(staff_user, member_user, pedja):
    staff_user.user_permissions.add(Permission.objects.get(codename="view_playerclaim"))
    client = Client()
    client.force_login(staff_user)
    claim = services.claim_create(user=member_user, player=pedja)

    page = client.get(reverse("admin:ratings_playerclaim_changelist")).content.decode()
    admin_action(client, "playerclaim", "approve", [claim])

    assert 'value="approve"' not in page
    assert PlayerClaim.objects.get(pk=claim.pk).status == ClaimStatus.PENDING


def test_the_invitations_claims_and_their_audit_trail_read_in_the_admin(
    admin_client, invited, member_user, pedja
):
    invitation, _token = invited
    claim = services.claim_create(user=member_user, player=pedja, note="Fridays")
    pages = [
        reverse("admin:ratings_invitation_changelist"),
        reverse("admin:ratings_invitation_change", args=[invitation.pk]),
        reverse("admin:ratings_playerclaim_changelist") + "?status__exact=pending",
        reverse("admin:ratings_playerclaim_change", args=[claim.pk]),
        reverse("admin:ratings_auditentry_changelist"),
    ]
    for url in pages:
        response = admin_client.get(url)
        assert response.status_code == 200, url
    trail = admin_client.get(pages[-1]).content.decode()
    assert "invitation made" in trail
    assert "player claimed" in trail


def test_staff_invite_from_the_players_own_page(clerk_client, pedja):
    page = clerk_client.get(reverse("admin:ratings_player_change", args=[pedja.pk]))
    button = reverse("admin:ratings_player_invite", args=[pedja.pk])
    assert f'action="{button}"' in page.content.decode()

    assert clerk_client.get(button).status_code == 405
    response = clerk_client.post(button)

    assert response.status_code == 200
    ((url, _token),) = LINK.findall(response.content.decode())
    assert Invitation.objects.get().player == pedja


def test_the_players_page_offers_no_invitation_to_a_player_with_a_login(
    clerk_client, pedja, member_user
):
    Player.objects.filter(pk=pedja.pk).update(user=member_user)
    button = reverse("admin:ratings_player_invite", args=[pedja.pk])

    page = clerk_client.get(reverse("admin:ratings_player_change", args=[pedja.pk]))
    response = clerk_client.post(button, follow=True)

    assert f'action="{button}"' not in page.content.decode()
    assert "Pedja already has a login." in response.content.decode()
    assert not Invitation.objects.exists()


def test_staff_without_the_invitation_permission_have_no_button(staff_client, staff_user, pedja):
    staff_user.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_player", "change_player"])
    )
    button = reverse("admin:ratings_player_invite", args=[pedja.pk])

    page = staff_client.get(reverse("admin:ratings_player_change", args=[pedja.pk]))

    assert f'action="{button}"' not in page.content.decode()
    assert staff_client.post(button).status_code == 403
    assert not Invitation.objects.exists()
