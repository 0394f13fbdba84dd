"""One quote written as CSV text and read end to end, for the reading tests: a header and
the lines under it, as the account team would upload them."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake

HEADER = "Item,Part Number,Description,Qty,Unit Price,Extended Price\n"


def csv_quote_read(catalog: CatalogSnapshot, body: str, header: str = HEADER) -> QuoteIntake:
    """``quote_intake`` of ``header + body`` as "quote.csv"."""
    return quote_intake((header + body).encode(), "quote.csv", catalog)


def row_roles(intake: QuoteIntake) -> list[str]:
    """Every row's role in file order, banners and totals rows included."""
    return [role for _row, role in intake.row_roles]
