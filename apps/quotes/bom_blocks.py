"""Where a system's block ends in a flat quote, and what a rack bought as its parts is.

A flat list (no sub-numbers, no indentation) nests a system's parts by position: every part
after a system line is the system's until something ends the block. A separately priced service
ends it (``ends_flat_block``); a priced part whose count cannot be split over the systems serves
them all (``shared_by_systems``); and compute trays of a rack-scale platform with no rack line
above them are the racks (``trays_as_racks``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
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


def trays_as_racks(rows: list[Row], catalog: CatalogSnapshot) -> None:
    """Compute trays of a rack-scale platform quoted with no rack line above them are the
    racks: an ODM's "GB300 NVL72 compute tray, 2x GB300 Superchip (4x B300 GPU)" × 72 is 4
    NVL72 racks of 18 trays, four 72-GPU NVLink domains, not 72 systems of 4 GPUs."""
    for row in rows:
        if row.role == "system" and row.line is not None:
            return  # trays after a rack line are that rack's
        if row.role != "gpu_board" or row.line is None or row.gpu is None or not row.gpu.count:
            continue
        gpu = catalog.gpu_by_key.get(row.gpu.key)
        if gpu is None or gpu.form_factor != "rack_nvl72" or not row.quantity:
            continue
        trays, rest = divmod(gpu.nvlink_domain_gpus, row.gpu.count)
        if not rest and trays > 1 and row.quantity % trays == 0:
            row.role, row.units_per_system = "system", trays
