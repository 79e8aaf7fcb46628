from django.db import migrations, models


def papers_back_on_the_number(apps, schema_editor):
    """Back before the leagues' papers numbers: the papers' tables' triggers change the
    leagues' number again before the column goes (SQLite refuses to drop a column a trigger
    names; the forward way, ratings.versioning.install makes them after migrate)."""
    from ratings.versioning import PAPER_TABLES, trigger_statements

    connection = schema_editor.connection
    with connection.cursor() as cursor:
        existing = set(connection.introspection.table_names(cursor))
        for table in sorted(PAPER_TABLES & existing):
            for statement in trigger_statements(connection.vendor, table, league_papers=False):
                cursor.execute(statement)
        if connection.vendor == "postgresql":
            cursor.execute("DROP FUNCTION IF EXISTS ratings_bump_league_papers(bigint[], boolean)")


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0034_season_versions'),
    ]

    # In place on both databases: SQLite would add a column that has a default by remaking the
    # table, whose rename re-reads every trigger of the schema, and every league table's
    # data-version triggers name this table ("no such table" while it is gone: see 0028).
    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE ratings_leagueversion ADD COLUMN papers bigint DEFAULT 0 NOT NULL",
                    "ALTER TABLE ratings_leagueversion DROP COLUMN papers",
                ),
                migrations.RunSQL(
                    "ALTER TABLE ratings_leagueversion ADD COLUMN papers_txid bigint NULL",
                    "ALTER TABLE ratings_leagueversion DROP COLUMN papers_txid",
                ),
            ],
            state_operations=[
                migrations.AddField(
                    model_name='leagueversion',
                    name='papers',
                    field=models.BigIntegerField(db_default=0),
                ),
                migrations.AddField(
                    model_name='leagueversion',
                    name='papers_txid',
                    field=models.BigIntegerField(editable=False, null=True),
                ),
            ],
        ),
        migrations.RunPython(migrations.RunPython.noop, papers_back_on_the_number),
    ]
