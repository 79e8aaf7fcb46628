"""Django admin for the club's staff: players, leagues with own start ratings, and games.

The admin edits what the engine rates, never the ratings themselves: saving or deleting a game,
changing a start rating or a league's rating settings all go through :mod:`ratings.engine`, in
the admin's request transaction. Results and standings are shown through inlines whose formsets
validate with the engine's own rules (so a bad paper is a form error, not a 500) and whose
``save()`` is never called.

Split by what is administered (one module each), registered on import:

- :mod:`~ratings.admin.players`, :mod:`~ratings.admin.leagues`, :mod:`~ratings.admin.games`,
  :mod:`~ratings.admin.audit`, :mod:`~ratings.admin.tokens`; shared pieces in
  :mod:`~ratings.admin.common`;
- games waiting for the table: :mod:`ratings.entry.admin`; events:
  :mod:`ratings.events.admin`; digital papers: :mod:`ratings.papers.admin`; invitations and
  claims: :mod:`ratings.accounts.admin`.
"""

from ratings.accounts import admin as _accounts_admin  # noqa: F401
from ratings.admin import audit, games, leagues, players, tokens  # noqa: F401  (registers them)
from ratings.admin.games import GameAdmin
from ratings.entry import admin as _entry_admin  # noqa: F401
from ratings.events import admin as _events_admin  # noqa: F401
from ratings.papers import admin as _papers_admin  # noqa: F401
from ratings.voice import admin as _voice_admin  # noqa: F401

__all__ = ["GameAdmin"]
