"""On PostgreSQL, the two unique indexes of the results also carry what the reads of a player's
games take from each row (INCLUDE), so those reads are index-only scans: a player's history,
statistics and head to head read their range of ``result_player_once`` (player, league,
played_at, game) and the other seats of their games from ``result_seat_once`` (game, seat),
without a visit to the table for each row (the rows of a player's games lie on as many pages as
the games). The keys and the rules they keep do not change.

SQLite has no INCLUDE: there the migration does nothing. Django's own UniqueConstraint(include=…)
is not used, because on a database without INCLUDE Django drops the whole constraint, and the
uniqueness with it; the model states the key columns, which both databases keep.
"""

from django.db import migrations

# (constraint, key columns, columns carried): what the reads of ratings/selectors take.
COVERING = [
    (
        "result_player_once",
        "player_id, league_id, played_at, game_id",
        "score, rating_before, rating_after, place",
    ),
    ("result_seat_once", "game_id, seat", "player_id, place, score"),
]


def _rebuild(schema_editor, *, carried: bool) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    table = schema_editor.quote_name("ratings_result")
    for name, keys, columns in COVERING:
        include = f" INCLUDE ({columns})" if carried else ""
        schema_editor.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {schema_editor.quote_name(name)}, "
            f"ADD CONSTRAINT {schema_editor.quote_name(name)} UNIQUE ({keys}){include}"
        )


def cover(apps, schema_editor):
    _rebuild(schema_editor, carried=True)


def uncover(apps, schema_editor):
    _rebuild(schema_editor, carried=False)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0019_league_versions"),
    ]

    operations = [migrations.RunPython(cover, uncover, elidable=False)]
