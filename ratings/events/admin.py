"""Events in the admin: staff read an event, its players, rounds and tables, rename or re-date
it, or delete it (its games stay in the league: a table only links to its game). Events are
created and run on the event pages, which keep their rules (ratings/events/services.py); a
change of time or place raises the event's calendar sequence (ratings/events/planning.py)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from ratings.events import planning, services, signals
from ratings.events.models import Event, EventPlayer, EventTable


class EventPlayerInline(admin.TabularInline):
    model = EventPlayer
    fields = ("player",)
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player").order_by("player__name")


class EventAdminForm(forms.ModelForm):
    """An event as staff re-date it: the service's rule for when an event starts."""

    class Meta:
        model = Event
        fields = ("name", "starts_at", "place", "organiser")

    def clean_starts_at(self):
        starts_at = self.cleaned_data.get("starts_at")
        try:
            services.check_event_start(starts_at)
        except ValidationError as error:
            raise ValidationError(error.message_dict["starts_at"]) from None
        return starts_at


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = EventAdminForm
    list_display = ("name", "league", "starts_at", "status", "organiser", "closed_at")
    list_filter = ("league", "status")
    list_select_related = ("league", "organiser")
    search_fields = ("name",)
    date_hierarchy = "starts_at"
    fields = (
        "name",
        "league",
        "starts_at",
        "place",
        "status",
        "sequence",
        "organiser",
        "rounds_total",
        "table_size",
        "draw_method",
        "scoring",
        "points_per_place",
        "closed_at",
    )
    # What the draws and standings were made with stays as it was.
    readonly_fields = (
        "status",
        "sequence",
        "league",
        "rounds_total",
        "table_size",
        "draw_method",
        "scoring",
        "points_per_place",
        "closed_at",
    )
    autocomplete_fields = ("organiser",)
    inlines = (EventPlayerInline,)

    def has_add_permission(self, request):
        return False  # on the league's events page, with its players and rules

    def save_model(self, request, obj, form, change):
        # Re-dated or moved: calendars that have the event take the new version.
        planning.raise_sequence(obj, form.changed_data)
        super().save_model(request, obj, form, change)
        if change and {"starts_at", "place"} & set(form.changed_data) and obj.is_planned:
            # In the admin's transaction, as planning.night_move sends it: the chats hear it.
            signals.night_moved.send(sender=Event, event=obj)


@admin.register(EventTable)
class EventTableAdmin(admin.ModelAdmin):
    """Tables, to find which game a table's paper became: read-only."""

    list_display = ("__str__", "game", "not_played")
    list_select_related = ("round__event", "game")
    list_filter = ("not_played", "round__event__league")
    search_fields = ("round__event__name",)
    fields = ("round", "number", "game", "not_played")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
