"""What one system costs on the quote: its own line and the hardware priced beside it.

An itemized quote prices the chassis on the system line and its GPUs, CPUs and memory on the
lines under it (or, for PCIe cards, on their own line after it): "AS-4125GS-TNRT × 2 at
$38,740" then "H200 NVL × 16 at $31,280". The system costs what all of that costs for one
of them: $38,740 + 16 × $31,280 ÷ 2 = $288,980, not the $38,740 of its line alone. Finance's
idle money and the price per user are only right on that figure.

The parts' quantities are read as the system's reading reads them (``child_quantities``):
order totals are shared over the systems, per-system lines are one system's already. Services,
accessories and money lines are not the system's hardware and stay out.

Pure: no ORM, no Django.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

from apps.quotes.bom_rows import Row

#: The roles of a system's own hardware: what it is built of.
HARDWARE_ROLES = frozenset({"gpu_board", "gpu_card", "nvlink_bridge", "chassis", "component"})


class Priced(Protocol):
    """A quote line as parsed (``ParsedLine``) or as read (``Row``): its prices and count."""

    @property
    def quantity(self) -> int | None: ...
    @property
    def unit_price(self) -> Decimal | None: ...
    @property
    def extended_price(self) -> Decimal | None: ...


def line_amount(line: Priced) -> Decimal | None:
    """The line's extended price, or quantity × unit price when the vendor left it out."""
    if line.extended_price is not None:
        return line.extended_price
    if line.quantity is not None and line.unit_price is not None:
        return line.quantity * line.unit_price
    return None


def parts_price_per_system(members: list[Row], quantity: int, totals: bool) -> Decimal:
    """The priced hardware under (or placed in) a system, for one system: the sum of the
    parts' amounts, divided over ``quantity`` systems when they are order totals."""
    amount = sum(
        (a for m in members if m.role in HARDWARE_ROLES and (a := line_amount(m)) is not None),
        Decimal(0),
    )
    if totals and quantity > 1:
        return amount / quantity
    return amount
