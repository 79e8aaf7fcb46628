from importlib import import_module

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Club ratings")
    # The feature packages that own models of this app. ratings.models holds the core's only
    # (it never imports a feature), so Django is shown these here, while it loads models.
    feature_models = (
        "ratings.entry.models",
        "ratings.events.models",
        "ratings.papers.models",
        "ratings.accounts.models",
        "ratings.voice.models",
    )

    def import_models(self):
        super().import_models()
        for module in self.feature_models:
            import_module(module)

    def ready(self):
        import club.checks  # noqa: F401  (registers the club's system checks)
        from ratings import engine, versioning
        from ratings.accounts.merging import MERGE_PART as ACCOUNTS_MERGE_PART
        from ratings.entry.merging import MERGE_PART as HELD_MERGE_PART
        from ratings.events.merging import MERGE_PART as EVENTS_MERGE_PART
        from ratings.papers.merging import MERGE_PART as PAPERS_MERGE_PART

        # The features' rows that name players, moved by every merge: the engine names none
        # of their models. Papers first: their leagues are locked with the games'.
        engine.merge_part_add(PAPERS_MERGE_PART)
        engine.merge_part_add(EVENTS_MERGE_PART)
        engine.merge_part_add(HELD_MERGE_PART)
        engine.merge_part_add(ACCOUNTS_MERGE_PART)

        # What interfaces keep beside a game once it is recorded, by name: a game held for the
        # table's confirmation is recorded later, by another request or the worker. Both are
        # the paper's: the API (django-ninja and pydantic, slow to import) is loaded by its
        # URLs only, not at every command's start.
        from ratings.entry import confirmation
        from ratings.papers import services as paper_services

        confirmation.then_add(paper_services.LINK_RECORDED_GAME, paper_services.link_recorded_game)
        confirmation.then_add(paper_services.KEEP_DEAL_LOG, paper_services.keep_deal_log)

        # The club's voice: games that count and nights' rounds and standings queue their
        # posts to the chats, as do nights planned, moved and cancelled; the weekly digest and
        # the day-before reminders are the worker's recurring work.
        from ratings import worker
        from ratings.entry.signals import game_counted
        from ratings.events import signals as event_signals
        from ratings.voice import digest as voice_digest
        from ratings.voice import receivers as voice
        from ratings.voice import reminders as voice_reminders
        from ratings.voice import tasks as voice_tasks

        game_counted.connect(voice.game_counted, dispatch_uid="ratings.voice.game")
        event_signals.round_drawn.connect(voice.round_drawn, dispatch_uid="ratings.voice.round")
        event_signals.event_closed.connect(voice.event_closed, dispatch_uid="ratings.voice.event")
        event_signals.night_planned.connect(voice.night_planned, dispatch_uid="ratings.voice.plan")
        event_signals.night_moved.connect(voice.night_moved, dispatch_uid="ratings.voice.move")
        event_signals.night_cancelled.connect(
            voice.night_cancelled, dispatch_uid="ratings.voice.cancel"
        )
        worker.recurring_add(voice_tasks.weekly_digest, voice_digest.next_run)
        worker.recurring_add(voice_tasks.day_before_reminders, voice_reminders.next_run)

        # After every migrate and flush: the version row and its triggers on every table.
        post_migrate.connect(versioning.install, sender=self, dispatch_uid="ratings.versioning")
