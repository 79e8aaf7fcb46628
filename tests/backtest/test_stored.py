"""A backtest run as stored (ratings/backtest/stored.py): the command's table and JSON, the row
the page reads, and the backup that keeps it."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ratings.backtest import run, stored
from ratings.models import StoredBacktest
from tests.builders import backup_objects

pytestmark = pytest.mark.django_db


def test_the_command_prints_a_table_and_json(pecking_order):
    out = StringIO()
    call_command("backtest", pecking_order.slug, stdout=out)
    assert "Head-to-head, classic Elo *" in out.getvalue()
    assert "30 games (too few to tell the systems apart)" in out.getvalue()
    out = StringIO()
    call_command("backtest", pecking_order.slug, "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["games"] == 30 and data["systems"][0]["established"]["accuracy"] == 1
    assert len(data["systems"][0]["all"]["calibration"]) == 10


def test_the_command_refuses_an_unknown_league():
    with pytest.raises(CommandError, match="Unknown league"):
        call_command("backtest", "nowhere", stdout=StringIO())


def test_the_command_stores_the_figures_for_the_page(pecking_order):
    call_command("backtest", pecking_order.slug, stdout=StringIO())
    call_command("backtest", pecking_order.slug, "--json", stdout=StringIO())
    row = StoredBacktest.objects.get(league=pecking_order)  # one row, refreshed
    assert row.games == 30
    assert row.figures == stored.as_json(run.league_backtest(pecking_order))
    assert [s["code"] for s in row.figures["systems"]] == ["elo", "fide", "openskill_highscore"]


def test_a_stored_backtest_is_in_the_backup(pecking_order, tmp_path):
    """Derived from the games, but minutes of work for a big league: without it a restored
    league's page said it was never computed (tests/test_backup.py restores it)."""
    call_command("backtest", pecking_order.slug, stdout=StringIO())
    path = tmp_path / "club.json"
    call_command("backup_club", str(path), stdout=StringIO())
    [kept] = [obj for obj in backup_objects(path) if obj["model"] == "ratings.storedbacktest"]
    assert kept["fields"]["figures"] == StoredBacktest.objects.get().figures
