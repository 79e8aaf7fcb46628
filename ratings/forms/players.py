"""The players' forms and the pieces every form that takes a player's name shares.

:class:`PlayerNameField` (a name as typed: trimmed, something readable in it),
:class:`SeatSuggestion` (a new name close to a club player's, until the member confirms it),
:func:`check_birth_date` (the one birth-date rule, also the admin's), :class:`PlayerForm` (a new
player), :func:`find_player` (a player picked by part of the name, for the games list's filter
and head to head) and the date-and-time formats a date box accepts. The game forms that use
them are in :mod:`ratings.forms.games`, the organiser's in :mod:`ratings.events.forms`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date

from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import engine, selectors
from ratings.models import Game, Player
from ratings.models.players import normalise_name
from ratings.names import NameIndex, close_matches, name_keys

# Invisible characters that reverse or isolate the direction of the text after them.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Birth dates before this year are typing mistakes, as game dates are (the engine's rule).
EARLIEST_YEAR = engine.EARLIEST_YEAR
DATETIME_INPUT_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d"]


class PlayerNameField(forms.CharField):
    """A player's display name: trimmed, inner spaces collapsed, something readable in it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 60)
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"list": "club-players", "autocomplete": "off"})
        )
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return value
        value = normalise_name(value)
        if not any(ch.isalnum() for ch in value):
            raise ValidationError(_("A name needs at least one letter or digit."))
        if any(unicodedata.category(ch) == "Cc" for ch in value):
            raise ValidationError(_("A name cannot contain control characters."))
        if any(ch in DIRECTION_CONTROLS for ch in value):
            # They reorder the text around them: a name could pose as another on the boards.
            raise ValidationError(_("A name cannot contain text-direction controls."))
        if "\ufffd" in value:
            # What a browser's bytes that were not UTF-8 decode to: the name was mangled.
            raise ValidationError(
                _("A name cannot contain characters that could not be read (�): retype it.")
            )
        return value


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
        if Player.objects.by_names([name]):
            raise ValidationError(
                _("The club already has a player called %(name)s.") % {"name": name}
            )
        return name

    def save(self, commit=True):
        """The new player; or, when another member added the same name a moment ago (after
        this form was checked), that player: the club has one player per name, and both asked
        for them to exist."""
        name = self.cleaned_data["name"]
        try:
            return Player.objects.create_named(name, birth_date=self.cleaned_data.get("birth_date"))
        except IntegrityError:
            found = Player.objects.by_names([name]).get(name.lower())
            if found is None:
                raise
            return found


@dataclass(frozen=True)
class SeatSuggestion:
    """The club's players whose names are close to a seat's new name, and whether the member
    confirmed that the name is a new member all the same."""

    seat: int
    name: str
    matches: list[str]
    confirmed: bool

    @property
    def field_name(self) -> str:
        return f"new_player_{self.seat}"


def accept_new_name(form: forms.Form, seat: int, name: str, club: NameIndex) -> bool:
    """Whether a name the club does not know may stand as a new member's: yes unless it is
    close to a player's name (``club``), which makes it a typo until the member ticks the
    ``new_player_<seat>`` box. A close name is kept in ``form.suggestions``, and unconfirmed it
    is the ``player_<seat>`` field's error."""
    matches = [match.name for match in club.close_matches(name)]
    if not matches:
        return True
    confirmed = bool(form.data.get(f"new_player_{seat}"))
    form.suggestions[seat] = SeatSuggestion(seat, name, matches, confirmed)
    if not confirmed:
        form.add_error(
            f"player_{seat}",
            _(
                "The club has no player called %(name)s. Did you mean %(matches)s? Choose "
                "one, or tick “%(name)s is a new member”."
            )
            % {"name": name, "matches": ", ".join(matches)},
        )
    return confirmed


def with_chosen_player(data):
    """The form's data with a suggested player put in their seat, when a "Did you mean …?"
    button sent it (``use_player_<seat>``); choosing is never saving, so it shows the preview."""
    chosen = [key for key in data if key.startswith("use_player_")]
    if not chosen:
        return data
    seat = chosen[0].removeprefix("use_player_")
    data = data.copy()
    if seat.isdigit():
        data[f"player_{seat}"] = data[chosen[0]]
        data.pop(f"new_player_{seat}", None)
    data.pop("save", None)
    return data


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
