"""Games in the admin with their seats inline; saving or deleting goes through the engine."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ratings import engine
from ratings.admin.common import (
    PartOfParentInline,
    latest_entry,
    report_formset,
    rerated_message,
)
from ratings.admin.reports import reports_html
from ratings.formatting import number_text
from ratings.models import AuditAction, Game, League, Result
from ratings.papers.models import DigitalPaper

# Games ------------------------------------------------------------------------------------------


class SeatNumberField(forms.IntegerField):
    """A seat as the site numbers it, from 1, for a seat stored from 0: the form shows and reads
    the number people see, and hands the model its stored value."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 50)
        super().__init__(**kwargs)

    def prepare_value(self, value):
        # Only the stored value comes in as an int; what was typed stays as typed.
        return value + 1 if isinstance(value, int) else value

    def clean(self, value):
        number = super().clean(value)
        return None if number is None else number - 1

    def has_changed(self, initial, data):
        return super().has_changed(self.prepare_value(initial), data)


class ResultInlineForm(forms.ModelForm):
    seat = SeatNumberField(
        label=_("seat"), help_text=_("Seats are taken in this order: 1, 2, 3, ...")
    )

    class Meta:
        model = Result
        fields = ("player", "seat", "left", "middle", "right", "score")
        help_texts = {
            "score": _("Scored and head-to-head games; a Preferans score comes from the paper."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "score" in self.fields:  # read-only in a Preferans game's rows (ResultInline)
            self.fields["score"].required = False

    def clean(self):
        cleaned = super().clean()
        columns = ("left", "middle", "right")
        missing = [column for column in columns if cleaned.get(column) is None]
        if 0 < len(missing) < len(columns) and not any(c in self.errors for c in columns):
            for column in missing:
                self.add_error(column, _("Fill in all three columns of the paper, or none."))
        return cleaned

    @property
    def paper(self) -> tuple[int, int, int] | None:
        left, middle, right = (self.cleaned_data.get(c) for c in ("left", "middle", "right"))
        if left is None or middle is None or right is None:
            return None
        return (left, middle, right)


def digital_paper_id(game: Game) -> int | None:
    """The digital paper a game was finished from, if any (one query, once per game object)."""
    if game.pk is None:
        return None
    if not hasattr(game, "_digital_paper_id"):
        game._digital_paper_id = (
            DigitalPaper.objects.filter(game_id=game.pk).values_list("pk", flat=True).first()
        )
    return game._digital_paper_id


class ResultFormSet(forms.BaseInlineFormSet):
    """The seats of a game, checked by the engine's own rules before anything is written."""

    def get_form_kwargs(self, index):
        kwargs = super().get_form_kwargs(index)
        if index is not None and index >= self.initial_form_count():
            kwargs["initial"] = {"seat": index}
        return kwargs

    def seat_forms(self) -> list:
        """The filled-in, not deleted rows, in seat order."""
        rows = [
            form
            for form in self.forms
            if getattr(form, "cleaned_data", None) and not self._should_delete_form(form)
        ]
        return sorted(rows, key=lambda form: form.cleaned_data["seat"])

    def entries(self, league: League) -> list[engine.Entry]:
        has_paper = league.rating_system.has_paper
        return [
            engine.Entry(
                player_id=form.cleaned_data["player"].pk,
                paper=form.paper if has_paper else None,
                score=None if has_paper else form.cleaned_data.get("score"),
            )
            for form in self.seat_forms()
        ]

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        game = self.instance
        if game.league_id is None or game.played_at is None:
            return  # the game's own form shows what is missing
        paper_id = digital_paper_id(game)
        if paper_id is not None and self.has_changed():
            # Its columns are what its deals give (exports, backups and the restore check that
            # they still do): a seat is corrected by correcting the deal.
            raise ValidationError(
                _(
                    "This game was kept deal by deal: its players and columns come from its "
                    "deals. Correct the deal instead, on its digital paper: %(url)s"
                )
                % {"url": reverse("admin:ratings_digitalpaper_change", args=[paper_id])}
            )
        league = game.league
        if not league.rating_system.has_paper and any(form.paper for form in self.seat_forms()):
            raise ValidationError(_("Only Preferans games have a paper: enter scores instead."))
        engine.prepare_game(
            league,
            played_at=game.played_at,
            entries=self.entries(league),
            bula=game.bula,
            ended_early=game.ended_early,
        )


class ResultInline(PartOfParentInline, admin.TabularInline):
    """A game's seats: whoever may add or change the game may edit them. Seats are numbered
    from 1, as on the site (stored from 0), editable or not."""

    model = Result
    form = ResultInlineForm
    formset = ResultFormSet
    fields = ("player", "seat", "left", "middle", "right", "score", "rating_before_shown",
              "rating_after_shown")  # fmt: skip
    readonly_fields = ("rating_before_shown", "rating_after_shown")
    autocomplete_fields = ("player",)
    ordering = ("seat",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    def get_extra(self, request, obj=None, **kwargs):
        return 0 if obj else 3

    def get_fields(self, request, obj=None):
        # A game of a league without a paper has no Left, Middle and Right to show; a Preferans
        # score comes from the paper, so a box for it would take an edit and drop it.
        shown = {"score": "paper_score"} if _has_paper(obj) else {}
        if not self._may_edit(request, obj):
            # Read-only rows show the model's value: the stored seat, from 0. Show the site's.
            shown["seat"] = "seat_number"
        fields, not_taken = super().get_fields(request, obj), _not_taken(obj)
        return [shown.get(name, name) for name in fields if name not in not_taken]

    def get_readonly_fields(self, request, obj=None):
        readonly = (*super().get_readonly_fields(request, obj), "paper_score")
        return readonly if self._may_edit(request, obj) else (*readonly, "seat_number")

    @admin.display(description=_("seat"))
    def seat_number(self, result):
        return result.seat + 1

    @admin.display(description=_("score"))
    def paper_score(self, result):
        return "" if result.score is None else number_text(result.score)  # "" in a new row

    # The ratings as the site writes them ("1173", not the float's "1173.0"); "" in a new row.
    @admin.display(description=Result._meta.get_field("rating_before").verbose_name)
    def rating_before_shown(self, result):
        return "" if result.pk is None else number_text(result.rating_before)

    @admin.display(description=Result._meta.get_field("rating_after").verbose_name)
    def rating_after_shown(self, result):
        return "" if result.pk is None else number_text(result.rating_after)


def _has_paper(game: Game | None) -> bool:
    return game is not None and game.league.rating_system.has_paper


def _not_taken(game: Game | None) -> tuple[str, ...]:
    """The fields a game's league does not take (none before the league is chosen)."""
    if game is None or _has_paper(game):
        return ()
    return ("left", "middle", "right", "bula", "ended_early")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "league", "played_at", "players", "entered_by")
    list_display_links = ("id", "played_at")
    list_filter = ("league",)
    list_select_related = ("league", "entered_by")
    date_hierarchy = "played_at"
    search_fields = ("results__player__name",)
    fields = ("league", "played_at", "bula", "ended_early", "note", "entered_by", "mistake_reports")
    readonly_fields = ("entered_by", "mistake_reports")
    inlines = (ResultInline,)
    ordering = ("-played_at", "-id")

    class Media:
        # The results inline's boxes narrowed to their numbers: the page fits 1280 px.
        css = {"all": ("club-admin.css",)}

    def get_queryset(self, request):
        seats = Result.objects.select_related("player").order_by("seat")
        return super().get_queryset(request).prefetch_related(Prefetch("results", queryset=seats))

    def get_fields(self, request, obj=None):
        not_taken = _not_taken(obj)
        if obj is None:
            not_taken = {*not_taken, "mistake_reports"}  # a new game has none
        return [name for name in super().get_fields(request, obj) if name not in not_taken]

    @admin.display(description=_("mistake reports"))
    def mistake_reports(self, game):
        # Members' reports of this game (ratings/admin/reports.py lists and resolves them).
        return reports_html(game)

    def get_readonly_fields(self, request, obj=None):
        # The engine re-rates a game within its league; moving it to another league is a delete
        # and a new game.
        if obj is not None:
            if digital_paper_id(obj) is not None:
                # The bula and the end are the digital paper's, as its columns are (the seats
                # are refused in ResultFormSet.clean): they are corrected through its deals.
                return (*self.readonly_fields, "league", "bula", "ended_early")
            return (*self.readonly_fields, "league")
        return self.readonly_fields

    @admin.display(description=_("players"))
    def players(self, game):
        return ", ".join(result.player.name for result in game.results.all())

    def save_model(self, request, obj, form, change):
        """Nothing here: the game is written with its results by the engine in save_related."""

    def save_formset(self, request, form, formset, change):
        # save_related hands the results to the engine; saving the inline would bypass it.
        raise RuntimeError("A game's results are written by the rating engine only.")

    def save_related(self, request, form, formsets, change):
        game = form.instance
        (seats,) = [formset for formset in formsets if formset.model is Result]
        if change and not form.has_changed() and not seats.has_changed():
            report_formset(seats)
            return  # saved as it was: no replay
        entries = seats.entries(game.league)
        if change:
            engine.game_update(
                game=game,
                played_at=game.played_at,
                entries=entries,
                bula=game.bula,
                ended_early=game.ended_early,
                note=game.note,
                actor=request.user,
            )
            self._say_rerated(request, [latest_entry(game_id=game.pk, action=AuditAction.UPDATE)])
        else:
            recorded = engine.game_record(
                league=game.league,
                played_at=game.played_at,
                entries=entries,
                bula=game.bula,
                ended_early=game.ended_early,
                note=game.note,
                entered_by=request.user,
            )
            # The admin logs and redirects to the object it built: make it the recorded game.
            game.pk = recorded.pk
            game._state.adding = False
        game.refresh_from_db()
        edited = [seat for seat in seats.seat_forms() if seat.has_changed()]
        report_formset(
            seats,
            new=[seat.instance for seat in edited if seat.instance.pk is None],
            changed=[
                (seat.instance, seat.changed_data)
                for seat in edited
                if seat.instance.pk is not None
            ],
        )

    def delete_model(self, request, obj):
        game_id = obj.pk
        engine.game_delete(game=obj, actor=request.user)
        self._say_rerated(request, [latest_entry(game_id=game_id, action=AuditAction.DELETE)])

    def delete_queryset(self, request, queryset):
        # Newest first: each deletion then replays only the games after it.
        entries = []
        with transaction.atomic():
            for game in queryset.order_by("-played_at", "-id"):
                game_id = game.pk
                try:
                    engine.game_delete(game=game, actor=request.user)
                except ValidationError as error:  # another staff member deleted it meanwhile
                    self._refused(request, game_id, error)
                else:
                    entries.append(latest_entry(game_id=game_id, action=AuditAction.DELETE))
        self._say_rerated(request, entries)

    def _say_rerated(self, request, entries) -> None:
        """Say how many games and players a correction re-rated: a member asks why their
        rating moved, and staff should know before they are asked."""
        message = rerated_message(entries)
        if message:
            self.message_user(request, message, messages.INFO)

    # Two staff acting on one game at once: the engine refuses the second (the game is gone)
    # with a ValidationError; the admin's transaction is rolled back and they are told why.

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            self._refused(request, object_id, error)
            return redirect("admin:ratings_game_changelist")

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except ValidationError as error:
            self._refused(request, object_id, error)
            return redirect("admin:ratings_game_changelist")

    def _refused(self, request, game_id, error: ValidationError) -> None:
        reason = " ".join(error.messages)
        if game_id is not None:
            reason = _("Game %(game)s: %(reason)s") % {"game": game_id, "reason": reason}
        self.message_user(request, reason, messages.ERROR)
