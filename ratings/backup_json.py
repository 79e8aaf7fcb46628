"""The JSON that backup_club writes: Django's, with every microsecond of every timestamp kept.

Django's JSON encoder cuts datetimes to milliseconds (as JavaScript reads them). A backup must
give back exactly what it was given: games are rated in (played_at, id) order, so a played_at
rounded on the way through could put two games in another order on the next replay. loaddata
reads these files with Django's own JSON deserializer, which parses full microseconds.
"""

import datetime

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder

FORMAT = "club-json"


class ExactJSONEncoder(DjangoJSONEncoder):
    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self):
        super()._init_options()
        self.json_kwargs["cls"] = ExactJSONEncoder


Deserializer = django_json.Deserializer
