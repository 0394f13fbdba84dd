from django.core.management.base import BaseCommand

from apps.sites.demo import demo_seed


class Command(BaseCommand):
    help = "Create demo organisations, users (one per role), workloads and facilities."

    def handle(self, *args: object, **options: object) -> None:
        result = demo_seed()
        self.stdout.write(f"demo data ready ({result['users_created']} users created)")
