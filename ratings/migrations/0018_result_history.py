"""Each result carries its game's league and time and its place at the table, and a player's
results are indexed by (player, league, played_at, game): a player's history in a league is one
range of that index, with no join to the games.

The copies of existing results are filled by one UPDATE ... FROM the games and leagues (SQLite
3.33 and PostgreSQL both take it), their places counted in it. The
systems where a lower score is better are written here as they were when this migration was
made (ratings.systems.RatingSystem.lower_score_is_better), so that the migration stays what it
was whatever the code becomes.
"""

import django.db.models.deletion
from django.db import migrations, models

LOWER_SCORE_IS_BETTER = ("prefko", "rayter_lowscore", "openskill_lowscore")


def fill_copies(apps, schema_editor):
    """One UPDATE, each row written once: on PostgreSQL a row this transaction wrote already
    would have its foreign keys checked again at the end (a pending check per row, which the
    ALTER TABLEs after it refuse)."""
    connection = schema_editor.connection
    quote = connection.ops.quote_name
    result = quote(apps.get_model("ratings", "Result")._meta.db_table)
    game = quote(apps.get_model("ratings", "Game")._meta.db_table)
    league = quote(apps.get_model("ratings", "League")._meta.db_table)
    codes = ", ".join(f"'{code}'" for code in LOWER_SCORE_IS_BETTER)
    better = (
        f"CASE WHEN l.system IN ({codes}) THEN o.score < {result}.score "
        f"ELSE o.score > {result}.score END"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {result} SET league_id = g.league_id, played_at = g.played_at, "
            f"place = 1 + (SELECT COUNT(*) FROM {result} o "
            f"WHERE o.game_id = {result}.game_id AND {better}) "
            f"FROM {game} g JOIN {league} l ON l.id = g.league_id "
            f"WHERE g.id = {result}.game_id"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0017_rating_corrections"),
    ]

    operations = [
        # Without its constraint while it is filled (on PostgreSQL a checked key would queue a
        # check per row until the end of the transaction, and ALTER TABLE refuses to run with
        # them pending); the constraint comes with the AlterField, checked in one pass.
        migrations.AddField(
            model_name="result",
            name="league",
            field=models.ForeignKey(
                db_constraint=False,
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
