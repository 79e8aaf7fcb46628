"""Rayter files: :mod:`~ratings.rayter.files` reads a file and imports it through the engine
(in); :mod:`~ratings.rayter.standings` writes a league's standings as the ``rayter`` command prints
them and its games as a rayter file (out); :mod:`~ratings.rayter.names` writes a club player's
name as the one word both read back. The file format itself is
:mod:`ratings.algorithms.rayter_format`'s, the rating arithmetic :mod:`ratings.algorithms.rayter`'s.
"""
