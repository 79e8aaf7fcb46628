"""Django admin for the club's staff: players, leagues with own start ratings, and games.

The admin edits what the engine rates, never the ratings themselves: saving or deleting a game,
changing a start rating or a league's rating settings all go through :mod:`ratings.engine`, in
the admin's request transaction. Results and standings are shown through inlines whose formsets
validate with the engine's own rules (so a bad paper is a form error, not a 500) and whose
``save()`` is never called.
"""

from __future__ import annotations

from datetime import datetime

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Prefetch
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import engine
from ratings.access import may
from ratings.forms import check_birth_date
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
    League,
    Player,
    Result,
    Standing,
    normalise_name,
)
from ratings.names import close_matches
from ratings.systems import rating_system

# Changing any of these changes every rating of the league: the league is replayed.
RATING_SETTINGS = ("start_rating", "system", "elo_k", "speed")


def _report_formset(formset, new=(), changed=()) -> None:
    """Fill in what ``formset.save()`` would have, for the admin's change message and log."""
    formset.new_objects = list(new)
    formset.changed_objects = list(changed)
    formset.deleted_objects = [
        form.instance for form in formset.deleted_forms if form.instance.pk is not None
    ]


# Permissions: Django's per-model permissions, asked in one place -----------------------------


def _may(request, action: str, model) -> bool:
    """Whether the user holds Django's ``<action>_<model>`` permission: the question the pages
    ask too (:func:`ratings.access.may`)."""
    return may(request.user, action, model)


class PartOfParentInline:
    """An inline whose rows are part of the object above them (a game's seats, a league's start
    ratings): its permissions are the parent's. Adding a parent may fill in its rows, changing
    it may edit them, and viewing it shows them. Rows are deleted only if ``can_delete``."""

    def _may_edit(self, request, obj) -> bool:
        return _may(request, "change" if obj else "add", self.parent_model)

    def has_add_permission(self, request, obj=None):
        return self._may_edit(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.can_delete and self._may_edit(request, obj)

    def has_view_permission(self, request, obj=None):
        return _may(request, "view", self.parent_model) or _may(
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


# Players ----------------------------------------------------------------------------------------


class PlayerAdminForm(forms.ModelForm):
    """A player as staff add or rename one: a new name close to a player's is a typo until
    staff tick that it is a new member (the same check as the entry forms)."""

    new_member = forms.BooleanField(
        label=_("This is a new member, not one of the players with a close name"),
        required=False,
    )

    class Meta:
        model = Player
        fields = ("name", "user", "birth_date")

    def clean_name(self):
        name = normalise_name(self.cleaned_data["name"])
        others = Player.objects.exclude(pk=self.instance.pk).values_list("pk", "name")
        if any(other.lower() == name.lower() for _pk, other in others):
            raise ValidationError(
                _("The club already has a player called %(name)s.") % {"name": name}
            )
        matches = [match.name for match in close_matches(name, list(others))]
        renamed = self.instance.pk is None or name != self.instance.name
        if matches and renamed and not self.data.get("new_member"):
            raise ValidationError(
                _(
                    "The club has %(matches)s: a typo? Fix the name, merge the players "
                    "instead, or tick that this is a new member."
                )
                % {"matches": ", ".join(matches)}
            )
        return name

    def clean_birth_date(self):
        born = self.cleaned_data.get("birth_date")
        if born is not None:
            # The entry pages' rule, and here the player's games are known too.
            check_birth_date(born, self.instance)
        return born


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerAdminForm
    list_display = ("name", "user", "birth_date")
    list_select_related = ("user",)
    search_fields = ("name", "slug")
    autocomplete_fields = ("user",)
    readonly_fields = ("slug",)
    ordering = ("name",)
    actions = ("merge_players",)

    def save_model(self, request, obj, form, change):
        """A new player gets a slug made from the name; a renamed one keeps their old address
        (engine.player_rename, audited)."""
        if not change:
            obj.slug = Player.objects.free_slug(obj.name)
            super().save_model(request, obj, form, change)
            return
        new_name = obj.name
        if "name" in form.changed_data:
            obj.name = form.initial["name"]
        super().save_model(request, obj, form, change)
        if new_name != obj.name:
            renamed = engine.player_rename(player=obj, name=new_name, actor=request.user)
            obj.name, obj.slug = renamed.name, renamed.slug

    @admin.action(description=_("Merge the selected players into one"), permissions=["merge"])
    def merge_players(self, request, queryset):
        """Two players selected: ask which one stays, then move every result of the other."""
        players = list(queryset.order_by("name")[:3])
        if len(players) != 2:
            self.message_user(request, _("Select exactly two players to merge."), messages.WARNING)
            return None
        if request.POST.get("target"):
            target = next((p for p in players if str(p.pk) == request.POST["target"]), None)
            if target is None:
                return None
            source = players[1] if target is players[0] else players[0]
            try:
                leagues = engine.player_merge(source=source, target=target, actor=request.user)
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
                return None
            self.message_user(
                request,
                _("%(source)s is merged into %(target)s; %(count)d leagues re-rated.")
                % {"source": source.name, "target": target.name, "count": len(leagues)},
                messages.SUCCESS,
            )
            return None
        games = dict(
            Result.objects.filter(player__in=players)
            .values_list("player_id")
            .annotate(n=Count("id"))
            .values_list("player_id", "n")
        )
        context = {
            **self.admin_site.each_context(request),
            "title": _("Merge two players"),
            "opts": self.model._meta,
            "players": [(player, games.get(player.pk, 0)) for player in players],
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/ratings/player/merge.html", context)

    def has_merge_permission(self, request):
        # A merge deletes a player and moves their games: both rights are needed.
        return may(request.user, "delete", Player) and may(request.user, "change", Game)


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
    fields = ("player", "start_rating", "rating", "games")
    readonly_fields = ("rating", "games")
    autocomplete_fields = ("player",)
    ordering = ("player__name",)
    extra = 0
    can_delete = False
    verbose_name = _("own start rating")
    verbose_name_plural = _("own start ratings")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")


class LeagueAdminForm(forms.ModelForm):
    class Meta:
        model = League
        fields = (
            "name",
            "slug",
            "system",
            "start_rating",
            "elo_k",
            "speed",
            "game_name",
            "description",
        )

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
    list_display = ("name", "system", "start_rating", "game_count")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}
    inlines = (StandingInline,)
    actions = ("recompute_ratings",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(game_count=Count("games"))

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
        _report_formset(formset, new=new, changed=changed)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        league = form.instance
        changed = set(form.changed_data) & set(RATING_SETTINGS)
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
    fields = ("player", "seat", "left", "middle", "right", "score", "rating_before", "rating_after")
    readonly_fields = ("rating_before", "rating_after")
    autocomplete_fields = ("player",)
    ordering = ("seat",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    def get_extra(self, request, obj=None, **kwargs):
        return 0 if obj else 3

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if self._may_edit(request, obj):
            return fields
        # Read-only rows show the model's value: the stored seat, from 0. Show the site's.
        return tuple("seat_number" if name == "seat" else name for name in fields)

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        return readonly if self._may_edit(request, obj) else (*readonly, "seat_number")

    @admin.display(description=_("seat"))
    def seat_number(self, result):
        return result.seat + 1


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "league", "played_at", "players", "entered_by")
    list_display_links = ("id", "played_at")
    list_filter = ("league",)
    list_select_related = ("league", "entered_by")
    date_hierarchy = "played_at"
    search_fields = ("results__player__name",)
    fields = ("league", "played_at", "bula", "ended_early", "note", "entered_by")
    readonly_fields = ("entered_by",)
    inlines = (ResultInline,)
    ordering = ("-played_at", "-id")

    class Media:
        # The results inline's boxes narrowed to their numbers: the page fits 1280 px.
        css = {"all": ("club-admin.css",)}

    def get_queryset(self, request):
        seats = Result.objects.select_related("player").order_by("seat")
        return super().get_queryset(request).prefetch_related(Prefetch("results", queryset=seats))

    def get_readonly_fields(self, request, obj=None):
        # The engine re-rates a game within its league; moving it to another league is a delete
        # and a new game.
        if obj is not None:
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
            _report_formset(seats)
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
        _report_formset(
            seats,
            new=[seat.instance for seat in edited if seat.instance.pk is None],
            changed=[
                (seat.instance, seat.changed_data)
                for seat in edited
                if seat.instance.pk is not None
            ],
        )

    def delete_model(self, request, obj):
        engine.game_delete(game=obj, actor=request.user)

    def delete_queryset(self, request, queryset):
        # Newest first: each deletion then replays only the games after it.
        with transaction.atomic():
            for game in queryset.order_by("-played_at", "-id"):
                try:
                    engine.game_delete(game=game, actor=request.user)
                except ValidationError as error:  # another staff member deleted it meanwhile
                    self._refused(request, game.pk, error)

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
        return _may(request, "add", Game)

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
            self.message_user(
                request,
                _("Game %(game)d is back in %(league)s; the league is re-rated.")
                % {"game": game.pk, "league": game.league.name},
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


# Club nights and tournaments: their admin lives with them.
from ratings.events import admin as _events_admin  # noqa: E402, F401
