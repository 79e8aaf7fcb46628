"""The file that backup_club writes and restore_club reads: Django's JSON, one object a line.

Django's JSON encoder cuts datetimes to milliseconds (as JavaScript reads them). A backup must
give back exactly what it was given: games are rated in (played_at, id) order, so a played_at
rounded on the way through could put two games in another order on the next replay.

The file is a JSON array of Django-serialized objects. backup_club writes each object on a line
of its own (older backups put them all on one line); :func:`read_objects` reads either kind one
object at a time, so restoring needs the same memory whatever the file's size, and a file that
expands past a limit once decompressed (a "zip bomb") is refused when the limit is reached, not
after it has been read whole. loaddata still reads these files as plain JSON.
"""

from __future__ import annotations

import codecs
import datetime
import gzip
import json
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder

FORMAT = "club-json"
# What backup_club writes (dumpdata's labels) and so all that restore_club loads.
BACKED_UP = ("auth.group", "auth.user", "ratings")
# Uploads waiting a day at most for their confirmation are no part of the club's record; the data
# versions belong to the database (a restored club gets the new database's, never an old number);
# a stored backtest is derived from the games (the backtest command makes it again), and so are
# the season standings (restore_club's replay of every league rebuilds them) and the opponents'
# tallies (counted again from the restored results).
NOT_BACKED_UP = (
    "ratings.pendingupload",
    "ratings.dataversion",
    "ratings.leagueversion",
    "ratings.storedbacktest",
    "ratings.seasonstanding",
    "ratings.opponenttally",
)

MiB = 2**20
# The largest object restore_club takes. The largest a club makes is an audit entry holding a
# 50-player game (a few KiB) or a league's description; a longer one is not from backup_club.
MAX_OBJECT_CHARS = MiB
_CHUNK = MiB
_WHITESPACE = re.compile(r"[ \t\n\r]*")


class ExactJSONEncoder(DjangoJSONEncoder):
    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self):
        super()._init_options()
        self.json_kwargs["cls"] = ExactJSONEncoder
        # A rating that is not a number fails the backup now, not the restore on a new server.
        self.json_kwargs["allow_nan"] = False

    def end_object(self, obj):
        self.stream.write("\n" if self.first else ",\n")
        json.dump(self.get_dump_object(obj), self.stream, **self.json_kwargs)
        self._current = None

    def end_serialization(self):
        self.stream.write("\n]\n")


Deserializer = django_json.Deserializer


class BackupFileError(ValueError):
    """The file cannot be read as a backup; the message says where and why."""


def read_objects(path: Path, *, max_bytes: int) -> Iterator[dict]:
    """The objects of a backup file (gzipped when its name ends in .gz), one at a time.

    Memory stays within a few MiB whatever the file holds: it is read in chunks of 1 MiB and an
    object longer than :data:`MAX_OBJECT_CHARS` is refused. Raises :class:`BackupFileError` when
    the file is not a JSON array of objects, is not UTF-8, is a damaged gzip, or expands to more
    than ``max_bytes``.
    """
    opener = gzip.open if path.name.endswith(".gz") else open
    try:
        with opener(path, "rb") as stream:
            yield from _ArrayReader(stream, max_bytes).objects()
    except (EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise BackupFileError(f"the gzip stream is damaged ({error})") from error
    except UnicodeDecodeError as error:
        raise BackupFileError("the file is not UTF-8 text") from error


class _ArrayReader:
    """Reads ``[ {...}, {...} ]`` from a binary stream, keeping only the unread part in memory."""

    def __init__(self, stream, max_bytes: int):
        self.stream = stream
        self.max_bytes = max_bytes
        self.decoder = json.JSONDecoder()
        self.utf8 = codecs.getincrementaldecoder("utf-8")()
        self.text = ""  # decoded, not yet parsed
        self.at = 0  # where parsing stands in self.text
        self.bytes_read = 0
        self.eof = False
        self.count = 0  # objects read

    def objects(self) -> Iterator[dict]:
        if self._next_char() != "[":
            raise BackupFileError("it does not start with '[': it is not a backup_club file")
        self.at += 1
        if self._next_char() == "]":
            self._end()
            return
        while True:
            yield self._object()
            char = self._next_char()
            if char == "]":
                self._end()
                return
            if char != ",":
                raise BackupFileError(f"after object {self.count} comes {char!r}, not ',' or ']'")
            self.at += 1

    def _object(self) -> dict:
        if self._next_char() != "{":
            raise BackupFileError(f"item {self.count + 1} of the array is not an object")
        while True:
            try:
                value, end = self.decoder.raw_decode(self.text, self.at)
                break
            except json.JSONDecodeError as error:
                # An object cut by the end of a chunk: read on, unless it is already too long
                # or the file has ended.
                if self.eof:
                    raise BackupFileError(
                        f"object {self.count + 1} is not valid JSON ({error.msg})"
                    ) from None
                if len(self.text) - self.at > MAX_OBJECT_CHARS:
                    raise BackupFileError(
                        f"object {self.count + 1} is longer than {MAX_OBJECT_CHARS // MiB} MiB, "
                        "more than any object of a club"
                    ) from None
                self._read()
            except RecursionError:
                raise BackupFileError(f"object {self.count + 1} is nested too deeply") from None
            except ValueError as error:  # e.g. an integer of more than 4,300 digits
                raise BackupFileError(f"object {self.count + 1}: {error}") from None
        self.at = end
        self.count += 1
        return value

    def _next_char(self) -> str:
        """The next character that is not whitespace ('' at the end of the file). More than
        MAX_OBJECT_CHARS of whitespace in a row is refused at once: no backup holds that, and a
        file of nothing else would otherwise be read up to the size limit (gigabytes)."""
        blank = 0
        while True:
            start = self.at
            self.at = _WHITESPACE.match(self.text, self.at).end()
            blank += self.at - start
            if blank > MAX_OBJECT_CHARS:
                raise BackupFileError(
                    f"after object {self.count} comes more than {MAX_OBJECT_CHARS // MiB} MiB of "
                    "whitespace, which no backup holds"
                )
            if self.at < len(self.text):
                return self.text[self.at]
            if self.eof:
                return ""
            self._read()

    def _end(self) -> None:
        self.at += 1
        if self._next_char():
            raise BackupFileError("there is more after the array's closing ']'")

    def _read(self) -> None:
        chunk = self.stream.read(_CHUNK)
        self.bytes_read += len(chunk)
        if self.bytes_read > self.max_bytes:
            raise BackupFileError(
                f"it expands to more than {self.max_bytes / MiB:,.0f} MiB, the limit (a club "
                "with more data needs restore_club's --max-size)"
            )
        self.eof = not chunk
        self.text = self.text[self.at :] + self.utf8.decode(chunk, final=self.eof)
        self.at = 0
