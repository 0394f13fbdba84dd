"""What a layout's own columns say about a line, beside its text.

- A configurator's module column: Dell's export files each option under a module, and a
  module that names a *choice* ("Memory DIMM Type and Speed", "Memory Configuration Type")
  holds the choice made, at $0: "5600MT/s RDIMMs" says which DIMMs the "Memory Capacity" line
  below it buys, and is not a part (``selections_read``).
- A "Qty per Server | Servers" layout: every line says how many servers it is for, so a line
  for the system's servers is configured into each of them, wherever it stands; a priced
  warranty among them does not close the configuration (``same_servers``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re

from apps.quotes.bom_rows import Row

#: A module that names a choice rather than a part: "... Type", "... Type and Speed",
#: "... Speed", "... Selection".
_CHOICE_MODULE = re.compile(r"\b(?:type|speed|selection|choice)s?\s*$", re.IGNORECASE)


def selections_read(rows: list[Row]) -> None:
    """A $0 line under a module that names a choice is the choice made: a note."""
    for row in rows:
        if (
            row.line is not None
            and row.module
            and not row.priced
            and row.role in ("component", "accessory")
            and _CHOICE_MODULE.search(row.module)
        ):
            row.role, row.guessed = "note", False


def bought_beside(row: Row, system: Row) -> bool:
    """Whether a line after a system's parts is bought beside the system, ending its block: a
    priced accessory or service (the adapter after a GB10 mini PC and its cables), unless the
    layout says it is for the system's own servers (``same_servers``)."""
    return (
        row.role in ("accessory", "service")
        and row.line is not None
        and row.priced
        and not same_servers(row, system)
    )


def same_servers(row: Row, system: Row) -> bool:
    """Whether a line is for the same servers as the system above it, by the layout's
    "Servers" column: Aspen's OS preload after the warranty, both "1 per server × 2 servers"
    under the 2 ESC8000A servers, is each server's, not beside them."""
    return row.servers is not None and row.servers == system.servers
