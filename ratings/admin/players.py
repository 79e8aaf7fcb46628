"""Players in the admin: the typo check on a new name, renaming through the engine, merging,
inviting a person to a player (ratings.accounts.admin)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import engine
from ratings.access import may
from ratings.accounts import admin as accounts_admin
from ratings.accounts.models import Invitation
from ratings.admin.common import latest_entry, rerated_message
from ratings.forms import check_birth_date
from ratings.models import (
    AuditAction,
    Game,
    Player,
    Result,
)
from ratings.names import close_matches
from ratings.player_names import clean_player_name

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
        # The one rule for a name and the one identity (ratings.player_names), as everywhere.
        name = clean_player_name(self.cleaned_data["name"])
        Player.objects.check_free(name, keep=self.instance if self.instance.pk else None)
        others = Player.objects.exclude(pk=self.instance.pk).values_list("pk", "name")
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
    actions = ("merge_players", "invite_people")

    class Media:
        css = {"all": ("club-admin.css",)}  # the invite button, styled as the page's tools

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
            entries = [
                latest_entry(action=AuditAction.MERGE, player=target, league=league)
                for league in leagues
            ]
            merged = ngettext(
                "%(source)s is merged into %(target)s; %(count)d league re-rated.",
                "%(source)s is merged into %(target)s; %(count)d leagues re-rated.",
                len(leagues),
            ) % {"source": source.name, "target": target.name, "count": len(leagues)}
            self.message_user(
                request, f"{merged} {rerated_message(entries)}".strip(), messages.SUCCESS
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
            # Sent from this page without a choice (the radio's "required" is only the
            # browser's): say what is missing rather than show the page again without a word.
            "choose_error": _("Choose who stays.") if request.POST.get("asked") else None,
        }
        return TemplateResponse(request, "admin/ratings/player/merge.html", context)

    @admin.action(description=_("Invite a person to each selected player"), permissions=["invite"])
    def invite_people(self, request, queryset):
        """A single-use link for each selected player without a login (docs/members.md)."""
        return accounts_admin.invite_people(self, request, queryset)

    # The "Invite a person" button on a player's own page, for the same staff as the action.

    def get_urls(self):
        invite = path(
            "<int:player_id>/invite/",
            self.admin_site.admin_view(self.invite_view),
            name="ratings_player_invite",
        )
        return [invite, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        player = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if player is not None and player.user_id is None and self.has_invite_permission(request):
            context["invite_url"] = reverse("admin:ratings_player_invite", args=[player.pk])
        return super().change_view(request, object_id, form_url, context)

    def invite_view(self, request, player_id: int):
        """POST only (with the CSRF token, as every admin form): the action for this player."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not (self.has_view_permission(request) and self.has_invite_permission(request)):
            raise PermissionDenied
        players = Player.objects.filter(pk=player_id)
        get_object_or_404(players)
        made = self.invite_people(request, players)
        return made or redirect("admin:ratings_player_change", player_id)

    def has_invite_permission(self, request):
        return may(request.user, "add", Invitation)

    def has_merge_permission(self, request):
        # A merge deletes a player and moves their games: both rights are needed.
        return may(request.user, "delete", Player) and may(request.user, "change", Game)
