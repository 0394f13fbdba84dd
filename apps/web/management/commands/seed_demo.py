from django.core.management.base import BaseCommand

from apps.web.demo import demo_reviews_seed, demo_seed


class Command(BaseCommand):
    help = (
        "Create demo organisations, users (one per role), workloads and facilities, and review "
        "the demo quotes in fixtures/demo_quotes/ (the field guide's wrong purchases)."
    )

    def handle(self, *args: object, **options: object) -> None:
        result = demo_seed()
        self.stdout.write(f"demo data ready ({result['users_created']} users created)")
        reviews = demo_reviews_seed()
        self.stdout.write(f"demo reviews ready ({reviews} created)")
