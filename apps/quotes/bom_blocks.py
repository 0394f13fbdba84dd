"""Where a system's block ends in a flat quote, and what a rack bought as its parts is.

A flat list (no sub-numbers, no indentation) nests a system's parts by position: every part
after a system line is the system's until something ends the block. A separately priced service
ends it (``ends_flat_block``); a priced part whose count cannot be split over the systems serves
them all (``shared_by_systems``); and compute trays of a rack-scale platform with no rack line
above them are the racks (``trays_as_racks``); the rack's switch trays and power shelves
numbered as their own items after those trays are the rack's parts (``rack_parts_join``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from apps.catalog.snapshot import CatalogSnapshot, SystemSpec
from apps.quotes.bom_gpus import RACK_SCALE_RE
from apps.quotes.bom_layouts import same_servers
from apps.quotes.bom_rows import Row


def ends_flat_block(row: Row, system: Row) -> bool:
    """A separately priced service in a flat, unnumbered list closes the system's
    configuration: in "DGX GB300 rack / rack installation / Business Critical upgrade /
    Quantum-X800 switch", the switch is the cluster's, not a part of the rack."""
    return (
        row.role == "service"
        and row.line is not None
        and not row.number
        and not system.number
        and row.indent == 0
        and row.priced
        and row.group == system.group
        and not same_servers(row, system)  # Aspen's warranty "1 per server × 2 servers"
    )


def shared_by_systems(row: Row, system: Row) -> bool:
    """A separately priced part in a flat list whose count cannot be split over the systems
    above it serves them all: 4 Slingshot switch blades after 16 EX154n blades are the
    cabinet's fabric, not a quarter of a switch in each blade; 2 in-row CDUs serve 4 racks."""
    systems = (system.quantity or 0) // system.units_per_system
    return (
        row.role in ("component", "accessory")
        and row.priced
        and not row.number
        and row.indent == 0
        and row.quantity is not None
        and systems > 1
        and row.quantity % systems != 0
        and system.priced
    )


def trays_as_racks(
    rows: list[Row], catalog: CatalogSnapshot, find: Callable[[str], SystemSpec | None]
) -> None:
    """Compute trays of a rack-scale platform counted as systems are the racks: an ODM's "GB300
    NVL72 compute tray, 2x GB300 Superchip (4x B300 GPU)" × 72 with no rack line above is 4
    NVL72 racks of 18 trays, four 72-GPU NVLink domains, not 72 systems of 4 GPUs; Dell's
    "PowerEdge XE9712 Server" × 18, each with its 2 GB200 superchips, is one rack of 72.
    ``find``: the catalog system a text names."""
    after_system = False
    for index, row in enumerate(rows):
        if row.line is None:
            continue
        if row.role == "system":
            after_system = True  # trays after a rack line are that rack's
            _servers_as_trays(rows, index, catalog, find)
            continue
        if after_system or row.role != "gpu_board" or row.gpu is None or not row.gpu.count:
            continue
        gpu = catalog.gpu_by_key.get(row.gpu.key)
        if gpu is not None and gpu.form_factor == "rack_nvl72" and row.quantity:
            trays = _trays_per_rack(gpu.nvlink_domain_gpus, row.gpu.count, row.quantity)
            if trays:
                row.role, row.units_per_system = "system", trays


def _servers_as_trays(
    rows: list[Row], index: int, catalog: CatalogSnapshot, find: Callable[[str], SystemSpec | None]
) -> None:
    """A system line the catalog knows as a rack (Dell's XE9712 is the GB200 NVL72) quoted
    many times, each with a board of a few GPUs under it, counts the rack's trays."""
    system = rows[index]
    if not system.quantity or system.quantity < 2:
        return
    spec = (
        catalog.system_by_key.get(system.spec_key or "")
        or find(system.text)
        or find(system.part_number)
    )
    if spec is None or spec.form_factor != "rack_nvl72":
        return
    for row in rows[index + 1 :]:
        if row.role == "system" and row.line is not None:
            break
        if row.role == "gpu_board" and row.gpu is not None and row.gpu.count:
            if row.quantity in (None, 1, system.quantity):  # one board per tray
                trays = _trays_per_rack(spec.nvlink_domain_gpus, row.gpu.count, system.quantity)
                system.units_per_system = trays or 1
            return
    if _TRAY_WORDS.search(system.text) and not (
        _RACK_WORD.search(system.text) or RACK_SCALE_RE.search(system.text)
    ):
        # no board says the GPUs of a tray: "PowerEdge XE9712 Server" × 18 alone is still
        # one rack's trays, each a Grace Blackwell tray of 4 GPUs (2 superchips)
        trays = _trays_per_rack(spec.nvlink_domain_gpus, _GPUS_PER_TRAY, system.quantity)
        system.units_per_system = trays or 1


#: A rack-scale family's line that names one of its trays, not the rack: "PowerEdge XE9712
#: Server", "compute tray", "compute node".
_TRAY_WORDS = re.compile(r"\b(?:server|tray|node|sled)s?\b", re.IGNORECASE)
_RACK_WORD = re.compile(r"\b(?:rack|cabinet)s?\b", re.IGNORECASE)
#: A Grace Blackwell compute tray's GPUs: two superchips of two (GB200, GB300).
_GPUS_PER_TRAY = 4


def _trays_per_rack(domain: int, per_tray: int, quantity: int) -> int:
    """18 for trays of 4 GPUs in a 72-GPU rack, when ``quantity`` trays fill whole racks;
    0 when they do not (4 GB200 NVL4 blades are not a part of a rack)."""
    trays, rest = divmod(domain, per_tray)
    return trays if not rest and trays > 1 and quantity % trays == 0 else 0


def rack_parts_join(rows: list[Row]) -> None:
    """The parts listed as their own items after a rack bought as its trays are the rack's:
    Dell's "2 PowerEdge XE9712 Server × 18" (one GB200 NVL72) then "3 NVLink Switch Tray × 9"
    and "4 IR7000 power shelf × 8" are one rack with its switch trays and power shelves, not
    loose parts beside it. The run of top-level parts right after the rack's block joins it,
    up to the first line that is not a part (a service, an accessory, a total). Runs on
    nested rows (``Row.parent`` set)."""
    rack: Row | None = None
    for row in rows:
        if row.role == "system" and row.parent is None:
            rack = row if row.units_per_system > 1 else None
        elif rack is None or row.parent is not None:
            continue
        elif row.line is not None and row.role == "component":
            row.parent = rack.index
        else:
            rack = None
