"""Invitations and claims in the admin: staff invite people from the players' list (the action
:func:`invite_people`, which ``ratings.admin.players`` adds to it: each link shown once, on the
page the action answers with), list and withdraw invitations, and approve or refuse members'
claims of players. Every write goes through :mod:`ratings.accounts.services`."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings.access import may
from ratings.accounts import services
from ratings.accounts.models import ClaimStatus, Invitation, PlayerClaim
from ratings.models import Player


def invite_people(modeladmin, request, queryset) -> TemplateResponse | None:
    """The players' action: a new link for each selected player without a login, shown on the
    page this answers with (the only time a link is shown: only its digest is kept)."""
    made, skipped = [], []
    for player in queryset.order_by("name"):
        try:
            invitation, token = services.invitation_create(player=player, actor=request.user)
        except ValidationError as error:
            skipped.append(" ".join(error.messages))
            continue
        url = request.build_absolute_uri(reverse("ratings:invitation", args=[token]))
        made.append((player, invitation, url))
    for reason in skipped:
        modeladmin.message_user(request, reason, messages.WARNING)
    if not made:
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": ngettext("Invitation made", "Invitations made", len(made)),
        "opts": modeladmin.model._meta,
        "made": made,
    }
    return TemplateResponse(request, "admin/ratings/player/invitations_made.html", context)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("player", "invited_by", "created_at", "expires_at", "state_shown", "user")
    list_select_related = ("player", "invited_by", "user")
    search_fields = ("player__name",)
    fields = (
        "player",
        "invited_by",
        "created_at",
        "expires_at",
        "state_shown",
        "used_at",
        "revoked_at",
        "user",
    )
    readonly_fields = fields
    actions = ("revoke",)

    @admin.display(description=_("state"))
    def state_shown(self, invitation: Invitation) -> str:
        return invitation.state().label

    def has_add_permission(self, request):
        return False  # made from the players' list, where its link is shown once

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # withdrawn, never deleted: who invited whom stays on record

    @admin.action(description=_("Withdraw the selected invitations"), permissions=["revoke"])
    def revoke(self, request, queryset):
        revoked = sum(
            services.invitation_revoke(invitation=invitation, actor=request.user)
            for invitation in queryset.select_related("player")
        )
        self.message_user(
            request,
            ngettext("%(count)d invitation withdrawn.", "%(count)d invitations withdrawn.", revoked)
            % {"count": revoked},
            messages.SUCCESS,
        )

    def has_revoke_permission(self, request):
        return may(request.user, "delete", Invitation)


@admin.register(PlayerClaim)
class PlayerClaimAdmin(admin.ModelAdmin):
    list_display = ("user", "player", "note", "status", "created_at", "decided_by")
    list_filter = ("status",)
    list_select_related = ("user", "player", "decided_by")
    search_fields = ("player__name", "user__username")
    fields = ("user", "player", "note", "status", "created_at", "decided_at", "decided_by")
    readonly_fields = fields
    actions = ("approve", "refuse")

    def has_add_permission(self, request):
        return False  # a member asks on their account page

    def has_change_permission(self, request, obj=None):
        return False  # decided by the actions, which link the player

    def has_delete_permission(self, request, obj=None):
        return False  # refused, never deleted: the member sees the answer on their page

    def has_decide_permission(self, request):
        # Approving links a login to a player: the player's own permission too.
        return may(request.user, "change", PlayerClaim) and may(request.user, "change", Player)

    def _decide(self, request, queryset, decide, done: Callable[[int], str]) -> None:
        count = 0
        for claim in queryset.filter(status=ClaimStatus.PENDING).select_related("player", "user"):
            try:
                decide(claim=claim, actor=request.user)
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
            else:
                count += 1
        self.message_user(request, done(count) % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Approve the selected claims"), permissions=["decide"])
    def approve(self, request, queryset):
        self._decide(
            request,
            queryset,
            services.claim_approve,
            lambda n: ngettext("%(count)d claim approved.", "%(count)d claims approved.", n),
        )

    @admin.action(description=_("Refuse the selected claims"), permissions=["decide"])
    def refuse(self, request, queryset):
        self._decide(
            request,
            queryset,
            services.claim_refuse,
            lambda n: ngettext("%(count)d claim refused.", "%(count)d claims refused.", n),
        )
