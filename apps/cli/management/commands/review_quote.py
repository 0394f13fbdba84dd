"""`review_quote QUOTE_FILE --workload W --facility F [--format json|text] [--pdf OUT.pdf]
[--sheet NAME]`.

QUOTE_FILE `-` reads a pasted table (tab- or comma-separated) from standard input:
`pbpaste | manage.py review_quote - --workload w.json --facility f.json`.

The command line of CONTRACT.md. Exit 0 when the review completed, whatever the verdict; exit 2
with one line on stderr for bad input: "error: quote.csv, row 2, column 'Qty': quantity -2 is
negative". Never a traceback: anything unexpected is "error: quote.csv: internal error: T".
A workbook with two sheets that both look like quotes exits 2 naming them ("… run again with
--sheet NAME: 'Option A' (2 rows under …), 'Option B' (…)"); `--sheet NAME` reads that one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser, DjangoHelpFormatter
from django.db import DatabaseError

from apps.catalog.snapshot import CatalogSnapshot, snapshot_from_fixture
from apps.review.engine.errors import ReviewInputError

if TYPE_CHECKING:
    from apps.quotes.intake import QuoteIntake
    from apps.review.engine.schemas import Facility, ReviewReport, Workload

EXIT_BAD_INPUT = 2


SHAPES = """\
facility JSON (every field is optional; a file with only the older fields still works):
  {"name": "Colo cage", "site": "datacenter",        # or "office"
   "rack_power_kw": 15,                              # kW per rack, given directly, or from:
   "feed_volts": 208, "feed_phase": "three",         # 120/208/230/240/400/415 V; single/three
   "feed_amps": 30, "feeds_per_side": 1,
   "feed_redundant": true,                           # A/B (N+N): usable kW is one side's
   "continuous_share": 0.8,                          # NEC 80 % rule; 1.0 for 100 %-rated
   "racks_available": 4, "rows": 1,
   "cooling": "air",                                 # air, air_rdhx, liquid
   "air_kw_per_rack": 15, "rdhx_kw_per_rack": 60,    # defaults 20 kW air, 60 kW rear doors
   "cdu_kw": 500, "facility_water_c": 32,            # the liquid loop
   "floor_load_lb_per_sqft": 250,                    # or "floor_load_kg_per_m2": 1221
   "rack_footprint_sqft": 10,                        # or "rack_footprint_m2"; default 10 sq ft
   "electricity_usd_per_kwh": 0.0895,                # default EIA 2023 Virginia commercial
   "grid_kg_co2_per_kwh": 0.3674,                    # default EIA 2023 US grid
   "pue": 1.54,                                      # default Uptime 2025 (1.0 in an office)
   "units": "imperial",                              # or "si"
   "circuit_volts": 120, "circuit_amps": 15}         # office: 120 V 15/20 A, 230 V 10/16 A
workload JSON time fields (optional; with one of them the review compares buying with renting):
  "duration_weeks": 6 | "duration_months": 18 | "duration_ongoing": true  (36 months),
  "busy_hours_per_day": 24, "rent_usd_per_gpu_hour": 2.5  (else the catalog's median rate)
presets: --facility office-15a, office-20a, office-230v-16a, closet-server-room, legacy-room,
  server-room, enterprise-air-hall, row-rdhx, ai-hall, liquid-ai-hall, colo-cage-ab-208v-30a
"""


class _HelpFormatter(DjangoHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Django's option order, with the JSON shapes printed as written."""


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
        parser.epilog = SHAPES
        parser.formatter_class = _HelpFormatter
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "quote_file",
            help="the vendor quote (.csv, .tsv, .xlsx or .pdf), or - for a table pasted on "
            "standard input (tab- or comma-separated)",
        )
        parser.add_argument(
            "--workload", required=True, help="workload JSON, saved workload or preset"
        )
        parser.add_argument(
            "--facility", required=True, help="facility JSON, saved facility or preset"
        )
        parser.add_argument("--format", choices=("json", "text"), default="text")
        parser.add_argument("--pdf", metavar="OUT.pdf", help="also write the PDF report here")
        parser.add_argument(
            "--sheet",
            metavar="NAME",
            help="the workbook sheet that holds the quote, when two sheets look like quotes",
        )

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
        from apps.review.inputs import facility_load, workload_load

        if options["quote_file"] == "-":
            quote_name, data = quote_stdin_read()
        else:
            quote_name, data = quote_file_read(Path(options["quote_file"]))
        catalog = catalog_for_command()
        try:
            workload = workload_load(options["workload"], catalog=catalog)
            facility = facility_load(options["facility"])
        except ReviewInputError as exc:
            raise BadInput(str(exc)) from None
        intake, report = quote_bytes_review(
            data,
            quote_name,
            workload=workload,
            facility=facility,
            catalog=catalog,
            workload_arg=options["workload"],
            sheet=options.get("sheet"),
        )
        if options.get("pdf"):
            _pdf_write(report, Path(options["pdf"]), quote_date=intake.parsed.quote_date)
        if options["format"] == "json":
            return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False)
        from apps.reports.text import report_text

        return report_text(report)


def catalog_for_command() -> CatalogSnapshot:
    """The catalog in the database (after `make setup`), else the bundled fixture when the
    database is not there yet: a review never runs against an empty lot."""
    from apps.catalog.services import catalog_snapshot

    try:
        return catalog_snapshot()
    except DatabaseError:
        return snapshot_from_fixture()


def quote_stdin_read() -> tuple[str, bytes]:
    """A table pasted on standard input, named for what it looks like: "stdin.tsv" when its
    first line has a tab, else "stdin.csv" (the CSV reader still sniffs the delimiter)."""
    from django.conf import settings

    limit = settings.QUOTE_MAX_UPLOAD_BYTES
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise BadInput(f"standard input: more than {limit:,} bytes; the limit is {limit:,}")
    if not data.strip():
        raise BadInput("standard input: empty; paste the quote's table (header row first)")
    first_line = data.split(b"\n", 1)[0]
    return ("stdin.tsv" if b"\t" in first_line else "stdin.csv"), data


def quote_file_read(path: Path) -> tuple[str, bytes]:
    """The quote's name for error lines and its bytes: "quote.csv: no such file" otherwise."""
    name = path.name or str(path)
    try:
        return name, path.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"{name}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{name}: is a directory, not a quote file") from None
    except OSError as exc:
        raise BadInput(f"{name}: cannot be read ({exc.strerror})") from None


def quote_bytes_review(
    data: bytes,
    name: str,
    *,
    workload: Workload,
    facility: Facility,
    catalog: CatalogSnapshot,
    workload_arg: str,
    sheet: str | None = None,
) -> tuple[QuoteIntake, ReviewReport]:
    """One quote through intake and the engine (apps/review/pipeline.py). A file we cannot read
    is named after the quote; a workload the catalog cannot size, after the --workload argument.
    The intake comes back too: the PDF prints the quote's date."""
    from apps.quotes.intake import quote_intake
    from apps.quotes.parsing import QuoteParseError, SheetChoiceNeeded
    from apps.review.pipeline import review_of_intake

    try:
        intake = quote_intake(data, name, catalog, sheet=sheet)
    except SheetChoiceNeeded as exc:
        sheets = ", ".join(c.words() for c in exc.candidates)
        raise BadInput(f"{exc}: run again with --sheet NAME: {sheets}") from None
    except QuoteParseError as exc:
        raise BadInput(str(exc)) from None
    try:
        report = review_of_intake(
            intake=intake, workload=workload, facility=facility, catalog=catalog
        )
    except ReviewInputError as exc:
        raise BadInput(f"{Path(workload_arg).name}: {exc}") from None
    return intake, report


def _pdf_write(report: Any, out: Path, *, quote_date: str = "") -> None:
    try:
        from apps.reports.render import report_pdf_bytes
    except ImportError:
        raise BadInput(f"{out.name}: PDF reports are not available in this build yet") from None
    try:
        pdf = report_pdf_bytes(report, quote_date=quote_date)
    except Exception as exc:
        # Named after the PDF being written, not the quote: the quote was read and reviewed.
        reason = str(exc).strip() or type(exc).__name__
        raise BadInput(f"{out.name}: the PDF could not be made ({reason[:200]})") from None
    try:
        out.write_bytes(pdf)
    except OSError as exc:
        raise BadInput(f"{out.name}: cannot be written ({exc.strerror})") from None
