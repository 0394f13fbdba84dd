from django.core.management.base import BaseCommand

from apps.catalog.services import catalog_load


class Command(BaseCommand):
    help = "Load the bundled hardware catalog and model presets (fixtures/catalog.json)."

    def handle(self, *args: object, **options: object) -> None:
        counts = catalog_load()
        self.stdout.write(
            "catalog: {gpus} GPUs, {systems} systems, {parts} part numbers, {models} models, "
            "{rental_rates} rental rates".format(**counts)
        )
