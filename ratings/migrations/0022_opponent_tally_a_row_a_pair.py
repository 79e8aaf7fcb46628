"""Opponents' tallies: one row a pair (the smaller id first), the pair the primary key. The table
is made again and counted again from the results, as 0021 first counted it: its rows are derived
from the games, and a table cannot change its primary key in place."""

import django.db.models.deletion
from django.db import migrations, models


def count_tallies(apps, schema_editor, *, pairs="b.player_id > a.player_id"):
    # The statement ratings.engine.opponents.rebuild runs, for every league at once, written
    # out here so that the migration keeps doing what it did when the engine's changes.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO ratings_opponenttally
                (league_id, player_id, opponent_id, games, ahead, level, behind)
            SELECT a.league_id, a.player_id, b.player_id,
                   COUNT(*),
                   SUM(CASE WHEN a.place < b.place THEN 1 ELSE 0 END),
                   SUM(CASE WHEN a.place = b.place THEN 1 ELSE 0 END),
                   SUM(CASE WHEN a.place > b.place THEN 1 ELSE 0 END)
            FROM ratings_result a
            JOIN ratings_result b ON b.game_id = a.game_id AND {pairs}
            GROUP BY a.league_id, a.player_id, b.player_id
            """
        )


def count_both_ways(apps, schema_editor):
    """Undone: the table of 0021 (made again, empty), a row for either side of a pair."""
    count_tallies(apps, schema_editor, pairs="b.player_id <> a.player_id")


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0021_opponent_tallies"),
    ]

    operations = [
        # Undone last, into the table of 0021 that undoing the next two made again.
        migrations.RunPython(migrations.RunPython.noop, count_both_ways, elidable=True),
        migrations.DeleteModel(name="OpponentTally"),
        migrations.CreateModel(
            name="OpponentTally",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "player",
                        "league",
                        "opponent",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("games", models.PositiveIntegerField(verbose_name="games together")),
                ("ahead", models.PositiveIntegerField(verbose_name="finished ahead")),
                ("level", models.PositiveIntegerField(verbose_name="finished level")),
                ("behind", models.PositiveIntegerField(verbose_name="finished behind")),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="opponent_tallies",
                        to="ratings.league",
                        verbose_name="league",
                    ),
                ),
                (
                    "opponent",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="ratings.player",
                        verbose_name="opponent",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="opponent_tallies",
                        to="ratings.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "opponent tally",
                "verbose_name_plural": "opponent tallies",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("player__lt", models.F("opponent"))),
                        name="opponent_tally_pair_in_order",
                    )
                ],
            },
        ),
        migrations.RunPython(count_tallies, migrations.RunPython.noop, elidable=True),
    ]
