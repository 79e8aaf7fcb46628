"""The background worker: work that must not hold up a request (auto-confirming games, posts to
the club's chats, reminders, digests) runs as tasks of Django's tasks framework (its backport,
django-tasks), queued as rows of the club's own database by django-tasks-db.

Why the database: a task enqueued inside the transaction that asks for it (a game recorded, a
game confirmed) exists exactly when that transaction commits, so no post is ever sent about a
game that was rolled back, and nothing is lost between the write and the queue. ``manage.py
db_worker`` runs the tasks; ``db_worker --batch`` runs those that are due and exits.

Recurring work (a weekly digest, the day-before reminders) is a task registered here with the
rule for its next run: :func:`schedule` keeps exactly one run of each queued. The worker
schedules them when it starts and again each time one of them has run, so a club needs no cron.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django_tasks.base import Task, TaskResultStatus
from django_tasks_db.models import DBTaskResult


@dataclass(frozen=True)
class Recurring:
    """A task the worker runs again and again, with no arguments: ``next_run(now)`` is when."""

    task: Task
    next_run: Callable[[datetime], datetime]


_RECURRING: dict[str, Recurring] = {}


def recurring_add(task: Task, next_run: Callable[[datetime], datetime]) -> None:
    """Register recurring work (called from an app's ``ready``); the same task twice is one."""
    _RECURRING[task.module_path] = Recurring(task, next_run)


def recurring() -> list[Recurring]:
    return list(_RECURRING.values())


def schedule(now: datetime | None = None) -> int:
    """Queue the next run of every recurring task that has none queued; how many were queued.
    Two workers starting at the same moment may both queue one: a recurring task is written to
    do nothing twice (a digest remembers the week it went out), so a second run is harmless."""
    now = now or timezone.now()
    queued = 0
    for item in recurring():
        if queued_runs(item.task):
            continue
        item.task.using(run_after=item.next_run(now)).enqueue()
        queued += 1
    return queued


def queued_runs(task: Task) -> list[DBTaskResult]:
    """The runs of ``task`` waiting in the queue, soonest first (for tests and the admin)."""
    return list(
        DBTaskResult.objects.filter(
            task_path=task.module_path, status=TaskResultStatus.READY
        ).order_by("run_after")
    )
