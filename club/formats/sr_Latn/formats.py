"""Serbian dates as a sentence writes them: the month in the genitive ("28. novembra 2026."), not
Django's nominative ("28. novembar 2026."), whose ``F`` this ``E`` replaces. ``E`` reads the
"alt. month" names, which the club's own catalogue gives (club/formats/months.py); everything
else comes from Django's Serbian formats."""

DATE_FORMAT = "j. E Y."
DATETIME_FORMAT = "j. E Y. H:i"
MONTH_DAY_FORMAT = "j. E"
