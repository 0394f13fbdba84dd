from datetime import timedelta

from django.core.management.base import BaseCommand, CommandParser

from apps.quotes.storage import blobs_orphaned_sweep


class Command(BaseCommand):
    help = (
        "Delete stored originals that no quote row points at (an upload killed between writing "
        "the file and committing its row). Run it from cron at least daily."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than-hours", type=float, default=24.0)

    def handle(self, *args: object, **options: object) -> None:
        hours = float(options["older_than_hours"])  # type: ignore[arg-type]
        removed = blobs_orphaned_sweep(older_than=timedelta(hours=hours))
        self.stdout.write(f"removed {len(removed)} orphaned upload(s) older than {hours:g} h")
