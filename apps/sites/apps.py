from django.apps import AppConfig


class SitesConfig(AppConfig):
    name = "apps.sites"
    label = "sites"

    def ready(self) -> None:
        from django.core.signals import request_finished

        # The login receiver that starts the session's clocks, connected before any login
        # (not when the middleware is first loaded: a test's force_login may come first).
        from apps.sites import middleware  # noqa: F401
        from apps.sites.warmup import request_finished_count

        # A serving process's long-lived objects frozen out of the collector's scans.
        request_finished.connect(request_finished_count, dispatch_uid="sites.warmup")
