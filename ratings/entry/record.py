"""Recording a checked submission: once, whatever arrives twice or at the same moment."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from ratings import engine
from ratings.entry import signals
from ratings.entry.check import Checked
from ratings.events.services import table_record_game
from ratings.models import Game, Player
from ratings.player_names import name_key
from ratings.systems import Refusal


class Refused(Exception):
    """A game its league's rules refuse: ``refusals``, each addressed to its value."""

    def __init__(self, refusals: list[Refusal]):
        self.messages = [refusal.message for refusal in refusals]
        super().__init__(self.messages)
        self.refusals = refusals


def recorded_game(checked: Checked) -> Game | None:
    """The game the submission's key recorded, when the submission is that game again (a
    double click, a refresh, a resend from a phone); None when the key is new. The same key
    with another game raises :class:`ratings.engine.SubmissionReused`: never taken for the
    first game, never dropped in silence."""
    key = checked.submission.key
    if key is None or checked.prepared is None:
        return None
    game = Game.objects.filter(submission_key=key).first()
    return None if game is None else engine.resubmitted(game, checked.prepared)


def record(
    checked: Checked, *, entered_by, then: Callable[[Game], None] | None = None
) -> tuple[Game, bool]:
    """Record a checked game: the game, and whether this call recorded it (False: its key's
    game was there already). One transaction: the league's lock (the club's too when new players
    are created, in one order, so two entries creating the same two players wait for each other
    instead of deadlocking), the key looked up again under it, the table's game or the league's,
    then ``then(game)`` (what the interface keeps beside the game, such as a deal log's paper).

    Raises :class:`Refused` for a game that breaks a rule (also one found under the lock: a
    player merged meanwhile, a table's paper already in) and
    :class:`ratings.engine.SubmissionReused` for a used key with another game.
    """
    if not checked.ok:
        raise Refused(checked.refusals)
    submission = checked.submission
    existing = recorded_game(checked)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            engine.league_lock(submission.league, club=bool(checked.new_names))
            # Of two posts of one key, the second waits for the first here and finds its game.
            existing = recorded_game(checked)
            if existing is not None:
                return existing, False
            new = {
                name_key(name): Player.objects.get_or_create_named(name)
                for name in sorted(checked.new_names, key=_creation_order)
            }
            ids = [
                player_id if player_id > 0 else new[name_key(submission.seats[seat].player)].pk
                for seat, player_id in enumerate(checked.stand_in_ids())
            ]
            fields = {
                "played_at": submission.played_at,
                "entries": checked.entries(ids),
                "bula": submission.bula,
                "ended_early": submission.ended_early,
                "note": submission.note,
                "entered_by": engine.audit_user(entered_by),
                "submission_key": submission.key,
            }
            if submission.table is not None:
                game = table_record_game(table=submission.table, **fields)
            else:
                game = engine.game_record(league=submission.league, **fields)
            if then is not None:
                then(game)
            signals.game_counted.send(sender=Game, game=game, entered_by=entered_by)
            return game, True
    except engine.SubmissionReused:
        raise
    except ValidationError as error:
        raise Refused([Refusal(None, message) for message in error.messages]) from None
    except IntegrityError:
        # The key's unique constraint: another request recorded this key between our look
        # and our insert (the lock makes it rare; a database without row locks makes it real).
        game = Game.objects.filter(submission_key=submission.key).first()
        if game is None or submission.key is None:
            raise
        return engine.resubmitted(game, checked.prepared), False


def _creation_order(name: str) -> tuple[str, str]:
    """New players are created by slug, then name: the order of the unique keys they take."""
    return (slugify(name, allow_unicode=True), name_key(name))
