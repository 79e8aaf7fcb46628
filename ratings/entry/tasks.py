"""The entry service's background work, run by the worker (``manage.py db_worker``)."""

from django_tasks import task

from ratings.entry import confirmation
from ratings.entry.models import HeldGame


@task()
def auto_confirm(key: str) -> bool:
    """Count a held game nobody disputed once its league's window has passed; queued when the
    game is held, to run at the end of the window. Whether it recorded the game (False: it was
    confirmed, disputed or deleted meanwhile)."""
    held = HeldGame.objects.filter(key=key).first()
    if held is None:
        return False
    return confirmation.auto_confirm(held)
