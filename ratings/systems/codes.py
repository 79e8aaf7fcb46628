"""The codes a league stores: its system, the kind of game it plays, a FIDE game's speed."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy


class System(models.TextChoices):
    """The code a league stores for its rating system."""

    PREFKO = "prefko", gettext_lazy("Preferans (prefko, lower is better)")
    RAYTER_HIGHSCORE = "rayter_highscore", gettext_lazy("Scored game, highest score wins (Rayter)")
    RAYTER_LOWSCORE = "rayter_lowscore", gettext_lazy("Scored game, lowest score wins (Rayter)")
    RAYTER_WINNER_TAKES_ALL = (
        "rayter_winnertakesall",
        gettext_lazy("Scored game, winner takes all (Rayter)"),
    )
    ELO = "elo", gettext_lazy("Head-to-head, classic Elo")
    FIDE = "fide", gettext_lazy("Head-to-head, FIDE Elo")
    OPENSKILL_HIGHSCORE = (
        "openskill_highscore",
        gettext_lazy("Scored game, highest score wins (OpenSkill)"),
    )
    OPENSKILL_LOWSCORE = (
        "openskill_lowscore",
        gettext_lazy("Scored game, lowest score wins (OpenSkill)"),
    )


class Kind(models.TextChoices):
    """What is played, which decides the entry form: several systems may rate one kind."""

    PREFERANS = "preferans", gettext_lazy("Preferans")
    SCORED = "scored", gettext_lazy("Scored game")
    DUEL = "duel", gettext_lazy("Head-to-head")


class Speed(models.TextChoices):
    STANDARD = "standard", gettext_lazy("Standard")
    RAPID = "rapid", gettext_lazy("Rapid")
    BLITZ = "blitz", gettext_lazy("Blitz")
