"""Season tables the engine keeps (SeasonStanding, ratings/engine/seasons.py), built here for
the games already recorded."""

import django.db.models.deletion
from django.db import migrations, models


def build_seasons(apps, schema_editor):
    # Raw SQL by the league's id and system: the same statement a replay runs.
    from ratings.engine.seasons import rebuild_league

    League = apps.get_model("ratings", "League")
    for league_id, system in League.objects.order_by("pk").values_list("pk", "system"):
        rebuild_league(league_id, system)


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0015_game_reports'),
    ]

    operations = [
        migrations.CreateModel(
            name='SeasonStanding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('year', models.PositiveSmallIntegerField(verbose_name='year')),
                ('games', models.PositiveIntegerField(verbose_name='games')),
                ('career_games', models.PositiveIntegerField(verbose_name="games up to the season's end")),
                ('rating_before', models.FloatField(verbose_name='rating before the season')),
                ('rating', models.FloatField(verbose_name="rating at the season's end")),
                ('score_sum', models.FloatField(verbose_name='sum of scores')),
                ('first_places', models.PositiveIntegerField(verbose_name='first places')),
                ('shared_first_places', models.PositiveIntegerField(verbose_name='shared first places')),
                ('league', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='season_standings', to='ratings.league', verbose_name='league')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='season_standings', to='ratings.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'season standing',
                'verbose_name_plural': 'season standings',
                'constraints': [models.UniqueConstraint(fields=('league', 'year', 'player'), name='season_standing_once')],
            },
        ),
        migrations.RunPython(build_seasons, migrations.RunPython.noop, elidable=True),
    ]
