"""Cells as the readers deliver them: text from CSV and PDF, typed values from XLSX.

An XLSX number cell is already a number — 1234.56 needs no decimal-separator guess — while the
same amount typed as text in a German CSV ("1.234,56") does. ``cell_text`` gives what a person
sees (for raw cells and header matching), ``cell_number`` the number when the cell holds one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

Cell = str | int | float | Decimal | date | datetime | None
NumberedRow = tuple[int, Sequence[Cell]]


def cell_text(cell: Cell) -> str:
    """The text a person sees in the cell: 1234.5 → "1234.5", 2.0 → "2", a date → ISO."""
    if type(cell) is str:
        return cell.strip()
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell.strip()
    if isinstance(cell, bool):
        return "TRUE" if cell else "FALSE"
    if isinstance(cell, float):
        if cell.is_integer() and abs(cell) < 1e15:
            return str(int(cell))
        return repr(cell)
    if isinstance(cell, datetime):
        return cell.date().isoformat() if not cell.time() else cell.isoformat(sep=" ")
    if isinstance(cell, date):
        return cell.isoformat()
    return str(cell)


def cell_number(cell: Cell) -> Decimal | None:
    """A cell that is already a number (XLSX numeric cells): no separator guessing."""
    if isinstance(cell, bool):
        return None
    if isinstance(cell, int | Decimal):
        return Decimal(cell)
    if isinstance(cell, float):
        if cell != cell or abs(cell) == float("inf"):
            return None
        return Decimal(int(cell)) if cell.is_integer() else Decimal(repr(cell))
    return None
