"""Head-to-head games rated by Elo: classic Elo with the league's K, FIDE's rules, and classic
Elo over each pair at a bigger table (the backtest's).
"""

from __future__ import annotations

from datetime import date
from itertools import combinations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.algorithms import elo
from ratings.algorithms.places import outcome
from ratings.systems.base import RatingSystem
from ratings.systems.codes import Kind, Speed, System

# A player who has ever reached this FIDE rating keeps K = 10 for good.
FIDE_EVER_2400 = 2400
# The largest K-factor: what the column that held it took (a small integer).
MAX_ELO_K = 32767


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
                new_i, new_j = elo.classic(ratings[i], ratings[j], outcome(place[i], place[j]), k=k)
                after[i] += new_i - ratings[i]
                after[j] += new_j - ratings[j]
            return after

        return rate


def age_on(born: date | None, day: date) -> int | None:
    """Whole years of age on ``day``, or None when the birth date is unknown.

    Never negative: a game dated before a birth date (a typo in either) counts as age 0 rather
    than stopping the league's ratings; the forms refuse such a birth date on the way in.
    """
    if born is None:
        return None
    return max(0, day.year - born.year - ((day.month, day.day) < (born.month, born.day)))
