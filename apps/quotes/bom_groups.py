"""A configurator group priced for one unit whose banner gives the number of units: Dell's
"Solution ID 1: PowerEdge XE9680 - HGX H200 (Quantity: 3)" above a server line of quantity 1
and its modules. The banner's count is the group's number of systems, as a "Quantity: 3" row
is; a banner whose server line already states its quantity ("Configuration 1 - PowerEdge
XE8640 (Quantity: 4)" above "PowerEdge XE8640 | 4") only repeats it.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re

from apps.quotes.bom_rows import Row

#: The count at the end of a banner: "(Quantity: 3)", "- Qty 3", "[Units: 2]".
_BANNER_COUNT = re.compile(
    r"[(\[,;\-–]\s*(?:quantity|qty|units|systems|servers)\s*[:=]?\s*(\d{1,4})\s*[)\]]?\s*$",
    re.IGNORECASE,
)


def banner_counts_read(rows: list[Row]) -> None:
    """Mark a banner that gives its one-unit group's number of systems as the group's
    multiplier (module doc). Call after each row's own role is read, before nesting."""
    for row in rows:
        if row.line is not None or row.role != "note" or row.head_category == "multiplier":
            continue
        found = _BANNER_COUNT.search(row.text)
        if found is None or int(found[1]) < 2:
            continue
        system = next((r for r in rows[row.index + 1 :] if r.role == "system"), None)
        if system is not None and (system.quantity or 0) <= 1:
            row.head_category, row.quantity = "multiplier", int(found[1])


def group_count(system: Row, rows: list[Row]) -> int | None:
    """The count of the multiplier row nearest above a system, in its own group: None when
    another system comes first (that group's count is not this one's)."""
    for row in reversed(rows[: system.index]):
        if row.head_category == "multiplier" and row.quantity:
            return row.quantity
        if row.role == "system":
            return None
    return None
