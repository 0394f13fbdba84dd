"""Ordering bundles: a numbered parent line that groups what is ordered together, not a
machine. Cisco's CCW puts an X-Series chassis, its compute nodes and its PCIe GPU nodes under
one "UCSX-M7-MLB | UCSX M7 Modular Server and Chassis MLB" ($0, a "major line bundle"):
its head reads like a server, but the bundle carries no GPU of its own and holds the systems
beside their parts, all numbered one level under it (1.0.10 X440p node, 1.0.11 its riser,
1.0.12 its L40S cards).

``bundles_open`` reads such a parent as a banner (a note) and gives each system in it the
parts listed after it, until the next system or enclosure; those parts' quantities count the
order as the system's own does (``Row.parts_beside``). A line numbered under the bundle that
nothing names is one of its parts, not an accessory beside it; a GPU-less system in a bundle
whose other systems carry the GPUs (the X210c compute node that hosts the X440p) is a part too.

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
        _hosts_as_parts(row, inside, rows)


def _hosts_as_parts(bundle: Row, inside: list[Row], rows: list[Row]) -> None:
    """A GPU-less system in a bundle whose other systems carry the GPUs is their host, a
    part of the bundle: the X210c compute node ("UCS X210c M7 Compute Node") drives the
    X440p PCIe node paired with it, whose GPUs are the order's."""
    systems = [child for child in inside if child.role == "system"]
    engines = {r.parent for r in rows if r.role in ("gpu_card", "gpu_board")}
    carrying = [s for s in systems if s.index in engines or (s.gpu and s.gpu.count)]
    if not carrying:
        return
    for system in systems:
        if system not in carrying:
            system.role, system.parts_beside = "component", False
            for part in rows:
                if part.parent == system.index:
                    part.parent = bundle.index
