"""The rating systems (ratings.systems): the contract every system in ``SYSTEMS`` keeps, so a
new system is checked without a test of its own; and what they compute themselves outside the
algorithms (a FIDE player's age)."""

import math
import operator
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from ratings.algorithms.event_scoring import Scoring
from ratings.engine.state import Entry, GameInput, PlayerState
from ratings.forms.games import GameForm
from ratings.models import League
from ratings.systems import (
    SYSTEMS,
    Kind,
    RatingSystem,
    System,
    age_on,
    for_rayter_score_type,
    rating_system,
)
from tests.builders import SYSTEM_CODES, T0, game_data
from tests.worked_example import WORKED_EXAMPLE_PAPERS


@pytest.mark.parametrize(
    ("born", "day", "age"),
    [
        (date(2010, 5, 17), date(2026, 5, 16), 15),
        (date(2010, 5, 17), date(2026, 5, 17), 16),
        (date(2010, 5, 17), date(2026, 12, 31), 16),
        (date(2010, 12, 31), date(2026, 1, 1), 15),
        # Born on a leap day: a year older on 1 March, not on 28 February.
        (date(2008, 2, 29), date(2026, 2, 28), 17),
        (date(2008, 2, 29), date(2026, 3, 1), 18),
        (date(2008, 2, 29), date(2028, 2, 29), 20),
        (date(2026, 3, 1), date(2026, 3, 1), 0),
    ],
)
def test_age_on_counts_whole_years(born, day, age):
    assert age_on(born, day) == age


def test_age_on_an_unknown_birth_date_is_none():
    assert age_on(None, date(2026, 1, 1)) is None


def test_a_game_before_the_birth_date_counts_as_age_zero():
    assert age_on(date(2026, 6, 1), date(2026, 5, 31)) == 0
    assert age_on(date(2030, 1, 1), date(2026, 1, 1)) == 0


# The contract: every system in SYSTEMS answers what the rest of the app asks it ---------------

ALL = list(SYSTEMS.values())


def rate(system: RatingSystem, ratings: list[float], scores: list[float], papers, bula):
    """A game rated by ``system`` alone, as the engine asks it (a league that is not saved),
    each player at ``system.start_state`` of their rating."""
    league = League(system=system.code, start_rating=ratings[0])
    game = GameInput(
        played_at=T0,
        bula=bula,
        player_ids=list(range(1, len(scores) + 1)),
        scores=scores,
        papers=papers,
    )
    states = [PlayerState(rating=system.start_state(rating)) for rating in ratings]
    return system.rater(league, {})(game, states)


def test_every_system_code_has_exactly_one_system():
    assert sorted(SYSTEMS) == sorted(System.values)
    for code, system in SYSTEMS.items():
        assert system.code == code
        assert rating_system(code) is system


@pytest.mark.parametrize("system", ALL, ids=repr)
def test_each_system_says_what_it_plays_and_how_it_ranks(system):
    assert system.kind in Kind.values
    fewest, most = system.seats
    assert 2 <= fewest <= most
    low, high = system.event_table_sizes
    assert fewest <= low <= high <= most
    assert set(system.event_scorings) <= set(Scoring)
    assert isinstance(system.lower_is_better, bool)
    assert isinstance(system.lower_score_is_better, bool)
    assert system.best_first().descending is not system.lower_is_better
    assert system.default_provisional_games >= 0
    assert str(system.label) and str(system.score_label)
    assert issubclass(system.form_class(), GameForm)
    if system.rayter_score_type is not None:
        assert for_rayter_score_type(system.rayter_score_type) is system


@pytest.mark.parametrize("system", ALL, ids=repr)
def test_each_system_refuses_scores_that_are_not_finite_numbers(system):
    for bad in (None, True, math.nan, math.inf):
        with pytest.raises(ValidationError):
            system.checked_scores([bad] * system.seats[0])


# Scores as a file or a caller may bring them: mostly whole numbers, with what a rule refuses.
ANY_SCORE = st.one_of(
    st.integers(-(10**15), 10**15),
    st.sampled_from([0.5, 1.0, 0.0, 2.5, math.nan, math.inf, 10**400, True, None]),
)


@given(code=SYSTEM_CODES, games=st.lists(st.lists(ANY_SCORE, min_size=1, max_size=4), max_size=6))
def test_a_files_scores_checked_at_once_are_each_games_own(code, games):
    """checked_scores_of_games says yes only when every game's checked_scores would, and gives
    the same floats: the import's fast path never takes a game the rule refuses."""
    system = SYSTEMS[code]
    at_once = system.checked_scores_of_games(games)
    one_by_one = []
    for scores in games:
        try:
            one_by_one.append(system.checked_scores(scores))
        except ValidationError:
            one_by_one = None
            break
    if at_once is not None:
        assert at_once == one_by_one
    elif system.scores_judged_apart:
        assert one_by_one is None


@given(data=st.data())
def test_each_system_rates_any_valid_game_of_its_own(data):
    code = data.draw(SYSTEM_CODES)
    system = SYSTEMS[code]
    seats, game = data.draw(game_data(code))
    ratings = data.draw(st.lists(st.integers(800, 2600), min_size=seats, max_size=seats))
    entries = [
        Entry(player_id=n, paper=paper, score=score)
        for n, paper, score in zip(
            range(seats),
            game.get("papers", [None] * seats),
            game.get("scores", [None] * seats),
            strict=True,
        )
    ]

    scores, papers = system.scores(entries, bula=game.get("bula"), ended_early=False)

    assert len(scores) == len(papers) == seats
    assert all(isinstance(score, float) for score in scores)
    assert all(paper is not None for paper in papers) is system.has_paper
    after = rate(system, [float(r) for r in ratings], scores, papers, game.get("bula"))
    assert len(after) == seats
    assert all(math.isfinite(rating) for rating in after)
    if system.integer_ratings:
        assert all(float(rating).is_integer() for rating in after)
    assert all(system.score_text(score) for score in scores)
    # Equal ratings: the best score at the table never ends worse off than the worst.
    level = rate(system, [1500.0] * seats, scores, papers, game.get("bula"))
    best, worst = (min, max) if system.lower_score_is_better else (max, min)
    top, bottom = scores.index(best(scores)), scores.index(worst(scores))
    better_or_level = operator.le if system.lower_is_better else operator.ge
    assert better_or_level(level[top], level[bottom])


@pytest.mark.parametrize("system", ALL, ids=repr)
def test_the_winner_of_a_decisive_game_ends_above_the_loser(system):
    """Equal ratings, a clear winner: the winner's rating is the better one, in the system's
    own direction (a lower prefko rating is better)."""
    fewest = system.seats[0]
    if system.has_paper:
        entries = [Entry(player_id=n, paper=p) for n, p in enumerate(WORKED_EXAMPLE_PAPERS)]
        bula = 30
    else:
        won, lost = (0, 1) if system.lower_score_is_better else (1, 0)
        entries = [Entry(player_id=n, score=lost) for n in range(fewest)]
        entries[0] = Entry(player_id=0, score=won)
        bula = None
    scores, papers = system.scores(entries, bula=bula, ended_early=False)

    after = rate(system, [1500.0] * fewest, scores, papers, bula)

    winner = (min if system.lower_score_is_better else max)(range(fewest), key=scores.__getitem__)
    assert winner == 0
    better = operator.lt if system.lower_is_better else operator.gt
    assert all(better(after[0], rating) for rating in after[1:])


# A league's settings --------------------------------------------------------------------------


@pytest.mark.parametrize("system", ALL, ids=lambda s: s.code)
def test_a_systems_setting_names_are_no_fields_of_a_league(system):
    """The settings join the league's own fields in its admin form and its exports by name."""
    league_fields = {field.name for field in League._meta.get_fields()}
    exported = {"name", "slug", "system", "lower_is_better", "provisional_until", "inactive_days"}
    assert not system.setting_defaults().keys() & (league_fields | exported)


def test_a_league_takes_its_systems_settings_at_their_defaults():
    assert League(system=System.ELO).system_settings == {"elo_k": 32}
    assert League(system=System.FIDE).system_settings == {"speed": "standard"}
    assert League(system=System.PREFKO).system_settings == {
        "refas": None,
        # The house rules, at prefko's library's (ratings/algorithms/paper/rules.py).
        "betl_fall_supa": None,
        "kontra_on_pik": True,
        "double_fall": False,
        "max_kontra": 4,
    }
    assert League(system=System.RAYTER_HIGHSCORE).system_settings == {}
    assert League(system=System.ELO, settings={"elo_k": 16}).system_settings == {"elo_k": 16}
    # Another system's setting left in the JSON is no setting of this league's.
    assert League(system=System.FIDE, settings={"elo_k": 16}).system_settings == {
        "speed": "standard"
    }


@pytest.mark.parametrize(
    ("system", "given", "says"),
    [
        (System.PREFKO, {"elo_k": 16}, "no setting elo_k"),
        (System.RAYTER_LOWSCORE, {"speed": "blitz"}, "no setting speed"),
        (System.ELO, {"elo_k": 0}, "K-factor: Ensure this value is greater than or equal to 1."),
        (System.FIDE, {"speed": "bullet"}, "speed: Select a valid choice."),
        (System.PREFKO, {"refas": -1}, "refe cap: Ensure"),
        # A league's cap is each paper's starting value: the paper's own bound.
        (System.PREFKO, {"refas": 101}, "refe cap: Ensure this value is less than or equal to 100"),
        (System.ELO, ["elo_k"], "not an object"),
    ],
)
def test_a_league_refuses_settings_its_system_does_not_take(system, given, says):
    league = League(name="L", slug="l", system=system, settings=given)
    with pytest.raises(ValidationError) as refused:
        league.clean()
    assert says in " ".join(refused.value.message_dict["settings"])


def test_a_leagues_settings_are_stored_as_its_systems_form_cleans_them():
    league = League(name="L", slug="l", system=System.ELO, settings={"elo_k": "24"})
    league.clean()
    assert league.settings == {"elo_k": 24}
