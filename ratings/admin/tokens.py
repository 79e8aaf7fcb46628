"""Members' API tokens (ratings/models/api_tokens.py), for the staff: who has a device or bot
with a key to the API, when each was last used, and revoking one (a lost phone, a bot gone
wrong) without the member's login. A token's secret is never shown (only its hash is kept),
and a token is made by its member (``/tokens/``) or ``manage.py api_token``, not here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings.models import ApiToken


class ActiveFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("active", _("Active")), ("revoked", _("Revoked"))]

    def queryset(self, request, queryset):
        if self.value() == "active":
            return queryset.active()
        if self.value() == "revoked":
            return queryset.filter(revoked_at__isnull=False)
        return queryset


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "ending", "user", "created_at", "last_used_at", "revoked_at")
    list_filter = (ActiveFilter,)
    list_select_related = ("user",)
    search_fields = ("name", "user__username", "hint")
    fields = ("name", "ending", "user", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ["revoke"]

    @admin.display(description=_("ends in"))
    def ending(self, token: ApiToken) -> str:
        return f"…{token.hint}"

    @admin.action(description=_("Revoke the selected API tokens"), permissions=["change"])
    def revoke(self, request, queryset):
        tokens = list(queryset.active())
        for token in tokens:
            token.revoke()
        self.message_user(
            request,
            ngettext(
                "%(count)d token revoked: it no longer opens the API.",
                "%(count)d tokens revoked: they no longer open the API.",
                len(tokens),
            )
            % {"count": len(tokens)},
            messages.SUCCESS,
        )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        # Revoked, not deleted: the row keeps the token's digest, so it never opens the API
        # again, and the staff can see what was revoked and when.
        return False
