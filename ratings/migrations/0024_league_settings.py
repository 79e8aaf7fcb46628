"""A league's rating system owns its settings: the K-factor, the speed and the refe cap move from
columns every league had into ``League.settings`` (JSON), each into the leagues of the system
that has it (``systems.ClassicEloSettings``, ``FideEloSettings``, ``PrefkoSettings``); the other
leagues' copies, which nothing read, are dropped. Back down, each returns to its column."""

from django.db import migrations, models

# The system codes as they stood when this migration was written, and each one's settings:
# a migration keeps the history it was written in, whatever the systems become.
OWN_SETTINGS = {"elo": ("elo_k",), "fide": ("speed",), "prefko": ("refas",)}
DEFAULTS = {"elo_k": 32, "speed": "standard", "refas": None}


def forwards(apps, schema_editor):
    League = apps.get_model("ratings", "League")
    for league in League.objects.all():
        names = OWN_SETTINGS.get(league.system, ())
        league.settings = {name: getattr(league, name) for name in names}
        league.save(update_fields=["settings"])


def backwards(apps, schema_editor):
    League = apps.get_model("ratings", "League")
    for league in League.objects.all():
        for name, default in DEFAULTS.items():
            setattr(league, name, (league.settings or {}).get(name, default))
        league.save(update_fields=list(DEFAULTS))


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0023_system_state"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="settings",
            field=models.JSONField(blank=True, default=dict, verbose_name="settings"),
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
        migrations.RemoveConstraint(
            model_name="league",
            name="league_elo_k_positive",
        ),
        migrations.RemoveField(
            model_name="league",
            name="elo_k",
        ),
        migrations.RemoveField(
            model_name="league",
            name="refas",
        ),
        migrations.RemoveField(
            model_name="league",
            name="speed",
        ),
    ]
