"""A PDF quote's pages → numbered rows of cells, with the printing's own furniture taken out.

Three things a printed quote does that a spreadsheet does not:

- **Columns without rules.** Many quoting tools print the table as aligned text with no lines.
  The worker gives such a page as text lines whose cells carry their left and right edges;
  each cell is put under the header cell it stands below (the column whose span, widened to
  the middle of the gaps between header cells, it overlaps most), so a description-only line
  is in the Description column and not read as a part number.
- **Wrapped descriptions.** A description longer than its column continues on the next
  printed line with nothing in the other columns: "Dell PowerEdge XE9680 Rack Server, 8x
  NVIDIA HGX H200" / "141GB SXM5, air cooled". On an unruled page such a line, no further
  below its row than the rows stand from each other, is joined to its row's description, not
  read as a heading.
- **Page furniture.** Every page repeats the letterhead or a running head ("Quote # Q-123
  (continued)"), a running foot ("Confidential", the registered address) and a page number
  ("Page 2 of 3", "Seite 2 von 3", "- 2 -"). Below the first table header such rows are
  dropped: a page-number line always, a "continued" line, and a short text row (two cells at
  most, no amount, not a subtotal or total) printed on two or more pages, its digits aside.
  The letterhead above the first header stays: it names the vendor and the quote; so do the
  running totals ("Carried forward | $953,800.00", "Übertrag | 637.200,00"), the vendor's own
  figures, which the reading takes as subtotals.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from apps.quotes.parsing.headers import header_map, is_header
from apps.quotes.parsing.pdf_cells import currency_marks_attach, stray_label_home
from apps.quotes.parsing.summary import summary_kind

#: A row's number is page × ROWS_PER_PAGE + its row on the page (``pdf_reader``).
ROWS_PER_PAGE = 1000
#: A wrapped line stands at most this many times the usual row spacing below its row.
WRAP_SPACING = 1.3

_PAGE_NUMBER = re.compile(
    r"^\W*(?:(?:page|seite|pagina|página|page n[o°]|p\.|s\.)\s*\d+"
    r"(?:\s*(?:of|von|de|sur|di|/|-)\s*\d+)?|\d+\s*/\s*\d+|\d+)\W*$"
    r"|\b(?:page|seite|pagina|página)\s+\d+\s+(?:of|von|de|sur|di)\s+\d+\b",
    re.IGNORECASE,
)
_CONTINUED = re.compile(
    r"\((?:continued|cont(?:'|’)?d|fortsetzung|suite)\)|\b(?:continued|fortsetzung)\s*$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
#: A cell that ends in an amount ("$953,800.00", "637.200,00 €"): a running total
#: ("Carried forward", "Übertrag") is printed on every page too, but it is the quote's figure.
_AMOUNT = re.compile(r"\d[.,]\d{2}\s*\S{0,3}\s*$")


@dataclass
class PrintedRow:
    """One row as printed: its number, its cells, and for an unruled page where it stands."""

    number: int
    cells: list[str]
    spans: list[tuple[float, float]] | None = None
    top: float | None = None
    bottom: float | None = None
    #: Below the first table header of the document (the letterhead above it stays).
    in_table: bool = False
    page: int = 0
    joined: list[str] = field(default_factory=list)


def _rows_of(pages: Sequence[dict]) -> list[PrintedRow]:
    rows = []
    for page in pages:
        spans = page.get("spans")
        lines = page.get("lines")
        for index, cells in enumerate(page.get("rows", [])[: ROWS_PER_PAGE - 1]):
            row = PrintedRow(
                page["page"] * ROWS_PER_PAGE + index + 1, list(cells), page=page["page"]
            )
            if spans is not None and lines is not None and index < len(spans):
                row.spans = [(float(x0), float(x1)) for x0, x1 in spans[index]]
                row.top, row.bottom = float(lines[index][0]), float(lines[index][1])
            rows.append(row)
    return rows


def _header_of(row: PrintedRow) -> dict[str, int] | None:
    mapping = header_map([cell.strip() for cell in row.cells])
    return mapping if is_header(mapping) else None


def _regions(header: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Each header cell's span widened to the middle of the gap to its neighbours."""
    regions = []
    for index, (x0, x1) in enumerate(header):
        left = (header[index - 1][1] + x0) / 2 if index else float("-inf")
        right = (x1 + header[index + 1][0]) / 2 if index + 1 < len(header) else float("inf")
        regions.append((left, right))
    return regions


def _column_of(span: tuple[float, float], regions: Sequence[tuple[float, float]]) -> int:
    x0, x1 = span
    overlaps = [min(x1, right) - max(x0, left) for left, right in regions]
    best = max(range(len(regions)), key=lambda i: overlaps[i])
    if overlaps[best] > 0:
        return best
    middle = (x0 + x1) / 2
    return next(i for i, (left, right) in enumerate(regions) if left <= middle <= right)


def _aligned(row: PrintedRow, regions: Sequence[tuple[float, float]]) -> list[str]:
    columns: list[list[str]] = [[] for _ in regions]
    texts, spans = currency_marks_attach(row.cells, row.spans or [])
    for text, span in zip(texts, spans, strict=False):
        if text.strip():
            columns[_column_of(span, regions)].append(text.strip())
    return [" ".join(parts) for parts in columns]


def _columns_place(rows: list[PrintedRow]) -> None:
    """Unruled rows below a header → cells under the header's columns (see module doc)."""
    regions: list[tuple[float, float]] | None = None
    for row in rows:
        if row.spans is None:
            continue
        if _header_of(row) is not None and len(row.spans) == len(row.cells):
            regions = _regions(row.spans)
            row.cells = [cell.strip() for cell in row.cells]
            continue
        if regions is not None:
            row.cells = _aligned(row, regions)


def _wraps_join(rows: list[PrintedRow], description: int) -> list[PrintedRow]:
    """Join each unruled description-only line to the row above it (see module doc)."""
    pitches = [
        later.top - earlier.top
        for earlier, later in itertools.pairwise(rows)
        if earlier.page == later.page and earlier.top is not None and later.top is not None
    ]
    pitch = statistics.median(pitches) if pitches else 0.0
    kept: list[PrintedRow] = []
    for row in rows:
        previous = kept[-1] if kept else None
        filled = [i for i, cell in enumerate(row.cells) if cell.strip()]
        if (
            previous is not None
            and row.in_table
            and row.top is not None
            and previous.top is not None
            and previous.page == row.page
            and filled == [description]
            and description < len(previous.cells)
            and previous.cells[description].strip()
            and sum(1 for cell in previous.cells if cell.strip()) >= 3
            and row.top - previous.top <= pitch * WRAP_SPACING
        ):
            previous.cells[description] = f"{previous.cells[description]} {row.cells[description]}"
            previous.joined.append(row.cells[description])
            previous.top = row.top  # a third line joins the same row
            continue
        kept.append(row)
    return kept


def _furniture(row: PrintedRow, seen_on: dict[str, set[int]]) -> bool:
    texts = [cell.strip() for cell in row.cells if cell.strip()]
    if not texts or not row.in_table:
        return False
    line = " ".join(texts)
    if _PAGE_NUMBER.search(line) and len(texts) <= 2:
        return True
    if len(texts) > 2 or summary_kind(texts) or _AMOUNT.search(texts[-1]):
        return False
    return bool(_CONTINUED.search(line)) or len(seen_on[_shape(texts)]) >= 2


def _shape(texts: Sequence[str]) -> str:
    return _DIGITS.sub("#", " ".join(" ".join(texts).split()).casefold())


def page_rows_read(pages: Sequence[dict]) -> list[tuple[int, list[str]]]:
    """The worker's pages → numbered rows: columns placed, wrapped lines joined, furniture
    dropped (see the module docstring)."""
    rows = _rows_of(pages)
    _columns_place(rows)
    description: int | None = None
    inside = False
    columns: dict[str, int] = {}
    for row in rows:
        mapping = _header_of(row)
        if mapping is not None and not inside:
            inside, description, columns = True, mapping.get("description"), mapping
        elif inside and row.spans is not None:
            row.cells = stray_label_home(row.cells, columns)  # a totals box's label
        row.in_table = inside
    if description is not None:
        rows = _wraps_join(rows, description)
    if len({row.page for row in rows}) > 1:
        seen_on: dict[str, set[int]] = {}
        for row in rows:
            texts = [cell.strip() for cell in row.cells if cell.strip()]
            seen_on.setdefault(_shape(texts), set()).add(row.page)
        rows = [row for row in rows if not _furniture(row, seen_on)]
    return [(row.number, row.cells) for row in rows]
