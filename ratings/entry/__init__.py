"""The one way in for a game: every path that records one (the site's form, the API, an event
table's paper, the phone's digital paper, the API's deal log) builds a :class:`Submission` of
domain values and hands it here, as Zulip's ``check_*`` then ``do_*`` actions and HackSoft's
services do.

- :func:`check` answers a :class:`Checked`: the players the names stand for (the one name
  policy, :mod:`ratings.typed_names`, which the event and paper forms ask too), and every rule
  the game breaks as a :class:`Refusal` addressed by a path (``played_at``, ``bula``,
  ``seats[1].middle``, ``seats[0].player``, ``seats``, or None for the game as a whole), or the
  game as it would be rated;
- :func:`submit` records it, or holds it for the table's confirmation in a league that asks
  for it (:mod:`~ratings.entry.confirmation`);
- :func:`record` records a checked game once (the league's lock, the one-time key, new players
  in one order, a table's game or a league's game, the race fallback) through the engine.

An interface only turns its own input into a submission and the refusals into its own answer;
it never checks a game itself, nor reaches into another interface's fields. A refusal whose
message tells the member what to do by the site's means (tick "Pedia is a new member", mark the
game as ended early) carries a ``code`` and its message's ``params``, so the API words the same
refusal by its own fields (:func:`ratings.api.errors.worded`).
"""

from ratings.entry.check import Checked, check
from ratings.entry.confirmation import NotAllowed, NotWaiting, submit
from ratings.entry.record import Refused, record, recorded_game
from ratings.entry.submission import SeatIn, Submission
from ratings.systems import Refusal

__all__ = [
    "Checked",
    "NotAllowed",
    "NotWaiting",
    "Refusal",
    "Refused",
    "SeatIn",
    "Submission",
    "check",
    "record",
    "recorded_game",
    "submit",
]
