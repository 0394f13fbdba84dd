"""`manage.py rates_import rates.csv`: load dated exchange rates (currency, usd_per_unit,
rates_of, source[, verified]); without a file, the bundled fixtures/exchange_rates.csv."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.review.money import RATES_FIXTURE, RateImportError, rates_import


class Command(BaseCommand):
    help = "Import exchange rates from a CSV (currency,usd_per_unit,rates_of,source,verified)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default=str(RATES_FIXTURE))

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from exc
        try:
            count = rates_import(text, path=str(path))
        except RateImportError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{count} rate(s) imported from {path}.")
