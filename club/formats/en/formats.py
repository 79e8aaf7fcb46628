"""English as the club writes it: ISO dates and a 24-hour clock, not the US "11/15/2026 6:30 p.m.".

Only these formats change; everything else (e.g. DATE_FORMAT "N j, Y") comes from Django's
English formats. Serbian and Russian use Django's own formats ("15.11.2026. 18:30").
"""

TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
# The admin's lists write moments this way: the site's, not "Nov. 26, 2026, 4:23 p.m.".
DATETIME_FORMAT = "Y-m-d H:i"
