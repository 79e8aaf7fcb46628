"""Preferans for three, rated by prefko: the paper's rules on each entered value, the bula, the
league's refe cap.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import formatting
from ratings.algorithms import paper as paper_rules
from ratings.algorithms import preferans
from ratings.algorithms.event_scoring import Scoring
from ratings.systems.base import MAX_BULA, MAX_COLUMN, RatingSystem, Refusal, limit_message
from ratings.systems.codes import Kind, System

# The largest refe cap, a league's as a paper's (ratings/papers/forms.py): far above any
# table's, and a league's cap is each paper's starting value.
MAX_REFAS = 100


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
    # The house rules (ratings/algorithms/paper/rules.py, each with its source): the defaults
    # are prefko's library's. Each paper started in the league keeps the ones then in force.
    betl_fall_supa = forms.IntegerField(
        label=gettext_lazy("supa on a failed betl"),
        required=False,
        min_value=1,
        max_value=MAX_COLUMN,
        help_text=gettext_lazy(
            "What each follower who followed writes when the betl falls (some clubs: 60). "
            "Empty: tricks × value, as on any contract."
        ),
    )
    kontra_on_pik = forms.BooleanField(
        label=gettext_lazy("kontra on pik"),
        required=False,
        initial=True,
        help_text=gettext_lazy("Whether a kontra may be given on pik."),
    )
    double_fall = forms.BooleanField(
        label=gettext_lazy("double fall near the end"),
        required=False,
        initial=False,
        help_text=gettext_lazy(
            "A declarer who plays a game worth more than the bulas left and falls has twice "
            "the value added to their bula."
        ),
    )
    max_kontra = forms.TypedChoiceField(
        label=gettext_lazy("highest kontra"),
        choices=[
            (1, gettext_lazy("kontra")),
            (2, gettext_lazy("rekontra")),
            (3, gettext_lazy("subkontra")),
            (4, gettext_lazy("mortkontra")),
        ],
        coerce=int,
        initial=4,
        help_text=gettext_lazy("The highest kontra level the table gives."),
    )

    HOUSE_RULES = ("betl_fall_supa", "kontra_on_pik", "double_fall", "max_kontra")


def house_rules(settings: dict) -> paper_rules.HouseRules:
    """The house rules a league's settings hold (``League.system_settings``), as the paper takes
    them: each setting missing at the library's rule."""
    return paper_rules.HouseRules.from_json(
        {name: settings[name] for name in PrefkoSettings.HOUSE_RULES if name in settings}
    )


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
            return limit_message(MaxValueValidator(MAX_BULA), bula)
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
        # The game ends when the bulas add up to zero; a last deal may take them below, and the
        # game is then played out, not ended early (docs/digital-paper.md). Above zero, only the
        # clock ends it.
        if middle_sum > 0 and not ended_early:
            message = _(
                "The middle column sums to %(sum)s, not 0: the game ends when the bulas add "
                "up to zero. Mark the game as ended early if it was stopped before that."
            ) % {"sum": formatting.number_text(middle_sum)}
            refusals.append(
                Refusal("seats", message, code="middle_sum", params={"sum": middle_sum})
            )
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
        return limit_message(MaxValueValidator(MAX_COLUMN), value)
    if value < -MAX_COLUMN:
        return limit_message(MinValueValidator(-MAX_COLUMN), value)
    return None
