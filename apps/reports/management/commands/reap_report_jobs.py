"""`reap_report_jobs`: PDF jobs stuck in RUNNING past their deadline become FAILED with the
reason (a worker killed mid-render). Run it from cron every few minutes; the report page also
reaps when someone looks."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.reports.services import report_jobs_reap


class Command(BaseCommand):
    help = "Fail PDF jobs stuck in RUNNING past their deadline, with the reason."

    def handle(self, *args: Any, **options: Any) -> None:
        reaped = report_jobs_reap()
        self.stdout.write(f"{reaped} stuck PDF job{'s' if reaped != 1 else ''} failed")
