"""Each result carries its game's league and time and its place at the table, and a player's
results are indexed by (player, league, played_at, game): a player's history in a league is one
range of that index, with no join to the games.

The copies of existing results are filled by one UPDATE ... FROM the games (SQLite 3.33 and
PostgreSQL both take it), and their places by one UPDATE per direction of the score. The
systems where a lower score is better are written here as they were when this migration was
made (ratings.systems.RatingSystem.lower_score_is_better), so that the migration stays what it
was whatever the code becomes.
"""

import django.db.models.deletion
from django.db import migrations, models

LOWER_SCORE_IS_BETTER = ("prefko", "rayter_lowscore", "openskill_lowscore")


def fill_copies(apps, schema_editor):
    connection = schema_editor.connection
    quote = connection.ops.quote_name
    result = quote(apps.get_model("ratings", "Result")._meta.db_table)
    game = quote(apps.get_model("ratings", "Game")._meta.db_table)
    league = quote(apps.get_model("ratings", "League")._meta.db_table)
    codes = ", ".join(f"'{code}'" for code in LOWER_SCORE_IS_BETTER)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {result} SET league_id = g.league_id, played_at = g.played_at "
            f"FROM {game} g WHERE g.id = {result}.game_id"
        )
        for better, among in (("<", "IN"), (">", "NOT IN")):
            cursor.execute(
                f"UPDATE {result} SET place = 1 + ("
                f"SELECT COUNT(*) FROM {result} o WHERE o.game_id = {result}.game_id "
                f"AND o.score {better} {result}.score) "
                f"WHERE league_id IN (SELECT id FROM {league} WHERE system {among} ({codes}))"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0015_game_reports"),
    ]

    operations = [
        migrations.AddField(
            model_name="result",
            name="league",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="ratings.league",
                verbose_name="league",
            ),
        ),
        migrations.AddField(
            model_name="result",
            name="played_at",
            field=models.DateTimeField(editable=False, null=True, verbose_name="played at"),
        ),
        migrations.AddField(
            model_name="result",
            name="place",
            field=models.PositiveSmallIntegerField(editable=False, null=True, verbose_name="place"),
        ),
        migrations.RunPython(fill_copies, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="result",
            name="league",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="ratings.league",
                verbose_name="league",
            ),
        ),
        migrations.AlterField(
            model_name="result",
            name="played_at",
            field=models.DateTimeField(editable=False, verbose_name="played at"),
        ),
        migrations.AlterField(
            model_name="result",
            name="place",
            field=models.PositiveSmallIntegerField(editable=False, verbose_name="place"),
        ),
        migrations.RemoveConstraint(
            model_name="result",
            name="result_player_once",
        ),
        migrations.AddConstraint(
            model_name="result",
            constraint=models.UniqueConstraint(
                fields=("player", "league", "played_at", "game"), name="result_player_once"
            ),
        ),
    ]
