"""The ``rayter`` 2.1.0 command, modelled on top of ``ratings.algorithms.rayter`` (and
``ratings.algorithms.rayter_format``'s parsed files) for the tests.

The app rates a file's games through its engine, in time order, and prints standings of its own
(``ratings.rayter.files``); what the command does with a file, rating it in FILE order and
printing its tables, is needed only to compare the app's parser and arithmetic with the command's
recorded outputs (``vectors/rayter_cli.json.gz``) and as an independent model in the import
tests. So it lives here, next to those tests, and ``scripts/vectors/rayter_vectors.py --check``
uses it too. Everything here rates with the app's own :func:`rayter.rate_valid_game`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ratings.algorithms import rayter, rayter_format
from ratings.algorithms.rayter import START_RATING, Standing
from ratings.algorithms.rayter_format import RayterFile


def rate_game(
    current: Mapping[str, float],
    results: Sequence[tuple[str, int | float]],
    score_type: str = rayter.SCORE_TYPE_HIGH_SCORE,
    k: int | float | None = None,
) -> dict[str, float]:
    """New ratings of the players of one game, for rating games one at a time.

    ``current`` maps names to ratings (a player missing from it starts at :data:`START_RATING`);
    ``results`` holds (name, score) pairs. Each new rating is ``old + change`` exactly as rayter
    computes it, so keep the returned floats unrounded. Raises ValueError like
    :func:`rayter.rate_single_game`, and for a name given twice.
    """
    names = [name for name, _score in results]
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise ValueError(f"{twice!r} is in the game twice")
    ratings = [current.get(name, START_RATING) for name in names]
    changes = rayter.rate_single_game([score for _name, score in results], ratings, score_type, k)
    return {
        name: rating + change for name, rating, change in zip(names, ratings, changes, strict=True)
    }


def export(rayter_file: RayterFile) -> str:
    """The text of ``rayter_file`` in the rayter format; ``parse(export(f)) == f``.

    Raises ValueError for a file with errors.
    """
    if rayter_file.errors:
        raise ValueError(f"cannot export a file with errors: {rayter_file.errors[0]}")
    return rayter_format.format_file(
        rayter_file.games, score_type=rayter_file.score_type, game_name=rayter_file.game_name
    )


def standings(rayter_file: RayterFile) -> list[Standing]:
    """Every player's standing after the file's games, best first, as the ``rayter`` command.

    Games are rated in FILE order, not by time (as rayter does). Players with exactly equal
    ratings keep the order in which they first appear in the file. Raises ValueError for a
    file with errors.

    (The rayter command itself crashes with RecursionError when a player of the last game had
    played their previous game 995 or more games before it: it looks the rating before the last
    game up recursively, one game at a time.)
    """
    if rayter_file.errors:
        raise ValueError(f"cannot rate a file with errors: {rayter_file.errors[0]}")
    score_type = rayter.normalize_score_type(rayter_file.score_type)
    k = rayter.default_k(score_type)
    ratings: dict[str, float] = {}
    games_played: dict[str, int] = {}
    last_changes: dict[str, float] = {}
    for index, game in enumerate(rayter_file.games, start=1):
        names = [name for name, _score in game.results]
        if len(names) < 2 or len(set(names)) != len(names):
            raise ValueError(f"the game at {game.time} needs 2 or more players, each once")
        before = [ratings.get(name, START_RATING) for name in names]
        changes = rayter.rate_valid_game(game.scores, before, score_type, k)
        for name, old, change in zip(names, before, changes, strict=True):
            new = old + change
            ratings[name] = new
            games_played[name] = games_played.get(name, 0) + 1
            if index == len(rayter_file.games):
                # rayter's Delta is new - old, which is not always bit-equal to the change.
                last_changes[name] = new - old
    order = list(ratings)
    order.sort(key=lambda name: ratings[name], reverse=True)  # stable: first seen first on ties
    return [
        Standing(name, games_played[name], ratings[name], last_changes.get(name, 0.0))
        for name in order
    ]


def render_cli_text(rayter_file: RayterFile, file_name: str) -> str:
    """What ``rayter FILE`` prints for a file without errors, byte for byte.

    ``file_name`` is FILE as given to the command: rayter shows it when the file has no
    ``game_name``. Ratings and deltas are rounded with Python's ``round`` (half to even).
    """
    title = rayter_file.game_name if rayter_file.game_name is not None else file_name
    lines = [
        f"Game: {title}",
        f"Total number of games: {len(rayter_file.games)}",
        f"{'Name':<15}{'Games':<10}{'Rating':<10}{'Delta':<10}",
    ]
    for standing in standings(rayter_file):
        lines.append(
            f"{standing.name:<15}{standing.games:7d}"
            f"{round(standing.rating):9d}{round(standing.change):9d}"
        )
    return "\n".join(lines) + "\n"


def render_cli_json(rayter_file: RayterFile) -> str:
    """What ``rayter -m json FILE`` prints for a file without errors, byte for byte.

    One JSON object keyed by name, best first: name, matches (games), rating and delta, the
    last two rounded with Python's ``round``.
    """
    table = {
        standing.name: {
            "name": standing.name,
            "matches": standing.games,
            "rating": round(standing.rating),
            "delta": round(standing.change),
        }
        for standing in standings(rayter_file)
    }
    return json.dumps(table) + "\n"
