"""From a quote's bytes to its ReviewReport: parse, match, assemble the vehicles, run the engine.

One path for everyone: the `review_quote` and `compare_quotes` commands, the review service
(a stored original re-read after a workload edit) and the compare page (uploads reviewed in
memory) all call these, so a DGX B200 quote gets the same findings whichever door it came in by.

No ORM here: the caller passes the catalog and, when the database is there, the vendor's
confirmed mappings (or how to look them up once the file has named its vendor). The Finance
thresholds come from settings, as for every report the product shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.conf import settings

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake_parsed
from apps.quotes.matching import PartRef
from apps.quotes.parsing import parse_upload
from apps.review.engine.review import ReviewInput, review
from apps.review.engine.schemas import Facility, ReviewReport, Workload

VendorMappings = Mapping[str, PartRef]


@dataclass(frozen=True)
class FinanceLines:
    """The blood-pressure spend thresholds in the quote's currency, and how they got there
    ("USD 100,000 at 1.1617, rates of 2026-11-28"); see apps.review.money."""

    thresholds: tuple[float, ...]
    currency: str
    note: str = ""


def review_of_intake(
    *,
    intake: QuoteIntake,
    workload: Workload,
    facility: Facility,
    catalog: CatalogSnapshot,
    lines: FinanceLines | None = None,
) -> ReviewReport:
    """Run the engine on a quote already read (the command keeps the intake for the PDF's
    quote date). Raises ReviewInputError for a workload the catalog cannot size. Without
    `lines`, the settings' USD thresholds."""
    if lines is None:
        lines = FinanceLines(tuple(settings.RIGHTSIZE_FINANCE_THRESHOLDS), "USD")
    return review(
        ReviewInput(
            quote=intake.summary,
            systems=intake.systems,
            workload=workload,
            facility=facility,
            line_problems=intake.line_problems,
        ),
        catalog,
        finance_thresholds=lines.thresholds,
        thresholds_currency=lines.currency,
        thresholds_note=lines.note,
    )


def review_of_upload(
    *,
    data: bytes,
    filename: str,
    workload: Workload,
    facility: Facility,
    catalog: CatalogSnapshot,
    mappings: VendorMappings | None = None,
    mappings_for: Callable[[str], VendorMappings] | None = None,
) -> ReviewReport:
    """Review one quote file's bytes.

    `mappings` are the confirmed "this line is that part" choices when the caller already
    knows the vendor (a stored quote); `mappings_for` looks them up by the vendor the file
    itself names (an upload not stored yet). Raises QuoteParseError for a file we cannot read
    (naming file, row and column) and ReviewInputError for a workload we cannot size.
    """
    parsed = parse_upload(data, filename)
    if mappings_for is not None:
        mappings = mappings_for(parsed.vendor)
    intake = quote_intake_parsed(parsed, catalog, mappings=mappings)
    return review_of_intake(intake=intake, workload=workload, facility=facility, catalog=catalog)
