"""Reading a bill of materials: each line's role from its structure, configurator nesting,
per-system vs total quantities, bridges, services that name systems, money lines, corrections.

Quotes are written inline in the vendors' layouts (Dell configurator, HPE iQuote/OCA, Lenovo
DCSC, Cisco CCW, Supermicro reseller, workstation builder); tests/quotes/test_reading_corpus.py
reads the 34 full CSV/XLSX/PDF quotes.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import gpu_mention
from apps.quotes.bom_words import head, head_category, text_category
from apps.quotes.intake import QuoteIntake, quote_intake
from apps.quotes.schemas import LineCorrection

HEADER = "Item,Part Number,Description,Qty,Unit Price,Extended Price\n"


def read(catalog: CatalogSnapshot, body: str, **kwargs: object) -> QuoteIntake:
    return quote_intake((HEADER + body).encode(), "quote.csv", catalog, **kwargs)  # type: ignore[arg-type]


def roles(intake: QuoteIntake) -> list[str]:
    return [line.role for line in intake.summary.lines]


def gpus(intake: QuoteIntake) -> int:
    return sum(s.quantity * s.gpus_per_system for s in intake.systems)


# --- one line ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "count", "board"),
    [
        ("8x NVIDIA HGX H200 141GB SXM5", "h200-sxm", 8, True),
        ("HGX B300 8-GPU board", "b300", 8, True),
        ("4x RTX PRO 6000 Blackwell Max-Q", "rtx-pro-6000-maxq", 4, False),
        ("NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB", "rtx-pro-6000-server", None, False),
        ("Dell PowerEdge R760xa - 2 x Xeon Gold - NVIDIA L4 x 6", "l4", 6, False),
        ("NVIDIA H200 NVL 141GB PCIe Accelerator", "h200-nvl", None, False),
        ("1U GB200 compute tray: 2x GB200 Grace Blackwell Superchip", "gb200", 4, True),
    ],
)
def test_what_a_line_says_it_carries(text: str, key: str, count: int | None, board: bool) -> None:
    mention = gpu_mention(text)
    assert mention is not None
    assert (mention.key, mention.count, mention.board) == (key, count, board)


def test_nics_and_cpus_next_to_gpus_are_not_gpus() -> None:
    assert gpu_mention("UCS C885A M8 Rack - H200 GPU, 8x B3140H, 2x B3240") is not None
    assert gpu_mention("NVIDIA BlueField-3 B3140H SuperNIC") is None
    # issue 21: the Mac's engine is its M4 Max SoC (a non-CUDA engine), and "40-core GPU" is
    # Apple's GPU cores, never a count of 40 GPUs
    mac = gpu_mention("Apple MacBook Pro, M4 Max chip with 40-core GPU")
    assert mac is not None and (mac.key, mac.count) == ("apple-m4-max", None)


def test_a_server_name_ending_in_warranty_is_the_server() -> None:
    # The head stops at " - ": Lenovo's CTO names are the server, their warranty a suffix.
    assert head("ThinkSystem SR675 V3 - 3yr Warranty") == "ThinkSystem SR675 V3"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Dell ProDeploy Plus for PowerEdge XE9680", "service"),
        ("UCS C880A M8 Rack Server 8x NVIDIA HGX B300, 2x Intel 6776P", "system"),
        ("Dell IR7000 Integrated Rack, 44OU ORv3", "rack"),
        ("HPE ProLiant DL380a Gen11 Easy Install Rail Kit", "component"),
        ("HPE ProLiant DL380a Gen11 GPU Power Cable Kit", "component"),
        ("NVIDIA passive copper cable, DGX H100 compute fabric", "accessory"),
        ("NVIDIA DGX H100 640GB Business Standard Support Renewal, 36 months", "service"),
        ("Field engineer day: firmware and BMC update, DGX H100 cluster", "service"),
        ("Onsite installation and rack mounting", "service"),
        ("HPE iLO Advanced 1-server License with 3yr Support", "component"),
        ("ThinkSystem NVIDIA HGX H200 141GB 700W 8-GPU Board", "board"),
        ("BullSequana XH3515-HMQ compute blade 4x NVIDIA H100 SXM5 80GB", "system"),
    ],
)
def test_the_head_decides_not_a_word_anywhere(text: str, category: str) -> None:
    assert head_category(head(text)) == category


@pytest.mark.parametrize(
    "text",
    [
        "UCS 9108-100G IFM for 9508 Chassis",
        "UCS PCI Mezz card for X-Fabric Connectivity",
        "Cisco VIC 15231 2x100/200G mLOM for X Compute Node",
    ],
)
def test_cisco_x_series_fabric_parts_are_components(text: str) -> None:
    # Blade-chassis fabric modules and mezzanine NICs are parts of the server, not unknown
    # lines to confirm (they warned "not in the catalog").
    assert text_category(text) == "component"


# --- configurator shapes ----------------------------------------------------------------------


def test_dell_configurator_children_are_per_system(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,210-BDJV,PowerEdge XE9680 Rack Server,2,"287640.00","575280.00"\n'
        ",,Configuration per system (quantities below are per server):,,,\n"
        '1.1,490-BKJR,"NVIDIA HGX H200 141GB 700W SXM5, 8 GPUs, NVLink baseboard",'
        "1,Included,Included\n"
        '1.2,338-CHSG,"Intel Xeon Platinum 8568Y+ 2.3G, 48C/96T",2,Included,Included\n'
        '1.3,370-BBHQ,"64GB RDIMM, 5600MT/s, Dual Rank",32,Included,Included\n'
        '2,814-1872,"ProSupport Plus Mission Critical 4Hr, 36 Month(s), PowerEdge XE9680",'
        '2,"41850.00","83700.00"\n'
        '3,802-3326,Dell ProDeploy Plus for PowerEdge XE9680,2,"7950.00","15900.00"\n',
    )
    assert roles(intake) == ["system", "gpu_board", "component", "component", "service", "service"]
    assert [line.parent for line in intake.summary.lines] == [None, 1, 1, 1, None, None]
    (xe,) = intake.systems
    # 2 servers × one 8-GPU board each = 16 GPUs; the HGX board is one 8-GPU NVLink domain.
    assert (xe.quantity, xe.gpu, xe.gpus_per_system, xe.nvlink_domain_gpus) == (2, "H200 SXM", 8, 8)
    assert gpus(intake) == 16
    assert intake.child_quantities == "per_system"
    assert xe.lines == [1, 2, 3, 4]
    assert intake.summary.reading.startswith("2 × Dell PowerEdge XE9680, each 8 × H200 SXM 141 GB")
    assert "lines 5–6 services" in intake.summary.reading


def test_numbered_group_banners_title_their_block(catalog: CatalogSnapshot) -> None:
    # Dell's Solution ID quote and Lenovo's DCSC export title each group with a banner row;
    # the "8x H200 NVL" in the title is the solution's name, not eight more GPUs.
    intake = read(
        catalog,
        "Solution ID 1: PowerEdge XE7745 - AI Inference (8x H200 NVL),,,,,\n"
        '1,210-BNMX,PowerEdge XE7745,1,"284960.00","284960.00"\n'
        ',490-BKDN,"NVIDIA H200 NVL, 141GB HBM3e, PCIe Gen5, 600W GPU",8,Included,Included\n'
        "Configuration 2: R7725 management node (Quantity: 1),,,,,\n"
        '2,210-BMXK,PowerEdge R7725,1,"31480.00","31480.00"\n'
        ',490-BJBZ,"NVIDIA L4, 24GB, PCIe Gen4, 72W GPU",2,Included,Included\n',
    )
    assert [role for _row, role in intake.row_roles] == [
        "note", "system", "gpu_card", "note", "system", "gpu_card"
    ]  # fmt: skip
    assert gpus(intake) == 8 + 2


def test_a_chassis_sold_as_a_gpu_preset_keeps_its_name_with_other_gpus(
    catalog: CatalogSnapshot,
) -> None:
    # "PowerEdge XE7745" is also the catalog's 8 x RTX PRO 6000 server; with H200 NVL in it
    # the server is still the XE7745, not an "RTX PRO Server" holding H200s.
    intake = read(
        catalog,
        '1,210-BNMX,PowerEdge XE7745,1,"284960.00","284960.00"\n'
        ',490-BKDN,"NVIDIA H200 NVL, 141GB HBM3e, PCIe Gen5, 600W GPU",8,Included,Included\n',
    )
    (xe,) = intake.systems
    assert (xe.name, xe.gpu) == ("Dell PowerEdge XE7745 with 8 × H200 NVL", "H200 NVL")
    rtx = read(catalog, '1,210-BNMX,PowerEdge XE7745,1,"140000.00","140000.00"\n')
    assert rtx.systems[0].gpu == "RTX PRO 6000 Blackwell Server"  # the preset, unchanged


def test_a_french_per_blade_banner_says_the_sub_lines_are_per_system(
    catalog: CatalogSnapshot,
) -> None:
    # Eviden writes "quantités par lame": 16 DIMMs and 4 NICs divide over 4 blades, so only
    # the banner tells that they are per blade (else "cannot be told").
    intake = read(
        catalog,
        '2,BXH3515-HMQ,"BullSequana XH3515-HMQ compute blade, 4x NVIDIA H100 SXM5 80GB",4,'
        "186400,745600\n"
        ",,Configuration par lame (quantités par lame) :,,,\n"
        "2.1,BXH-MEM-64D5,Mémoire 64GB DDR5-4800 RDIMM,16,0,0\n"
        "2.2,BXH-NDR-1P,NVIDIA ConnectX-7 NDR 400Gb/s 1 port,4,0,0\n",
    )
    assert intake.child_quantities == "per_system"
    assert not [p for p in intake.line_problems if "cannot be told" in p.title]


def test_hpe_totals_with_0d1_lines_and_four_way_bridges(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,P76706-B21,HPE ProLiant Compute DL380a Gen12 Configure-to-order Server,2,12546,25092\n"
        "2,P73307-B21,Intel Xeon 6 6767P 64-core 350W Processor for HPE,4,7996.80,31987.20\n"
        "3,P73307-B21 0D1,Factory Integrated,4,0,0\n"
        "4,S3U30C,NVIDIA H200 NVL 141GB PCIe Accelerator for HPE,16,30362,485792\n"
        "5,S3U30C 0D1,Factory Integrated,16,0,0\n"
        "6,S4A91C,NVIDIA 4-way NVLink Bridge for H200 NVL for HPE,4,1598,6392\n"
        "7,P67248-B21,HPE M-CRPS 3200W Titanium Hot Plug Power Supply Kit,16,877.20,14035.20\n"
        "8,HU4B2A5 R4P,HPE DL380a Gen12 Tech Care Essential SVC,2,14599.60,29199.20\n",
    )
    assert roles(intake) == [
        "system", "component", "note", "gpu_card", "note", "nvlink_bridge", "component", "service"
    ]  # fmt: skip
    (dl,) = intake.systems
    # 16 cards ÷ 2 servers = 8 per server; 4 bridges ÷ 2 = two 4-way bridges: two 4-GPU domains.
    assert (dl.quantity, dl.gpu, dl.gpus_per_system, dl.nvlink_domain_gpus) == (2, "H200 NVL", 8, 4)
    assert intake.child_quantities == "totals"


def test_hpe_two_way_bridges_make_two_gpu_domains(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,P52534-B21,HPE ProLiant DL380a Gen11 4DW Configure-to-order Server,2,10712,21424\n"
        "2,S2D85C,NVIDIA H100 NVL 94GB PCIe Accelerator for HPE,8,22035,176280\n"
        "3,S2D87C,NVIDIA 2-way NVLink Bridge for H100 NVL for HPE,4,806,3224\n"
        "4,P44712-B21,HPE 1800W Flex Slot Titanium Hot Plug Power Supply Kit,8,533,4264\n",
    )
    (dl,) = intake.systems
    # 8 cards ÷ 2 servers = 4 each; the bridges are not GPUs (8 cards, not 12).
    assert (dl.gpus_per_system, dl.nvlink_domain_gpus) == (4, 2)
    assert gpus(intake) == 8


def test_lenovo_cto_with_feature_codes_in_totals(catalog: CatalogSnapshot) -> None:
    intake = quote_intake(
        b"Part number,Description,Qty,Unit price,Total price\n"
        b"7DHECTO1WW,ThinkSystem SR680a V3 - 3yr Warranty,2,29850.00,59700.00\n"
        b"C1HG,ThinkSystem SR680a V3 8U Chassis with HGX GPU tray,2,0.00,0.00\n"
        b"C9JM,ThinkSystem NVIDIA HGX H200 141GB 700W 8-GPU Board,2,252400.00,504800.00\n"
        b"BZ9F,Intel Xeon Platinum 8570 56C 350W 2.1GHz Processor,4,9240.00,36960.00\n"
        b"5WS7C17745,Lenovo Premier Essential - 3Yr 24x7 4Hr Resp SR680a V3,2,14200.00,28400.00\n",
        "quote.csv",
        catalog,
    )
    assert roles(intake) == ["system", "chassis", "gpu_board", "component", "service"]
    (sr,) = intake.systems
    # 2 boards for 2 servers: one 8-GPU board each (not 2 × 2 × 8 = 32).
    assert (sr.quantity, sr.gpus_per_system, sr.sku) == (2, 8, "lenovo-sr680a-v3")
    assert intake.child_quantities == "totals"


def test_cisco_bundle_with_zero_dollar_minor_lines(catalog: CatalogSnapshot) -> None:
    intake = quote_intake(
        b"Line Number,Part Number,Description,Qty,Unit Net Price,Extended Net Price\n"
        b'1.0,UCSC-880A-M8-B303,"UCS C880A M8 Rack Server 8x NVIDIA HGX B300, 2x Intel 6776P",'
        b"1,460040,460040\n"
        b"1.0.1,UCSAI-NVHGX-B300A,NVIDIA HGX B300 Air-cooled 8-GPU Board,1,0,0\n"
        b"1.0.2,UCSAI-880A-B3-SLD,UCS C880A M8 GPU SLED B300,1,0,0\n"
        b"1.0.3,UCSAI-CPU-I6776P,Intel GNR 6776P 64C 350W,2,0,0\n"
        b"1.1,CON-L1NCD-UCSC880A,CX LEVEL 1 8X7XNCDOS UCS C880A M8 Rack Server,1,38440,38440\n",
        "quote.csv",
        catalog,
    )
    assert roles(intake) == ["system", "gpu_board", "chassis", "component", "service"]
    # One board of 8 B300; the sled that carries it is not a second board (8, not 16).
    assert gpus(intake) == 8
    assert intake.systems[0].sku == "cisco-ucs-c880a-m8"


def test_supermicro_reseller_one_line_per_server(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,SYS-821GE-TNHR,"Supermicro SuperServer SYS-821GE-TNHR 8U: 2x Intel Xeon Platinum '
        '8480+, 2TB DDR5, 8x NVIDIA H100 80GB SXM5 (HGX H100), 8x ConnectX-7",2,289900,579800\n'
        "2,MCP4Y10-N002,NVIDIA passive copper cable for DGX H100 compute fabric,8,410,3280\n"
        "3,OSNBD3,Supermicro 3-year onsite parts & labor (per system),2,8650,17300\n"
        "4,FRT-LTL,Freight: LTL and liftgate,1,1480,1480\n",
    )
    assert roles(intake) == ["system", "accessory", "service", "freight"]
    (smc,) = intake.systems
    # The count is only in the description: 8x H100 SXM, not the 8x ConnectX-7 beside it.
    assert (smc.quantity, smc.gpu, smc.gpus_per_system) == (2, "H100 SXM", 8)
    assert intake.child_quantities == "none"


def test_workstation_builder_indented_children_and_discount(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,VWS-158151898,Exxact Valence Workstation VWS-158151898,3,24650.00,73950.00\n"
        ",,   AMD Ryzen Threadripper PRO 9975WX 32-core,1,,\n"
        ",,   NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB GDDR7,2,,\n"
        ",,   1600W 80 PLUS Titanium power supply,1,,\n"
        '2,WAR-3Y-APR,"3-Year Warranty, Advanced Parts Replacement",3,690.00,2070.00\n'
        '3,DISC-EDU,Educational discount,1,"(2,450.00)","(2,450.00)"\n',
    )
    assert roles(intake) == ["system", "component", "gpu_card", "component", "service", "discount"]
    (ws,) = intake.systems
    # 2 cards in each of 3 workstations = 6 Workstation Edition cards (not Max-Q, not one card).
    assert (ws.quantity, ws.gpu, ws.gpus_per_system) == (3, "RTX PRO 6000 Blackwell WS", 2)
    # 73,950 + 2,070 − 2,450 = 73,570: the discount reduces the total.
    assert intake.summary.total == Decimal("73570.00")


def test_an_unknown_chassis_with_stated_gpus_is_a_system_with_estimated_power(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        '1,ACME-8G,"Acme Hyperion 8U GPU server, 8x NVIDIA H200 141GB SXM5",1,300000,300000\n',
    )
    (acme,) = intake.systems
    assert (acme.gpu, acme.gpus_per_system, acme.sku) == (
        "H200 SXM",
        8,
        "quoted:acme-hyperion-8u-gpu-server",
    )
    # 8 × 700 W + 2.0 kW platform overhead = 7.6 kW, marked as an estimate.
    assert acme.power_kw == pytest.approx(7.6)
    assert acme.figure_sources["power_kw"] == "estimate"
    assert acme.rack_units is None and "rack_units" not in acme.figure_sources


def test_the_quote_states_the_gpus_and_the_catalog_fills_the_rest(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,210-BLZX,"PowerEdge XE9680L Rack Server, Direct Liquid Cooled",1,352400,352400\n'
        '1.1,490-BLQK,"NVIDIA HGX B200 180GB 1000W SXM6, 8 GPUs",1,Included,Included\n',
    )
    (xe,) = intake.systems
    spec = catalog.system("dell-xe9680l")
    assert (xe.gpu, xe.cooling, xe.sku) == ("B200", "liquid", "dell-xe9680l")
    assert (xe.rack_units, xe.weight_lb) == (spec.rack_units, spec.weight_lb)
    assert xe.figure_sources["rack_units"] == "catalog"
    assert spec.figures["weight_lb"].verified is False  # "~210.8" in the family file


def test_services_naming_a_server_buy_no_gpus(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,DGXH-REN-BUS-36,"NVIDIA DGX H100 640GB Business Standard Support Renewal, 36 months",'
        "4,61200,244800\n"
        '2,DGXH-HWR-MR-36,"NVIDIA DGX H100 hardware replacement coverage, 36 months",4,8400,33600\n'
        '3,FE-DAY-DGX,"Field engineer day: firmware and BMC update, DGX H100 cluster",'
        "2,2950,5900\n",
    )
    assert roles(intake) == ["service", "service", "service"]
    assert intake.systems == []


def test_undecidable_quantities_are_said_and_read_the_way_that_fits(
    catalog: CatalogSnapshot,
) -> None:
    # 2 × R760xa with 8 L40S "Included": 8 per server does not fit a 4-GPU chassis, 4 does.
    intake = read(
        catalog,
        "1,210-BDZY,PowerEdge R760xa Server,2,60000,120000\n"
        "1.1,490-BJKC,NVIDIA L40S 48GB PCIe GPU,8,Included,Included\n"
        "1.2,338-CHTB,Intel Xeon Gold 6548Y+ Processor,4,Included,Included\n",
    )
    (r760,) = intake.systems
    assert r760.gpus_per_system == 4
    assert intake.child_quantities == "totals"


def test_when_nothing_tells_the_reader_says_so(catalog: CatalogSnapshot) -> None:
    # 2 × an unknown chassis with 4 cards "Included": 4 per server or 2 per server both fit.
    # (No processor line: "Xeon Gold × 4" would tell, 4 in a two-socket server being too many.)
    intake = read(
        catalog,
        "1,ACME-4G,Acme Forge 4U GPU Server,2,60000,120000\n"
        "1.1,900-21010,NVIDIA L40S 48GB PCIe GPU,4,Included,Included\n",
    )
    (problem,) = [p for p in intake.line_problems if "cannot be told" in p.title]
    assert problem.severity == "warning"
    # Read as order totals: 4 cards ÷ 2 servers = 2 per server, the reading that is said.
    assert intake.systems[0].gpus_per_system == 2
    assert "order totals, 2 GPUs per system" in problem.detail
    assert intake.summary.reading_confidence == "low"


# --- money ------------------------------------------------------------------------------------


def test_money_lines_are_checked_not_counted(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,DGXB-G1440+P2CMI36,NVIDIA DGX B200,1,515000,515000\n"
        ",,Subtotal,,,515000\n,,Shipping,,,500\n,,Sales Tax,,,1000\n,,Total,,,517000\n",
    )
    assert [line.role for line in intake.summary.lines] == ["system"]
    assert [role for _row, role in intake.row_roles] == [
        "system", "subtotal", "freight", "tax", "total"
    ]  # fmt: skip
    # 515,000 + 1,000 tax + 500 shipping = 516,500, not the stated 517,000.
    (problem,) = intake.line_problems
    assert problem.title == "The subtotal, tax and freight don't add up to the total"
    assert problem.metrics["difference"] == "500"


def test_the_only_sum_below_the_lines_is_the_total(catalog: CatalogSnapshot) -> None:
    # HPE iQuote ends with "Total Net Price (USD)" and no tax or freight: that is the total,
    # although "total net" is most often a sum before tax.
    intake = read(
        catalog,
        "1,P74441-B21,HPE ProLiant Compute XD685 5U DLC Configure-to-order Server,2,500,1000\n"
        ",,Total Net Price (USD),,,1000\n",
    )
    assert [role for _row, role in intake.row_roles] == ["system", "total"]
    assert intake.summary.total == Decimal("1000")
    net = read(
        catalog, "1,X1,64GB RDIMM,1,100,100\n,,Net total,,,100\n,,VAT 19%,,,19\n,,Total,,,119\n"
    )
    assert [role for _row, role in net.row_roles][1:] == ["subtotal", "tax", "total"]


# --- corrections and confirmed mappings -------------------------------------------------------


def test_a_correction_overrides_the_reading_and_says_so(catalog: CatalogSnapshot) -> None:
    body = (
        "1,210-BDJV,PowerEdge XE9680 Rack Server,2,287640,575280\n"
        '1.1,490-BKJR,"NVIDIA HGX H200 141GB SXM5, 8 GPUs, baseboard",1,Included,Included\n'
        "2,X-1,Mystery widget,1,100,100\n"
    )
    before = read(catalog, body)
    assert gpus(before) == 16
    after = read(
        catalog,
        body,
        corrections={
            1: LineCorrection(gpus_per_system=4),
            3: LineCorrection(role="service"),
        },
    )
    # 2 servers × 4 GPUs (corrected) = 8.
    assert gpus(after) == 8
    assert [line.corrected for line in after.summary.lines] == [True, False, True]
    assert after.summary.lines[2].role == "service"
    assert not any("not in the catalog" in p.title for p in after.line_problems)


def test_correcting_a_line_to_not_a_system_removes_it(catalog: CatalogSnapshot) -> None:
    body = "1,DGXB-G1440+P2CMI36,NVIDIA DGX B200,2,515000,1030000\n"
    intake = read(catalog, body, corrections={1: LineCorrection(role="service")})
    assert intake.systems == []


def test_confirming_a_sub_line_as_its_server_adds_no_system(catalog: CatalogSnapshot) -> None:
    body = (
        "1,210-BDJV,PowerEdge XE9680 Rack Server,2,287640,575280\n"
        '1.1,490-BKJR,"NVIDIA HGX H200 141GB SXM5, 8 GPUs, baseboard",1,Included,Included\n'
        "1.2,XE-CHASSIS,XE9680 chassis,1,Included,Included\n"
    )
    intake = read(catalog, body, mappings={"xe chassis": ("Dell", "XE9680")})
    # Still 2 servers of 8 GPUs: the confirmed sub-line is part of the server, not another.
    assert [(s.quantity, s.gpus_per_system) for s in intake.systems] == [(2, 8)]
    assert intake.summary.lines[2].role == "chassis"


def test_a_line_corrected_to_a_catalog_system_carries_its_gpus(catalog: CatalogSnapshot) -> None:
    """ "These two compute nodes are PowerEdge XE9680": the catalog's 8 × H200 SXM come with
    the system, in one 8-GPU NVLink domain (8 × 141 GB = 1,128 GB)."""
    body = "1,NW-NODE-8,Compute node,2,290000,580000\n"
    fix = LineCorrection(role="system", system="dell-xe9680")
    (system,) = read(catalog, body, corrections={1: fix}).systems
    spec = catalog.system("dell-xe9680")
    assert (system.quantity, system.gpus_per_system) == (2, spec.gpu_count)
    assert system.nvlink_domain_gpus == spec.nvlink_domain_gpus == 8


def test_sxm_gpus_given_by_a_correction_share_one_domain(catalog: CatalogSnapshot) -> None:
    """8 × H200 SXM on a corrected line are one NVSwitch domain, not eight 1-GPU islands."""
    body = "1,NW-NODE-8,Compute node,2,290000,580000\n"
    fix = LineCorrection(role="system", gpu="h200-sxm", gpus_per_system=8)
    (system,) = read(catalog, body, corrections={1: fix}).systems
    assert (system.gpus_per_system, system.nvlink_domain_gpus) == (8, 8)
    # L40S are PCIe cards: each its own domain.
    fix = LineCorrection(role="system", gpu="l40s", gpus_per_system=4)
    (system,) = read(catalog, body, corrections={1: fix}).systems
    assert (system.gpus_per_system, system.nvlink_domain_gpus) == (4, 1)
