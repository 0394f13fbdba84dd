"""What one system costs: its own line and the hardware priced beside it (bom_prices)."""

from __future__ import annotations

from decimal import Decimal

from apps.catalog.snapshot import CatalogSnapshot
from tests.quotes.quote_text import csv_quote_read as read

HEADER = "Part Number,Description,Qty,Unit Price,Extended Price\n"


def test_cards_on_their_own_line_are_part_of_the_servers_price(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "AS-4125GS-TNRT,Supermicro A+ Server AS-4125GS-TNRT 4U GPU server,2,38740.00,77480.00\n"
        "900-21010-0040-000,NVIDIA H200 NVL 141GB PCIe GPU,16,31280.00,500480.00\n"
        "SVC-3Y,3-year onsite support,2,4100.00,8200.00\n",
        header=HEADER,
    )
    (system,) = intake.systems
    # before: $38,740, the chassis line alone. Now $38,740 + 16 × $31,280 ÷ 2 servers
    # = $38,740 + $250,240 = $288,980; the support is a service, not the server's hardware
    assert system.unit_price == Decimal("288980.00")


def test_per_system_parts_are_one_systems_already(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,SYS-821GE-TNHR,Supermicro SYS-821GE-TNHR 8U HGX server,2,45000.00,90000.00\n"
        "1.1,GPU-HGX-H200,NVIDIA HGX H200 8-GPU 141GB baseboard,1,240000.00,240000.00\n"
        "1.2,P4X-EMR8568Y,Intel Xeon Platinum 8568Y+ 48C,2,6500.00,13000.00\n",
        header="Item," + HEADER,
    )
    (system,) = intake.systems
    # one baseboard per server, listed once per server ("per_system"): $45,000 + $240,000
    # + 2 × $6,500 = $298,000 a server
    assert intake.child_quantities == "per_system"
    assert system.unit_price == Decimal("298000.00")


def test_a_rack_bought_as_its_trays_costs_its_trays(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,XE9712,PowerEdge XE9712 Server,18,168000.00,3024000.00\n"
        "2,SWTRAY,NVIDIA NVLink Switch Tray for PowerEdge XE9712,9,52000.00,468000.00\n",
        header="Item," + HEADER,
    )
    (system,) = intake.systems
    # 18 trays make one rack: 18 × $168,000 = $3,024,000 + the 9 switch trays' $468,000
    # = $3,492,000 for the rack (before: $168,000, one tray's price for a 72-GPU rack)
    assert (system.quantity, system.gpus_per_system) == (1, 72)
    assert system.unit_price == Decimal("3492000.00")


def test_processors_over_two_sockets_read_the_parts_as_order_totals(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        "7D9RCTO1WW,ThinkSystem SR675 V3 - 3yr Warranty,2,36450.00,72900.00\n"
        "BR1F,ThinkSystem NVIDIA H200 NVL 141GB PCIe GPU,8,31500.00,252000.00\n"
        "BR1K,ThinkSystem NVIDIA 4-way NVLink bridge for H200 NVL,2,1250.00,2500.00\n"
        "BREB,ThinkSystem AMD EPYC 9554 64C 360W,4,5980.00,23920.00\n"
        "BQ3D,ThinkSystem 64GB TruDDR5 4800MHz RDIMM,48,610.00,29280.00\n",
        header=HEADER,
    )
    (system,) = intake.systems
    # read per system, 4 EPYC would sit in a two-socket server: the lines are order totals,
    # 4 ÷ 2 = 2 processors and 8 ÷ 2 = 4 H200 NVL a server (before: 8 a server, 16 in all)
    assert intake.child_quantities == "totals"
    assert (system.quantity, system.gpus_per_system) == (2, 4)
    # $36,450 + ($252,000 + $2,500 + $23,920 + $29,280) ÷ 2 = $36,450 + $153,850 = $190,300
    assert system.unit_price == Decimal("190300.00")
