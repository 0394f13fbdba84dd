"""A quote's lines summed with each group priced for one unit counted as many times as its
banner or "Quantity: 3" row says: the sum a per-system quote's subtotal states.

Pure: no ORM, no Django.
"""

from __future__ import annotations

from decimal import Decimal

from apps.quotes.reading import BomReading
from apps.quotes.schemas import QuoteLineOut

#: Lines that state money about the quote rather than items on it (`intake.MONEY_ROLES`).
_MONEY_ROLES = frozenset({"subtotal", "total", "tax"})


def grouped_sum(lines_sum: Decimal, out: list[QuoteLineOut], reading: BomReading) -> Decimal:
    """The lines with each group priced for one unit counted as many times as its banner
    says: (238,900 + 31,650) × 3 + (21,480 + 6,120) × 2 for "(Quantity: 3)" and "(Quantity:
    2)" groups, where no one multiplier fits both. A group runs from its system line to the
    next system or sum line, its services included."""
    starts = {r.row.line for r in reading.readings if r.row.line is not None}
    extra = Decimal(0)
    for r in reading.readings:
        units = r.row.quantity or 1
        if r.row.line is None or r.child_quantities != "per_system" or r.quantity <= units:
            continue
        block = Decimal(0)
        for o in out[r.row.line - 1 :]:
            if o.role in _MONEY_ROLES or (o.line in starts and o.line != r.row.line):
                break
            if o.role != "note" and o.extended_price is not None:
                block += o.extended_price
        extra += block * (Decimal(r.quantity) / units - 1)
    return lines_sum + extra
