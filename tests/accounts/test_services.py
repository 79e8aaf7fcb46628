"""The accounts' services: invitations made, accepted once, refused when used, withdrawn or
expired, or when the player has a login; claims made, approved and refused; each step audited."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from ratings import engine
from ratings.accounts import services
from ratings.accounts.models import ClaimStatus, Invitation, InvitationState, PlayerClaim
from ratings.models import ApiToken, AuditAction, AuditEntry, Player
from ratings.models.api_tokens import token_digest
from tests.builders import PASSWORD, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

GOOD_PASSWORD = "table-three-on-fridays"


def test_an_invitation_keeps_only_the_tokens_digest(invited, pedja):
    invitation, token = invited

    assert invitation.digest == token_digest(token)
    assert token not in str(Invitation.objects.filter(pk=invitation.pk).values().get())
    assert invitation.expires_at - invitation.created_at == timedelta(days=7)
    assert Invitation.objects.by_token(token) == invitation
    assert Invitation.objects.by_token(token + "x") is None
    entry = AuditEntry.objects.get(action=AuditAction.INVITE)
    assert entry.player == pedja
    assert entry.league is None


def test_a_player_with_a_login_is_not_invited(pedja, member_user):
    Player.objects.filter(pk=pedja.pk).update(user=member_user)

    with pytest.raises(ValidationError, match="Pedja already has a login"):
        services.invitation_create(player=pedja)
    assert not Invitation.objects.exists()


def test_accepting_makes_a_login_linked_to_the_player(invited, pedja, staff_user):
    invitation, _token = invited

    user = services.invitation_accept(
        invitation=invitation, username="pedja", password=GOOD_PASSWORD
    )

    assert Player.objects.get(pk=pedja.pk).user == user
    assert user.check_password(GOOD_PASSWORD)
    invitation.refresh_from_db()
    assert invitation.used_at is not None
    assert invitation.user == user
    assert invitation.state() == InvitationState.USED
    entry = AuditEntry.objects.get(action=AuditAction.INVITE_ACCEPT)
    assert (entry.player, entry.user, entry.after["user"]) == (pedja, user, "pedja")


def test_an_invitation_works_once(invited, django_user_model):
    invitation, _token = invited
    services.invitation_accept(invitation=invitation, username="pedja", password=GOOD_PASSWORD)

    with pytest.raises(services.InvitationRefused, match="used already") as refused:
        services.invitation_accept(
            invitation=invitation, username="someone", password=GOOD_PASSWORD
        )

    assert refused.value.state == InvitationState.USED
    assert not django_user_model.objects.filter(username="someone").exists()


def test_a_stale_copy_of_an_invitation_used_meanwhile_is_refused(invited, django_user_model):
    """Two tabs opened the link: the second one's copy still says open, the database does not."""
    invitation, token = invited
    stale = Invitation.objects.by_token(token)
    services.invitation_accept(invitation=invitation, username="pedja", password=GOOD_PASSWORD)

    with pytest.raises(services.InvitationRefused):
        services.invitation_accept(invitation=stale, username="second", password=GOOD_PASSWORD)
    assert django_user_model.objects.filter(username="second").count() == 0


def test_an_expired_invitation_is_refused(invited, django_user_model):
    invitation, _token = invited
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())
    invitation.refresh_from_db()

    with pytest.raises(services.InvitationRefused, match="expired") as refused:
        services.invitation_accept(invitation=invitation, username="pedja", password=GOOD_PASSWORD)
    assert refused.value.state == InvitationState.EXPIRED
    assert not django_user_model.objects.filter(username="pedja").exists()


def test_a_withdrawn_invitation_is_refused(invited, staff_user):
    invitation, _token = invited

    assert services.invitation_revoke(invitation=invitation, actor=staff_user)
    assert not services.invitation_revoke(invitation=invitation, actor=staff_user)

    invitation.refresh_from_db()
    with pytest.raises(services.InvitationRefused, match="withdrawn"):
        services.invitation_accept(invitation=invitation, username="x", password=GOOD_PASSWORD)
    assert AuditEntry.objects.filter(action=AuditAction.INVITE_REVOKE, user=staff_user).count() == 1


def test_accepting_for_a_player_linked_meanwhile_makes_no_login(
    invited, pedja, member_user, django_user_model
):
    invitation, _token = invited
    Player.objects.filter(pk=pedja.pk).update(user=member_user)

    with pytest.raises(services.InvitationRefused, match="already has a login"):
        services.invitation_accept(invitation=invitation, username="pedja", password=GOOD_PASSWORD)

    assert not django_user_model.objects.filter(username="pedja").exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None  # rolled back with the refusal


def test_a_username_taken_meanwhile_is_the_usernames_error(invited, django_user_model):
    invitation, _token = invited
    django_user_model.objects.create_user("pedja", password=PASSWORD)

    with pytest.raises(ValidationError) as error:
        services.invitation_accept(invitation=invitation, username="pedja", password=GOOD_PASSWORD)

    assert "username" in error.value.message_dict
    invitation.refresh_from_db()
    assert invitation.used_at is None


# Claims -----------------------------------------------------------------------------------------


def test_a_claim_approved_links_the_member_and_refuses_the_others(
    pedja, member_user, staff_user, django_user_model
):
    other = django_user_model.objects.create_user("other", password=PASSWORD)
    claim = services.claim_create(user=member_user, player=pedja, note="Fridays, table 3")
    rival = services.claim_create(user=other, player=pedja)

    services.claim_approve(claim=claim, actor=staff_user)

    assert Player.objects.get(pk=pedja.pk).user == member_user
    states = dict(PlayerClaim.objects.values_list("pk", "status"))
    assert states == {claim.pk: ClaimStatus.APPROVED, rival.pk: ClaimStatus.REFUSED}
    assert PlayerClaim.objects.get(pk=claim.pk).decided_by == staff_user
    actions = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))
    assert actions == [AuditAction.CLAIM, AuditAction.CLAIM, AuditAction.CLAIM_APPROVE]


def test_a_claim_refused_links_nobody(pedja, member_user, staff_user):
    claim = services.claim_create(user=member_user, player=pedja)

    services.claim_refuse(claim=claim, actor=staff_user)

    assert Player.objects.get(pk=pedja.pk).user is None
    assert PlayerClaim.objects.get(pk=claim.pk).status == ClaimStatus.REFUSED
    with pytest.raises(ValidationError, match="decided already"):
        services.claim_approve(claim=claim, actor=staff_user)
    assert Player.objects.get(pk=pedja.pk).user is None


def test_a_member_has_one_claim_waiting(pedja, member_user):
    services.claim_create(user=member_user, player=pedja)

    with pytest.raises(ValidationError, match="waiting"):
        services.claim_create(user=member_user, player=make_player("Marko"))


def test_a_claim_of_a_player_with_a_login_is_refused(pedja, member_user, staff_user, invited):
    claim = services.claim_create(user=member_user, player=pedja)
    services.invitation_accept(invitation=invited[0], username="pedja", password=GOOD_PASSWORD)

    with pytest.raises(ValidationError, match="already has a login"):
        services.claim_approve(claim=claim, actor=staff_user)

    assert PlayerClaim.objects.get(pk=claim.pk).status == ClaimStatus.PENDING  # rolled back
    with pytest.raises(ValidationError, match="already has a login"):
        services.claim_create(user=staff_user, player=pedja)


def test_a_member_with_a_player_cannot_claim_another(pedja, member_user):
    Player.objects.filter(pk=pedja.pk).update(user=member_user)

    with pytest.raises(ValidationError, match="linked to a player already"):
        services.claim_create(user=member_user, player=make_player("Marko"))


def test_a_merge_moves_the_invitations_and_claims(invited, pedja, member_user):
    typo = make_player("Pedia")
    invitation, _token = services.invitation_create(player=typo)
    claim = services.claim_create(user=member_user, player=typo)

    engine.player_merge(source=typo, target=pedja)

    assert Invitation.objects.get(pk=invitation.pk).player == pedja
    assert PlayerClaim.objects.get(pk=claim.pk).player == pedja


def test_the_token_is_not_an_api_token(invited):
    """The two kinds of token share the digest function, never a table."""
    _invitation, token = invited
    assert ApiToken.objects.authenticate(token) is None
