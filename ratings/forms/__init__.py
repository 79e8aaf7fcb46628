"""The forms, a module per thing entered: :mod:`~ratings.forms.players` (the birth-date rule, a
new player, a player picked by part of the name), :mod:`~ratings.forms.games` (the game entry
forms, one per kind of game) and :mod:`~ratings.forms.periods` (the leaderboard's season or
dates). The organiser's forms are :mod:`ratings.events.forms`; the pieces every form that takes
a name shares (the name field, the "Did you mean" suggestion) are :mod:`ratings.form_fields`.

Forms validate and turn input into domain values; writes go through :mod:`ratings.engine`.
"""

from ratings.forms.games import (
    DuelGameForm,
    GameForm,
    PreferansGameForm,
    ScoredGameForm,
    SignedWholeNumberField,
    game_form_class,
    signed_number_attrs,
)
from ratings.forms.players import PlayerForm, check_birth_date, find_player

__all__ = [
    "DuelGameForm",
    "GameForm",
    "PlayerForm",
    "PreferansGameForm",
    "ScoredGameForm",
    "SignedWholeNumberField",
    "check_birth_date",
    "find_player",
    "game_form_class",
    "signed_number_attrs",
]
