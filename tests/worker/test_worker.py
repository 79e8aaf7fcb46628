"""The background worker (ratings.worker, manage.py db_worker): recurring work is queued once,
run when due by ``db_worker --batch``, and queued again for its next run after each run."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks import task

from ratings import worker
from tests.builders import run_tasks

pytestmark = pytest.mark.django_db

RUNS: list[str] = []


@task()
def tick() -> str:
    RUNS.append("tick")
    return "ticked"


@pytest.fixture
def hourly(monkeypatch):
    """``tick`` every hour, the only recurring work (the club's own, the digest and the
    reminders, set aside for the test)."""
    RUNS.clear()
    monkeypatch.setattr(worker, "_RECURRING", {})
    worker.recurring_add(tick, lambda now: now + timedelta(hours=1))
    return tick


def test_recurring_work_is_queued_once_and_again_after_each_run(hourly):
    assert worker.schedule() == 1
    assert worker.schedule() == 0  # one run queued is enough
    [queued] = worker.queued_runs(hourly)
    assert queued.run_after > timezone.now() + timedelta(minutes=59)
    run_tasks()
    assert RUNS == []  # not due yet
    run_tasks(due_by=timezone.now() + timedelta(hours=2))
    assert RUNS == ["tick"]
    # The run is over: the next one is queued, an hour from now.
    [following] = worker.queued_runs(hourly)
    assert following.pk != queued.pk and following.run_after > timezone.now()


def test_the_worker_queues_recurring_work_when_it_starts(hourly):
    run_tasks()
    assert len(worker.queued_runs(hourly)) == 1
