"""Lines typed or pasted by hand: when a file cannot be read (a scanned PDF, a table in an email),
the account team enters the quote's lines in a grid, and they go through the same table reader
as a file, so "2 × SYS-521GE-TNRT" typed by hand is read exactly as the same row in a CSV.

Pure: no ORM. A pasted block is split into cells the way people copy them: tab-separated from a
spreadsheet, or columns of two or more spaces from an email or a PDF viewer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.quotes.parsing.schemas import ParsedQuote
from apps.quotes.parsing.table import MAX_CELL_CHARS, MAX_DATA_ROWS, TableOptions, quote_from_rows

#: The grid's columns, in order, and the header the table reader sees for them.
GRID_COLUMNS: tuple[tuple[str, str], ...] = (
    ("part_number", "Part Number"),
    ("description", "Description"),
    ("quantity", "Qty"),
    ("unit_price", "Unit Price"),
    ("extended_price", "Extended Price"),
)
MANUAL_FILE_NAME = "lines entered by hand"
_SPACES = re.compile(r" {2,}|\t")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class GridRow:
    """One row of the grid; `parent` is the grid row number this line is a sub-line of (a
    configurator's "1.1 NVIDIA HGX H200 … 8 GPUs" under "1 PowerEdge XE9680")."""

    part_number: str = ""
    description: str = ""
    quantity: str = ""
    unit_price: str = ""
    extended_price: str = ""
    parent: str = ""

    @property
    def is_blank(self) -> bool:
        return (
            not any((self.part_number, self.description, self.quantity, self.unit_price))
            and not self.extended_price.strip()
        )


def _clean(text: str) -> str:
    return _CONTROL.sub("", text).strip()[:MAX_CELL_CHARS]


def pasted_rows(text: str) -> list[GridRow]:
    """Rows from a pasted block: cells split on tabs, or on runs of two or more spaces.

    A first row that names the columns ("Part Number, Description, Qty, …" in any order the
    file reader knows) is used to place the cells; otherwise the cells fill the grid's columns
    in order: part number, description, quantity, unit price, extended price.
    """
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    cells = [[_clean(cell) for cell in _SPACES.split(line.strip())] for line in lines]
    if not cells:
        return []
    from apps.quotes.parsing.headers import header_map, is_header

    order = [name for name, _ in GRID_COLUMNS]
    mapping = header_map(cells[0])
    if is_header(mapping):
        cells = cells[1:]
        index_of = {name: mapping[name] for name in order if name in mapping}
    else:
        index_of = {name: i for i, name in enumerate(order)}
    rows = []
    for row in cells[:MAX_DATA_ROWS]:
        values = {name: row[i] if i < len(row) else "" for name, i in index_of.items()}
        rows.append(GridRow(**values))
    return rows


def grid_table(rows: list[GridRow]) -> list[tuple[int, list[str]]]:
    """The grid as numbered rows under a header (row 0), blank grid rows left out but the
    others keeping their grid row number, so a problem names the row the user sees. Sub-lines
    are numbered the way configurators do (a line under grid row 1 is "1.1"), so the reader
    sees the nesting it sees in a Dell export."""
    table: list[tuple[int, list[str]]] = [(0, ["Line", *(title for _, title in GRID_COLUMNS)])]
    children: dict[str, int] = {}
    for number, row in enumerate(rows, 1):
        if row.is_blank:
            continue
        label = str(number)
        parent = row.parent.strip()
        if parent:
            children[parent] = children.get(parent, 0) + 1
            label = f"{parent}.{children[parent]}"
        table.append((number, [label, *(_clean(getattr(row, name)) for name, _ in GRID_COLUMNS)]))
    return table


def manual_quote(rows: list[GridRow], *, file_name: str = MANUAL_FILE_NAME) -> ParsedQuote:
    """The grid read like a file. Raises QuoteParseError naming the grid row and column
    ("lines entered by hand, row 3, column 'Qty': quantity -2 is negative")."""
    opts = TableOptions(file_name=file_name, detected_type="manual")
    return quote_from_rows(grid_table(rows), opts)
