"""Club nights and tournaments (events): a module per seam, as the engine is.

- :mod:`~ratings.events.models`: Event, the players present, rounds, tables and seats (imported
  by :mod:`ratings.models`, where Django looks for them);
- :mod:`~ratings.events.services`: every write (create an event, draw a round, record a table's
  paper through the engine, close a round or the event), keyword-only, atomic, audited;
- :mod:`~ratings.events.selectors`: the reads of the event pages, standings derived from the
  games each time, in a fixed number of queries whatever the number of rounds;
- :mod:`~ratings.events.forms`: the organiser's forms;
- :mod:`~ratings.events.tables`: the event pages' tables (display only);
- :mod:`~ratings.events.admin`: events in the admin (imported by :mod:`ratings.admin`).

The draw is :func:`ratings.algorithms.seating.draw_round` and the scoring rules are
:mod:`ratings.algorithms.event_scoring`, both pure Python.
"""
