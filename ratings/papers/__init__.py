"""The digital paper: a Preferans game entered deal by deal, kept as prefko's paper library keeps
it (:mod:`ratings.algorithms.paper`), and rated when it is finished. A module per seam:

- :mod:`~ratings.papers.models`: ``DigitalPaper`` (three players in seat order, bula, refe cap,
  the game once finished) and its ``Deal`` rows in order (what was entered, repealed or not);
  imported by :mod:`ratings.models`;
- :mod:`~ratings.papers.selectors`: a paper's deal log and its drawn paper, the deal logs of games;
- :mod:`~ratings.papers.services`: every write (start, add a deal, undo, repeal, edit, finish);
  a finished paper becomes a game through :func:`ratings.engine.game_record`, the only writer of
  ratings, and an edited deal of a finished paper re-rates it through
  :func:`ratings.engine.game_update`.
"""
