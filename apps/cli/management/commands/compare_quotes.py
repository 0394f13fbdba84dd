"""`compare_quotes Q1 Q2 [Q3 …] --workload W --facility F [--format json|text]`.

Reviews every quote against the same workload and facility (as `review_quote` does, with the
same intake, engine and catalog), then ranks them: fit first, money second, the building third
(apps/review/compare.py). Prints `{"quotes": [...], "best": <index>, "why": "…"}`.

Exit 0 when the comparison completed; 2 with one `error:` line naming the file for bad input
(an unreadable quote, invalid workload JSON, fewer than two quotes), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from apps.catalog.snapshot import CatalogSnapshot
from apps.cli.management.commands.review_quote import (
    BadInput,
    catalog_for_command,
    quote_bytes_review,
    quote_file_read,
)
from apps.cli.management.commands.review_quote import Command as ReviewQuoteCommand
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, ReviewReport, Workload


class Command(ReviewQuoteCommand):
    """Shares review_quote's parser (argparse errors are `error:` lines, exit 2) and its
    last-resort handling; only the arguments and the work differ."""

    help = "Compare competing vendor quotes for one workload and facility: fit first, money second."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("quote_files", nargs="+", help="two or more vendor quotes")
        parser.add_argument(
            "--workload", required=True, help="workload JSON, saved workload or preset"
        )
        parser.add_argument(
            "--facility", required=True, help="facility JSON, saved facility or preset"
        )
        parser.add_argument("--format", choices=("json", "text"), default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        files = options["quote_files"]
        try:
            output = self._compare(options)
        except BadInput as exc:
            self._fail(str(exc))
        except Exception as exc:  # the last resort: one line, never a traceback
            names = ", ".join(Path(f).name for f in files)
            self._fail(f"{names}: internal error: {type(exc).__name__}")
        self.stdout.write(output, ending="" if output.endswith("\n") else "\n")

    def _compare(self, options: dict[str, Any]) -> str:
        from apps.review.engine.compare import CompareError, comparison_text, quotes_compare
        from apps.review.inputs import facility_load, workload_load

        files: list[str] = options["quote_files"]
        if len(files) < 2:
            raise BadInput(f"{Path(files[0]).name}: compare needs two quotes or more")
        catalog = catalog_for_command()
        try:
            workload = workload_load(options["workload"], catalog=catalog)
            facility = facility_load(options["facility"])
        except ReviewInputError as exc:
            raise BadInput(str(exc)) from None
        reviewed = [
            (file, _review_file(Path(file), workload, facility, catalog, options["workload"]))
            for file in files
        ]
        try:
            comparison = quotes_compare(reviewed=reviewed)
        except CompareError as exc:
            raise BadInput(str(exc)) from None
        if options["format"] == "json":
            return json.dumps(comparison.model_dump(mode="json"), indent=2, ensure_ascii=False)
        return comparison_text(comparison)


def _review_file(
    path: Path, workload: Workload, facility: Facility, catalog: CatalogSnapshot, workload_arg: str
) -> ReviewReport:
    """One quote through intake and the engine, its bad input named after its file."""
    name, data = quote_file_read(path)
    _, report = quote_bytes_review(
        data, name, workload=workload, facility=facility, catalog=catalog, workload_arg=workload_arg
    )
    return report
