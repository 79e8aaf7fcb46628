"""Scored games rated by OpenSkill: a rating kept as a mean and an uncertainty."""

from __future__ import annotations

from typing import ClassVar

from ratings.algorithms import openskill
from ratings.systems.base import RatingSystem
from ratings.systems.codes import Kind, System


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
