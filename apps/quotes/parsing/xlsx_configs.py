"""A workbook that is one order in several sheets: a summary sheet and one sheet per
configuration ("Config 1 - Training" with the GPU servers, "Config 2 - Inference" with the
card servers), the summary naming each configuration's sheet and adding them into the grand
total. Two sheets that look like quotes are otherwise alternatives the person chooses between
(``SheetChoiceNeeded``); a sheet that names every one of them says they are parts of one
quote, and they are read together, in sheet order, as one bill of materials.

The rows of the k-th configuration sheet (from 0) are numbered
``k * SHEET_ROW_STRIDE + row`` as the sheet is read (``xlsx_reader``), so every row keeps one
number in the merged quote. The stated
figures are the summary's ("Subtotal", "VAT 20%", "Grand Total"), else the sheets' summed.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from apps.quotes.parsing.cells import NumberedRow, cell_number, cell_text
from apps.quotes.parsing.headers import text_fold
from apps.quotes.parsing.metadata import metadata_read
from apps.quotes.parsing.schemas import ParsedQuote
from apps.quotes.parsing.summary import summary_kind

#: How far apart the merged sheets' row numbers are: sheet k's row r is k * stride + r.
SHEET_ROW_STRIDE = 100_000


def sheets_named_by(summary: Sequence[NumberedRow], sheet_names: Sequence[str]) -> bool:
    """Whether a sheet names every one of ``sheet_names`` in a cell of its own (a summary's
    "Sheet" column, a table of contents)."""
    texts = {text_fold(cell_text(cell)) for _row, cells in summary for cell in cells}
    return len(sheet_names) >= 2 and all(text_fold(name) in texts for name in sheet_names)


def _stated(summary: Sequence[NumberedRow]) -> dict[str, Decimal]:
    """The summary sheet's own figures: its subtotal, tax and total rows' last number."""
    found: dict[str, Decimal] = {}
    for _row, cells in summary:
        texts = [cell_text(cell) for cell in cells]
        kind = summary_kind([t for t in texts if t])
        numbers = [n for n in (cell_number(cell) for cell in cells) if n is not None]
        if kind in ("subtotal", "tax", "total") and numbers:
            found[kind] = numbers[-1]
    return found


def configurations_merge(
    parts: Sequence[ParsedQuote], summary: Sequence[NumberedRow], summary_name: str
) -> ParsedQuote | None:
    """One quote of the configuration sheets ``parts`` (module doc); None when their tables
    differ (other columns): then they are not one bill of materials."""
    first = parts[0]
    if any(p.column_map != first.column_map for p in parts[1:]):
        return None
    merged = first.model_copy(deep=True)
    for part in parts[1:]:  # numbered apart already (``SHEET_ROW_STRIDE``)
        merged.lines += part.lines
        merged.skipped += part.skipped
    meta = metadata_read([[cell_text(cell) for cell in cells] for _row, cells in summary])
    if meta.get("currency"):
        merged.currency = meta["currency"]  # the summary is the quote's title block
    stated = _stated(summary)
    sums = [p.stated_total for p in parts if p.stated_total is not None]
    merged.stated_total = stated.get("total") or (
        sum(sums, Decimal("0")) if len(sums) == len(parts) else None
    )
    merged.stated_subtotal = stated.get("subtotal")
    merged.stated_tax = stated.get("tax")
    merged.stated_charges = None
    names = [p.sheet or "" for p in parts]
    merged.sheet = names[0]
    merged.warnings = [
        f"read sheets {', '.join(repr(n) for n in names)} as one quote: sheet "
        f"{summary_name!r} names each of them as a configuration"
    ]
    return merged
