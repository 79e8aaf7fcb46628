"""The game entry forms: they turn what members type into engine entries.

:class:`GameForm` holds what every game has (date, note, seats typed by name, the preview and the
one-time submission key); :class:`PreferansGameForm` (the paper), :class:`ScoredGameForm` and
:class:`DuelGameForm` add each kind's fields, with the signed-number fields they type into; each
rating system names its form (:func:`game_form_class`). A form is an adapter of the entry
service (:mod:`ratings.entry`): it parses what was typed (a number, a date, any minus sign a
keyboard types), builds the submission, and shows each refusal under the field it names. Players
are typed by name (a datalist suggests the club's players); a name the club does not know yet
becomes a new player when the game is saved, so nobody leaves the form.
"""

from __future__ import annotations

import hashlib
import json
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import engine, entry, selectors
from ratings.entry.models import HeldGame
from ratings.events.models import EventTable
from ratings.events.selectors import table_seat_names
from ratings.form_fields import DATETIME_INPUT_FORMATS, PlayerNameField, SeatSuggestion
from ratings.models import Game, League, Player
from ratings.player_names import name_key
from ratings.systems import MAX_BULA, MAX_SCORE


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
        self.checked: entry.Checked | None = None
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

    def clean(self):
        cleaned = super().clean()
        self.checked = entry.check(self.submission())
        self._show_refusals()
        return cleaned

    # The submission this form stands for, and its refusals on the form's fields ------------

    def seat_values(self, seat: int) -> dict:
        """A seat's values (:data:`ratings.systems.SEAT_VALUES`) as typed; each form its own."""
        raise NotImplementedError

    def game_values(self) -> dict:
        return {}

    def submission(self) -> entry.Submission:
        data = self.cleaned_data
        seats = self.filled_seats()
        names = [data.get(f"player_{seat}") or "" for seat in seats]
        confirmed = {
            name_key(name)
            for seat, name in zip(seats, names, strict=True)
            if name and self.data.get(f"new_player_{seat}")
        }
        return entry.Submission(
            league=self.league,
            played_at=data.get("played_at"),
            seats=tuple(
                entry.SeatIn(player=name, **self.seat_values(seat))
                for seat, name in zip(seats, names, strict=True)
            ),
            note=data.get("note", ""),
            key=data.get("submission_key"),
            table=self.table,
            new_names=frozenset(confirmed),
            **self.game_values(),
        )

    def field_of(self, path: str | None) -> str | None:
        """The form's field a refusal's path names (``seats[1].middle`` is ``middle_1`` of the
        second filled seat), or None for the form as a whole."""
        if path is None or path == "seats":
            return None
        stem, _sep, key = path.partition("].")
        if stem.startswith("seats["):
            index = int(stem.removeprefix("seats[").rstrip("]"))
            name = f"{key or 'player'}_{self.filled_seats()[index]}"
        else:
            name = path
        return name if name in self.fields else None

    def _show_refusals(self) -> None:
        """Each refusal under its field (unless the field's own parsing already refused it), a
        close new name's suggestions beside its seat."""
        seats = self.filled_seats()
        for index, matches in self.checked.suggestions.items():
            seat = seats[index]
            name = self.cleaned_data[f"player_{seat}"]
            confirmed = bool(self.data.get(f"new_player_{seat}"))
            self.suggestions[seat] = SeatSuggestion(seat, name, list(matches), confirmed)
        for refusal in self.checked.refusals:
            field = self.field_of(refusal.path)
            if field is not None and field in self.errors:
                continue
            self.show_refusal(field, refusal)

    def show_refusal(self, field: str | None, refusal: entry.Refusal) -> None:
        if field is None:
            self.add_error(None, ValidationError(refusal.message, code=refusal.code))
        else:
            self.add_error(field, refusal.message)

    @property
    def players(self) -> list[Player | None]:
        """The club's player in each filled seat; None for a new one."""
        return self.checked.players

    def prepared(self) -> engine.GameInput:
        """The game as it would be rated (new players stand in with negative ids)."""
        return self.checked.prepared

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

    def save(self, *, entered_by) -> Game | HeldGame:
        """Record the game through the entry service, all or nothing: the new players and the
        game (or hold it for the table's confirmation, in a league that asks for it). A second
        submission of the same form returns the first one's; raises
        :class:`ratings.entry.Refused` and :class:`ratings.engine.SubmissionReused`."""
        game, _created = entry.submit(self.checked, entered_by=entered_by)
        return game


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
    """A paper's column box: it parses the number; the rating system's rules judge it
    (:meth:`ratings.systems.RatingSystem.entry_refusals`), so they are stated once."""
    errors = {
        "invalid": _("Enter a whole number."),
        "required": _("Enter a whole number (0 if nothing is written)."),
    }
    if side:
        # Never negative: the digit pad of inputmode="numeric" has all a side column needs.
        return forms.IntegerField(
            label=label,
            error_messages=errors,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1, "min": 0}),
        )
    return SignedWholeNumberField(label=label, error_messages=errors)


class PreferansGameForm(GameForm):
    """The paper as the club writes it: three seats in seating order, Left, Middle and Right."""

    seat_count = 3
    seats_template = "ratings/game_paper.html"
    header_field_names = ("bula", "ended_early")
    script = "paper.js"
    seat_word = gettext_lazy("Seat %(n)s")
    error_targets = {"middle_sum": "middle_0"}
    # The id of the paper's middle-column line (game_paper.html), which the Middle boxes point
    # to when the column does not sum to zero.
    middle_sum_id = "middle-sum"
    middle_sum_error: str | None = None
    # The bula's rule is the rating system's (entry_refusals); the box only parses a number.
    bula = forms.IntegerField(
        label=gettext_lazy("Starting bula"),
        # Lazy: a class attribute is built once, at import, before any language is active.
        error_messages={"invalid": gettext_lazy("Enter a whole number.")},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": MAX_BULA}),
    )
    ended_early = forms.BooleanField(
        label=gettext_lazy("Ended early (time limit or written-off bula)"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound and self.initial.get("bula") is None:
            # The league's usual bula (a table's form has the night's already).
            self.initial["bula"] = selectors.usual_bula(self.league)
        for seat in range(self.seat_count):
            self.fields[f"player_{seat}"] = PlayerNameField(
                label=_("Seat %(n)d player") % {"n": seat + 1},
                error_messages={"required": _("Every seat needs a player.")},
            )
            self.fields[f"left_{seat}"] = _column(_("Left"), side=True)
            self.fields[f"middle_{seat}"] = _column(_("Middle"), side=False)
            self.fields[f"right_{seat}"] = _column(_("Right"), side=True)
        self.order_as_shown()

    def show_refusal(self, field, refusal):
        if refusal.code != "middle_sum":
            super().show_refusal(field, refusal)
            return
        # Said once, for the whole column: in the error summary (linked to the first Middle
        # box) and on the paper's middle-column line. The three boxes are marked invalid and
        # described by that line, not given the message each: add_error() on each would print
        # it three times over.
        self.middle_sum_error = refusal.message
        super().show_refusal(None, refusal)
        for seat in range(self.seat_count):
            self.fields[f"middle_{seat}"].widget.attrs.update(
                {"aria-invalid": "true", "aria-describedby": self.middle_sum_id}
            )

    def seat_values(self, seat):
        data = self.cleaned_data
        return {key: data.get(f"{key}_{seat}") for key in ("left", "middle", "right")}

    def game_values(self):
        data = self.cleaned_data
        return {"bula": data.get("bula"), "ended_early": data["ended_early"]}


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
        if len(self.filled_seats()) < 2:
            # The rows of this form, said before the game is checked at all.
            self.add_error(
                None, ValidationError(_("A game needs at least two players."), code="players")
            )
            return self.cleaned_data
        return super().clean()

    def seat_values(self, seat):
        return {"score": self.cleaned_data.get(f"score_{seat}")}


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

    def seat_values(self, seat):
        outcome = self.OUTCOMES.get(self.cleaned_data.get("outcome"))
        return {"score": None if outcome is None else outcome[seat]}

    def field_of(self, path):
        # The two scores are the one result box.
        if path == "seats" or (path or "").endswith(".score"):
            return "outcome"
        return super().field_of(path)


def game_form_class(league: League) -> type[GameForm]:
    """The league's entry form: its rating system names it."""
    return league.rating_system.form_class()
