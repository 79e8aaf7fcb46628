"""Scored games rated by rayter, one system per score type."""

from __future__ import annotations

import operator

from django.utils.translation import gettext as _

from ratings.algorithms import rayter, rayter_format
from ratings.systems.base import RatingSystem
from ratings.systems.codes import Kind, System

# The largest score a rayter file holds (15 digits), as a float for a check in C.
MAX_FILE_SCORE = float(rayter_format.MAX_SCORE)


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
