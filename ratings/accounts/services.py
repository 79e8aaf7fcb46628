"""Every write of the members' accounts: invite a person to a player, revoke an invitation,
accept one (a new login linked to the player), claim a player, approve or refuse a claim.

Each is keyword-only, runs in one transaction and leaves an entry in the audit trail
(``engine.audit``, with the player and no league). A player has one login at most
(``Player.user`` is one-to-one): each link is a conditional UPDATE of a player without one, so of
two requests at once (two tabs accepting one link, an approval and an invitation accepted at
the same moment) exactly one links, and the other is refused with nothing written.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import engine
from ratings.accounts.models import (
    ClaimStatus,
    Invitation,
    InvitationState,
    PlayerClaim,
)
from ratings.models import AuditAction, Player


class InvitationRefused(ValidationError):
    """An invitation that cannot be accepted: ``state`` says why (a link used, revoked or
    expired, or a player who has a login by now: ``InvitationState.USED``)."""

    def __init__(self, message: str, state: InvitationState):
        super().__init__(message)
        self.state = state


def _player_data(player: Player) -> dict:
    return {"id": player.pk, "name": player.name}


def _link(player: Player, user_id: int) -> bool:
    """Link the user to ``player`` if the player has no login yet (True), in one UPDATE."""
    return bool(Player.objects.filter(pk=player.pk, user__isnull=True).update(user_id=user_id))


def refusal_for(state: InvitationState) -> str:
    """What the invitation page says of a link that no longer works."""
    return {
        InvitationState.USED: _("This invitation has been used already. Log in instead."),
        InvitationState.REVOKED: _("This invitation was withdrawn by the club's staff."),
        InvitationState.EXPIRED: _(
            "This invitation has expired. Ask the club's staff for a new one."
        ),
    }[state]


def player_has_login_message(player: Player) -> str:
    return _("%(player)s already has a login.") % {"player": player.name}


def invitation_create(*, player: Player, actor=None) -> tuple[Invitation, str]:
    """Invite a person to ``player``: the invitation and its token (for the link; kept
    nowhere). Refused (ValidationError) for a player who has a login already."""
    with transaction.atomic():
        if Player.objects.filter(pk=player.pk, user__isnull=False).exists():
            raise ValidationError(player_has_login_message(player))
        invitation, token = Invitation.objects.create_for(
            player, invited_by=engine.audit_user(actor)
        )
        engine.audit(
            AuditAction.INVITE,
            None,
            actor,
            player=player,
            after={"invitation": invitation.pk, "expires_at": invitation.expires_at.isoformat()},
        )
    return invitation, token


def invitation_revoke(*, invitation: Invitation, actor=None) -> bool:
    """Withdraw an invitation that is still open (True); one used or withdrawn stays so."""
    with transaction.atomic():
        revoked = Invitation.objects.filter(
            pk=invitation.pk, used_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=timezone.now())
        if revoked:
            engine.audit(
                AuditAction.INVITE_REVOKE,
                None,
                actor,
                player=invitation.player,
                after={"invitation": invitation.pk},
            )
    return bool(revoked)


def invitation_check(invitation: Invitation, now: datetime | None = None) -> None:
    """Raise :class:`InvitationRefused` unless ``invitation`` can still be accepted."""
    state = invitation.state(now)
    if state != InvitationState.OPEN:
        raise InvitationRefused(refusal_for(state), state)
    if invitation.player.user_id is not None:
        raise InvitationRefused(player_has_login_message(invitation.player), InvitationState.USED)


def invitation_accept(*, invitation: Invitation, username: str, password: str):
    """Accept ``invitation``: a new login with ``username`` and ``password`` (the caller checked
    them with Django's validators), linked to its player. Returns the user.

    Refused (:class:`InvitationRefused`, nothing written) when the link was used, revoked or
    expired meanwhile, or the player has a login by now; ValidationError on ``username`` when
    another request took that username a moment ago.
    """
    now = timezone.now()
    with transaction.atomic():
        # Marked used first, by a conditional UPDATE: of two requests with one link, one wins.
        taken = Invitation.objects.filter(
            pk=invitation.pk, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
        ).update(used_at=now)
        if not taken:
            invitation.refresh_from_db()
            invitation_check(invitation, now)
            raise InvitationRefused(refusal_for(InvitationState.USED), InvitationState.USED)
        try:
            with transaction.atomic():
                user = get_user_model().objects.create_user(username=username, password=password)
        except IntegrityError:
            raise ValidationError(
                {"username": _("A user with that username already exists.")}
            ) from None
        player = invitation.player
        if not _link(player, user.pk):
            # Raised out of the transaction: the login made above is rolled back with it.
            raise InvitationRefused(player_has_login_message(player), InvitationState.USED)
        Invitation.objects.filter(pk=invitation.pk).update(user=user)
        engine.audit(
            AuditAction.INVITE_ACCEPT,
            None,
            user,
            player=player,
            after={"invitation": invitation.pk, "user": user.get_username()},
        )
    invitation.used_at, invitation.user = now, user
    return user


def claim_create(*, user, player: Player, note: str = "") -> PlayerClaim:
    """A member's request to be ``player``. Refused (ValidationError) when the member has a
    player or a claim waiting already, or the player has a login."""
    with transaction.atomic():
        if Player.objects.filter(user=user).exists():
            raise ValidationError(_("Your login is linked to a player already."))
        if Player.objects.filter(pk=player.pk, user__isnull=False).exists():
            raise ValidationError(player_has_login_message(player))
        try:
            with transaction.atomic():
                claim = PlayerClaim.objects.create(user=user, player=player, note=note)
        except IntegrityError:
            raise ValidationError(_("You have a claim waiting for the staff already.")) from None
        engine.audit(
            AuditAction.CLAIM, None, user, player=player, after={"claim": claim.pk, "note": note}
        )
    return claim


def _decide(claim: PlayerClaim, status: ClaimStatus, actor, now) -> bool:
    return bool(
        PlayerClaim.objects.filter(pk=claim.pk, status=ClaimStatus.PENDING).update(
            status=status, decided_at=now, decided_by=engine.audit_user(actor)
        )
    )


def claim_approve(*, claim: PlayerClaim, actor) -> None:
    """Link the claim's member to its player; the player's other waiting claims are refused.
    Refused (ValidationError, nothing written) when the claim was decided meanwhile, the player
    has a login by now, or the member has a player."""
    now = timezone.now()
    with transaction.atomic():
        if not _decide(claim, ClaimStatus.APPROVED, actor, now):
            raise ValidationError(_("This claim was decided already."))
        player = claim.player
        # Raised out of the transaction, each refusal below rolls the decision back.
        if Player.objects.filter(user_id=claim.user_id).exists():
            raise ValidationError(
                _("%(member)s is linked to a player already.") % {"member": claim.user}
            )
        if not _link(player, claim.user_id):
            raise ValidationError(player_has_login_message(player))
        others = list(
            PlayerClaim.objects.filter(player=player, status=ClaimStatus.PENDING).values_list(
                "pk", flat=True
            )
        )
        PlayerClaim.objects.filter(pk__in=others).update(
            status=ClaimStatus.REFUSED, decided_at=now, decided_by=engine.audit_user(actor)
        )
        engine.audit(
            AuditAction.CLAIM_APPROVE,
            None,
            actor,
            player=player,
            after={"claim": claim.pk, "user": str(claim.user), "refused": others},
        )


def claim_refuse(*, claim: PlayerClaim, actor) -> None:
    """Refuse a waiting claim (ValidationError if it was decided already)."""
    with transaction.atomic():
        if not _decide(claim, ClaimStatus.REFUSED, actor, timezone.now()):
            raise ValidationError(_("This claim was decided already."))
        engine.audit(
            AuditAction.CLAIM_REFUSE,
            None,
            actor,
            player=claim.player,
            after={"claim": claim.pk, "user": str(claim.user)},
        )
