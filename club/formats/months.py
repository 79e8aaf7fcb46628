"""The months as a date names them (``E`` in a date format: "alt. month" in the catalogues).

Django's Serbian catalogue gives them in the nominative ("novembar"); a date needs the genitive
("28. novembra 2026."), which the club's catalogue (``locale/``, read before Django's) gives. The
names are marked here so that ``makemessages`` keeps them; nothing imports this module.
"""

from django.utils.translation import pgettext_lazy

GENITIVE_MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
