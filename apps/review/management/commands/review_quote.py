"""`review_quote QUOTE_FILE --workload W --facility F [--format json|text] [--pdf OUT.pdf]`.

The command line of CONTRACT.md. Exit 0 when the review completed, whatever the verdict; exit 2
with one line on stderr for bad input: "error: quote.csv, row 2, column 'Qty': quantity -2 is
negative". Never a traceback: anything unexpected is "error: quote.csv: internal error: T".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError

from apps.catalog.snapshot import CatalogSnapshot, snapshot_from_fixture
from apps.review.errors import ReviewInputError

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """One line for stderr, already naming the file."""


class Command(BaseCommand):
    help = "Review a vendor quote against a workload and a facility (CONTRACT.md)."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def error(message: str) -> NoReturn:
            sys.stderr.write(f"error: {message}\n")
            raise SystemExit(EXIT_BAD_INPUT)

        parser.error = error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("quote_file", help="the vendor quote (.csv or .xlsx)")
        parser.add_argument(
            "--workload", required=True, help="workload JSON, saved workload or preset"
        )
        parser.add_argument(
            "--facility", required=True, help="facility JSON, saved facility or preset"
        )
        parser.add_argument("--format", choices=("json", "text"), default="text")
        parser.add_argument("--pdf", metavar="OUT.pdf", help="also write the PDF report here")

    def handle(self, *args: Any, **options: Any) -> None:
        quote_name = Path(options["quote_file"]).name or options["quote_file"]
        try:
            output = self._review(options)
        except BadInput as exc:
            self._fail(str(exc))
        except Exception as exc:  # the last resort: one line, never a traceback
            self._fail(f"{quote_name}: internal error: {type(exc).__name__}")
        self.stdout.write(output, ending="" if output.endswith("\n") else "\n")

    def _fail(self, message: str) -> NoReturn:
        line = " ".join(message.split())
        self.stderr.write(f"error: {line}", style_func=lambda text: text)
        raise SystemExit(EXIT_BAD_INPUT)

    def _review(self, options: dict[str, Any]) -> str:
        from apps.quotes.intake import quote_intake
        from apps.quotes.parsing import QuoteParseError
        from apps.review.inputs import facility_load, workload_load

        path = Path(options["quote_file"])
        quote_name = path.name or str(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise BadInput(f"{quote_name}: no such file") from None
        except IsADirectoryError:
            raise BadInput(f"{quote_name}: is a directory, not a quote file") from None
        except OSError as exc:
            raise BadInput(f"{quote_name}: cannot be read ({exc.strerror})") from None
        catalog = _catalog()
        try:
            workload = workload_load(options["workload"], catalog=catalog)
            facility = facility_load(options["facility"])
        except ReviewInputError as exc:
            raise BadInput(str(exc)) from None
        try:
            intake = quote_intake(data, quote_name, catalog)
        except QuoteParseError as exc:
            raise BadInput(str(exc)) from None
        report = _engine_review(intake, workload, facility, catalog, options["workload"])
        if options.get("pdf"):
            _pdf_write(report, Path(options["pdf"]), quote_date=intake.parsed.quote_date)
        if options["format"] == "json":
            return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False)
        from apps.review.text import report_text

        return report_text(report)


def _catalog() -> CatalogSnapshot:
    """The catalog in the database (after `make setup`), else the bundled fixture when the
    database is not there yet: a review never runs against an empty lot."""
    from apps.catalog.services import catalog_snapshot

    try:
        return catalog_snapshot()
    except DatabaseError:
        return snapshot_from_fixture()


def _engine_review(
    intake: Any, workload: Any, facility: Any, catalog: Any, workload_arg: str
) -> Any:
    from django.conf import settings

    from apps.review.engine import ReviewInput, review

    try:
        return review(
            ReviewInput(
                quote=intake.summary,
                systems=intake.systems,
                workload=workload,
                facility=facility,
                line_findings=intake.line_findings,
            ),
            catalog,
            finance_thresholds=settings.RIGHTSIZE_FINANCE_THRESHOLDS,
        )
    except ReviewInputError as exc:
        raise BadInput(f"{Path(workload_arg).name}: {exc}") from None


def _pdf_write(report: Any, out: Path, *, quote_date: str = "") -> None:
    try:
        from apps.reports.render import report_pdf_bytes
    except ImportError:
        raise BadInput(f"{out.name}: PDF reports are not available in this build yet") from None
    pdf = report_pdf_bytes(report, quote_date=quote_date)
    try:
        out.write_bytes(pdf)
    except OSError as exc:
        raise BadInput(f"{out.name}: cannot be written ({exc.strerror})") from None
