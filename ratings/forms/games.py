"""The game entry forms: they turn what members type into engine entries.

:class:`GameForm` holds what every game has (date, note, seats typed by name, the preview and the
one-time submission key); :class:`PreferansGameForm` (the paper), :class:`ScoredGameForm` and
:class:`DuelGameForm` add each kind's fields, with the signed-number fields they type into; each
rating system names its form (:func:`game_form_class`). Each form checks its input field by field
with messages a player at the table understands, then hands :mod:`ratings.engine` the entries;
the engine checks the same rules again as a backstop. Players are typed by name (a datalist
suggests the club's players); a name the club does not know yet becomes a new player when the
game is saved, so nobody leaves the form.
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import engine
from ratings.events.selectors import table_seat_names
from ratings.events.services import table_record_game
from ratings.formatting import number_text
from ratings.forms.players import (
    DATETIME_INPUT_FORMATS,
    PlayerNameField,
    SeatSuggestion,
    accept_new_name,
)
from ratings.models import EventTable, Game, League, Player
from ratings.names import NameIndex
from ratings.player_names import name_key

# Big enough for any real paper, small enough that no arithmetic overflows a database column.
MAX_COLUMN = 1_000_000
MAX_BULA = 10_000
MAX_SCORE = 1_000_000_000


class GameForm(forms.Form):
    """What every game has: when it was played, a note, and the one-time submission key."""

    played_at = forms.DateTimeField(
        label=gettext_lazy("Played at"),
        input_formats=DATETIME_INPUT_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)
    submission_key = forms.UUIDField(widget=forms.HiddenInput)
    # Proof that the member saw the preview of exactly this data before saving it.
    previewed = forms.CharField(widget=forms.HiddenInput, required=False)

    seat_count = 0
    # How the entry page shows this form: the seats' fragment, the fields shown with the date
    # (before the seats) and after the seats, and a script that enhances it.
    seats_template = "ratings/game_seats.html"
    header_field_names: tuple[str, ...] = ()
    result_field_names: tuple[str, ...] = ()
    script: str | None = None
    # How the error summary (templates/ratings/error_summary.html) names a seat's field, and the
    # field a non-field error's code is about (ratings/templatetags/club_forms.py).
    seat_word = gettext_lazy("Player %(n)d")
    # The button that shows the preview: what the member is asked to look at.
    check_label = gettext_lazy("Check scores")
    error_targets: dict[str, str] = {}
    # A name typed twice: the second seat's message.
    duplicate_message = gettext_lazy(
        "%(name)s is already player %(seat)d: a player plays once in a game."
    )

    def __init__(self, *args, league: League, table: EventTable | None = None, **kwargs):
        self.league = league
        # An event's table (ratings.events) whose paper this is: its players are prefilled in
        # the seats as drawn, and saving links the game to the table.
        self.table = table
        self.table_names = table_seat_names(table) if table is not None else []
        kwargs.setdefault("initial", {})
        for seat, name in enumerate(self.table_names):
            kwargs["initial"].setdefault(f"player_{seat}", name)
        if table is not None and table.round.event.bula:
            # The night's bula, agreed once: no table types it again (a paper's form only).
            kwargs["initial"].setdefault("bula", table.round.event.bula)
        kwargs["initial"].setdefault("submission_key", uuid.uuid4())
        kwargs["initial"].setdefault(
            "played_at", timezone.localtime().replace(second=0, microsecond=0)
        )
        super().__init__(*args, **kwargs)
        self.players: list[Player | None] = []
        self.new_player_names: list[str] = []
        # Seat -> the close names of the club's players, for a name the club does not know.
        self.suggestions: dict[int, SeatSuggestion] = {}

    # Seats ---------------------------------------------------------------------------------

    def seat_fields(self, seat: int) -> list[forms.BoundField]:
        return [self[name] for name in self._seat_names(seat)]

    def seats(self):
        """(seat, its fields, the suggestion for its name or None), for the template."""
        return [
            (seat, self.seat_fields(seat), self.suggestions.get(seat))
            for seat in range(self.seat_count)
        ]

    def filled_seats(self) -> list[int]:
        return list(range(self.seat_count))

    def header_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.header_field_names]

    def result_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.result_field_names]

    def error_label(self, name: str) -> str:
        """A field's name in the error summary: a seat's box with its seat ("Seat 2, Left"), the
        player's box and other fields by their label."""
        field = self.fields[name]
        stem, _sep, seat = name.rpartition("_")
        if stem == "player" or not seat.isdigit() or not stem:
            return str(field.label)
        seat_name = self.seat_word % {"n": int(seat) + 1}
        return _("%(seat)s, %(field)s") % {"seat": seat_name, "field": field.label}

    def order_as_shown(self) -> None:
        """The fields in the page's order (date and header, the seats, the result, the note),
        so the error summary lists the problems top to bottom."""
        seats = [name for seat in range(self.seat_count) for name in self._seat_names(seat)]
        self.order_fields(
            ["played_at", *self.header_field_names, *seats, *self.result_field_names, "note"]
        )

    def _seat_names(self, seat: int) -> list[str]:
        return [name for name in self.fields if name.endswith(f"_{seat}")]

    def clean_played_at(self):
        played_at = self.cleaned_data["played_at"]
        # The engine's rule, here so the message sits under the field.
        engine.check_played_at(played_at)
        return played_at

    _club_names: NameIndex | None = None

    def _resolve_players(self) -> None:
        """Map typed names to players; flag a name typed twice on the seat that repeats it, and
        a new name close to a player's (a typo, until the member confirms it)."""
        seats = self.filled_seats()
        names = {seat: self.cleaned_data.get(f"player_{seat}") for seat in seats}
        for seat in seats:
            if not names[seat] and f"player_{seat}" not in self.errors:
                self.add_error(f"player_{seat}", _("Every seat needs a player."))
        known = Player.objects.by_names([name for name in names.values() if name])
        seen: dict[str, int] = {}
        self.players, self.new_player_names = [], []
        for seat in seats:
            name = names[seat]
            if not name:
                continue
            key = name_key(name)
            if key in seen:
                self.add_error(
                    f"player_{seat}",
                    self.duplicate_message % {"name": name, "seat": seen[key] + 1},
                )
                continue
            seen[key] = seat
            player = known.get(key)
            self.players.append(player)
            if player is None:
                self.new_player_names.append(name)
                self._check_new_name(seat, name)

    def _check_new_name(self, seat: int, name: str) -> None:
        """A name the club does not know: if it is close to a player's, it is a typo until the
        member says it is a new member (the ``new_player_<seat>`` box)."""
        if self._club_names is None:
            self._club_names = NameIndex(Player.objects.values_list("pk", "name"))
        accept_new_name(self, seat, name, self._club_names)

    def clean(self):
        cleaned = super().clean()
        self._resolve_players()
        if self.table is not None:
            self._check_table_players()
        return cleaned

    def _check_table_players(self) -> None:
        """A table's paper has the table's players, in the seats they really sat in (the paper's
        order decides a Preferans game's final scores), not necessarily the draw's."""
        typed = {name_key(name) for name in self._names_in_seat_order() if name}
        if typed and typed != {name_key(name) for name in self.table_names}:
            self.add_error(
                None,
                _("Table %(table)d seats %(names)s: enter the paper of those players.")
                % {"table": self.table.number, "names": ", ".join(self.table_names)},
            )

    # Turning the form into a game ---------------------------------------------------------

    def entries(self, player_ids: list[int]) -> list[engine.Entry]:
        raise NotImplementedError

    def game_fields(self) -> dict:
        return {"bula": None, "ended_early": False}

    def placeholder_ids(self) -> list[int]:
        """Player ids for a preview: new players get negative stand-ins."""
        ids, fresh = [], 0
        for player in self.players:
            if player is None:
                fresh -= 1
                ids.append(fresh)
            else:
                ids.append(player.pk)
        return ids

    def prepared(self) -> engine.GameInput:
        ids = self.placeholder_ids()
        played_at = self.cleaned_data["played_at"]
        # The engine's rules, here so the preview says what the save would refuse.
        engine.check_births(played_at, ids)
        return engine.prepare_game(
            self.league,
            played_at=played_at,
            entries=self.entries(ids),
            note=self.cleaned_data.get("note", ""),
            **self.game_fields(),
        )

    def preview_token(self) -> str:
        """A signature of the cleaned data, so "save" only works on what was previewed."""
        data = {
            name: str(value)
            for name, value in sorted(self.cleaned_data.items())
            if name != "previewed"
        }
        digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
        return salted_hmac("ratings.game-preview", digest).hexdigest()

    def was_previewed(self) -> bool:
        return constant_time_compare(self.cleaned_data.get("previewed") or "", self.preview_token())

    def save(self, *, entered_by) -> Game:
        """Create the new players and record the game, all or nothing.

        A second submission of the same form returns the first one's game. A new player another
        form created meanwhile (a different game at the next table) is that player: both games
        get the one player.
        """
        key = self.cleaned_data["submission_key"]
        try:
            with transaction.atomic():
                # Created in one order by every request, so two forms creating the same two new
                # players wait for each other instead of deadlocking.
                new = {
                    name_key(name): Player.objects.get_or_create_named(name)
                    for name in sorted(self.new_player_names, key=_creation_order)
                }
                ids = [
                    player.pk if player else new[name_key(name)].pk
                    for player, name in zip(self.players, self._names_in_seat_order(), strict=True)
                ]
                if self.table is not None:
                    record = functools.partial(table_record_game, table=self.table)
                else:
                    record = functools.partial(engine.game_record, league=self.league)
                return record(
                    played_at=self.cleaned_data["played_at"],
                    entries=self.entries(ids),
                    note=self.cleaned_data.get("note", ""),
                    entered_by=entered_by,
                    submission_key=key,
                    **self.game_fields(),
                )
        except IntegrityError:
            game = Game.objects.filter(submission_key=key).first()
            if game is None:
                raise
            return game

    def _names_in_seat_order(self) -> list[str]:
        return [self.cleaned_data.get(f"player_{seat}") for seat in self.filled_seats()]


def _creation_order(name: str) -> tuple[str, str]:
    """New players are created by slug, then name: the order of the unique keys they take."""
    return (slugify(name, allow_unicode=True), name_key(name))


# The minus signs keyboards type: "-", the real minus sign "−" (the club's pages write it, so
# it gets copied), and the dashes some keyboards put in its place.
MINUS_SIGNS = str.maketrans(dict.fromkeys("\u2212\u2013\u2012\ufe63\uff0d", "-"))
# The pattern of a number that may be negative, for the browser (HTML's pattern is a JavaScript
# regular expression compiled with the v flag: "-" is escaped in a class).
SIGNED_PATTERN = "[\\-\u2212\u2013]?[0-9]+"


def signed_number_attrs(inputmode: str) -> dict:
    """A box for a number that may be negative (the Middle column's bula, a score).

    Why not ``inputmode="numeric"`` on its own: the digit pads it brings up on common phone
    keyboards (iOS's above all) have no minus key, and a bula is often negative. So the box
    asks for no keypad by itself: without JavaScript a phone shows its full keyboard, whose
    numbers layer has "-" on iOS and Android alike. ``static/forms.js`` then sets
    ``inputmode`` to ``data-inputmode`` (the quick digit pad) on a touch screen and puts a ±
    button beside the box, which flips the sign, so the pad's missing minus does not matter.
    """
    return {
        "data-signed": True,
        "data-inputmode": inputmode,
        "data-sign-label": gettext_lazy("Plus or minus"),
        "autocomplete": "off",
    }


class SignedWholeNumberField(forms.IntegerField):
    """A whole number that may be negative, typed in a text box: any minus sign a keyboard
    types counts (see :data:`MINUS_SIGNS`)."""

    def __init__(self, **kwargs):
        attrs = {"pattern": SIGNED_PATTERN, **signed_number_attrs("numeric")}
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().translate(MINUS_SIGNS)
        return super().to_python(value)

    def widget_attrs(self, widget):
        # IntegerField would add min, max and step, which a text box has no use for.
        return {}


def _column(label, *, side: bool) -> forms.IntegerField:
    errors = {
        "invalid": _("Enter a whole number."),
        "required": _("Enter a whole number (0 if nothing is written)."),
    }
    if side:
        # Never negative: the digit pad of inputmode="numeric" has all a side column needs.
        errors["min_value"] = _("Side columns are never negative.")
        return forms.IntegerField(
            label=label,
            min_value=0,
            max_value=MAX_COLUMN,
            error_messages=errors,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
        )
    # The middle column's lower bound is only a size limit: the default message says so.
    return SignedWholeNumberField(
        label=label, min_value=-MAX_COLUMN, max_value=MAX_COLUMN, error_messages=errors
    )


class PreferansGameForm(GameForm):
    """The paper as the club writes it: three seats in seating order, Left, Middle and Right."""

    seat_count = 3
    seats_template = "ratings/game_paper.html"
    header_field_names = ("bula", "ended_early")
    script = "paper.js"
    seat_word = gettext_lazy("Seat %(n)s")
    error_targets = {"middle_sum": "middle_0"}
    duplicate_message = gettext_lazy(
        "%(name)s already sits in seat %(seat)d: a player takes one seat."
    )
    # The id of the paper's middle-column line (game_paper.html), which the Middle boxes point
    # to when the column does not sum to zero.
    middle_sum_id = "middle-sum"
    middle_sum_error: str | None = None
    bula = forms.IntegerField(
        label=gettext_lazy("Starting bula"),
        min_value=1,
        max_value=MAX_BULA,
        # Lazy: a class attribute is built once, at import, before any language is active.
        error_messages={
            "min_value": gettext_lazy("The starting bula must be above zero."),
            "invalid": gettext_lazy("Enter a whole number."),
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    ended_early = forms.BooleanField(
        label=gettext_lazy("Ended early (time limit or written-off bula)"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(self.seat_count):
            self.fields[f"player_{seat}"] = PlayerNameField(
                label=_("Seat %(n)d player") % {"n": seat + 1},
                error_messages={"required": _("Every seat needs a player.")},
            )
            self.fields[f"left_{seat}"] = _column(_("Left"), side=True)
            self.fields[f"middle_{seat}"] = _column(_("Middle"), side=False)
            self.fields[f"right_{seat}"] = _column(_("Right"), side=True)
        self.order_as_shown()

    def clean(self):
        cleaned = super().clean()
        middles = [cleaned.get(f"middle_{seat}") for seat in range(self.seat_count)]
        if None not in middles and sum(middles) != 0 and not cleaned.get("ended_early"):
            total = sum(middles)
            # Said once, for the whole column: in the error summary (linked to the first Middle
            # box) and on the paper's middle-column line. The three boxes are marked invalid
            # and described by that line, not given the message each: add_error() on each
            # would print it three times over.
            self.middle_sum_error = _(
                "The middle column sums to %(sum)s, not 0: the game ends when the bulas add "
                "up to zero. Check the bulas, or tick “ended early” if the game was stopped "
                "before that."
            ) % {"sum": number_text(total)}
            self.add_error(None, ValidationError(self.middle_sum_error, code="middle_sum"))
            for seat in range(self.seat_count):
                self.fields[f"middle_{seat}"].widget.attrs.update(
                    {"aria-invalid": "true", "aria-describedby": self.middle_sum_id}
                )
        return cleaned

    def papers(self) -> list[tuple[int, int, int]]:
        return [
            (
                self.cleaned_data[f"left_{seat}"],
                self.cleaned_data[f"middle_{seat}"],
                self.cleaned_data[f"right_{seat}"],
            )
            for seat in range(self.seat_count)
        ]

    def entries(self, player_ids):
        return [
            engine.Entry(player_id=pid, paper=paper)
            for pid, paper in zip(player_ids, self.papers(), strict=True)
        ]

    def game_fields(self):
        return {"bula": self.cleaned_data["bula"], "ended_early": self.cleaned_data["ended_early"]}


class ScoredGameForm(GameForm):
    """A scored game for two or more players: each seat's points; empty rows are ignored."""

    error_targets = {"players": "player_0"}

    def __init__(self, *args, seats: int = 6, **kwargs):
        self.seat_count = max(2, min(seats, 50))
        super().__init__(*args, **kwargs)
        for seat in range(self.seat_count):
            self.fields[f"player_{seat}"] = PlayerNameField(
                label=_("Player %(n)d") % {"n": seat + 1}, required=False
            )
            # A whole number, as a rayter file holds (systems.Rayter.checked_scores): a score
            # of 10.5 taken here would leave the league's file unwritable. It may be negative:
            # the same ± button as the Middle column's.
            self.fields[f"score_{seat}"] = forms.IntegerField(
                label=_("Score"),
                required=False,
                min_value=-MAX_SCORE,
                max_value=MAX_SCORE,
                widget=forms.NumberInput(attrs=signed_number_attrs("numeric")),
            )
        self.order_as_shown()

    @property
    def more_rows(self) -> int:
        """The number of rows the "More rows" link asks for (none for an event's table)."""
        return 0 if self.table is not None else self.seat_count + 4

    def filled_seats(self) -> list[int]:
        data = self.cleaned_data
        return [
            seat
            for seat in range(self.seat_count)
            if data.get(f"player_{seat}")
            or data.get(f"score_{seat}") is not None
            or f"player_{seat}" in self.errors
            or f"score_{seat}" in self.errors
        ]

    def clean(self):
        cleaned = super().clean()
        seats = self.filled_seats()
        for seat in seats:
            if cleaned.get(f"score_{seat}") is None and f"score_{seat}" not in self.errors:
                self.add_error(f"score_{seat}", _("Every player needs a score."))
        if len(seats) < 2:
            self.add_error(
                None, ValidationError(_("A game needs at least two players."), code="players")
            )
        return cleaned

    def entries(self, player_ids):
        scores = [self.cleaned_data[f"score_{seat}"] for seat in self.filled_seats()]
        return [
            engine.Entry(player_id=pid, score=score)
            for pid, score in zip(player_ids, scores, strict=True)
        ]


class DuelGameForm(GameForm):
    """A head-to-head game: two players and who won."""

    seat_count = 2
    result_field_names = ("outcome",)
    check_label = gettext_lazy("Check the result")
    OUTCOMES = {"1": (1.0, 0.0), "draw": (0.5, 0.5), "0": (0.0, 1.0)}
    outcome = forms.ChoiceField(
        label=gettext_lazy("Result"),
        choices=[
            ("1", gettext_lazy("First player won")),
            ("draw", gettext_lazy("Draw")),
            ("0", gettext_lazy("Second player won")),
        ],
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(self.seat_count):
            self.fields[f"player_{seat}"] = PlayerNameField(
                label=_("Player %(n)d") % {"n": seat + 1},
                error_messages={"required": _("Every seat needs a player.")},
            )
        self.order_as_shown()

    def entries(self, player_ids):
        scores = self.OUTCOMES[self.cleaned_data["outcome"]]
        return [
            engine.Entry(player_id=pid, score=score)
            for pid, score in zip(player_ids, scores, strict=True)
        ]


def game_form_class(league: League) -> type[GameForm]:
    """The league's entry form: its rating system names it."""
    return league.rating_system.form_class()
