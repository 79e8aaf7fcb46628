"""The staff's side of games waiting for the table: disputes to decide (confirm as entered,
correct the seats and confirm, or delete), and any waiting game to confirm at once. Confirming
and deleting go through :mod:`ratings.entry.confirmation` (its checks, its lock, its audit),
never through a plain save or delete."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import engine, entry
from ratings.entry import confirmation
from ratings.entry.models import HeldGame, HeldSeat, HeldStatus
from ratings.models import AuditAction


class HeldSeatInline(admin.TabularInline):
    model = HeldSeat
    extra = 0
    can_delete = False
    max_num = 0  # the seats as entered: corrected, not added
    fields = ("seat", "player", "name", "left", "middle", "right", "score", "agreed_at")
    readonly_fields = ("seat", "agreed_at")
    autocomplete_fields = ("player",)


@admin.register(HeldGame)
class HeldGameAdmin(admin.ModelAdmin):
    list_display = ("played_at", "league", "seated", "status", "entered_by", "confirm_by")
    list_filter = ("status", "league")
    list_select_related = ("league", "entered_by")
    date_hierarchy = "played_at"
    ordering = ("-played_at",)
    inlines = (HeldSeatInline,)
    fields = (
        "league",
        "played_at",
        "bula",
        "ended_early",
        "note",
        "status",
        "entered_by",
        "created_at",
        "confirm_by",
        "disputed_by",
        "dispute_note",
        "game",
    )
    readonly_fields = (
        "league",
        "status",
        "entered_by",
        "created_at",
        "confirm_by",
        "disputed_by",
        "dispute_note",
        "game",
    )
    actions = ("confirm_selected", "delete_selected_waiting")

    @admin.display(description=_("players"))
    def seated(self, held: HeldGame) -> str:
        return ", ".join(seat.name for seat in held.seats.all())

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats")

    def has_add_permission(self, request):
        return False  # a waiting game is a member's entry; staff enter games that count at once

    def has_delete_permission(self, request, obj=None):
        return False  # deleted through the action: checked, locked and audited

    def has_change_permission(self, request, obj=None):
        if obj is not None and not obj.waiting:
            return False  # confirmed or deleted: its game (if any) is edited as a game
        return super().has_change_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            engine.league_lock(obj.league)
            super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if form.has_changed() or any(formset.has_changed() for formset in formsets):
            engine.audit(
                AuditAction.GAME_HELD_EDIT,
                form.instance.league,
                request.user,
                after={"key": str(form.instance.key), "changed": form.changed_data},
            )

    @admin.action(description=_("Confirm: the selected games count"))
    def confirm_selected(self, request, queryset):
        done = self._each(request, queryset, confirmation.confirm)
        if done:
            message = ngettext("%(n)d game counts now.", "%(n)d games count now.", done)
            self.message_user(request, message % {"n": done})

    @admin.action(description=_("Delete the selected waiting games"))
    def delete_selected_waiting(self, request, queryset):
        done = self._each(request, queryset, confirmation.withdraw)
        if done:
            message = ngettext("%(n)d waiting game deleted.", "%(n)d waiting games deleted.", done)
            self.message_user(request, message % {"n": done})

    def _each(self, request, queryset, act) -> int:
        """``act`` on each selected waiting game; how many it did (each refusal a message)."""
        done = 0
        for held in queryset.filter(status__in=(HeldStatus.PENDING, HeldStatus.DISPUTED)):
            try:
                act(held, user=request.user)
            except (entry.NotAllowed, entry.NotWaiting, entry.Refused) as refused:
                message = getattr(refused, "message", None) or " ".join(
                    getattr(refused, "messages", [str(refused)])
                )
                self.message_user(request, f"{held}: {message}", messages.ERROR)
            else:
                done += 1
        return done
