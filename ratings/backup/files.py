"""The file that backup_club writes and restore_club reads: Django's JSON, one object a line.

Django's JSON encoder cuts datetimes to milliseconds (as JavaScript reads them). A backup must
give back exactly what it was given: games are rated in (played_at, id) order, so a played_at
rounded on the way through could put two games in another order on the next replay.

The file is a JSON array of Django-serialized objects. backup_club writes each object on a line
of its own (older backups put them all on one line); :func:`read_objects` reads either kind one
object at a time, so restoring needs the same memory whatever the file's size, and a file that
expands past a limit once decompressed (a "zip bomb") is refused when the limit is reached, not
after it has been read whole.

The array's last item is the file's seal, ``{"signature": {...}}``: a SHA-256 checksum of the
objects, which tells a damaged file, and an HMAC of them under the operator's key (the
``BACKUP_KEY`` setting, else one derived from ``SECRET_KEY``), which tells a changed one: a
checksum alone anyone can write again after changing a rating. Both cover each object's text
exactly as written, so the reader checks them on the text it parses, in the same pass; loaddata
no longer reads these files (it knows no ``signature`` model).
"""

from __future__ import annotations

import codecs
import datetime
import gzip
import hashlib
import hmac
import json
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.crypto import salted_hmac

FORMAT = "club-json"
# What backup_club writes (dumpdata's labels) and so all that restore_club loads.
BACKED_UP = ("auth.group", "auth.user", "ratings")
# Uploads waiting a day at most for their confirmation are no part of the club's record; the data
# versions belong to the database (a restored club gets the new database's, never an old number);
# the season standings (restore_club's replay of every league rebuilds them) and the opponents'
# tallies (counted again from the restored results) are derived from the games. A stored
# backtest is derived too, but kept: it takes minutes to compute again for a big league, and
# without it the league's backtest page says it was never computed.
NOT_BACKED_UP = (
    "ratings.pendingupload",
    "ratings.dataversion",
    "ratings.leagueversion",
    "ratings.playerversion",
    "ratings.seasonversion",
    "ratings.seasonstanding",
    "ratings.opponenttally",
)

MiB = 2**20
# The largest object restore_club takes. The largest a club makes is an audit entry holding a
# 50-player game (a few KiB) or a league's description; a longer one is not from backup_club.
MAX_OBJECT_CHARS = MiB
_CHUNK = MiB
_WHITESPACE = re.compile(r"[ \t\n\r]*")


# The salt names the seal's use, so an HMAC made with the same key elsewhere in Django (a
# session, a signed cookie) can never pass for a backup's.
_SEAL_SALT = "ratings.backup.files.seal"
SIGNATURE = "signature"


def backup_key() -> tuple[str, str]:
    """The key that signs and checks backups, and the setting it comes from: ``BACKUP_KEY``
    when the operator set one (they keep it, so a new server with a new ``SECRET_KEY`` can
    restore), else ``SECRET_KEY``."""
    if settings.BACKUP_KEY:
        return "BACKUP_KEY", settings.BACKUP_KEY
    return "SECRET_KEY", settings.SECRET_KEY


class Seal:
    """The checksum and the HMAC of a backup's objects, fed each object's text as written."""

    def __init__(self) -> None:
        self.key_name, key = backup_key()
        self.hmac = salted_hmac(_SEAL_SALT, b"", secret=key, algorithm="sha256")
        self.sha256 = hashlib.sha256()

    def add(self, text: str) -> None:
        data = text.encode() + b"\n"
        self.hmac.update(data)
        self.sha256.update(data)

    def signature(self) -> dict:
        """The array's last item."""
        return {
            SIGNATURE: {
                "sha256": self.sha256.hexdigest(),
                "hmac_sha256": self.hmac.hexdigest(),
                "key": self.key_name,
            }
        }

    def check(self, item: dict, *, unsigned: bool) -> None:
        """Raise :class:`SignatureError` unless ``item`` is the seal of the objects read; with
        ``unsigned`` the HMAC is not asked for (the checksum still is)."""
        seal = item.get(SIGNATURE)
        fields = {"sha256", "hmac_sha256", "key"}
        if (
            len(item) != 1
            or type(seal) is not dict
            or seal.keys() != fields
            or not all(type(value) is str for value in seal.values())
        ):
            raise SignatureError("its signature is not one backup_club writes")
        # As bytes: compare_digest refuses str with characters beyond ASCII.
        if not hmac.compare_digest(seal["sha256"].encode(), self.sha256.hexdigest().encode()):
            raise SignatureError(
                "its checksum (SHA-256) does not match its content: the file was damaged or "
                "changed after backup_club wrote it"
            )
        if unsigned or hmac.compare_digest(
            seal["hmac_sha256"].encode(), self.hmac.hexdigest().encode()
        ):
            return
        if seal["key"] != self.key_name:
            cause = (
                f"it was signed with a {_show_key(seal['key'])} and this server checks with its "
                f"{self.key_name}"
            )
        else:
            cause = f"it was changed after it was signed, or signed with another {self.key_name}"
        raise SignatureError(
            f"its signature (HMAC-SHA256) does not match: {cause}. Set BACKUP_KEY to the key "
            "the backup was written with; to restore it anyway, if you trust it, add --unsigned"
        )


def _show_key(name: str) -> str:
    return name if name in ("BACKUP_KEY", "SECRET_KEY") else "key it calls " + repr(name[:30])


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
        self.seal = Seal()

    def end_object(self, obj):
        text = json.dumps(self.get_dump_object(obj), **self.json_kwargs)
        self.stream.write(("\n" if self.first else ",\n") + text)
        self.seal.add(text)
        self._current = None

    def end_serialization(self):
        # The seal comes last: it covers every object before it.
        signature = json.dumps(self.seal.signature())
        self.stream.write(("\n" if self.first else ",\n") + signature + "\n]\n")


Deserializer = django_json.Deserializer


class BackupFileError(ValueError):
    """The file cannot be read as a backup; the message says where and why."""


class SignatureError(BackupFileError):
    """The file's seal is missing or does not match: damaged, changed, or another key's."""


def read_objects(path: Path, *, max_bytes: int, unsigned: bool = False) -> Iterator[dict]:
    """The objects of a backup file (gzipped when its name ends in .gz), one at a time, its seal
    checked when the array ends.

    Memory stays within a few MiB whatever the file holds: it is read in chunks of 1 MiB and an
    object longer than :data:`MAX_OBJECT_CHARS` is refused. Raises :class:`BackupFileError` when
    the file is not a JSON array of objects, is not UTF-8, is a damaged gzip, or expands to more
    than ``max_bytes``, and :class:`SignatureError` when its seal fails (:meth:`Seal.check`) or
    it has none (unless ``unsigned``: an older backup the operator vouches for).
    """
    opener = gzip.open if path.name.endswith(".gz") else open
    seal = Seal()
    sealed = False
    try:
        with opener(path, "rb") as stream:
            for item, text in _ArrayReader(stream, max_bytes).objects():
                if sealed:
                    raise SignatureError("an object follows its signature, which must come last")
                if SIGNATURE in item:
                    seal.check(item, unsigned=unsigned)
                    sealed = True
                    continue
                seal.add(text)
                yield item
        if not (sealed or unsigned):
            raise SignatureError(
                "it has no signature: it was written before backups were signed, or its "
                "signature was removed. To restore it anyway, if you trust it, add --unsigned"
            )
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

    def objects(self) -> Iterator[tuple[dict, str]]:
        """Each object with its text as the file writes it."""
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

    def _object(self) -> tuple[dict, str]:
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
        text = self.text[self.at : end]
        self.at = end
        self.count += 1
        return value, text

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
