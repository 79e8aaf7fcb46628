"""What the admin classes share: formset reporting, Django's permissions asked in one place."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.access import may
from ratings.models import AuditEntry, RatingCorrection


def report_formset(formset, new=(), changed=()) -> None:
    """Fill in what ``formset.save()`` would have, for the admin's change message and log."""
    formset.new_objects = list(new)
    formset.changed_objects = list(changed)
    formset.deleted_objects = [
        form.instance for form in formset.deleted_forms if form.instance.pk is not None
    ]


def latest_entry(**lookup) -> AuditEntry | None:
    """The newest audit entry matching ``lookup``: right after an engine call, in the admin's
    transaction, the call's own (the league stays locked until the transaction ends)."""
    return AuditEntry.objects.filter(**lookup).order_by("-id").first()


def rerated_message(entries: Iterable[AuditEntry | None]) -> str:
    """What corrections' replays changed, for the admin to say: "Re-rated 120 games; 14
    players' ratings changed." (empty when nothing was re-rated)."""
    entries = [entry for entry in entries if entry is not None and entry.rerated_games]
    if not entries:
        return ""
    games = sum(entry.rerated_games for entry in entries)
    players = (
        RatingCorrection.objects.filter(entry__in=entries).values("player_id").distinct().count()
    )
    return _("%(games)s; %(players)s") % {
        "games": ngettext("Re-rated %(count)d game", "Re-rated %(count)d games", games)
        % {"count": games},
        "players": ngettext(
            "%(count)d player's rating changed.", "%(count)d players' ratings changed.", players
        )
        % {"count": players},
    }


# Permissions: Django's per-model permissions, asked in one place -----------------------------


def request_may(request, action: str, model) -> bool:
    """Whether the user holds Django's ``<action>_<model>`` permission: the question the pages
    ask too (:func:`ratings.access.may`)."""
    return may(request.user, action, model)


class PartOfParentInline:
    """An inline whose rows are part of the object above them (a game's seats, a league's start
    ratings): its permissions are the parent's. Adding a parent may fill in its rows, changing
    it may edit them, and viewing it shows them. Rows are deleted only if ``can_delete``."""

    def _may_edit(self, request, obj) -> bool:
        return request_may(request, "change" if obj else "add", self.parent_model)

    def has_add_permission(self, request, obj=None):
        return self._may_edit(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.can_delete and self._may_edit(request, obj)

    def has_view_permission(self, request, obj=None):
        return request_may(request, "view", self.parent_model) or request_may(
            request, "change", self.parent_model
        )


class ReadOnlyAdmin:
    """Nobody adds, changes or deletes these rows in the admin, superusers included."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
