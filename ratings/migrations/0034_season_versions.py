from django.db import migrations, models


def drop_season_triggers(apps, schema_editor):
    """Back before the seasons' versions: the triggers that write them go first (the forward
    way, ratings.versioning.install makes them after migrate)."""
    from ratings.versioning import season_trigger_statements

    connection = schema_editor.connection
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            for statement in season_trigger_statements(connection.vendor, table, drop=True):
                cursor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0033_deal_one_shape'),
    ]

    operations = [
        migrations.CreateModel(
            name='SeasonVersion',
            fields=[
                ('pk', models.CompositePrimaryKey('league_id', 'year', blank=True, editable=False, primary_key=True, serialize=False)),
                ('league_id', models.BigIntegerField()),
                ('year', models.IntegerField()),
                ('number', models.BigIntegerField(db_default=0)),
                ('txid', models.BigIntegerField(editable=False, null=True)),
            ],
            options={
                'verbose_name': 'season data version',
            },
        ),
        migrations.RunPython(migrations.RunPython.noop, drop_season_triggers),
    ]
