"""The players' forms: :func:`check_birth_date` (the one birth-date rule, also the admin's),
:class:`PlayerForm` (a new player) and :func:`find_player` (a player picked by part of the name,
for the games list's filter and head to head). A name as typed, and the "Did you mean"
suggestion beside it, are every form's: :mod:`ratings.form_fields`.
"""

from __future__ import annotations

from datetime import date

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import dates, selectors
from ratings.form_fields import PlayerNameField
from ratings.models import Game, Player
from ratings.names import close_matches, name_keys

# Birth dates before this year are typing mistakes, as game dates are (the engine's rule).
EARLIEST_YEAR = dates.EARLIEST_YEAR


def check_birth_date(born: date, player: Player | None = None) -> None:
    """The one rule for a birth date, on the entry pages and in the admin: in the past, not
    before 1900, and not after the day of any game ``player`` played (FIDE counts their age from
    it). Raises ValidationError naming the problem, or the earliest such game."""
    if born > timezone.localdate():
        raise ValidationError(_("A birth date cannot be in the future."))
    if born.year < EARLIEST_YEAR:
        raise ValidationError(
            _("A birth date before %(year)d must be a typo.") % {"year": EARLIEST_YEAR}
        )
    if player is None or player.pk is None:
        return
    first = (
        Game.objects.filter(results__player=player).chronological().select_related("league")
    ).first()
    if first is not None and timezone.localdate(first.played_at) < born:
        raise ValidationError(
            _(
                "%(name)s played game #%(game)d (%(league)s) on %(day)s, before this birth date: "
                "check the date."
            )
            % {
                "name": player.name,
                "game": first.pk,
                "league": first.league.name,
                "day": date_format(timezone.localdate(first.played_at), "SHORT_DATE_FORMAT"),
            }
        )


class PlayerForm(forms.ModelForm):
    """A new player, added from the entry flow or on its own."""

    name = PlayerNameField(label=gettext_lazy("Name"), widget=forms.TextInput())

    class Meta:
        model = Player
        fields = ["name", "birth_date"]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"})}

    def clean_birth_date(self):
        born = self.cleaned_data.get("birth_date")
        if born is not None:
            check_birth_date(born)
        return born

    def clean_name(self):
        name = self.cleaned_data["name"]
        Player.objects.check_free(name)
        return name

    def save(self, commit=True):
        """The new player; or, when another member added the same name a moment ago (after
        this form was checked), that player: the club has one player per name, and both asked
        for them to exist."""
        return Player.objects.get_or_create_named(
            self.cleaned_data["name"], birth_date=self.cleaned_data.get("birth_date")
        )


# Picking a player by part of the name ---------------------------------------------------------

# How many players a name that fits several lists.
SHOWN_MATCHES = 5


def find_player(typed: str, players: QuerySet[Player], *, not_found: str) -> Player:
    """The one player of ``players`` that ``typed`` names, with their slug and name.

    Names are matched the club's tolerant way (:func:`ratings.names.name_keys` against the
    stored ``search_key``): "ped" finds Pedja, "peda" finds Peđa. A slug, or someone's whole
    name, picks that player however many others it is part of; otherwise the part must fit one
    player. Raises ValidationError naming the players it fits, or, when it fits nobody,
    ``not_found`` (with ``%(value)s``) and the names close to it: "Pedia" is a typo of Pedja.
    """
    keys = name_keys(typed)
    matches = Q(slug=typed) | selectors.holding_a_key(keys)
    found = list(players.filter(matches).order_by("name").only("slug", "name")[:100])
    whole = [player for player in found if player.slug == typed or name_keys(player.name) == keys]
    if len(whole) == 1:
        return whole[0]
    if len(found) == 1:
        return found[0]
    if not found:
        message = not_found % {"value": typed}
        close = close_matches(typed, players.values_list("pk", "name"))
        if close:
            names = ", ".join(match.name for match in close)
            message = f"{message} {_('Did you mean %(match)s?') % {'match': names}}"
        raise ValidationError(message)
    names = [player.name for player in found[:SHOWN_MATCHES]]
    if len(found) > SHOWN_MATCHES:
        names.append("…")
    raise ValidationError(
        _("“%(value)s” fits several players: %(names)s. Type more of the name.")
        % {"value": typed, "names": ", ".join(names)}
    )
