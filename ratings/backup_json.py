"""The JSON that backup_club writes: Django's, one object a line, every microsecond kept.

Django's JSON encoder cuts datetimes to milliseconds (as JavaScript reads them). A backup must
give back exactly what it was given: games are rated in (played_at, id) order, so a played_at
rounded on the way through could put two games in another order on the next replay. loaddata
reads these files with Django's own JSON deserializer, which parses full microseconds; older
backups put all the objects on one line.
"""

import datetime
import json

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder

FORMAT = "club-json"
# What backup_club writes (dumpdata's labels).
BACKED_UP = ("auth.group", "auth.user", "ratings")


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
