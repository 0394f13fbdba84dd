"""What a parsed quote looks like, before any catalog matching or database row exists.

The parser hands these pydantic models to matching, the CLI and the upload page. Money is
``Decimal`` all the way through: "€ 265.000,00" becomes ``Decimal("265000.00")``, never a float.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

#: "manual": lines typed or pasted into the grid (apps.quotes.parsing.manual).
DetectedType = Literal["csv", "xlsx", "xls", "xlsb", "ods", "pdf", "manual"]
#: The workbook kinds, all read by calamine the same way: Excel 2007+, Excel 97-2003, Excel
#: binary, LibreOffice/OpenDocument.
SPREADSHEETS: tuple[DetectedType, ...] = ("xlsx", "xls", "xlsb", "ods")

#: Our field names, the keys of ``ParsedQuote.column_map``.
FIELDS: tuple[str, ...] = (
    "part_number",
    "description",
    "quantity",
    "unit_price",
    "extended_price",
)


class ParsedLine(BaseModel):
    """One quote line as the vendor wrote it, plus what we could read from it.

    ``source_row`` is the 1-based row in the original file (the sheet row for XLSX; for PDF
    ``page * 1000 + row`` with ``page`` set too), so an error can point the account team at
    the exact row.
    """

    source_row: int
    page: int | None = None
    part_number: str = ""
    description: str = ""
    quantity: int | None = None
    unit_price: Decimal | None = None
    extended_price: Decimal | None = None
    raw_cells: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    #: Leading spaces of the description as the vendor typed them: builders mark a system's
    #: sub-lines only by indenting them.
    indent: int = 0


SkippedKind = Literal["subtotal", "tax", "total", "charges", "heading", "after_footer"]


class SkippedRow(BaseModel):
    """A data row that is not a quote line: a summary row ("Subtotal", "19% MwSt."), a banner
    ("Components per unit"), or a row after the total. Kept so the reader can see the quote's
    structure and number every row."""

    source_row: int
    kind: SkippedKind
    text: str = ""
    amount: Decimal | None = None


class ParsedQuote(BaseModel):
    """A whole vendor quote: title-row metadata, the column mapping we chose and the lines.

    The stated figures are the vendor's own summary rows, never our sums: ``stated_subtotal``
    ("Subtotal", "Zwischensumme", "Total HT"), ``stated_charges`` (shipping, freight),
    ``stated_tax`` ("19% MwSt.", "Sales Tax") and ``stated_total`` ("Grand Total",
    "Gesamtsumme"; the subtotal when that is all the quote states). ``quote_date`` is ISO
    when it could be read unambiguously, else as written. ``sheet`` names the XLSX sheet read.
    """

    file_name: str
    detected_type: DetectedType
    vendor: str = ""
    quote_number: str = ""
    quote_date: str = ""
    currency: str = "USD"
    #: The number of systems (2 or more) a title row gives: "Quantity: 3" above the options
    #: of one unit.
    title_systems: int | None = None
    encoding: str | None = None
    encoding_fallback: bool = False
    delimiter: str | None = None
    decimal_separator: str = "."
    sheet: str | None = None
    header_row: int
    column_map: dict[str, str] = Field(default_factory=dict)
    lines: list[ParsedLine] = Field(default_factory=list)
    #: Data rows that are not lines (summary rows, banners, rows after the total), in file
    #: order; with ``lines`` they are every row below the header.
    skipped: list[SkippedRow] = Field(default_factory=list)
    #: The header row's texts, as written.
    header_cells: list[str] = Field(default_factory=list)
    stated_total: Decimal | None = None
    stated_subtotal: Decimal | None = None
    stated_tax: Decimal | None = None
    stated_charges: Decimal | None = None
    warnings: list[str] = Field(default_factory=list)
