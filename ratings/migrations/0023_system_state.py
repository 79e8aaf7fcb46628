"""A rating system's state in one slot of its own: OpenSkill's mean and uncertainty move from
six nullable columns of results and standings into ``Result.state`` and ``Standing.state``
(JSON, keyed as ``systems.OpenSkill`` declares), and back on the way down."""

from django.db import migrations

import ratings.models.games

# The columns that held OpenSkill's numbers, each with its key in the state slot.
RESULT_KEYS = ("mu_before", "sigma_before", "mu_after", "sigma_after")
STANDING_KEYS = ("mu", "sigma")
BATCH = 2000


def _moved(model, keys, forwards):
    """Each row with numbers in its old columns gets them in its state (or the reverse)."""
    if forwards:
        rows = model.objects.filter(**{f"{keys[0]}__isnull": False})
    else:
        rows = model.objects.filter(state__isnull=False)
    batch = []
    for row in rows.only("pk", "state", *keys).iterator(chunk_size=BATCH):
        if forwards:
            row.state = {key: getattr(row, key) for key in keys}
        else:
            for key in keys:
                setattr(row, key, row.state.get(key))
        batch.append(row)
        if len(batch) >= BATCH:
            model.objects.bulk_update(batch, ["state", *keys])
            batch = []
    model.objects.bulk_update(batch, ["state", *keys])


def forwards(apps, schema_editor):
    _moved(apps.get_model("ratings", "Result"), RESULT_KEYS, forwards=True)
    _moved(apps.get_model("ratings", "Standing"), STANDING_KEYS, forwards=True)


def backwards(apps, schema_editor):
    _moved(apps.get_model("ratings", "Result"), RESULT_KEYS, forwards=False)
    _moved(apps.get_model("ratings", "Standing"), STANDING_KEYS, forwards=False)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0022_opponent_tally_a_row_a_pair"),
    ]

    operations = [
        migrations.AddField(
            model_name="result",
            name="state",
            field=ratings.models.games.StateField(blank=True, null=True, verbose_name="state"),
        ),
        migrations.AddField(
            model_name="standing",
            name="state",
            field=ratings.models.games.StateField(blank=True, null=True, verbose_name="state"),
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
        *(
            migrations.RemoveField(model_name="result", name=name)
            for name in ("mu_before", "sigma_before", "mu_after", "sigma_after")
        ),
        *(migrations.RemoveField(model_name="standing", name=name) for name in ("mu", "sigma")),
    ]
