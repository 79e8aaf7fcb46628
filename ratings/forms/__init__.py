"""The forms, a module per thing entered: :mod:`~ratings.forms.players` (a player's name as
typed, the birth-date rule, a new player, a player picked by part of the name: the pieces every
form that takes a name shares), :mod:`~ratings.forms.games` (the game entry forms, one per kind
of game) and :mod:`~ratings.forms.periods` (the leaderboard's season or dates). The organiser's
forms are :mod:`ratings.events.forms`.

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
from ratings.forms.players import (
    DATETIME_INPUT_FORMATS,
    PlayerForm,
    PlayerNameField,
    SeatSuggestion,
    check_birth_date,
    find_player,
    with_chosen_player,
)

__all__ = [
    "DATETIME_INPUT_FORMATS",
    "DuelGameForm",
    "GameForm",
    "PlayerForm",
    "PlayerNameField",
    "PreferansGameForm",
    "ScoredGameForm",
    "SeatSuggestion",
    "SignedWholeNumberField",
    "check_birth_date",
    "find_player",
    "game_form_class",
    "signed_number_attrs",
    "with_chosen_player",
]
