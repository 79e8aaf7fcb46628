"""Each player's record against each opponent per league, kept by the engine (OpponentTally,
ratings/engine/opponents.py), counted here for the games already recorded."""

import django.db.models.deletion
from django.db import migrations, models


def count_tallies(apps, schema_editor):
    # The statement ratings.engine.opponents.rebuild runs, for every league at once, written
    # out here so that the migration keeps doing what it did when the engine's changes.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ratings_opponenttally
                (league_id, player_id, opponent_id, games, ahead, level, behind)
            SELECT a.league_id, a.player_id, b.player_id,
                   COUNT(*),
                   SUM(CASE WHEN a.place < b.place THEN 1 ELSE 0 END),
                   SUM(CASE WHEN a.place = b.place THEN 1 ELSE 0 END),
                   SUM(CASE WHEN a.place > b.place THEN 1 ELSE 0 END)
            FROM ratings_result a
            JOIN ratings_result b ON b.game_id = a.game_id AND b.player_id <> a.player_id
            GROUP BY a.league_id, a.player_id, b.player_id
            """
        )


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0020_covering_result_indexes'),
    ]

    operations = [
        migrations.CreateModel(
            name='OpponentTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('games', models.PositiveIntegerField(verbose_name='games together')),
                ('ahead', models.PositiveIntegerField(verbose_name='finished ahead')),
                ('level', models.PositiveIntegerField(verbose_name='finished level')),
                ('behind', models.PositiveIntegerField(verbose_name='finished behind')),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='opponent_tallies', to='ratings.league', verbose_name='league')),
                ('opponent', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='ratings.player', verbose_name='opponent')),
                ('player', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='opponent_tallies', to='ratings.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'opponent tally',
                'verbose_name_plural': 'opponent tallies',
                'constraints': [models.UniqueConstraint(fields=('player', 'league', 'opponent'), name='opponent_tally_once')],
            },
        ),
        migrations.RunPython(count_tallies, migrations.RunPython.noop, elidable=True),
    ]
