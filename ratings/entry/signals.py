"""What the entry service tells the features that listen (the club's chat channels): sent in
the transaction that recorded the game, so a listener that queues a task queues it exactly when
the game commits."""

from django.dispatch import Signal

# A game now counts: recorded at once, or confirmed by the table or the worker.
# Sent with ``game`` (the Game) and ``entered_by`` (the user, or None).
game_counted = Signal()
