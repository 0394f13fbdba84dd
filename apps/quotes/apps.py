from django.apps import AppConfig


class QuotesConfig(AppConfig):
    name = "apps.quotes"
    label = "quotes"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the defusedxml startup check)
