"""Ordering bundles: a numbered parent line that groups what is ordered together, not a
machine. Cisco's CCW puts an X-Series chassis, its compute nodes and its PCIe GPU nodes under
one "UCSX-M7-MLB | UCSX M7 Modular Server and Chassis MLB" ($0, a "major line bundle"):
its head reads like a server, but the bundle carries no GPU of its own and holds the systems
beside their parts, all numbered one level under it (1.0.10 X440p node, 1.0.11 its riser,
1.0.12 its L40S cards).

``bundles_open`` reads such a parent as a banner (a note) and gives each system in it the
parts listed after it, until the next system or enclosure; those parts' quantities count the
order as the system's own does (``Row.parts_beside``). A line numbered under the bundle that
nothing names is one of its parts, not an accessory beside it.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re

from apps.quotes.bom_rows import Row

#: A line that names itself a bundle: Cisco's "MLB" (major line bundle), "ordering bundle",
#: "Bundle", "Bündel".
_BUNDLE_RE = re.compile(r"\bmlb\b|\bbundles?\b|\bb[uü]ndel\b", re.IGNORECASE)
#: Lines a system in a bundle takes when they follow it: its parts.
_PART_ROLES = ("component", "gpu_card", "gpu_board", "nvlink_bridge")


def is_bundle(row: Row, children: list[Row]) -> bool:
    """A system line that names itself a bundle, carries no GPU of its own and holds at least
    one other system line: "DGX Spark Bundle: 2x DGX Spark 4TB" with no system under it is
    two machines, not a bundle of lines."""
    return (
        row.role == "system"
        and row.line is not None
        and (row.gpu is None or not row.gpu.count)
        and _BUNDLE_RE.search(f"{row.part_number} {row.text}") is not None
        and any(child.role == "system" for child in children)
    )


def bundles_open(rows: list[Row]) -> None:
    """Read each ordering bundle (``is_bundle``) as a banner over its lines, its systems each
    the parent of the parts listed after it. Runs on nested rows (``Row.parent`` set)."""
    children: dict[int, list[Row]] = {}
    for row in rows:
        if row.parent is not None:
            children.setdefault(row.parent, []).append(row)
    for row in rows:
        inside = children.get(row.index, [])
        if not is_bundle(row, inside):
            continue
        row.role, row.head_category = "note", "bundle"
        system: Row | None = None
        for child in inside:
            if child.role == "accessory" and child.guessed:
                # nothing in the line said what it is ("Intel I6548Y+ 2.5GHz/250W 32C"), and
                # it is numbered under the bundle: a part of what the bundle orders
                child.role, child.guessed = "component", False
            if child.role == "system":
                system = child
                system.parts_beside = True
            elif child.role == "chassis":
                system = None  # an enclosure after a system is the bundle's, not the system's
            elif system is not None and child.role in _PART_ROLES:
                child.parent = system.index
