"""AMD Instinct lines read the way vendors write them, and accelerators the catalog cannot size
said so rather than read as parts: "Line 2 names an accelerator the catalog does not know (Intel
Gaudi 2): not counted"."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import accelerator_named, gpu_mention
from apps.quotes.intake import QuoteIntake, quote_intake

HEADER = "Line,Part Number,Description,Qty,Unit Price,Extended Price\n"


def read(catalog: CatalogSnapshot, body: str) -> QuoteIntake:
    return quote_intake((HEADER + body).encode(), "quote.csv", catalog)


@pytest.mark.parametrize(
    ("text", "key", "count", "board"),
    [
        ("AMD Instinct MI300X 192GB OAM Accelerator", "mi300x", None, False),
        ("8x AMD Instinct MI325X 256GB HBM3E 1000W OAM GPU", "mi325x", 8, False),
        # the 355 of "MI355X GPU" is the model, not a count of GPUs
        ("AMD MI355X GPU, 288GB", "mi355x", None, False),
        ("490-BKHN AMD Instinct MI300X 192GB 750W OAM", "mi300x", None, False),
        ("AMD Instinct MI300X 192GB 750W OAM x 8, Infinity Fabric Baseboard", "mi300x", 8, True),
        ("AMD Instinct MI300X 8-GPU Baseboard", "mi300x", 8, True),
        ("ThinkSystem AMD Instinct MI300X 192GB 750W 8-GPU Board", "mi300x", 8, True),
        # Cisco: the 300 of "MI300X" is not a count either, and "8x 192GB" counts memory
        (
            "UCSC-885A-M8-A300 UCS C885A M8 Rack - MI300X GPU, 8x 192GB, 2x AMD EPYC",
            "mi300x",
            None,
            False,
        ),
        ("AMD Instinct MI350X 288GB HBM3E 1000W OAM", "mi350x", None, False),
    ],
)
def test_amd_instinct_as_vendors_write_it(
    text: str, key: str, count: int | None, board: bool
) -> None:
    mention = gpu_mention(text)
    assert mention is not None
    assert (mention.key, mention.count, mention.board) == (key, count, board)


def test_the_supermicro_mi300x_quote_is_two_servers_of_eight(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,AS-8125GS-TNMR2,"Supermicro A+ Server AS-8125GS-TNMR2, 8U, Dual AMD EPYC 9654",2,'
        "285000.00,570000.00\n"
        '1.1,GPU-AMD-MI300X,"AMD Instinct MI300X 192GB OAM Accelerator",16,0.00,0.00\n'
        '1.2,MEM-DR564L,"64GB DDR5-4800 ECC RDIMM",48,0.00,0.00\n'
        '2,SVC-3Y,"3 Year Parts and Labor Warranty",2,4500.00,9000.00\n',
    )
    (system,) = intake.systems
    # 16 MI300X under 2 servers: 16 per server would not fit a chassis of 8, so order totals,
    # 16 ÷ 2 = 8 each, one Infinity Fabric domain of all 8
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (2, "mi300x", 8)
    assert (system.nvlink_domain_gpus, system.gpu_interconnect) == (8, "infinity_fabric")
    assert intake.child_quantities == "totals"
    # power from the GPUs' TDP: the chassis' 1.5 kW base + 8 × 750 W = 7.5 kW, not 1.5 kW
    assert system.power_kw == 1.5 + 8 * 750 / 1000
    assert [role for _row, role in intake.row_roles][-1] == "service"  # the warranty
    assert not [p for p in intake.line_problems if p.severity != "info"]


def test_a_cisco_line_naming_the_gpu_is_one_full_board(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,UCSC-885A-M8-A300,"UCS C885A M8 Rack - MI300X GPU, 8x 192GB, 2x AMD EPYC 9575F",1,'
        "250000.00,250000.00\n",
    )
    (system,) = intake.systems
    # the C885A M8 only ever takes one 8-GPU board: 8 MI300X, one 8-GPU domain
    assert (system.gpu_key, system.gpus_per_system, system.nvlink_domain_gpus) == ("mi300x", 8, 8)
    # its family's base 2.5 kW + 8 × 750 W = 8.5 kW
    assert system.power_kw == 2.5 + 8 * 0.75


def test_a_line_of_eight_gpus_counts_eight(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,AS-8125GS-TNMR2,"Supermicro A+ Server AS-8125GS-TNMR2",1,300000.00,300000.00\n'
        '1.1,GPU-AMD-MI325X,"8x AMD Instinct MI325X 256GB HBM3E 1000W OAM GPU",1,0.00,0.00\n',
    )
    (system,) = intake.systems
    # one line, quantity 1, that says "8x": 1 × 8 = 8 GPUs, not 1
    assert (system.gpu_key, system.gpus_per_system, system.nvlink_domain_gpus) == ("mi325x", 8, 8)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Intel Gaudi 2 HL-225H OAM", "Intel Gaudi 2"),
        ("Intel Gaudi 3 HL-325L OAM", None),  # a catalog accelerator since Gaudi 3 was added
        ("AMD Instinct MI210 64GB PCIe", "AMD Instinct MI210"),
        ("Huawei Ascend 910B", "Huawei Ascend 910B"),
        ("AMD Instinct MI300X 192GB OAM", None),  # a catalog GPU
        ("64GB DDR5-4800 ECC RDIMM", None),
        ("Premium support, 3 years", None),
    ],
)
def test_accelerators_the_catalog_does_not_know(text: str, name: str | None) -> None:
    assert accelerator_named(text) == name


def test_an_unknown_accelerator_is_said_not_silently_a_part(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,SYS-820GH-TNR2,"Supermicro SuperServer SYS-820GH-TNR2, 8U",1,200000.00,200000.00\n'
        '1.1,GPU-HL225H,"Intel Gaudi 2 HL-225H OAM",8,0.00,0.00\n',
    )
    (problem,) = [p for p in intake.line_problems if "accelerator" in p.metrics]
    assert problem.detail == (
        "Line 2 names an accelerator the catalog does not know (Intel Gaudi 2): not counted; "
        "the review cannot size it."
    )
    assert problem.severity == "warning" and problem.metrics["line"] == 2
    assert sum(s.gpus_per_system for s in intake.systems) == 0
