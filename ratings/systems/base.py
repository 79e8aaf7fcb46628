"""What every rating system has: :class:`RatingSystem`, which each system subclasses, the
shapes it reads (protocols of a league, a game, a player's state), a refusal of an entered
value, and the bounds of what a game may carry.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import date, datetime
from itertools import chain
from typing import ClassVar, Protocol

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import formatting
from ratings.algorithms import places
from ratings.algorithms.event_scoring import Scoring
from ratings.systems.codes import System


# What a system reads of a league, a game and a player's state: the shapes of ratings.models'
# League and ratings.engine.state's GameInput and PlayerState, named here as protocols so that the
# rules import neither the data nor the engine, not even for type checking (no circle of imports).
class League(Protocol):
    settings: dict
    provisional_until: int | None
    provisional_games: int

    @property
    def rating_system(self) -> RatingSystem: ...


class GameInput(Protocol):
    played_at: datetime
    bula: int | None
    player_ids: Sequence[int]
    scores: Sequence[float]


class PlayerState(Protocol):
    rating: float
    games: int
    peak: float


# The types a score may have without a closer look (bool, a subclass of int, is refused).
_PLAIN_NUMBERS = frozenset({int, float})
# Big enough for any real paper, small enough that no arithmetic overflows a database column.
MAX_COLUMN = 1_000_000
MAX_BULA = 10_000
# The largest score a form or the API takes, either way: beyond it a typing slip, not a game.
MAX_SCORE = 1_000_000_000
# What a seat of a game may carry, in the order a seat is written: a paper's three columns, or
# a score. Each system takes some of them (RatingSystem.seat_values).
SEAT_VALUES = ("left", "middle", "right", "score")


@dataclass(frozen=True)
class Refusal:
    """One rule a game as entered breaks: where (``bula``, ``seats[1].middle``, ``seats`` for
    the seats together, or None for the game as a whole), why, and a code for a page that shows
    one refusal in a place of its own (``middle_sum``: the paper's middle-column line).

    ``message`` is in the site's words. A refusal that tells the member what to do about it
    (tick a box) has a ``code`` and the ``params`` of its message, so an interface with other
    means (the API's ``"new_players"``) words the same refusal its own way."""

    path: str | None
    message: str
    code: str | None = None
    params: Mapping[str, object] = dataclass_field(default_factory=dict)
    # Names the club knows that are close to a new name (a refused seat's player).
    suggestions: tuple[str, ...] = ()


# A league's settings ----------------------------------------------------------------------------
# Each system's own, beyond what every league has (name, start rating, thresholds): a form whose
# fields are the settings, each field's initial value the default. ``League.settings`` keeps a
# league's (JSON), checked by its system's form; the league's admin page shows the form, and
# the league's exports carry the values (a setting's name is never one of League's fields).

# (scores, papers) of a game's seats, as the engine stores them.
Scored = tuple[list[float], list[tuple[int, int, int] | None]]
# Rates one game: its input and its players' states before it -> their ratings after it.
RateGame = Callable[[GameInput, Sequence[PlayerState]], list[float]]


class RatingSystem:
    """What a rating system knows; subclasses fill it in. Instances are shared and immutable."""

    code: ClassVar[str]
    kind: ClassVar[str]
    # The fewest and most players a game has.
    seats: ClassVar[tuple[int, int]]
    lower_is_better: ClassVar[bool] = False
    # Which game score is the better one, which decides places at the table (event standings,
    # player statistics, head-to-head records, season tables): the lowest Preferans final score
    # and low-score game win; a higher score wins everywhere else (head-to-head: 1 is a win).
    lower_score_is_better: ClassVar[bool] = False
    # The table sizes an event of this system may choose (ratings.algorithms.seating allows
    # 2 to 6): Preferans is rated for three, head-to-head for two.
    event_table_sizes: ClassVar[tuple[int, int]] = (2, 6)
    # The scoring rules an event of this system may choose (the preferans.org table is
    # Preferans's own).
    event_scorings: ClassVar[tuple[Scoring, ...]] = (Scoring.TOTAL, Scoring.PLACES)
    integer_ratings: ClassVar[bool] = False
    # Decimals a rating and a rating change are shown with: whole numbers read well for ratings
    # in the hundreds and thousands; OpenSkill's ordinals lie around 0 to 30.
    rating_places: ClassVar[int] = 0
    # Before a game, show each player's rating change for each place (ratings/chances.py): in
    # prefko the change follows the score gap more than the places, so a number says more
    # than a chance.
    shows_place_changes: ClassVar[bool] = False
    has_paper: ClassVar[bool] = False
    # FIDE's K-factor depends on the player's age: the engine loads birth dates only for these.
    uses_birth_dates: ClassVar[bool] = False
    # The rayter file format's score type, for systems that read and write rayter files.
    rayter_score_type: ClassVar[str | None] = None
    # Which of SEAT_VALUES a seat of this system's games carries.
    seat_values: ClassVar[tuple[str, ...]] = ("score",)
    # A name typed in a second seat: the refusal there.
    duplicate_seat_message: ClassVar = gettext_lazy(
        "%(name)s is already player %(seat)d: a player plays once in a game."
    )
    # The settings a league of this system has, as a form (see ClassicEloSettings); None: none.
    settings_form: ClassVar[type[forms.Form] | None] = None
    # Which of them change ratings: changing one re-rates the league.
    rating_settings: ClassVar[tuple[str, ...]] = ()
    # Dotted path of the entry form (forms import the engine, which imports this module).
    form_path: ClassVar[str]
    score_label: ClassVar = gettext_lazy("Score")
    # What the system keeps beside a result's rating before and after, each a number in the
    # result's state slot (``Result.state``, JSON, null when empty), and in a standing's
    # (``Standing.state``): the core stores and exports them without knowing them. A rating
    # that is one number keeps none (every system but OpenSkill): its rows carry no state, so
    # the engine's bulk writes send them as before.
    result_state_fields: ClassVar[tuple[str, ...]] = ()
    # Whether results and standings of this system carry a state (result_state_fields): set
    # with them, a class attribute for the engine's bulk paths to read once a game.
    keeps_state: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.keeps_state = bool(cls.result_state_fields)

    # The backtest (ratings/backtest/) tries the system on games of every kind, not only its
    # own: a rating from places alone, whatever the table (OpenSkill).
    rates_every_kind: ClassVar[bool] = False
    # Where the backtest starts everyone when the system is not the league's own (the league's
    # start rating means nothing to it): through start_state, as a league's start rating.
    backtest_start: ClassVar[float] = 1000.0
    # The system has its own model of who finishes ahead (pair_chance, win_chances); the others
    # get chances from a curve fitted on the league's games.
    own_chances: ClassVar[bool] = False
    # Players with fewer games are listed after the ranked ones, unranked, unless the league
    # says otherwise: a rating from a handful of games says little in these systems.
    default_provisional_games: ClassVar[int] = 10
    # Players of equal rating listed in the order they first played in the league (their first
    # game's time and id, then their seat at it), as the rayter command lists them (the order
    # they first appear in its file); else by name.
    ties_by_first_game: ClassVar[bool] = False
    # Whether checked_scores judges each score on its own (finite, and score_refusal's rule),
    # so that many games' scores may be checked as one list (checked_scores_of_games); False
    # for a rule about a game's scores together.
    scores_judged_apart: ClassVar[bool] = True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code}>"

    @property
    def label(self) -> str:
        return System(self.code).label

    def form_class(self):
        return import_string(self.form_path)

    # Entering a game --------------------------------------------------------------------------

    def entry_refusals(
        self, seats: Sequence[Mapping], *, bula: int | None, ended_early: bool
    ) -> list[Refusal]:
        """The system's own rules on a game as entered, each refusal addressed to its value:
        ``seats`` holds each seat's values (:data:`SEAT_VALUES`, None where not given). The one
        statement of these rules: :meth:`scores` asks it too, so no path has its own copy."""
        refusals = [
            Refusal(f"seats[{n}].{key}", _("This league's games have no such value."))
            for n, seat in enumerate(seats)
            for key in SEAT_VALUES
            if seat.get(key) is not None and key not in self.seat_values
        ]
        return refusals + self.own_entry_refusals(seats, bula=bula, ended_early=ended_early)

    def bula_refusal(self, bula, *, paper: bool = False) -> str | None:
        """Why ``bula`` cannot start a game of this system, or None: the one rule of the
        starting bula, which games, events and digital papers all ask. ``paper``: the game is
        kept deal by deal on a digital paper (an event's bula is one, as its tables may be)."""
        return None if bula is None else _("Only Preferans games have a bula.")

    def own_entry_refusals(
        self, seats: Sequence[Mapping], *, bula: int | None, ended_early: bool
    ) -> list[Refusal]:
        """:meth:`entry_refusals` for a game of scores; Preferans has its own."""
        refusals = []
        if (message := self.bula_refusal(bula)) is not None:
            refusals.append(Refusal("bula", message))
        missing = [n for n, seat in enumerate(seats) if seat.get("score") is None]
        refusals += [
            Refusal(f"seats[{n}].score", _("Every player needs a score.")) for n in missing
        ]
        if not missing:
            try:
                self.checked_scores([seat["score"] for seat in seats])
            except ValidationError as error:
                refusals.append(Refusal("seats", " ".join(error.messages)))
        return refusals

    def scores(self, entries: Sequence, *, bula: int | None, ended_early: bool) -> Scored:
        """Check the system's own rules on a game's seats (``engine.Entry``) and return the
        scores and papers to store; raises ValidationError saying what is wrong."""
        seats = [entry.values() for entry in entries]
        # A stored game's seat may carry more than the system reads (a restored paper has its
        # final score too): only the values the system takes are judged here.
        refusals = self.own_entry_refusals(seats, bula=bula, ended_early=ended_early)
        if refusals:
            raise ValidationError([refusal.message for refusal in refusals])
        return self.checked_scores([entry.score for entry in entries]), [None] * len(entries)

    def checked_scores(self, scores: Sequence) -> list[float]:
        """A game's scores as given (a file brings them so), checked: finite numbers, and the
        system's own rule (:meth:`score_refusal`), the one both single games and imports ask."""
        checked = finite_scores(scores)
        message = self.score_refusal(checked)
        if message is not None:
            raise ValidationError(message)
        return checked

    def score_refusal(self, scores: list[float]) -> str | None:
        """Why a game's finite scores break the system's own rule, or None: the one predicate
        of the rule (a subclass adds its own here, never beside it)."""
        return None

    def checked_scores_of_games(self, games: Sequence[Sequence]) -> list[list[float]] | None:
        """Many games' scores (a file's), each game's checked as :meth:`checked_scores` checks
        it, all at once where the rule judges each score on its own: one list of every score
        checked in C instead of a hundred thousand small ones. None when that cannot say every
        game passes (a score refused, or a rule about a game's scores together): then ask
        :meth:`checked_scores` game by game, which says which game and why."""
        if not self.scores_judged_apart:
            return None
        if not games:
            return []
        try:
            self.checked_scores(list(chain.from_iterable(games)))
        except ValidationError:
            return None
        return [list(map(float, scores)) for scores in games]

    # Rating -----------------------------------------------------------------------------------

    def places(self, scores: Sequence[float]) -> list[int]:
        """Each seat's place at the table from the scores: 1 the best, a tie shares the better
        place (1, 2, 2, 4), in the system's direction (:mod:`ratings.algorithms.places`)."""
        return places.places(scores, lower_is_better=self.lower_score_is_better)

    def win_chances(self, ratings: Sequence[float], slope: float | None) -> list[float] | None:
        """Each player's chance to finish first at a table, from their ratings before the game.

        A system without a model of its own (``pair_chance`` None) needs ``slope``, fitted on
        the league's games (:func:`ratings.algorithms.backtest.fit_slope`): then a player's
        chance is their strength ``exp(slope * rating)`` (``-rating`` where lower is better)
        over the table's, the Bradley-Terry model whose pairs are the fitted curve. None when
        there is nothing to go on."""
        if slope is None:
            return None
        sign = -slope if self.lower_is_better else slope
        best = max(sign * rating for rating in ratings)
        strengths = [math.exp(sign * rating - best) for rating in ratings]
        total = sum(strengths)
        return [strength / total for strength in strengths]

    def pair_chance(self, first: float, second: float) -> float | None:
        """The chance a player rated ``first`` finishes ahead of one rated ``second`` by the
        system's own model; None for a system without one (prefko, Rayter)."""
        return None

    def start_state(self, rating: float) -> float:
        """A player's rating before their first game, from a start rating (the league's or
        their own)."""
        return rating

    # A league's settings ----------------------------------------------------------------------

    def setting_defaults(self) -> dict:
        """Each of the system's settings at its default: ``{}`` for a system without any."""
        if self.settings_form is None:
            return {}
        return {name: field.initial for name, field in self.settings_form.base_fields.items()}

    def settings_of(self, league: League) -> dict:
        """``league``'s settings (each missing one at its default), as the system rates with
        them and the exports and the admin show them: its own only, whatever else the JSON
        holds (a league whose system was changed by hand)."""
        stored = league.settings or {}
        return {
            name: stored.get(name, default) for name, default in self.setting_defaults().items()
        }

    def clean_settings(self, settings) -> dict:
        """``settings`` checked by the system's own form (a missing one takes its default),
        as they are stored; raises ValidationError naming each setting that is wrong, and any
        this system does not have."""
        if not isinstance(settings, dict):
            raise ValidationError(_("The settings are not an object of names and values."))
        defaults = self.setting_defaults()
        unknown = sorted(settings.keys() - defaults.keys())
        if unknown:
            raise ValidationError(
                _("This league's rating system has no setting %(name)s.") % {"name": unknown[0]}
            )
        if self.settings_form is None:
            return {}
        form = self.settings_form(data={**defaults, **settings})
        if not form.is_valid():
            raise ValidationError(
                [
                    f"{form.fields[name].label}: {' '.join(messages)}"
                    for name, messages in form.errors.items()
                ]
            )
        return form.cleaned_data

    # The state slot ---------------------------------------------------------------------------

    def stored_state(self, rating: float, state: Mapping | None) -> float:
        """A player's rating as the engine works with it, from a standing's rating and state
        (None before the first game, and for a system that keeps none)."""
        return rating

    def stored_after(self, rating_after: float, state: Mapping | None) -> float:
        """A player's rating after a game, from its result's rating and state."""
        return rating_after

    def standing_state(self, rating: float) -> dict | None:
        """What a standing keeps beside ``rating`` (a rating as :meth:`rater` gives it)."""
        return None

    def result_state(self, before: float, after: float) -> dict | None:
        """What a result keeps beside its ratings, keyed by :attr:`result_state_fields`."""
        return None

    def export_values(self, place: int, state: Mapping | None) -> tuple:
        """A seat's values for the exports' :meth:`export_fields`, from its result."""
        return ()

    def export_fields(self) -> tuple[str, ...]:
        """The fields a seat of this system's exports carries besides every system's own."""
        return ()

    def provisional_rule(self, league: League) -> tuple[str, str, float] | None:
        """What makes a player provisional in ``league``: a Standing field, a lookup (``lt``
        or ``gt``) and the bound; None when nobody is."""
        until = league.provisional_until
        return ("games", "lt", until) if until else None

    def rater(self, league: League, birth_dates: dict[int, date]) -> RateGame:
        """The function that rates one game of ``league``; ``birth_dates`` by player id."""
        raise NotImplementedError

    # Showing ----------------------------------------------------------------------------------

    def score_text(self, score: float) -> str:
        """A game score as a page shows it."""
        return formatting.number_text(score)

    def rating_terms(self, ratings: Sequence[float], scores: Sequence[float], bula: int | None):
        """The intermediate terms of a game's rating, for the game page to explain, or None."""
        return None

    def best_first(self, field: str = "rating"):
        """An ordering expression that puts the best rating first."""
        expression = models.F(field)
        return expression.asc() if self.lower_is_better else expression.desc()

    def better(self, field: str, than) -> models.Q:
        """A filter for ratings in ``field`` better than ``than`` (a value or expression)."""
        return models.Q(**{f"{field}__{'lt' if self.lower_is_better else 'gt'}": than})

    @property
    def wins_draws_losses(self) -> bool:
        """Two players a game: a first place reads as a win, a shared one as a draw."""
        return self.seats[1] == 2


def limit_message(validator, value) -> str:
    """Django's own words (and translations) for a value beyond a bound."""
    try:
        validator(value)
    except ValidationError as error:
        return " ".join(error.messages)
    return ""


def finite_scores(scores: Sequence) -> list[float]:
    """Scores as floats, each a finite number (not None, not a bool); raises ValidationError."""
    if set(map(type, scores)) <= _PLAIN_NUMBERS:
        # Plain ints and floats, as a file brings them, converted in C.
        try:
            checked = list(map(float, scores))
        except OverflowError:  # an int beyond any float
            checked = [math.inf]
    else:
        checked = list(map(_float_or_nan, scores))
    if not all(map(math.isfinite, checked)):
        raise ValidationError(_("Every seat needs a score that is a finite number."))
    return checked


def _float_or_nan(score) -> float:
    """A number as a float (infinite beyond any float), anything else (None, a bool) NaN."""
    if not isinstance(score, numbers.Real) or isinstance(score, bool):
        return math.nan
    try:
        return float(score)
    except OverflowError:
        return math.inf
