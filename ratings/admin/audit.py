"""The audit trail in the admin: read-only, with the restore of a deleted game."""

from __future__ import annotations

from datetime import datetime

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from ratings import engine
from ratings.admin.common import ReadOnlyAdmin, latest_entry, request_may, rerated_message
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
)

# Audit trail -----------------------------------------------------------------------------------


def _moment_text(iso: str) -> str:
    try:
        moment = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return str(iso)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return date_format(moment, "DATETIME_FORMAT")


def _seat_text(row: dict) -> str:
    if row.get("paper"):
        return " / ".join(str(n) for n in row["paper"])
    return ""


def _audit_html(data) -> str:
    """A snapshot from the audit trail as staff read it: a game as its seats, else key: value."""
    if data is None:
        return "—"
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        facts = [_("played %(when)s") % {"when": _moment_text(data.get("played_at"))}]
        if data.get("bula") is not None:
            facts.append(_("bula %(bula)s") % {"bula": data["bula"]})
        if data.get("ended_early"):
            facts.append(_("ended early"))
        if data.get("note"):
            facts.append(_("note: %(note)s") % {"note": data["note"]})
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{} (#{})</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    row.get("seat", 0) + 1,
                    row.get("player"),
                    row.get("player_id"),
                    _seat_text(row),
                    row.get("score"),
                )
                for row in data["results"]
            ),
        )
        return format_html(
            "<p>{}</p><table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>"
            "</thead><tbody>{}</tbody></table>",
            ", ".join(str(fact) for fact in facts),
            _("seat"),
            _("player"),
            _("paper (left / middle / right)"),
            _("score"),
            rows,
        )
    if isinstance(data, dict):
        return format_html_join(
            mark_safe("<br>"),  # format_html() without arguments is deprecated in Django 6
            "{}: {}",
            (
                (key.replace("_", " "), "—" if value is None else value)
                for key, value in data.items()
            ),
        )
    return str(data)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """Who changed which game or start rating, and what it was before and after.

    Read-only for everyone, superusers included: the trail is evidence, written only by the
    engine. Staff with the view permission read it; those who may add games can restore a
    deleted game from its entry.
    """

    list_display = ("at", "user", "action", "league", "game_id", "player")
    list_filter = ("action", "league")
    list_select_related = ("user", "league", "player")
    search_fields = ("player__name", "user__username")
    date_hierarchy = "at"
    fields = ("at", "user", "action", "league", "game_id", "player", "before_shown", "after_shown")
    readonly_fields = fields
    actions = ("restore_deleted_games",)

    def has_restore_permission(self, request) -> bool:
        return request_may(request, "add", Game)

    @admin.display(description=_("before"))
    def before_shown(self, entry):
        return _audit_html(entry.before)

    @admin.display(description=_("after"))
    def after_shown(self, entry):
        return _audit_html(entry.after)

    class Media:
        css = {"all": ("club-admin.css",)}  # the restore button, styled as the page's tools

    @admin.action(description=_("Restore deleted game"), permissions=["restore"])
    def restore_deleted_games(self, request, queryset):
        """Bring back each selected deleted game under its old id; the league is re-rated."""
        for entry in queryset.select_related("league").order_by("at", "id"):
            self._restore(request, entry)

    def _restore(self, request, entry: AuditEntry) -> None:
        """Restore one entry's deleted game through the engine, and say how it went."""
        if entry.action != AuditAction.DELETE:
            self.message_user(
                request,
                _("Entry %(entry)d is not a deletion: only a deleted game can be restored.")
                % {"entry": entry.pk},
                messages.WARNING,
            )
            return
        try:
            game = engine.game_restore(entry=entry, actor=request.user)
        except ValidationError as error:
            self.message_user(
                request,
                _("Game %(game)s was not restored: %(reason)s")
                % {"game": entry.game_id, "reason": " ".join(error.messages)},
                messages.ERROR,
            )
        else:
            rerated = rerated_message([latest_entry(game_id=game.pk, action=AuditAction.RESTORE)])
            self.message_user(
                request,
                " ".join(
                    [
                        _("Game %(game)d is back in %(league)s; the league is re-rated.")
                        % {"game": game.pk, "league": game.league.name},
                        rerated,
                    ]
                ).strip(),
                messages.SUCCESS,
            )

    # The "Restore this game" button on a deletion's own page, for the same staff as the action.

    def get_urls(self):
        restore = path(
            "<int:entry_id>/restore/",
            self.admin_site.admin_view(self.restore_view),
            name="ratings_auditentry_restore",
        )
        return [restore, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        entry = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if (
            entry is not None
            and entry.action == AuditAction.DELETE
            and self.has_restore_permission(request)
            and not Game.objects.filter(pk=entry.game_id).exists()
        ):
            context["restore_url"] = reverse("admin:ratings_auditentry_restore", args=[entry.pk])
        return super().change_view(request, object_id, form_url, context)

    def restore_view(self, request, entry_id: int):
        """POST only (with the CSRF token, as every admin form): restore the entry's game."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not (self.has_view_permission(request) and self.has_restore_permission(request)):
            raise PermissionDenied
        entry = get_object_or_404(AuditEntry.objects.select_related("league"), pk=entry_id)
        self._restore(request, entry)
        return redirect("admin:ratings_auditentry_change", entry.pk)
