"""Cells of an unruled PDF line that stand apart from the column they belong to.

Two print habits put a cell outside its header's column:

- **A currency symbol in a narrow column of its own.** "$ | 289,400.00" set as two cells, the
  "$" left of the amount with a gap between, often under no header at all or in the gap
  between "Qty" and "Unit Price". Placed by where it stands, the "$" joins the quantity
  ("2 $") and the price loses its currency. A cell that is a currency symbol or code alone,
  followed on the line by an amount, is that amount's prefix: "$ 289,400.00".
- **A totals box outside the table grid.** "Subtotal / Discount / Freight / Tax / Total" in a
  box at the bottom right, its labels under the Qty or Unit Price column and its amounts
  under the last one: "Discount" read as a quantity. A row whose only text is one label
  standing in a number column, with amounts beside it and nothing in the description
  column, has its label moved to the description column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CURRENCY_MARK = re.compile(
    r"^(?:[$€£¥₹]|[A-Z]{1,3}\$|USD|EUR|GBP|CHF|AUD|CAD|JPY|INR|SEK|NOK|DKK|PLN|NZD|SGD)$"
)
_AMOUNT_START = re.compile(r"^[-(]?\d")
_LABEL = re.compile(r"[^\W\d_]{2,}")
#: An amount as printed, with its currency before or after it: "-$12,000.00", "€ 1.250,00",
#: "1,150.00 AUD"; "GST 10%" (a label with a rate) is none.
_AMOUNT = re.compile(
    r"^\(?-?\s*(?:[$€£¥₹]|[A-Z]{1,2}\$|USD|EUR|GBP|CHF|AUD|CAD|JPY|INR)?\s*-?\d[\d.,' ]*\)?"
    r"(?:\s*(?:[$€£¥₹]|[A-Z]{3}))?$"
)
#: The columns that hold numbers: a word in one of them is a label out of place.
NUMBER_COLUMNS = ("quantity", "unit_price", "extended_price")


def currency_marks_attach(
    texts: Sequence[str], spans: Sequence[tuple[float, float]]
) -> tuple[list[str], list[tuple[float, float]]]:
    """A lone currency symbol joined to the amount right of it: ["2", "$", "289,400.00"] →
    ["2", "$ 289,400.00"], the amount keeping its own span (where its column is)."""
    cells: list[str] = []
    placed: list[tuple[float, float]] = []
    pending = ""
    for text, span in zip(texts, spans, strict=False):
        stripped = text.strip()
        if _CURRENCY_MARK.match(stripped):
            pending = f"{pending} {stripped}".strip()
            continue
        if pending and _AMOUNT_START.match(stripped):
            stripped = f"{pending} {stripped}"
        elif pending:
            cells.append(pending)
            placed.append(span)
        pending = ""
        cells.append(stripped)
        placed.append(span)
    if pending:
        cells.append(pending)
        placed.append(spans[len(texts) - 1])
    return cells, placed


def stray_label_home(cells: list[str], mapping: dict[str, int]) -> list[str]:
    """A totals-box row ["", "", "", "Discount", "", "-$12,000.00"] → the label in the
    description column: ["", "", "Discount", "", "", "-$12,000.00"]. Any other row as it was."""
    description = mapping.get("description")
    if description is None or description >= len(cells) or cells[description].strip():
        return cells
    numbers = {mapping[name] for name in NUMBER_COLUMNS if name in mapping}
    labels = [i for i, cell in enumerate(cells) if _LABEL.search(cell) and not _AMOUNT.match(cell)]
    amounts = [i for i, cell in enumerate(cells) if cell.strip() and _AMOUNT.match(cell.strip())]
    if len(labels) != 1 or labels[0] not in numbers or not amounts:
        return cells
    if any(i not in numbers for i in amounts):
        return cells
    moved = list(cells)
    moved[description], moved[labels[0]] = moved[labels[0]], ""
    return moved
