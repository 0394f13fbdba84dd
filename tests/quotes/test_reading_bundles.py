"""Ordering bundles (apps/quotes/bom_bundles.py) and the item-number column of a CCW export.

Cisco's Commerce Workspace puts an X-Series chassis, its compute nodes and its X440p PCIe GPU
nodes under one $0 "UCSX-M7-MLB" (a major line bundle), numbered one level under it, with the
order's quantities: the bundle is a banner, each X440p the system of the parts after it."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_bundles import is_bundle
from apps.quotes.bom_rows import Row, rows_from
from apps.quotes.parsing import parse_upload
from tests.quotes.quote_text import csv_quote_read as read
from tests.quotes.quote_text import row_roles as roles

#: CCW's columns: the discount column reads the same percentage on every line.
CCW = "Line Number,Part Number,Description,Qty,Unit Net Price,Disc(%),Extended Net Price\n"
X_SERIES = (
    "1.0,UCSX-M7-MLB,UCSX M7 Modular Server and Chassis MLB,1,0.00,38.00,0.00\n"
    "1.0.1,UCSX-9508,UCS 9508 Chassis Configured,1,6076.00,38.00,6076.00\n"
    '1.0.2,UCSX-210C-M7,"UCS X210c M7 Compute Node 2S w/o CPU, Mem",2,3906.00,38.00,7812.00\n'
    "1.0.3,UCSX-CPU-I6548Y+,Intel I6548Y+ 2.5GHz/250W 32C/60MB DDR5,4,4600.40,38.00,18401.60\n"
    "1.0.4,UCSX-440P-D-U,UCS X440p PCIe Node for X-Series,2,3069.00,38.00,6138.00\n"
    "1.0.5,UCSX-RIS-A-440P-D,Riser A for X440p PCIe node (1 dual slot GPU),4,396.80,38.00,"
    "1587.20\n"
    '1.0.6,UCSX-GPU-L40S,"NVIDIA L40S: 350W, 48GB, 2-slot FHFL GPU",4,9672.00,38.00,38688.00\n'
    "1.1,CON-L1NCO-UCSX9508,CX LEVEL 1 8X7NCDOSP UCS 9508 Chassis,1,2604.00,38.00,2604.00\n"
    'Valid through: 18-Aug-2026,,,,,Product Total,"78,703.60"\n'
)


def test_an_mlb_is_a_banner_over_the_gpu_nodes_it_orders(catalog: CatalogSnapshot) -> None:
    intake = read(catalog, X_SERIES, header=CCW)
    (system,) = intake.systems
    # 4 L40S for 2 X440p nodes listed beside them under the bundle: order totals, 4 / 2 = 2
    # each (per system would be 4 dual-slot cards in a node with 2 dual-slot risers)
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (2, "l40s", 2)
    assert intake.child_quantities == "totals"
    # the $0 MLB is a note, not a GPU-less server; the compute node and its CPU are the
    # bundle's parts (the CPU's text names nothing we know, but it is numbered under it)
    assert roles(intake)[:8] == [
        "note",
        "chassis",
        "component",
        "component",
        "system",
        "component",
        "gpu_card",
        "service",
    ]


def test_a_constant_column_is_not_the_item_number(catalog: CatalogSnapshot) -> None:
    parsed = parse_upload((CCW + X_SERIES).encode(), "quote.csv")
    numbers = [row.number for row in rows_from(parsed)]
    # "Line Number", not "Disc(%)" whose 38.00 on every line looks like numbering; the money
    # row's "Valid through: 18-Aug-2026" in that column is no item number
    assert numbers[:3] == ["1.0", "1.0.1", "1.0.2"]
    assert numbers[-1] == ""


def test_an_enclosure_after_a_gpu_node_is_the_bundles(catalog: CatalogSnapshot) -> None:
    body = (
        "1.0,UCSX-M7-MLB,UCSX M7 Modular Server and Chassis MLB,1,0.00,38.00,0.00\n"
        "1.0.1,UCSX-440P-D-U,UCS X440p PCIe Node for X-Series,1,3069.00,38.00,3069.00\n"
        '1.0.2,UCSX-GPU-L40S,"NVIDIA L40S: 350W, 48GB, 2-slot FHFL GPU",2,9672.00,38.00,'
        "19344.00\n"
        "1.0.3,UCSX-9508,UCS 9508 Chassis Configured,1,6076.00,38.00,6076.00\n"
        "1.0.4,UCSX-PSU-2800AC,UCS 9508 Chassis 2800V AC PSU Titanium,6,713.00,38.00,4278.00\n"
    )
    intake = read(catalog, body, header=CCW)
    (system,) = intake.systems
    # the node's lines are its own two (data lines 2-3); the chassis and its PSUs after it
    # are the bundle's, not parts of the PCIe node
    assert system.lines == [2, 3]
    assert roles(intake) == ["note", "system", "gpu_card", "chassis", "component"]


def test_a_gpu_less_node_in_the_bundle_hosts_the_gpu_node(catalog: CatalogSnapshot) -> None:
    # "Compute Node" with no "w/o CPU" after it reads as a server on its own; in a bundle
    # whose PCIe node carries the GPUs it is that node's host, a part of the order (Cisco
    # pairs each X440p with a compute node), not a second, GPU-less system
    intake = read(
        catalog,
        X_SERIES.replace(
            '"UCS X210c M7 Compute Node 2S w/o CPU, Mem"', "UCS X210c M7 Compute Node"
        ),
        header=CCW,
    )
    (system,) = intake.systems
    assert (system.quantity, system.gpus_per_system) == (2, 2)
    assert roles(intake)[2:4] == ["component", "component"]


def _row(index: int, text: str, role: str = "system", part: str = "") -> Row:
    row = Row(index=index, source_row=index + 1, line=index + 1, text=text, part_number=part)
    row.role = role  # type: ignore[assignment]
    return row


def test_a_bundle_is_a_gpu_less_line_named_so_over_other_systems() -> None:
    node = _row(1, "UCS X440p PCIe Node")
    # named a bundle by its part number ("MLB") or its words, with a system under it
    assert is_bundle(_row(0, "UCSX M7 Modular Server and Chassis", part="UCSX-M7-MLB"), [node])
    assert is_bundle(_row(0, "Compute ordering bundle"), [node])
    # "DGX Spark Bundle: 2x DGX Spark" holds no system line: it is the machines themselves
    assert not is_bundle(_row(0, "NVIDIA DGX Spark Bundle: 2x DGX Spark 4TB"), [])
    # a server line that is not named a bundle keeps its nested barebone as its chassis
    assert not is_bundle(_row(0, "SuperServer SYS-821GE-TNHR"), [node])
