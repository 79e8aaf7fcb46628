"""What the event services tell the features that listen (the club's chat channels): sent in
the service's transaction, so a listener that queues a task queues it exactly when the write
commits."""

from django.dispatch import Signal

# A round was drawn: sent with ``event_round`` (the EventRound, its tables and seats written).
round_drawn = Signal()
# An event was closed: sent with ``event`` (its final standings are those of its games).
event_closed = Signal()
# A night was planned ahead (planning.night_plan): sent with ``event``.
night_planned = Signal()
# A planned night was cancelled (planning.night_cancel): sent with ``event``.
night_cancelled = Signal()
# A night was given another time or place (planning.night_move): sent with ``event``, its new
# time and place saved and its sequence raised.
night_moved = Signal()
