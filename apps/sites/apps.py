from django.apps import AppConfig


class SitesConfig(AppConfig):
    name = "apps.sites"
    label = "sites"

    def ready(self) -> None:
        # The login receiver that starts the session's clocks, connected before any login
        # (not when the middleware is first loaded: a test's force_login may come first).
        from apps.sites import middleware  # noqa: F401
