"""What a layout's own columns say about a line (apps/quotes/bom_layouts.py), and the parts of
a rack listed after its trays (apps/quotes/bom_blocks.py::rack_parts_join)."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from tests.quotes.quote_text import csv_quote_read as read
from tests.quotes.quote_text import row_roles as roles

DELL_MODULES = "Group Name,Module Name,Option Name,SKUs,Qty,Unit List Price,Option List Price\n"
R760XA = (
    "Base,Base,PowerEdge R760xa Server,210-BDZY,1,9850,9850\n"
    'GPU,GPU/FPGA/Acceleration Cards,"NVIDIA L40S 48GB PCIe, 350W, Passive",490-BJKC,4,11250,'
    "45000\n"
)


def test_a_choice_under_a_type_module_is_a_note_not_a_part(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        R760XA + "Memory,Memory DIMM Type and Speed,5600MT/s RDIMMs,370-AHCL,1,0,0\n"
        "Memory,Memory Configuration Type,Performance Optimized,370-AAIP,1,0,0\n"
        'Memory,Memory Capacity,"64GB RDIMM, 5600MT/s, Dual Rank",370-BBRX,16,520,8320\n',
        header=DELL_MODULES,
    )
    # "5600MT/s RDIMMs" and "Performance Optimized" are the choices the configurator
    # records ($0, under a "... Type" module); the 16 DIMMs below are the part
    assert roles(intake) == ["system", "gpu_card", "note", "note", "component"]


def test_a_priced_line_or_a_part_module_is_still_a_part(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        R760XA + "Memory,Memory DIMM Type and Speed,5600MT/s RDIMMs,370-AHCL,1,40,40\n"
        "Processor,Processor Thermal Configuration,Heatsink for 2 CPU,412-BBHK,1,0,0\n",
        header=DELL_MODULES,
    )
    # priced, the choice is bought; a $0 heatsink under a "Configuration" module is a part
    assert roles(intake)[2:] == ["component", "component"]


ASPEN = "Item,Part Number,Description,Qty per Server,Servers,Unit Price,Extended Price\n"
ESC8000A = (
    '1,90SF02Y1-M000A0,"ASUS ESC8000A-E13P 4U GPU server barebone",1,2,16850.00,33700.00\n'
    "2,900-2G153-0000-000,NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB,8,2,8995.00,"
    "143920.00\n"
    '3,ASP-WTY-5Y,"Aspen Systems 5-year warranty, for ESC8000A-E13P server",1,2,4600.00,'
    "9200.00\n"
)


def test_a_line_for_the_systems_servers_after_their_warranty_is_theirs(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        ESC8000A + '4,ASP-OS-ROCKY9,"Rocky Linux 9 with CUDA preinstalled",1,2,750.00,1500.00\n',
        header=ASPEN,
    )
    # 1 per server × 2 servers, as the server's: the priced warranty before it does not end
    # the configuration (a flat list's priced service would)
    assert roles(intake) == ["system", "gpu_card", "service", "component"]
    (system,) = intake.systems
    assert 4 in system.lines
    # 8 per server × 2 servers = 16 cards: 8 in each
    assert (system.quantity, system.gpus_per_system) == (2, 8)


def test_a_line_for_other_servers_after_the_warranty_is_beside_them(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        ESC8000A + '4,MSN2100,"Mellanox SN2100 switch, 16-port 100GbE",1,1,9800.00,9800.00\n',
        header=ASPEN,
    )
    # one switch for the pair of servers ("Servers" 1, not 2): bought beside them
    assert roles(intake)[3] == "accessory"


XE9712 = (
    '1,210-BRHX,"PowerEdge XE9712 Server",18,168000.00,3024000.00\n'
    '1.1,338-CHXT,"2x NVIDIA GB200 Grace Blackwell Superchip (4x B200 GPU, 2x Grace CPU)",1,'
    "0.00,0.00\n"
    '2,210-BRJB,"NVIDIA NVLink Switch Tray for PowerEdge XE9712, liquid cooled",9,52000.00,'
    "468000.00\n"
    '3,450-BCXR,"IR7000 power shelf, 33kW, 6x 5.5kW PSU",8,9800.00,78400.00\n'
)


def test_the_parts_numbered_after_a_racks_trays_are_the_racks(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        XE9712 + '4,804-BFWA,"ProDeploy Plus for Dell IR7000 rack solution",1,61000.00,61000.00\n'
        '5,470-ABCD,"OSFP 800G cable, 3m",8,400.00,3200.00\n',
    )
    # switch trays and power shelves are the rack's parts, in its lines (data lines 3, 4);
    # the service ends the run, and the cables after it stay beside the rack
    assert roles(intake) == [
        "system",
        "gpu_board",
        "component",
        "component",
        "service",
        "accessory",
    ]
    (system,) = intake.systems
    assert system.lines == [1, 2, 3, 4]


def test_a_top_level_part_after_a_plain_server_stays_an_accessory(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        '1,210-BDZY,"PowerEdge R760xa Server",2,30000.00,60000.00\n'
        '1.1,490-BJKC,"NVIDIA L40S 48GB PCIe",4,0.00,0.00\n'
        '2,450-BCXR,"IR7000 power shelf, 33kW, 6x 5.5kW PSU",1,9800.00,9800.00\n',
    )
    # only a rack bought as its trays takes the parts numbered after it: a server's block
    # ends at the next item number
    assert roles(intake)[2] == "accessory"
