"""Which system predicts a league best: its games replayed in time order under every system that
fits its kind, each game predicted from the ratings as they stood before it.

The replays happen in memory with each system's own rating function (nothing is written);
:mod:`ratings.algorithms.backtest` turns the predictions into figures. The systems tried:

- the league's kind's own systems with the same score direction (Preferans: prefko; scored
  games: the Rayter systems; head to head: classic Elo and FIDE);
- OpenSkill in the same score direction, for every kind;
- for games of more than two players, classic Elo over every pair at the table
  (:class:`ratings.systems.PairwiseElo`), as clubs often rate them.

Every system starts everyone from the same place (the league's own start rating for its own
system; 1000, or 0 for OpenSkill's mean shift, for the others); own start ratings are left out,
so no system knows what the others do not. A pair counts as new while either player has played
fewer than :data:`~ratings.backtest.run.NEW_GAMES` games before it: the same pairs for every
system.

A module a seam:

- :mod:`~ratings.backtest.run`: which systems a league is tried under (:func:`systems_for`) and
  the replay that predicts its games (:func:`league_backtest`);
- :mod:`~ratings.backtest.stored`: a run as plain data (:func:`as_json`, what the ``backtest``
  command prints with ``--json`` and what the page reads), the check a stored one passes
  (:func:`figures_problem`, for a restored backup) and storing it (:func:`backtest_stored`);
- :mod:`~ratings.backtest.page`: what the league's backtest page shows: a small league replayed
  while the page is drawn, a big one's stored figures, and whether staff may compute it there.

The ``backtest`` command's text table is the command's own (``ratings/management/commands/``).
"""
