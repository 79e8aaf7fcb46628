"""The pieces every form that takes a player's name shares, whichever feature it belongs to
(the site's game forms, an event's players, the digital paper's seats, a member's account):
:class:`PlayerNameField` (a name as typed: trimmed, something readable in it),
:class:`SeatSuggestion` (a new name close to a club player's, until the member confirms it),
:func:`with_chosen_player` (the "Did you mean …?" buttons) and the date-and-time formats a date
box accepts. Which player a typed name stands for: :mod:`ratings.typed_names`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from ratings.player_names import clean_player_name

DATETIME_INPUT_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d"]


class PlayerNameField(forms.CharField):
    """A player's display name as :func:`~ratings.player_names.clean_player_name` takes it."""

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
        # The one rule for a name, on every path (ratings.player_names).
        return clean_player_name(value)


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
