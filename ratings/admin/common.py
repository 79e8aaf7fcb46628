"""What the admin classes share: formset reporting, Django's permissions asked in one place."""

from __future__ import annotations

from ratings.access import may


def report_formset(formset, new=(), changed=()) -> None:
    """Fill in what ``formset.save()`` would have, for the admin's change message and log."""
    formset.new_objects = list(new)
    formset.changed_objects = list(changed)
    formset.deleted_objects = [
        form.instance for form in formset.deleted_forms if form.instance.pk is not None
    ]


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
