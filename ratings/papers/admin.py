"""Digital papers in the admin: staff read a paper and its deals, and correct a deal.

Saving a deal goes through :func:`ratings.papers.services.deal_update`: the paper is drawn again
from its deals and, once the paper is a game, the game is re-rated through the engine. The form
checks the change first with the paper's own rules, so a deal the rules refuse is a form error.
Papers are started and deals entered on the table's phone, not here; deals are not deleted (a
deal entered by mistake is repealed: it stays on the paper, crossed out).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect

from ratings.papers import services
from ratings.papers.models import Deal, DigitalPaper


class DealInline(admin.TabularInline):
    model = Deal
    fields = ("number", "entered", "repealed", "entered_at", "entered_by")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(DigitalPaper)
class DigitalPaperAdmin(admin.ModelAdmin):
    list_display = ("__str__", "league", "started_at", "finished_at", "game", "discarded_at")
    # Discarded papers (started by mistake, discarded by their players) are found here.
    list_filter = ("league", ("discarded_at", admin.EmptyFieldListFilter))
    list_select_related = ("league", "player_1", "player_2", "player_3", "game")
    search_fields = ("player_1__name", "player_2__name", "player_3__name")
    date_hierarchy = "started_at"
    fields = (
        "league",
        "player_1",
        "player_2",
        "player_3",
        "bula",
        "refas",
        "started_at",
        "started_by",
        "finished_at",
        "ended_early",
        "game",
        "house_rules",
        "discarded_at",
    )
    readonly_fields = fields
    inlines = (DealInline,)

    def has_add_permission(self, request):
        return False


class DealForm(forms.ModelForm):
    class Meta:
        model = Deal
        fields = ("entered", "repealed")

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        services.deal_check(
            deal=self.instance, entered=cleaned["entered"], repealed=cleaned["repealed"]
        )
        return cleaned


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    form = DealForm
    list_display = ("__str__", "paper", "number", "repealed", "entered_at")
    list_select_related = ("paper__league", "paper__player_1", "paper__player_2", "paper__player_3")
    fields = ("paper", "number", "entered", "repealed", "entered_at", "entered_by")
    readonly_fields = ("paper", "number", "entered_at", "entered_by")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        services.deal_update(
            deal=obj, entered=obj.entered, repealed=obj.repealed, actor=request.user
        )

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        # The form checked the change; a phone or another staff member may still have changed
        # the paper before the save: the service refuses, the transaction is rolled back.
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return redirect("admin:ratings_deal_changelist")
