from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Club ratings")

    def ready(self):
        import club.checks  # noqa: F401  (registers the club's system checks)
        from ratings import versioning

        # After every migrate and flush: the version row and its triggers on every table.
        post_migrate.connect(versioning.install, sender=self, dispatch_uid="ratings.versioning")
