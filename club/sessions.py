"""The session engine: Django's database sessions, loaded outside an exception handler.

Django loads a session inside ``except AttributeError`` (the missing ``_session_cache``), so when
the database is down every request's traceback starts with "'SessionStore' object has no
attribute '_session_cache'" and only then, "during handling of the above exception", shows the
real error. A database restart filled the log with those. Loading outside the handler leaves
the database's error as the one and only exception logged for the request.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db

_UNLOADED = object()


class SessionStore(db.SessionStore):
    def _get_session(self, no_load=False):
        self.accessed = True
        cache = getattr(self, "_session_cache", _UNLOADED)
        if cache is _UNLOADED:
            cache = {} if self.session_key is None or no_load else self.load()
            self._session_cache = cache
        return cache

    async def _aget_session(self, no_load=False):
        self.accessed = True
        cache = getattr(self, "_session_cache", _UNLOADED)
        if cache is _UNLOADED:
            cache = {} if self.session_key is None or no_load else await self.aload()
            self._session_cache = cache
        return cache

    _session = property(_get_session)
