"""Layouts the reader misread before (tests/fixtures/boms/ holds the full quotes): a group's
"Quantity: 3" row or title, a server whose head goes on to name its CPUs, a processor's
"GHz base" clock, CCW's three-level line numbers beside a "Disc(%)" column, Cisco's Dummy PID
and HPE's localization rows, and a proposal offering "Option A" or "Option B".
"""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import gpu_mention
from apps.quotes.bom_heads import head_category_read, names_a_choice
from apps.quotes.bom_words import head_category
from apps.quotes.intake import quote_intake
from apps.quotes.parsing.metadata import metadata_read
from tests.quotes.quote_text import csv_quote_read as read
from tests.quotes.quote_text import row_roles

# One unit of an XE9680 configuration, as Dell Premier lists a group: server priced, modules $0.
_ONE_XE9680 = (
    ",PowerEdge XE9680 Rack Server,210-BDJV,1,241380.00,241380.00\n"
    ",NVIDIA HGX H200 141GB 700W SXM5 (8 GPUs),490-BKHR,1,0.00,0.00\n"
    ",ProSupport Plus Mission Critical 4Hr 36 Month(s),865-BBPX,1,31650.00,31650.00\n"
)
_PREMIER_HEADER = "Item,Description,SKU,Qty,Unit Price,Extended Price\n"


def test_a_bare_quantity_row_above_a_group_is_the_number_of_systems(
    catalog: CatalogSnapshot,
) -> None:
    # Dell Premier writes "Quantity: 3" under the group banner and the group for one unit:
    # before, the row read as a component and the quote as 1 XE9680 (8 GPUs).
    intake = read(
        catalog,
        ",Group 1: PowerEdge XE9680 - AI Training Node,,,,\n"
        ",Quantity: 3,,,,\n" + _ONE_XE9680 + ",Group 1 Total (3 Units),,,,819090.00\n"
        ",Total,,,,819090.00\n",
        header=_PREMIER_HEADER,
    )
    (xe9680,) = intake.systems
    # 3 systems × 8 H200 = 24 GPUs
    assert (xe9680.quantity, xe9680.gpus_per_system) == (3, 8)
    assert row_roles(intake)[:3] == ["note", "note", "system"]
    # (241,380 + 31,650) × 3 = 819,090: the one unit's lines × 3 add up, no warning
    assert not [p for p in intake.line_problems if p.severity == "warning"]


def test_a_quantity_in_the_title_block_multiplies_a_one_unit_configuration(
    catalog: CatalogSnapshot,
) -> None:
    # HP's workstation configurator writes "Quantity: 3" above the table of one unit's options:
    # before, 1 Z8 Fury with 4 GPUs was read and the total (× 3) did not add up.
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in (
        ["Quote Number:", "HPWS-2026-0412-7731"],
        ["Quantity: 3"],
        ["Category", "Product #", "Description", "Qty", "Unit Price", "Extended Price"],
        ["Base Unit", "9K9P2AV", "HP Z8 Fury G5 Workstation (CTO)", 1, 9850, 9850],
        ["Graphics", "AY8U6AA", "NVIDIA RTX PRO 5000 Blackwell 48GB Graphics", 4, 4990, 19960],
        [None, None, "Configuration total (3 units)", None, None, 89430],
    ):
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    intake = quote_intake(buffer.getvalue(), "quote.xlsx", catalog)
    (z8,) = intake.systems
    # 3 workstations × 4 RTX PRO 5000 = 12 GPUs; (9,850 + 19,960) × 3 = 89,430
    assert (z8.quantity, z8.gpus_per_system) == (3, 4)
    assert intake.parsed.title_systems == 3
    assert not [p for p in intake.line_problems if p.severity == "warning"]


def test_a_title_quantity_needs_a_count_of_two_or_more() -> None:
    # "Qty | Unit Price" (a second header row) and "Quantity: 1" say nothing of the systems.
    assert "systems" not in metadata_read([["Qty", "Unit Price"], ["Quantity: 1"]])
    assert metadata_read([["Number of Systems", "4"]])["systems"] == "4"


def test_a_server_named_before_its_processors_is_a_system(catalog: CatalogSnapshot) -> None:
    # Ingram's "Supermicro A+ Server AS-4125GS-TNRT 4U DP AMD EPYC 9004, ...": the head's last
    # noun is EPYC, so the server read as a component, then an accessory, and the 16 H200 NVL
    # on their own line had no chassis (0 GPUs).
    head = "Supermicro A+ Server AS-4125GS-TNRT 4U DP AMD EPYC 9004"
    assert (head_category(head), head_category_read(head)) == ("component", "system")
    intake = read(
        catalog,
        f'1,AS-4125GS-TNRT,"{head}, 8x PCIe GPU",2,38740.00,77480.00\n'
        "2,900-21010-0040-000,NVIDIA H200 NVL 141GB PCIe Gen5 passive GPU,16,31280.00,500480.00\n",
    )
    (server,) = intake.systems
    # 16 cards over 2 servers: 8 each, 16 GPUs
    assert (server.quantity, server.gpus_per_system) == (2, 8)


def test_a_processor_named_after_a_server_word_stays_a_processor() -> None:
    # The words before the CPU must name a machine: "ThinkSystem AMD EPYC 9534" is a CPU.
    assert head_category_read("ThinkSystem AMD EPYC 9534 64C 280W") == "component"
    assert head_category_read("Server Processor Intel Xeon Gold 6548Y+") == "component"


def test_a_base_clock_is_no_chassis() -> None:
    # "2.0 GHz base" is the processor's base frequency; "base" alone names a chassis.
    head = "Intel Xeon w9-3595X 60-core 2.0 GHz base"
    assert (head_category(head), head_category_read(head)) == ("chassis", "component")
    assert head_category_read("HP Z8 Fury G5 base") == head_category("HP Z8 Fury G5 base")


_CCW_HEADER = "Line Number,Part Number,Description,Qty,Unit Net Price,Disc(%),Extended Net Price\n"


def test_ccw_three_level_numbers_nest_beside_a_discount_column(catalog: CatalogSnapshot) -> None:
    # The Line Number column also holds the summary rows ("Valid through: ..."), so the
    # Disc(%) column ("40.00" on every line) was taken for the numbering: the server's block
    # ended at 1.0.2.1 and the switch (2.0) was read as one of its parts.
    intake = read(
        catalog,
        '1.0,CAI-845A-M8,"Cisco UCS C845A M8 Rack Server, 8x PCIe GPU",2,23040.00,40.00,46080.00\n'
        "1.0.1,UCSC-GPU-H200NVL,NVIDIA H200 NVL 141GB PCIe GPU,16,24900.00,40.00,398400.00\n"
        "1.0.2,UCSC-P-N7D400GF,NVIDIA ConnectX-7 1x400G OSFP NIC,8,2010.00,40.00,16080.00\n"
        "1.0.2.1,QSFP-400G-DR4,400G QSFP112 Transceiver DR4,8,1740.00,40.00,13920.00\n"
        "1.0.3,UCSC-PSU-3200W,UCS 3200W AC Titanium Power Supply,8,0.00,40.00,0.00\n"
        "2.0,N9K-C9364D-GX2A,Nexus 9300 64p 400G QSFP-DD switch,1,58800.00,40.00,58800.00\n"
        "2.0.1,NXK-AF-PI,Dummy PID for Airflow Selection Port-side Intake,1,0.00,40.00,0.00\n"
        "2.0.1.1,NXA-PAC-2KW-PI,Nexus 2000W AC PS Port-side Intake,2,870.00,40.00,1740.00\n"
        "Valid through: 19-Oct-2026,,Product Total,,,,535020.00\n",
        header=_CCW_HEADER,
    )
    assert row_roles(intake) == [
        "system",
        "gpu_card",
        "component",
        "accessory",  # a transceiver, under the NIC
        "component",  # 1.0.3 is the server's again
        "accessory",  # 2.0: bought beside the servers
        "note",  # a Dummy PID records a choice
        "component",  # "AC PS": the switch's power supply
        "total",
    ]
    (server,) = intake.systems
    # 16 cards over 2 servers: 8 each
    assert (server.quantity, server.gpus_per_system) == (2, 8)
    assert not [p for p in intake.line_problems if p.severity == "warning"]


def test_option_codes_and_choices_are_notes() -> None:
    # HPE OCA's "#B19" row and Cisco's Dummy PID cost nothing and are no parts.
    assert names_a_choice("United States - English localization")
    assert names_a_choice("Dummy PID for Airflow Selection Port-side Intake")
    assert names_a_choice("Factory Integrated")
    assert not names_a_choice("HPE 64GB Dual Rank x4 DDR5-6400 Registered Smart Memory Kit")


def test_an_option_code_alone_in_its_cell_is_a_note() -> None:
    # OCA's "P65412-B21 #0D1" row with no description: the part number is the text, and the
    # "#" kept it from reading as the factory-integration option it is (a $0 component).
    assert names_a_choice("P65412-B21 #0D1")
    assert names_a_choice("P65412-B21 0D1")
    assert not names_a_choice("P65412-B21")


def test_a_machine_type_line_labels_the_cto_line_above_it(catalog: CatalogSnapshot) -> None:
    # Lenovo DCSC: "7DHE | Machine Type 7DHE | 4" under the CTO line of 4 servers was read as
    # 4 more SR680a V3 (the catalog's, with 8 B200): 64 GPUs instead of 32.
    intake = read(
        catalog,
        ',7DHECTO1WW,ThinkSystem SR680a V3 - 3yr Warranty,4,"289,000.00","1,156,000.00"\n'
        ",7DHE,Machine Type 7DHE,4,,\n"
        ",BUUJ,ThinkSystem NVIDIA HGX H200 141GB 700W 8-GPU Board,1,,\n",
    )
    (server,) = intake.systems
    # 4 servers × 8 H200 = 32 GPUs
    assert (server.quantity, server.gpus_per_system) == (4, 8)
    assert row_roles(intake) == ["system", "note", "gpu_board"]
    assert not names_a_choice("ThinkSystem SR680a V3 Machine Type 7DHE, 8x H200")


def test_two_options_are_alternatives_not_a_sum(catalog: CatalogSnapshot) -> None:
    # "Option A: 4 x XE9680 H200" and "Option B: 2 x XE9680 B200", each with its total and no
    # grand total: before, both were read (4 × 8 + 2 × 8 = 48 GPUs) and the total was B's.
    intake = read(
        catalog,
        ',,"Option A: 4 x Dell PowerEdge XE9680 with NVIDIA HGX H200",,,\n'
        "A1,210-BDJV,PowerEdge XE9680 Rack Server,4,98450.00,393800.00\n"
        "A2,490-BKHR,NVIDIA HGX H200 141GB 700W SXM5 8-GPU Baseboard,4,212000.00,848000.00\n"
        ",,Option A Total,,,1241800.00\n"
        ',,"Option B: 2 x Dell PowerEdge XE9680 with NVIDIA HGX B200",,,\n'
        "B1,210-BDJV,PowerEdge XE9680 Rack Server,2,112300.00,224600.00\n"
        "B2,490-BNHB,NVIDIA HGX B200 180GB 1000W SXM6 8-GPU Baseboard,2,318000.00,636000.00\n"
        ",,Option B Total,,,860600.00\n",
    )
    (xe9680,) = intake.systems
    # Option A: 4 × 8 H200 = 32 GPUs; its total 393,800 + 848,000 = 1,241,800
    assert (xe9680.quantity, xe9680.gpus_per_system) == (4, 8)
    assert intake.summary.total == Decimal("1241800.00")
    assert row_roles(intake) == ["note", "system", "gpu_board", "total"] + ["note"] * 4
    (said,) = [p for p in intake.line_problems if "alternative" in p.title]
    assert said.severity == "info" and said.metrics["options"] == ["Option A", "Option B"]


def test_one_option_alone_is_a_title(catalog: CatalogSnapshot) -> None:
    # A single "Option 1: ..." banner offers no alternative: its lines are the quote.
    intake = read(
        catalog,
        ',,"Option 1: 2 x PowerEdge XE9680 with HGX H200",,,\n'
        "1,210-BDJV,PowerEdge XE9680 Rack Server 8x NVIDIA H200 141GB SXM5,2,310450,620900\n",
    )
    (xe9680,) = intake.systems
    assert xe9680.quantity == 2
    assert not [p for p in intake.line_problems if "alternative" in p.title]


def test_a_mobile_rtx_pro_is_the_laptop_part() -> None:
    # Lenovo and HP write "RTX PRO 5000 Blackwell Mobile": it was read as the 48 GB desktop
    # card, the laptop part (24 GB) only when the line said "Laptop".
    mobile = gpu_mention("NVIDIA RTX PRO 5000 Blackwell mobile 24GB GDDR7")
    desktop = gpu_mention("NVIDIA RTX PRO 5000 Blackwell 48GB GDDR7")
    assert (mobile and mobile.key, desktop and desktop.key) == (
        "rtx-pro-5000-laptop",
        "rtx-pro-5000",
    )
    small = gpu_mention("NVIDIA RTX PRO 2000 Blackwell Mobile")
    assert small is not None and small.key == "rtx-pro-2000-laptop"


def test_a_banner_quantity_multiplies_its_one_unit_group(catalog: CatalogSnapshot) -> None:
    # "Solution ID 1: ... (Quantity: 3)" above a server line of 1: before, 1 XE9680 (8 GPUs)
    # and a total (× 3) that did not add up. Each group takes its own banner's count.
    intake = read(
        catalog,
        ',"Solution ID 1: PowerEdge XE9680 - HGX H200 (Quantity: 3)",,,,\n'
        + _ONE_XE9680
        + ',"Solution ID 2: PowerEdge R760xa - L40S (Quantity: 2)",,,,\n'
        ",PowerEdge R760xa Server,210-BDZY,1,30000.00,30000.00\n"
        ",NVIDIA L40S 48GB PCIe GPU,490-BJTS,2,0.00,0.00\n"
        # (241,380 + 31,650) × 3 + 30,000 × 2 = 819,090 + 60,000 = 879,090
        ",Total,,,,879090.00\n",
        header=_PREMIER_HEADER,
    )
    got = sorted((s.quantity, s.gpus_per_system) for s in intake.systems)
    # 3 × 8 H200 + 2 × 2 L40S = 28 GPUs
    assert got == [(2, 2), (3, 8)]
    # each group × its own count adds up to the total: no one multiplier would
    assert not [p for p in intake.line_problems if p.severity == "warning"]


def test_a_banner_quantity_that_repeats_the_server_line_is_no_multiplier(
    catalog: CatalogSnapshot,
) -> None:
    # Dell's itemized totals layout: "(Quantity: 4)" above "PowerEdge XE8640 | 4" and its
    # parts as order totals (4 boards for 4 servers): the banner only repeats the count.
    intake = read(
        catalog,
        ",,Configuration 1 - PowerEdge XE8640 (Quantity: 4),,,\n"
        "1,210-BDHS,PowerEdge XE8640 Rack Server,4,61250.00,245000.00\n"
        '2,490-BJHK,"NVIDIA HGX H100 SXM5 4-GPU 80GB 700W Baseboard, NVLink",4,128400.00,'
        "513600.00\n",
    )
    (xe8640,) = intake.systems
    # 4 servers × 4 H100 = 16 GPUs
    assert (xe8640.quantity, xe8640.gpus_per_system) == (4, 4)
    assert intake.child_quantities == "totals"


def test_options_a_grand_total_adds_up_are_sections(catalog: CatalogSnapshot) -> None:
    # "Grand Total (Option 1 + Option 2)" = 620,900 + 498,000 = 1,118,900: both are ordered.
    intake = read(
        catalog,
        ',,"Option 1: Inference cluster",,,\n'
        '1,210-BDJV,"PowerEdge XE9680 Rack Server, 8x NVIDIA H200 141GB SXM5",2,310450,620900\n'
        ",,Option 1 Subtotal,,,620900.00\n"
        ',,"Option 2: Training expansion",,,\n'
        '2,210-BDJV,"PowerEdge XE9680 Rack Server, 8x NVIDIA B200 180GB SXM6",1,498000,498000\n'
        ",,Option 2 Subtotal,,,498000.00\n"
        ",,Grand Total (Option 1 + Option 2),,,1118900.00\n",
    )
    # 2 × 8 H200 + 1 × 8 B200 = 24 GPUs
    assert sum(s.quantity * s.gpus_per_system for s in intake.systems) == 24
    assert row_roles(intake)[0] == row_roles(intake)[3] == "note"
    assert not [p for p in intake.line_problems if "alternative" in p.title]
