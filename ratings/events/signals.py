"""What the event services tell the features that listen (the club's chat channels): sent in
the service's transaction, so a listener that queues a task queues it exactly when the write
commits."""

from django.dispatch import Signal

# A round was drawn: sent with ``event_round`` (the EventRound, its tables and seats written).
round_drawn = Signal()
# An event was closed: sent with ``event`` (its final standings are those of its games).
event_closed = Signal()
