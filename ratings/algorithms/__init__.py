"""Pure-Python rating systems, one module each, and the table draw; no Django imports.

- :mod:`ratings.algorithms.preferans`: the Preferans paper and the prefko rating (LOWER is better).
- :mod:`ratings.algorithms.elo`: classic Elo (Chess::Elo) and FIDE Elo (@echecs/elo).
- :mod:`ratings.algorithms.rayter`: the multi-player Rayter rating and its standings line.
- :mod:`ratings.algorithms.rayter_format`: the rayter file format, parsed and written.
- :mod:`ratings.algorithms.seating`: drawing the tables of a round (club nights, tournaments).
- :mod:`ratings.algorithms.seating_plan`: the ``everyone_meets`` planner the draw calls.
- :mod:`ratings.algorithms.event_scoring`: an event's standings from its tables (scoring rules).
- :mod:`ratings.algorithms.places`: who finished ahead of whom at a table, from the scores.
"""
