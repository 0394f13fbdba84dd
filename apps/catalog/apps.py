from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "apps.catalog"
    label = "catalog"
    verbose_name = "Hardware catalog"

    def ready(self) -> None:
        from apps.catalog import signals

        signals.connect()
