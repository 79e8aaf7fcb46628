"""One identity for a name: Player.name_key (ratings.player_names.name_key) with its unique
constraint, instead of a constraint on SQL LOWER(name), which folds differently from Python; and
the name of a merged player kept on its alias."""

from django.db import migrations, models

from ratings.player_names import name_key


def fill_name_keys(apps, schema_editor):
    Player = apps.get_model("ratings", "Player")
    players = list(Player.objects.only("pk", "name").order_by("pk"))
    owners = {}
    for player in players:
        player.name_key = name_key(player.name)
        other = owners.setdefault(player.name_key, player)
        if other is not player:
            raise RuntimeError(
                f"The players {other.name!r} (id {other.pk}) and {player.name!r} (id "
                f"{player.pk}) are one name to the club: rename or merge one of them "
                "(manage.py merge_players), then migrate again."
            )
    Player.objects.bulk_update(players, ["name_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0012_deal_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop, elidable=True),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_name_unique_ci",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("name_key",), name="player_name_key_unique"),
        ),
        migrations.AddField(
            model_name="playeralias",
            name="name",
            field=models.CharField(blank=True, default="", max_length=60, verbose_name="merged name"),
        ),
        migrations.AddField(
            model_name="playeralias",
            name="merged_id",
            field=models.PositiveIntegerField(blank=True, db_index=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="playeralias",
            name="name_key",
            field=models.TextField(blank=True, db_index=True, default="", editable=False),
        ),
    ]
