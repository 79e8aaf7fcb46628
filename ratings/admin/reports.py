"""Members' reports of mistakes in their games (ratings/models/reports.py), for the staff: a
list to read and resolve them, and each game's reports on its page (ratings/admin/games.py)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ratings.formatting import when_text
from ratings.models import GameReport


def reports_html(game) -> SafeString | str:
    """A game's reports for its admin page, newest first: when, who, what; "—" for none."""
    reports = game.reports.select_related("reported_by").order_by("-created_at")
    if not reports:
        return "—"
    return format_html(
        "<ul>{}</ul>",
        format_html_join(
            "",
            "<li>{} · {}{}: {}</li>",
            (
                (
                    when_text(report.created_at),
                    report.reported_by.get_username() if report.reported_by else "—",
                    _(" (resolved)") if report.resolved else "",
                    report.note,
                )
                for report in reports
            ),
        ),
    )


@admin.register(GameReport)
class GameReportAdmin(admin.ModelAdmin):
    list_display = ("game", "note", "reported_by", "created_at", "resolved")
    list_filter = ("resolved",)
    list_editable = ("resolved",)
    list_select_related = ("game__league", "reported_by")
    readonly_fields = ("game", "reported_by", "note", "created_at")
    fields = ("game", "reported_by", "note", "created_at", "resolved")

    def has_add_permission(self, request):
        return False
