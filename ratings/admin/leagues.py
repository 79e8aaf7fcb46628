"""Leagues in the admin, each player's own start rating inline; rating settings re-rate."""

from __future__ import annotations

import copy

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import engine
from ratings.admin.common import PartOfParentInline, report_formset
from ratings.formatting import number_text
from ratings.models import (
    League,
    Standing,
)
from ratings.systems import rating_system

# Changing any of these changes every rating of the league: the league is replayed, as it is
# when one of the system's own settings that rate changes (RatingSystem.rating_settings). The
# provisional and inactive thresholds are not among them: they decide only how the ratings are
# listed, when a page is drawn.
RATING_SETTINGS = ("start_rating", "system")


# Leagues ----------------------------------------------------------------------------------------


class StandingInlineForm(forms.ModelForm):
    class Meta:
        model = Standing
        fields = ("player", "start_rating")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            # A standing belongs to its player for good; only the own start rating is edited.
            self.fields["player"].disabled = True

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None and cleaned.get("start_rating") is None:
            self.add_error("start_rating", _("Give the player's own start rating."))
        return cleaned


class StandingFormSet(forms.BaseInlineFormSet):
    def clean(self):
        super().clean()
        league = self.instance
        if not league.integer_ratings:
            return
        for form in self.forms:
            rating = getattr(form, "cleaned_data", {}).get("start_rating")
            if rating is not None and rating != int(rating):
                form.add_error(
                    "start_rating",
                    _("This league's ratings are whole numbers: use a whole number."),
                )


class StandingInline(PartOfParentInline, admin.TabularInline):
    """Each player's own start rating in the league; ratings and game counts are the engine's.

    Whoever may change the league may set start ratings; a standing is never deleted here.
    """

    model = Standing
    form = StandingInlineForm
    formset = StandingFormSet
    fields = ("player", "start_rating", "rating_shown", "games")
    readonly_fields = ("rating_shown", "games")
    autocomplete_fields = ("player",)
    ordering = ("player__name",)
    extra = 0
    can_delete = False
    verbose_name = _("own start rating")
    verbose_name_plural = _("own start ratings")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    @admin.display(description=Standing._meta.get_field("rating").verbose_name)
    def rating_shown(self, standing) -> str:
        # As the site writes it: "1200", not the float's "1200.0".
        return number_text(standing.rating) if standing.pk else ""


class LeagueAdminForm(forms.ModelForm):
    class Meta:
        model = League
        fields = (
            "name",
            "slug",
            "system",
            "start_rating",
            "game_name",
            "description",
            # Read when a page is drawn (who is ranked, who is hidden), never stored in a rating:
            # changing them re-rates nothing (not in RATING_SETTINGS).
            "provisional_games",
            "inactive_days",
            # Whether a member's game waits for the table's agreement before it is rated.
            "confirmation",
            "confirmation_hours",
        )

    # The league's rating system, whose settings form's fields this form has (see
    # LeagueAdmin.get_form): None while the league is new.
    settings_system = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.settings_system is not None:
            for name, value in self.settings_system.settings_of(self.instance).items():
                self.initial.setdefault(name, value)

    def clean(self):
        cleaned = super().clean()
        system = self.settings_system
        chosen = cleaned.get("system")
        if system is not None and chosen == system.code:
            fields = system.settings_form.base_fields if system.settings_form else {}
            if all(name in cleaned for name in fields):
                self.instance.settings = {name: cleaned[name] for name in fields}
        elif chosen:
            # Another system's settings: its defaults (the form showed the old system's), which
            # the league's page then shows to change.
            self.instance.settings = {}
        return cleaned

    def clean_system(self):
        system = self.cleaned_data["system"]
        league = self.instance
        if (
            league.pk is not None
            and rating_system(system).kind != league.kind
            and league.games.exists()
        ):
            # The games on record are of the old kind (papers, scores, or duels): they cannot be
            # rated by a system of another kind.
            raise ValidationError(
                _("This league has games of another kind: choose a %(kind)s system.")
                % {"kind": league.kind.label}
            )
        return system


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueAdminForm
    list_display = ("name", "system", "start_rating_shown", "game_count")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}
    inlines = (StandingInline,)
    actions = ("recompute_ratings",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(game_count=Count("games"))

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The league form with its rating system's own settings form's fields after the
        league's (a new league's system is chosen first, its settings then on its page)."""
        system = obj.rating_system if obj is not None else None
        settings_form = system.settings_form if system is not None else None
        if settings_form is not None:
            kwargs["form"] = type(
                "LeagueAdminForm",
                (self.form,),
                {**copy.deepcopy(settings_form.base_fields), "settings_system": system},
            )
        elif system is not None:
            kwargs["form"] = type("LeagueAdminForm", (self.form,), {"settings_system": system})
        return super().get_form(request, obj, change, **kwargs)

    @admin.display(
        description=League._meta.get_field("start_rating").verbose_name, ordering="start_rating"
    )
    def start_rating_shown(self, league) -> str:
        return number_text(league.start_rating)

    @admin.display(description=_("games"), ordering="game_count")
    def game_count(self, league):
        return league.game_count

    def save_formset(self, request, form, formset, change):
        if formset.model is not Standing:
            return super().save_formset(request, form, formset, change)
        new, changed = [], []
        for standing_form in formset.forms:
            if "start_rating" not in standing_form.changed_data:
                continue
            standing = engine.standing_set_start_rating(
                league=form.instance,
                player=standing_form.cleaned_data["player"],
                rating=standing_form.cleaned_data["start_rating"],
                actor=request.user,
            )
            if standing_form.instance.pk is None:
                new.append(standing)
            else:
                changed.append((standing, ["start_rating"]))
        report_formset(formset, new=new, changed=changed)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        league = form.instance
        system = form.settings_system
        rating = RATING_SETTINGS + (system.rating_settings if system is not None else ())
        changed = set(form.changed_data) & set(rating)
        if change and changed and league.standings.exists():
            count = engine.league_recompute(league=league)
            self.message_user(
                request,
                ngettext(
                    "The rating settings changed: %(count)d game re-rated.",
                    "The rating settings changed: %(count)d games re-rated.",
                    count,
                )
                % {"count": count},
            )

    @admin.action(description=_("Recompute ratings"), permissions=["change"])
    def recompute_ratings(self, request, queryset):
        done = [
            (league.name, engine.league_recompute(league=league))
            for league in queryset.order_by("name")
        ]
        total = sum(count for _name, count in done)
        details = ", ".join(f"{name}: {count}" for name, count in done)
        self.message_user(
            request,
            ngettext(
                "Recomputed %(leagues)d league, %(games)d games rated (%(details)s).",
                "Recomputed %(leagues)d leagues, %(games)d games rated (%(details)s).",
                len(done),
            )
            % {"leagues": len(done), "games": total, "details": details},
            messages.SUCCESS,
        )
