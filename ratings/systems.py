"""The rating systems: one object per system, which every other module asks.

A league has one rating system (``League.system`` stores its code; ``League.rating_system`` is
the object). The object knows what kind of game the league plays, how many seats a game has,
which way is better, whether ratings are whole numbers, how a game's entries become scores (and
what is refused), how to rate a game, which entry form the league uses, and how a score reads.
Nothing else compares system or kind strings: a fifth system is a subclass here, its algorithm in
``ratings/algorithms/`` and its form in ``ratings/forms/games.py`` (see docs/ARCHITECTURE.md).

The model is pretix's payment providers: the core asks the provider instead of switching on it.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from itertools import chain, combinations
from typing import ClassVar, Protocol

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import formatting
from ratings.algorithms import elo, openskill, preferans, rayter, rayter_format
from ratings.algorithms.event_scoring import Scoring


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


# A player who has ever reached this FIDE rating keeps K = 10 for good.
FIDE_EVER_2400 = 2400
# The types a score may have without a closer look (bool, a subclass of int, is refused).
_PLAIN_NUMBERS = frozenset({int, float})
# The largest score a rayter file holds (15 digits), as a float for a check in C.
MAX_FILE_SCORE = float(rayter_format.MAX_SCORE)
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
    one refusal in a place of its own (``middle_sum``: the paper's middle-column line)."""

    path: str | None
    message: str
    code: str | None = None
    # Names the club knows that are close to a new name (a refused seat's player).
    suggestions: tuple[str, ...] = ()


class System(models.TextChoices):
    """The code a league stores for its rating system."""

    PREFKO = "prefko", gettext_lazy("Preferans (prefko, lower is better)")
    RAYTER_HIGHSCORE = "rayter_highscore", gettext_lazy("Scored game, highest score wins (Rayter)")
    RAYTER_LOWSCORE = "rayter_lowscore", gettext_lazy("Scored game, lowest score wins (Rayter)")
    RAYTER_WINNER_TAKES_ALL = (
        "rayter_winnertakesall",
        gettext_lazy("Scored game, winner takes all (Rayter)"),
    )
    ELO = "elo", gettext_lazy("Head-to-head, classic Elo")
    FIDE = "fide", gettext_lazy("Head-to-head, FIDE Elo")
    OPENSKILL_HIGHSCORE = (
        "openskill_highscore",
        gettext_lazy("Scored game, highest score wins (OpenSkill)"),
    )
    OPENSKILL_LOWSCORE = (
        "openskill_lowscore",
        gettext_lazy("Scored game, lowest score wins (OpenSkill)"),
    )


class Kind(models.TextChoices):
    """What is played, which decides the entry form: several systems may rate one kind."""

    PREFERANS = "preferans", gettext_lazy("Preferans")
    SCORED = "scored", gettext_lazy("Scored game")
    DUEL = "duel", gettext_lazy("Head-to-head")


class Speed(models.TextChoices):
    STANDARD = "standard", gettext_lazy("Standard")
    RAPID = "rapid", gettext_lazy("Rapid")
    BLITZ = "blitz", gettext_lazy("Blitz")


class SkillRating(float):
    """A rating kept as a mean and an uncertainty (OpenSkill's mu and sigma).

    The float itself is the number pages show, sort and chart (the ordinal, mu - 3 sigma), so
    the engine, the pages and the statistics treat it as any rating; ``mu`` and ``sigma`` ride
    along, and :class:`OpenSkill` stores them in the state slot beside the rating
    (``Result.state``, ``Standing.state``). Arithmetic on it gives plain floats.
    """

    mu: float
    sigma: float

    def __new__(cls, mu: float, sigma: float) -> SkillRating:
        rating = super().__new__(cls, openskill.ordinal(mu, sigma))
        rating.mu, rating.sigma = mu, sigma
        return rating

    def __repr__(self) -> str:
        return f"SkillRating(mu={self.mu!r}, sigma={self.sigma!r})"


# A league's settings ----------------------------------------------------------------------------
# Each system's own, beyond what every league has (name, start rating, thresholds): a form whose
# fields are the settings, each field's initial value the default. ``League.settings`` keeps a
# league's (JSON), checked by its system's form; the league's admin page shows the form, and
# the league's exports carry the values (a setting's name is never one of League's fields).

# The largest K-factor: what the column that held it took (a small integer).
MAX_ELO_K = 32767
# The largest refe cap, a league's as a paper's (ratings/papers/forms.py): far above any
# table's, and a league's cap is each paper's starting value.
MAX_REFAS = 100


class ClassicEloSettings(forms.Form):
    elo_k = forms.IntegerField(
        label=gettext_lazy("K-factor"),
        initial=32,
        min_value=1,
        max_value=MAX_ELO_K,
        help_text=gettext_lazy("The most a game can move."),
    )


class FideEloSettings(forms.Form):
    speed = forms.ChoiceField(
        label=gettext_lazy("speed"),
        choices=Speed.choices,
        initial=Speed.STANDARD,
        help_text=gettext_lazy("Rapid and blitz games use K = 20."),
    )


class PrefkoSettings(forms.Form):
    # How many refe a digital paper may write (prefko's library's ``refas``); each paper
    # started in the league takes it as its default.
    refas = forms.IntegerField(
        label=gettext_lazy("refe cap"),
        required=False,
        min_value=0,
        max_value=MAX_REFAS,
        help_text=gettext_lazy("The most refe a paper may write. Empty: no cap."),
    )


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

    # The backtest (ratings/backtest.py) tries the system on games of every kind, not only its
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
        place (1, 2, 2, 4)."""
        return openskill.places(scores, lower_is_better=self.lower_score_is_better)

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


class Prefko(RatingSystem):
    """Preferans for three, rated by prefko (preferans-rating-js): a lower rating is better."""

    code = System.PREFKO
    kind = Kind.PREFERANS
    seats = (3, 3)
    lower_is_better = True
    lower_score_is_better = True
    event_table_sizes = (3, 3)
    event_scorings = (Scoring.TOTAL, Scoring.PLACES, Scoring.PREFERANS_ORG)
    integer_ratings = True
    has_paper = True
    shows_place_changes = True
    seat_values = ("left", "middle", "right")
    duplicate_seat_message = gettext_lazy(
        "%(name)s already sits in seat %(seat)d: a player takes one seat."
    )
    form_path = "ratings.forms.games.PreferansGameForm"
    score_label = gettext_lazy("Final score")
    settings_form = PrefkoSettings

    def bula_refusal(self, bula, *, paper=False):
        if bula is None or isinstance(bula, bool) or not isinstance(bula, int) or bula <= 0:
            return _("The starting bula must be a whole number above zero.")
        if bula > MAX_BULA:
            return _limit_message(MaxValueValidator(MAX_BULA), bula)
        if paper and bula % 2:
            # prefko's paper library takes an even bula only (its deal log's rule): a paper
            # kept on the phone, or an event whose tables may keep one, starts from one.
            return _("The bula is an even number.")
        return None

    def own_entry_refusals(self, seats, *, bula, ended_early):
        refusals = []
        if (message := self.bula_refusal(bula)) is not None:
            refusals.append(Refusal("bula", message))
        for n, seat in enumerate(seats):
            if all(seat.get(key) is None for key in self.seat_values):
                refusals.append(Refusal(f"seats[{n}]", _("Every Preferans seat needs its paper.")))
                continue
            refusals += [
                Refusal(f"seats[{n}].{key}", message)
                for key in self.seat_values
                if (message := _column_refusal(seat.get(key), side=key != "middle")) is not None
            ]
        if refusals:
            return refusals
        middle_sum = sum(seat["middle"] for seat in seats)
        if middle_sum != 0 and not ended_early:
            message = _(
                "The middle column sums to %(sum)s, not 0: the game ends when the bulas add "
                "up to zero. Mark the game as ended early if it was stopped before that."
            ) % {"sum": formatting.number_text(middle_sum)}
            refusals.append(Refusal("seats", message, code="middle_sum"))
        return refusals

    def scores(self, entries, *, bula, ended_early):
        seats = [entry.values() for entry in entries]
        # A stored game's seat may carry more than the system reads (a restored paper has its
        # final score too): only the values the system takes are judged here.
        refusals = self.own_entry_refusals(seats, bula=bula, ended_early=ended_early)
        if refusals:
            raise ValidationError([refusal.message for refusal in refusals])
        papers = [(seat["left"], seat["middle"], seat["right"]) for seat in seats]
        return [float(s) for s in preferans.final_scores(papers)], papers

    def checked_scores(self, scores):
        raise ValidationError(_("Every Preferans seat needs its paper."))

    def rating_terms(self, ratings, scores, bula):
        if not bula or len(ratings) != 3:
            return None
        return preferans.rating_terms([int(r) for r in ratings], [int(s) for s in scores], bula)

    def rater(self, league, birth_dates):
        def rate(game, states):
            ratings = [int(state.rating) for state in states]
            changes = preferans.rating_changes(ratings, [int(s) for s in game.scores], game.bula)
            return [float(r + c) for r, c in zip(ratings, changes, strict=True)]

        return rate


class Rayter(RatingSystem):
    """A scored game for two or more, rated by rayter with one of its score types."""

    kind = Kind.SCORED
    seats = (2, 50)
    form_path = "ratings.forms.games.ScoredGameForm"
    ties_by_first_game = True

    def score_refusal(self, scores):
        """Whole numbers of at most 15 digits, as a rayter file holds: a league's games can
        always be written out as its file (:mod:`ratings.rayter.standings`)."""
        # map and max run in C: an import checks a hundred thousand games.
        if (
            not all(map(float.is_integer, scores))
            or max(map(abs, scores), default=0) > MAX_FILE_SCORE
        ):
            return _("Scores here are whole numbers of at most 15 digits, as a rayter file holds.")
        return None

    def rater(self, league, birth_dates):
        score_type = self.rayter_score_type
        k = rayter.default_k(score_type)

        def rate(game, states):
            ratings = [state.rating for state in states]
            # Checked on the way in: finite scores, 2 to 50 of them.
            changes = rayter.rate_valid_game(game.scores, ratings, score_type, k)
            # One change a rating, by construction, so no strict zip: map adds them in C, and an
            # import rates a hundred thousand games.
            return list(map(operator.add, ratings, changes))

        return rate


class RayterHighscore(Rayter):
    code = System.RAYTER_HIGHSCORE
    rayter_score_type = rayter.SCORE_TYPE_HIGH_SCORE


class RayterLowscore(Rayter):
    code = System.RAYTER_LOWSCORE
    lower_score_is_better = True
    rayter_score_type = rayter.SCORE_TYPE_LOW_SCORE


class RayterWinnerTakesAll(Rayter):
    code = System.RAYTER_WINNER_TAKES_ALL
    rayter_score_type = rayter.SCORE_TYPE_WINNER_TAKES_ALL


class HeadToHead(RatingSystem):
    """Two players, a win and a loss or a draw (scores 1 and 0, or 0.5 each)."""

    kind = Kind.DUEL
    seats = (2, 2)
    own_chances = True
    event_table_sizes = (2, 2)
    # Elo's K already moves a newcomer fast; clubs rank everyone from the first game.
    default_provisional_games = 0
    form_path = "ratings.forms.games.DuelGameForm"
    score_label = gettext_lazy("Result")

    # A game is a win and a loss, or a draw: its two scores together.
    scores_judged_apart = False

    def score_refusal(self, scores):
        if sorted(scores) not in ([0.0, 1.0], [0.5, 0.5]):
            return _("A head-to-head game is a win and a loss, or a draw.")
        return None

    def win_chances(self, ratings, slope):
        # The expected score (a draw counts half), by the system's own formula.
        chance = self.pair_chance(*ratings)
        return [chance, 1 - chance]

    def score_text(self, score):
        if score >= 1:
            return str(_("Win"))
        return str(_("Draw")) if score > 0 else str(_("Loss"))


class ClassicElo(HeadToHead):
    """Classic Elo (Chess::Elo) with the league's K."""

    code = System.ELO
    settings_form = ClassicEloSettings
    rating_settings = ("elo_k",)

    def pair_chance(self, first, second):
        return 1 / (1 + 10 ** ((second - first) / 400))

    def rater(self, league, birth_dates):
        k = self.settings_of(league)["elo_k"]

        def rate(game, states):
            return list(elo.classic(states[0].rating, states[1].rating, game.scores[0], k=k))

        return rate


class FideElo(HeadToHead):
    """FIDE's rules (@echecs/elo): K from the player's games, age and peak; whole numbers."""

    code = System.FIDE
    integer_ratings = True
    uses_birth_dates = True
    settings_form = FideEloSettings
    rating_settings = ("speed",)

    def pair_chance(self, first, second):
        return elo.fide_expected(first, second)

    def rater(self, league, birth_dates):
        speed = self.settings_of(league)["speed"]
        blitz, rapid = speed == Speed.BLITZ, speed == Speed.RAPID
        # A player's age on the day of the game as the club's calendar has it: a game's time
        # comes in the club's zone from a form but in UTC from the database (a replay), and a
        # game just after midnight falls on different days in the two.
        zone = timezone.get_default_timezone()

        def rate(game, states):
            day = timezone.localdate(game.played_at, zone)
            a, b = states
            new_a, new_b = elo.fide(
                int(a.rating),
                int(b.rating),
                game.scores[0],
                games_a=a.games,
                games_b=b.games,
                age_a=age_on(birth_dates.get(game.player_ids[0]), day),
                age_b=age_on(birth_dates.get(game.player_ids[1]), day),
                ever_2400_a=a.peak >= FIDE_EVER_2400,
                ever_2400_b=b.peak >= FIDE_EVER_2400,
                blitz=blitz,
                rapid=rapid,
            )
            return [float(new_a), float(new_b)]

        return rate


class OpenSkill(RatingSystem):
    """A scored game for two or more, rated by OpenSkill's Plackett-Luce (the ``openskill``
    package, its defaults): a player's skill is a mean and an uncertainty; pages show the
    ordinal mu - 3 sigma. A start rating moves the mean: 0 starts at the package's default."""

    kind = Kind.SCORED
    seats = (2, 50)
    form_path = "ratings.forms.games.ScoredGameForm"
    # A player is provisional while sigma is above this (unless the league sets a number of
    # games): a newcomer starts at 25/3, about 10 games at a table of four bring it under 5.
    provisional_sigma: ClassVar[float] = 5.0
    result_state_fields = ("mu_before", "sigma_before", "mu_after", "sigma_after")
    rates_every_kind = True
    # No shift of the package's mean: everyone at mu 25, sigma 25/3.
    backtest_start = 0.0
    own_chances = True
    default_provisional_games = 0
    rating_places = 1

    def start_state(self, rating):
        return SkillRating(openskill.DEFAULT_MU + rating, openskill.DEFAULT_SIGMA)

    def stored_state(self, rating, state):
        if not state:
            return self.start_state(rating)
        return SkillRating(state["mu"], state["sigma"])

    def stored_after(self, rating_after, state):
        if not state:
            return self.start_state(rating_after)
        return SkillRating(state["mu_after"], state["sigma_after"])

    def standing_state(self, rating):
        return {"mu": rating.mu, "sigma": rating.sigma}

    def result_state(self, before, after):
        return {
            "mu_before": before.mu,
            "sigma_before": before.sigma,
            "mu_after": after.mu,
            "sigma_after": after.sigma,
        }

    def export_fields(self):
        # Each seat's place (1 the best, a tie shares) and its skill before and after: a replay
        # with the openskill package, given the places as ranks, gives the same numbers.
        return ("place", *self.result_state_fields)

    def export_values(self, place, state):
        state = state or {}
        return (place, *(state.get(field) for field in self.result_state_fields))

    def pair_chance(self, first, second):
        return openskill.pair_chance(
            openskill.Skill(first.mu, first.sigma), openskill.Skill(second.mu, second.sigma)
        )

    def win_chances(self, ratings, slope):
        return openskill.win_chances([openskill.Skill(r.mu, r.sigma) for r in ratings])

    def provisional_rule(self, league):
        if league.provisional_games is None:
            return ("state__sigma", "gt", self.provisional_sigma)
        return super().provisional_rule(league)

    def rater(self, league, birth_dates):
        lower = self.lower_score_is_better

        def rate(game, states):
            skills = [openskill.Skill(state.rating.mu, state.rating.sigma) for state in states]
            rated = openskill.rate(skills, game.scores, lower_is_better=lower)
            return [SkillRating(skill.mu, skill.sigma) for skill in rated]

        return rate


class OpenSkillHighscore(OpenSkill):
    code = System.OPENSKILL_HIGHSCORE


class OpenSkillLowscore(OpenSkill):
    code = System.OPENSKILL_LOWSCORE
    lower_score_is_better = True


class PairwiseElo(RatingSystem):
    """Classic Elo over every pair at a table: each player's change is the sum of their changes
    against each other player, from the ratings before the game, with classic Elo's default K.

    No league is rated by it (it has no :class:`System` code and is not in :data:`SYSTEMS`):
    the backtest tries it on games of more than two players, as clubs often rate them."""

    code = "pairwise_elo"
    kind = Kind.SCORED
    seats = (2, 50)

    @property
    def label(self) -> str:
        return str(_("Classic Elo over each pair at the table"))

    def pair_chance(self, first, second):
        return ClassicElo.pair_chance(self, first, second)

    def rater(self, league, birth_dates):
        k = ClassicEloSettings.base_fields["elo_k"].initial
        places = league.rating_system.places

        def rate(game, states):
            ratings = [state.rating for state in states]
            place = places(game.scores)
            after = list(ratings)
            for i, j in combinations(range(len(ratings)), 2):
                result = 1.0 if place[i] < place[j] else 0.0 if place[i] > place[j] else 0.5
                new_i, new_j = elo.classic(ratings[i], ratings[j], result, k=k)
                after[i] += new_i - ratings[i]
                after[j] += new_j - ratings[j]
            return after

        return rate


def _limit_message(validator, value) -> str:
    """Django's own words (and translations) for a value beyond a bound."""
    try:
        validator(value)
    except ValidationError as error:
        return " ".join(error.messages)
    return ""


def _column_refusal(value, *, side: bool) -> str | None:
    """Why a paper's column value is refused, or None: a whole number, a side column never
    negative, and none beyond :data:`MAX_COLUMN` either way."""
    if value is None:
        return _("Enter a whole number (0 if nothing is written).")
    if isinstance(value, bool) or not isinstance(value, int):
        return _("Enter a whole number.")
    if side and value < 0:
        return _("Side columns are never negative.")
    if value > MAX_COLUMN:
        return _limit_message(MaxValueValidator(MAX_COLUMN), value)
    if value < -MAX_COLUMN:
        return _limit_message(MinValueValidator(-MAX_COLUMN), value)
    return None


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


def age_on(born: date | None, day: date) -> int | None:
    """Whole years of age on ``day``, or None when the birth date is unknown.

    Never negative: a game dated before a birth date (a typo in either) counts as age 0 rather
    than stopping the league's ratings; the forms refuse such a birth date on the way in.
    """
    if born is None:
        return None
    return max(0, day.year - born.year - ((day.month, day.day) < (born.month, born.day)))


SYSTEMS: dict[str, RatingSystem] = {
    system.code: system
    for system in (
        Prefko(),
        RayterHighscore(),
        RayterLowscore(),
        RayterWinnerTakesAll(),
        ClassicElo(),
        FideElo(),
        OpenSkillHighscore(),
        OpenSkillLowscore(),
    )
}


# The backtest's extra system for games of more than two players (no league's).
PAIRWISE_ELO = PairwiseElo()


def rating_system(code: str) -> RatingSystem:
    """The system with this code; KeyError for an unknown one (the database refuses those)."""
    return SYSTEMS[code]


def for_rayter_score_type(score_type: str) -> RatingSystem:
    """The system that rates a rayter file of this score type."""
    score_type = rayter.normalize_score_type(score_type)
    return next(s for s in SYSTEMS.values() if s.rayter_score_type == score_type)
