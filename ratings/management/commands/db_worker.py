"""``manage.py db_worker``: django-tasks-db's worker, which first queues the club's recurring
work (:func:`ratings.worker.schedule`) and queues it again each time a run of it ends."""

from django_tasks.signals import task_finished
from django_tasks_db.management.commands import db_worker

from ratings import worker


class Command(db_worker.Command):
    help = db_worker.Command.help

    def handle(self, *args, **options):
        worker.schedule()
        task_finished.connect(_reschedule, dispatch_uid="ratings.worker.reschedule")
        try:
            return super().handle(*args, **options)
        finally:
            task_finished.disconnect(dispatch_uid="ratings.worker.reschedule")


def _reschedule(sender, task_result, **kwargs) -> None:
    if any(item.task.module_path == task_result.task.module_path for item in worker.recurring()):
        worker.schedule()
