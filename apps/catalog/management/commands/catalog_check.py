from django.core.management.base import BaseCommand

from apps.catalog.services import catalog_unverified


class Command(BaseCommand):
    help = "List unverified catalog figures and rows without a source."

    def handle(self, *args: object, **options: object) -> None:
        problems = catalog_unverified()
        for key, field, raw in problems:
            self.stdout.write(f"{key:32} {field:22} {raw}")
        rows = len({p[0] for p in problems})
        self.stdout.write(f"{len(problems)} unverified figures or missing sources in {rows} rows")
