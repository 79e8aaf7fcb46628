"""The organiser's forms: a new event with its players present, late arrivals, and a round's draw.

Players are typed by name, a row each, as at the table: a name the club knows (in any case or
spacing) is that player; a new name close to a player's ("Pedia") is a typo until the organiser
picks the player or ticks that it is a new member, the entry service's one name policy
(:func:`ratings.typed_names.resolve_names`); any other new name becomes a new player of the club.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from ratings.events import planning, services
from ratings.events.answers import Answers
from ratings.events.models import Answer, DrawMethod, Event, Scoring
from ratings.form_fields import DATETIME_INPUT_FORMATS, PlayerNameField, SeatSuggestion
from ratings.models import League, Player
from ratings.player_names import name_key
from ratings.typed_names import resolve_names

# Rows for names on a new event's form; "More rows" adds as many again.
PLAYER_ROWS = 12
MAX_PLAYER_ROWS = 120


class PlayerRowsMixin:
    """Rows ``player_<n>`` of names, resolved to the club's players with the typo check."""

    rows = PLAYER_ROWS

    def add_player_rows(self, rows: int) -> None:
        self.rows = max(1, min(rows, MAX_PLAYER_ROWS))
        for row in range(self.rows):
            self.fields[f"player_{row}"] = PlayerNameField(
                label=_("Player %(n)d") % {"n": row + 1}, required=False
            )
        self.players: list[Player] = []
        self.new_names: list[str] = []
        self.suggestions: dict[int, SeatSuggestion] = {}

    def player_rows(self):
        """(row, its field, the suggestion for its name or None), for the template."""
        return [(row, self[f"player_{row}"], self.suggestions.get(row)) for row in range(self.rows)]

    @property
    def more_rows(self) -> int:
        return self.rows + PLAYER_ROWS

    def resolve_players(self) -> None:
        """The rows' names to players by the entry service's one policy (a close new name
        needs its "new member" box ticked)."""
        rows = [row for row in range(self.rows) if self.cleaned_data.get(f"player_{row}")]
        names = [self.cleaned_data[f"player_{row}"] for row in rows]
        resolved = resolve_names(
            names,
            duplicate=lambda name, first: (
                _("%(name)s is already in row %(row)d.") % {"name": name, "row": rows[first] + 1}
            ),
            confirmed_new={
                name_key(name)
                for row, name in zip(rows, names, strict=True)
                if self.data.get(f"new_player_{row}")
            },
        )
        for index, matches in resolved.suggestions.items():
            row = rows[index]
            confirmed = bool(self.data.get(f"new_player_{row}"))
            self.suggestions[row] = SeatSuggestion(row, names[index], list(matches), confirmed)
        for index, message in resolved.refusals.items():
            self.add_error(f"player_{rows[index]}", message)
        self.players = [player for player in resolved.players if player is not None]
        self.new_names = resolved.new_names


class EventForm(PlayerRowsMixin, forms.Form):
    """A new club night or tournament of a league, with its players present (a night planned
    ahead has none yet: :class:`NightForm`)."""

    with_players = True

    name = forms.CharField(label=pgettext_lazy("event", "Name"), max_length=100)
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at"),
        input_formats=DATETIME_INPUT_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    rounds_total = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=gettext_lazy("Empty: open-ended, until you close the event."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    table_size = forms.TypedChoiceField(label=gettext_lazy("Players per table"), coerce=int)
    draw_method = forms.ChoiceField(
        label=pgettext_lazy("table draw", "Draw"),
        choices=DrawMethod.choices,
        initial=DrawMethod.EVERYONE_MEETS,
        help_text=gettext_lazy(
            "Everyone meets everyone: as few pairs meeting twice as possible over the event. "
            "By standings: the leaders at the first table. Each round may be drawn another way."
        ),
    )
    bula = forms.IntegerField(
        label=gettext_lazy("Starting bula"),
        required=False,
        help_text=gettext_lazy("Agreed for the night: every table's paper starts with it."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 2, "step": 2}),
    )
    scoring = forms.ChoiceField(label=gettext_lazy("Scoring"))
    points_per_place = forms.CharField(
        label=gettext_lazy("Points per place"),
        required=False,
        max_length=200,
        help_text=gettext_lazy(
            "For “points per place”: first place first, e.g. 3 2 1 0. Tied players share the "
            "points of the places they span."
        ),
    )

    def __init__(self, *args, league: League, rows: int = PLAYER_ROWS, **kwargs):
        self.league = league
        system = league.rating_system
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault(
            "starts_at", timezone.localtime().replace(second=0, microsecond=0)
        )
        kwargs["initial"].setdefault("table_size", system.event_table_sizes[0])
        super().__init__(*args, **kwargs)
        low, high = system.event_table_sizes
        self.fields["table_size"].choices = [(n, str(n)) for n in range(low, high + 1)]
        # The one size a league's tables have (Preferans: 3), or None: the page writes this
        # number, never the posted one (a missing or non-numeric size answered 500).
        self.fixed_table_size = low if low == high else None
        self.fields["scoring"].choices = [
            (code, label) for code, label in Scoring.choices if code in system.event_scorings
        ]
        if not system.has_paper:
            del self.fields["bula"]  # only a paper has a bula
        if self.with_players:
            self.add_player_rows(rows)

    def clean_bula(self):
        bula = self.cleaned_data.get("bula")
        if bula is not None:
            try:
                services.check_event_bula(self.league, bula)
            except ValidationError as error:
                raise ValidationError(error.message_dict["bula"]) from None
        return bula

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        try:
            services.check_event_start(starts_at)
        except ValidationError as error:
            raise ValidationError(error.message_dict["starts_at"]) from None
        return starts_at

    def clean_points_per_place(self) -> list[int]:
        text = self.cleaned_data["points_per_place"].strip()
        if not text:
            return []
        parts = [part for part in re.split(r"[\s,;]+", text) if part]
        try:
            return [int(part) for part in parts]
        except ValueError:
            raise ValidationError(
                _("Write whole numbers separated by spaces, e.g. 3 2 1 0.")
            ) from None

    def clean(self):
        cleaned = super().clean()
        if self.with_players:
            self.resolve_players()
        if {"table_size", "scoring", "points_per_place", "rounds_total"} <= cleaned.keys():
            try:
                services.check_event_rules(
                    self.league,
                    table_size=cleaned["table_size"],
                    scoring=cleaned["scoring"],
                    points_per_place=cleaned["points_per_place"],
                    rounds_total=cleaned["rounds_total"],
                )
            except ValidationError as error:
                self.add_error(None, error)
        size = cleaned.get("table_size")
        if not self.with_players:
            return cleaned
        present = len(self.players) + len(self.new_names)
        if size and not self.errors and present < size:
            self.add_error(
                None,
                ngettext(
                    "A table needs %(n)d player: %(got)d are listed.",
                    "A table needs %(n)d players: %(got)d are listed.",
                    size,
                )
                % {"n": size, "got": present},
            )
        return cleaned

    def save(self, *, organiser) -> Event:
        data = self.cleaned_data
        return services.event_create(
            league=self.league,
            name=data["name"],
            starts_at=data["starts_at"],
            organiser=organiser,
            players=self.players,
            new_names=self.new_names,
            rounds_total=data["rounds_total"],
            table_size=data["table_size"],
            draw_method=data["draw_method"],
            scoring=data["scoring"],
            points_per_place=data["points_per_place"],
            bula=data.get("bula"),
        )


class NightForm(EventForm):
    """A night planned ahead: when and where, and its rules; members answer whether they come,
    and its players present are chosen when the organiser starts it."""

    with_players = False
    place = forms.CharField(
        label=gettext_lazy("Place"),
        required=False,
        max_length=200,
        help_text=gettext_lazy("Where the club meets that night, as members know it."),
    )
    field_order = ["name", "starts_at", "place"]

    def save(self, *, organiser) -> Event:
        data = self.cleaned_data
        return planning.night_plan(
            league=self.league,
            name=data["name"],
            starts_at=data["starts_at"],
            place=data["place"].strip(),
            organiser=organiser,
            rounds_total=data["rounds_total"],
            table_size=data["table_size"],
            draw_method=data["draw_method"],
            scoring=data["scoring"],
            points_per_place=data["points_per_place"],
            bula=data.get("bula"),
        )


class StartForm(forms.Form):
    """Start a planned night: the players present are those who answered coming (ticked) or
    maybe (not ticked), as the organiser leaves them; late arrivals are added afterwards."""

    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Players present"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, answers: Answers, **kwargs):
        choices = answers.coming + answers.maybe
        kwargs.setdefault("initial", {"players": [p.pk for p in answers.coming]})
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.filter(pk__in=[p.pk for p in choices])
        # Drawn from the answers already read (no query per row), coming first.
        self.fields["players"].choices = [(p.pk, p.name) for p in choices]


class MoveForm(forms.Form):
    """Another time or place for a planned night (its calendar entries follow)."""

    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at"),
        input_formats=DATETIME_INPUT_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    place = forms.CharField(label=gettext_lazy("Place"), required=False, max_length=200)

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        try:
            services.check_event_start(starts_at)
        except ValidationError as error:
            raise ValidationError(error.message_dict["starts_at"]) from None
        return starts_at


class AnswerForm(forms.Form):
    """A member's one-tap answer to a planned night."""

    answer = forms.ChoiceField(choices=Answer.choices)


class LatePlayersForm(PlayerRowsMixin, forms.Form):
    """Players who arrived late: present from the next round drawn on."""

    def __init__(self, *args, rows: int = 3, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_player_rows(rows)

    def clean(self):
        cleaned = super().clean()
        self.resolve_players()
        if not self.errors and not (self.players or self.new_names):
            self.add_error(None, _("Type the name of at least one player."))
        return cleaned


class DrawForm(forms.Form):
    """How the next round is drawn (the event's method unless the organiser picks another)."""

    method = forms.ChoiceField(
        label=pgettext_lazy("table draw", "Draw"), choices=DrawMethod.choices
    )
