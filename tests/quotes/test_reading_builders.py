"""Reading server builders' and integrators' quotes (Colfax, Silicon Mechanics, Boston,
Penguin, Aspen, APAC distributors of Inspur/IEIT and QCT): configured systems whose parts are
indented or sub-numbered under them, and the order's own lines at the margin after them.

tests/quotes/test_reading_corpus.py reads the full quotes (tests/fixtures/boms/)."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_words import head, head_category
from apps.quotes.intake import QuoteIntake, quote_intake

HEADER = "Item,Part No.,Description,Qty,Unit Price,Amount\n"


def read(catalog: CatalogSnapshot, body: str) -> QuoteIntake:
    return quote_intake((HEADER + body).encode(), "quote.csv", catalog)


def roles(intake: QuoteIntake) -> list[str]:
    return [line.role for line in intake.summary.lines]


def test_a_line_back_at_the_margin_after_indented_parts_is_the_orders(
    catalog: CatalogSnapshot,
) -> None:
    # Colfax: 3 configured QCT servers, their parts indented and "Included" with order
    # quantities (3 boards, 6 CPUs); support and 2 rail kits at the margin. The rail kits'
    # 2 do not divide over 3 servers, but they are not the servers' parts: still totals.
    intake = read(
        catalog,
        '1,CX-D74H-7U-H200,"QCT QuantaGrid D74H-7U HGX H200 server, 7U",3,"289,900.00",'
        '"869,700.00"\n'
        ',1S5BZZZ0ST7,"  QuantaGrid D74H-7U barebone, dual Xeon",3,Included,Included\n'
        ",935-24287-0001-000,  NVIDIA HGX H200 8-GPU 141GB SXM5 baseboard,3,Included,Included\n"
        ",PK8071305120500,  Intel Xeon Platinum 8570 56C 2.1GHz 350W,6,Included,Included\n"
        ",MTC40F2046S1RC56BR,  Micron 96GB DDR5-5600 RDIMM,96,Included,Included\n"
        '2,CX-SUP-3Y-D74H,3-Year Colfax Premium Support for QuantaGrid D74H-7U,3,"8,450.00",'
        '"25,350.00"\n'
        '3,CX-RAIL-KIT-7U,"Tool-less rail kit for QuantaGrid D74H-7U, 4-post rack",2,'
        '"2,400.00","4,800.00"\n',
    )
    assert [(s.quantity, s.gpus_per_system) for s in intake.systems] == [(3, 8)]
    assert intake.child_quantities == "totals"
    assert roles(intake)[5:] == ["service", "accessory"]


def test_a_discount_below_the_subtotal_comes_off_it(catalog: CatalogSnapshot) -> None:
    # Silicon Mechanics: Subtotal, then "Volume Discount (2%)" with no quantity, shipping and
    # the total: 1,000.00 - 20.00 + 50.00 = 1,030.00, no arithmetic warning.
    intake = read(
        catalog,
        '1,SM-WTY-3YR,3-Year Standard Warranty,2,500.00,"1,000.00"\n'
        ',,Subtotal,,,"1,000.00"\n'
        ",,Volume Discount (2%),,,-20.00\n"
        ",,Shipping (white glove),,,50.00\n"
        ',,Total (USD),,,"1,030.00"\n',
    )
    assert roles(intake) == ["service", "discount"]
    assert [p.title for p in intake.line_problems if p.severity == "warning"] == []


def test_a_configured_system_is_the_catalog_system_its_barebone_part_names(
    catalog: CatalogSnapshot,
) -> None:
    # Silicon Mechanics sells its own name ("Rackform R8x.v9 … Configured System"); the
    # $0 sub-line 1.1 is the Supermicro barebone, named only by its part number.
    intake = read(
        catalog,
        "1,SM-R8X-B300-CFG,Rackform R8x.v9 HGX B300 GPU Server - Configured System,4,"
        '"498,750.00","1,995,000.00"\n'
        '1.1,SYS-822GS-NB3RT,"Supermicro X14 8U GPU SuperServer barebone, dual socket E2",'
        "1,$0.00,$0.00\n"
        "1.2,GPU-NVHGX-B300-8288,NVIDIA HGX B300 8-GPU 288GB HBM3e baseboard,1,$0.00,$0.00\n",
    )
    (system,) = intake.systems
    assert (system.sku, system.quantity, system.gpus_per_system) == (
        "supermicro-sys-822gs-nb3rt",
        4,
        8,
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # A maker's other name in parentheses is skipped: the head goes on after it ...
        (
            "IEIT SYSTEMS (Inspur) NF5688M7 6U HGX AI server",
            "IEIT SYSTEMS NF5688M7 6U HGX AI server",
        ),
        (
            "Quanta Cloud Technology (QCT) QuantaGrid D74H-7U",
            "Quanta Cloud Technology QuantaGrid D74H-7U",
        ),
        # ... a short aside inside the noun phrase is skipped too, and "X of Y" is headed by
        # X: the service is "Rack integration", not the rack it goes into; the CPU's head
        # noun after its "(32C, 2.5GHz)" is "processor".
        (
            "Rack integration of 2x SYS-821GE-TNHR (8x H200 each) into customer 48U rack",
            "Rack integration",
        ),
        ("Intel Xeon Gold 6548Y+ (32C, 2.5GHz) processor", "Intel Xeon Gold 6548Y+ processor"),
        (
            "Thinkmate GPX B200 10U GPU Server (Supermicro SYS-A21GE-NBRT)",
            "Thinkmate GPX B200 10U GPU Server",
        ),
    ],
)
def test_a_makers_other_name_in_parentheses_does_not_end_the_head(text: str, words: str) -> None:
    assert head(text) == words


def test_a_multi_line_specification_is_named_by_its_first_line(catalog: CatalogSnapshot) -> None:
    # The system a distributor lists with its configuration in one cell is named by its
    # first line, not by the maker's name before "(Inspur)".
    intake = read(
        catalog,
        '1,NF5688M7-H200,"IEIT SYSTEMS (Inspur) NF5688M7 6U HGX AI server\n'
        '- 2x Intel Xeon Platinum 8558\n- NVIDIA HGX H200 8-GPU 141GB SXM5 module",4,'
        '"276,800.00","1,107,200.00"\n',
    )
    (system,) = intake.systems
    assert head_category(head(system.name)) == "system"
    assert "NF5688M7" in system.name and (system.quantity, system.gpus_per_system) == (4, 8)


def test_a_model_number_beats_a_class_of_server_in_plain_words(catalog: CatalogSnapshot) -> None:
    # "RTX PRO Server" (NVIDIA's class, 14 letters) is longer than "XL44-SX2-AAS1" but less
    # specific: the line is the GIGABYTE box, named as the catalog names it (not "Gigabyte",
    # its name cut at "(GIGA Computing)").
    intake = read(
        catalog,
        '1,BOS-XL44-RTXPRO,"Boston RTX PRO Server - GIGABYTE XL44-SX2-AAS1 (NVIDIA MGX 4U)",3,'
        '"118,950.00","356,850.00"\n'
        "1.01,900-2G153-0000-000,NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB,8,Incl.,Incl.\n",
    )
    (system,) = intake.systems
    assert system.sku == "gigabyte-xl44-sx2"
    assert system.name.startswith("Gigabyte XL44-SX2 with 8 ×")
    assert (system.quantity, system.gpus_per_system) == (3, 8)


def test_a_server_listing_its_bridges_is_the_server_with_their_domain(
    catalog: CatalogSnapshot,
) -> None:
    # Penguin lists the whole configuration on the system's line, bridges included: the
    # line is 4 servers (not an NVLink bridge, and not "no GPU system"), each two 2-GPU
    # NVLink pairs.
    intake = read(
        catalog,
        '1,RLN-2U-H200NVL,"Relion XE2142GT 2U GPU server: 2x AMD EPYC 9354, 768GB, 4x NVIDIA '
        'H200 NVL 141GB, 2x NVLink 2-way bridge",4,"95,200.00","380,800.00"\n'
        '2,PEN-SUP-3Y,Penguin 3-year Premium Support for Relion XE2142GT,4,"3,100.00",'
        '"12,400.00"\n',
    )
    assert roles(intake) == ["system", "service"]
    (system,) = intake.systems
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (4, 4, 2)


def test_a_japanese_maintenance_line_naming_the_server_is_a_service(
    catalog: CatalogSnapshot,
) -> None:
    # "3年オンサイト保守" (3-year onsite maintenance) for the Gigabyte server it names.
    intake = read(
        catalog,
        '1,G893-SD1-AAX5,"GIGABYTE G893-SD1-AAX5 8U HGX server, NVIDIA HGX B200 8-GPU",2,'
        '"68,500,000","137,000,000"\n'
        '2,GCS-3Y-ONSITE,3年オンサイト保守 (G893-SD1-AAX5),2,"1,250,000","2,500,000"\n',
    )
    assert roles(intake) == ["system", "service"]
    assert [(s.quantity, s.gpus_per_system) for s in intake.systems] == [(2, 8)]


def test_a_board_naming_no_gpu_is_the_gpu_its_part_number_names(
    catalog: CatalogSnapshot,
) -> None:
    # Supermicro's "GPU-NVHGX-<gpu>-<count><memory>": the description says only "HGX
    # baseboard"; the same words under another part number are another GPU.
    intake = read(
        catalog,
        '1,SYS-821GE-TNHR-BTO,SuperServer SYS-821GE-TNHR (build to order),1,"38,000.00",'
        '"38,000.00"\n'
        '2,GPU-NVHGX-H200-8141,HGX baseboard 8-GPU 141GB,1,"245,000.00","245,000.00"\n'
        '3,AS-A126GS-TNBR-BTO,A+ Server AS-A126GS-TNBR (build to order),1,"41,000.00",'
        '"41,000.00"\n'
        '4,GPU-NVHGX-B200-8180,HGX baseboard 8-GPU 141GB,1,"290,000.00","290,000.00"\n',
    )
    assert roles(intake) == ["system", "gpu_board", "system", "gpu_board"]
    assert sorted(s.gpu or "" for s in intake.systems) == ["B200", "H200 SXM"]


def test_nvlink_named_by_its_ways_on_the_systems_line(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,AS-4125GS-TNRT2-H200NVL,"Supermicro AS-4125GS-TNRT2 with 8x NVIDIA H200 NVL 141GB '
        '(4-way NVLink)",2,"298,000.00","596,000.00"\n',
    )
    (system,) = intake.systems
    assert (system.gpus_per_system, system.nvlink_domain_gpus) == (8, 4)


def test_sub_lines_that_fill_the_chassis_per_system_are_per_system(
    catalog: CatalogSnapshot,
) -> None:
    # Thinkmate's $0 sub-lines under 2 configured servers: 2 CPUs equal the number of
    # servers, but 8 cards each fill the 8-GPU chassis (as order totals, 4 each would not).
    intake = read(
        catalog,
        '1,GPX-XT4-RTXPRO,"Thinkmate GPX XT4 RTX PRO Server (Supermicro AS-5126GS-TNRT2)",2,'
        '"112,400.00","224,800.00"\n'
        "1.2,PSE-TUR9355-0998,AMD EPYC 9355 32C 3.55GHz,2,0.00,0.00\n"
        "1.3,MEM-DR564L-CL01-ER64,64GB DDR5-6400 RDIMM,16,0.00,0.00\n"
        "1.4,GPU-NVRTXPRO6000-SE,NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB,8,0.00,0.00\n",
    )
    assert intake.child_quantities == "per_system"
    assert [(s.quantity, s.gpus_per_system) for s in intake.systems] == [(2, 8)]
