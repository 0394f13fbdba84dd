"""Export a review as a spreadsheet (quote lines and findings) that is safe to open in Excel.

A vendor can put `=HYPERLINK("http://x")` in a description; opened in a spreadsheet that cell
would run. Every text cell that a spreadsheet could read as a formula is written as text with
a leading apostrophe (RELIABILITY 14); numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from openpyxl import Workbook

from apps.review.engine.schemas import ReviewReport

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
Cell = str | int | float | Decimal | None

LINE_HEADER = [
    "Line", "Part number", "Description", "Quantity", "Unit price", "Extended price",
    "Catalog SKU", "Match",
]  # fmt: skip
FINDING_HEADER = ["Check", "Severity", "Title", "Detail", "Formula", "Lever"]


def cell_safe(value: Cell) -> Cell:
    """Text that a spreadsheet could evaluate gets a leading apostrophe; numbers pass as is.

    "-2+3" as text becomes "'-2+3"; the number -5 stays -5.
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_rows(report: ReviewReport) -> tuple[list[list[Cell]], list[list[Cell]]]:
    """(quote line rows, finding rows), each with its header first, cells made safe."""
    lines: list[list[Cell]] = [list(LINE_HEADER)]
    for line in report.quote.lines:
        lines.append(
            [
                cell_safe(c)
                for c in (
                    line.line,
                    line.part_number,
                    line.description,
                    line.quantity,
                    line.unit_price,
                    line.extended_price,
                    line.sku or "",
                    line.match,
                )
            ]
        )
    findings: list[list[Cell]] = [list(FINDING_HEADER)]
    for f in report.findings:
        findings.append(
            [cell_safe(c) for c in (f.check, f.severity, f.title, f.detail, f.formula, f.lever)]
        )
    return lines, findings


def export_xlsx(report: ReviewReport) -> bytes:
    """Two sheets, "Quote lines" and "Findings"; money as numbers, not text."""
    lines, findings = export_rows(report)
    book = Workbook(write_only=True)
    for title, rows in (("Quote lines", lines), ("Findings", findings)):
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append([float(c) if isinstance(c, Decimal) else c for c in row])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def export_csv(report: ReviewReport) -> str:
    """The quote lines as CSV (UTF-8 with BOM so Excel reads the encoding right)."""
    lines, _ = export_rows(report)
    out = io.StringIO()
    writer = csv.writer(out)
    for row in lines:
        writer.writerow(["" if c is None else c for c in row])
    return "\ufeff" + out.getvalue()
