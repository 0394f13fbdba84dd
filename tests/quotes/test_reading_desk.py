"""Reading the small end of the lot: DGX Spark and DGX Station machines under their OEM names,
workstations whose description gives the cards per system, and what is bought beside them.

A machine built around its own chip (a GB10, a DGX Station's GB300 Desktop Superchip) is sold
whole: a priced line naming that chip is the machine, with one engine, whoever makes it."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_fittings import made_for_a_system
from apps.quotes.bom_gpus import gpu_mention
from tests.quotes.quote_text import csv_quote_read as read
from tests.quotes.quote_text import row_roles as roles


@pytest.mark.parametrize(
    "line",
    [
        # a maker the catalog does not know, its description a list of ' - ' parts
        '1,9S6-C93111-001,"MSI EdgeXpert MS-C931 - mini PC - NVIDIA GB10 - 128 GB unified '
        'memory - SSD 4 TB",2,3999.00,7998.00',
        # a catalog machine whose head ("Dell Pro Max") is cut before its name ends
        '1,FCM1253,"Dell Pro Max with GB10 FCM1253 - NVIDIA GB10 Superchip - 4 TB SSD",'
        "2,4199.00,8398.00",
        # a workstation head without a count: one chip, not none
        '1,DT.VHNAA.001,"Acer Veriton GN100 AI Mini Workstation, NVIDIA GB10 Superchip, '
        '128GB LPDDR5X",2,3999.00,7998.00',
    ],
)
def test_a_gb10_machine_under_any_name_is_one_gb10_system(
    catalog: CatalogSnapshot, line: str
) -> None:
    intake = read(catalog, line + "\n")
    assert roles(intake) == ["system"]
    (system,) = intake.systems
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (2, "gb10", 1)
    assert (system.form_factor, system.cpu_arch, system.nvlink_domain_gpus) == ("desktop", "arm", 1)
    # a DGX Spark's 240 W, not a server's 2 kW platform overhead
    assert system.power_kw == pytest.approx(0.24)


def test_an_unknown_gb10_machine_says_its_power_is_estimated(catalog: CatalogSnapshot) -> None:
    (system,) = read(
        catalog, '1,9S6-C93111-001,"MSI EdgeXpert MS-C931, NVIDIA GB10, 4TB",1,3999,3999\n'
    ).systems
    assert system.sku.startswith("quoted:")
    assert system.figure_sources["power_kw"] == "estimate"


@pytest.mark.parametrize(
    "line",
    [
        '1,C4VZ2UT#ABA,"HP ZGX Fury G1n AI Station, NVIDIA GB300",1,86000,86000',
        '1,FCT6263,"Dell Pro Max with GB300 FCT6263, NVIDIA GB300 Grace Blackwell Ultra '
        'Desktop Superchip",1,84650,84650',
        '1,ARS-511GD-NB-LCC,"Supermicro Super AI Station ARS-511GD-NB-LCC, NVIDIA GB300",'
        "1,95000,95000",
    ],
)
def test_a_dgx_station_carries_the_desktop_superchip_not_a_rack_gpu(
    catalog: CatalogSnapshot, line: str
) -> None:
    (system,) = read(catalog, line + "\n").systems
    # 252 GB beside 496 GB LPDDR5X in a ~1.6 kW box, not an NVL72 tray's 279 GB, 1.4 kW GPU
    assert (system.gpu_key, system.gpus_per_system) == ("gb300-desktop", 1)
    assert system.power_kw == pytest.approx(1.6)


@pytest.mark.parametrize(
    ("line", "gpu", "count"),
    [
        (
            '1,APXT4-2611,"APEXX T4 workstation: AMD Ryzen Threadripper PRO 9975WX, 2x NVIDIA '
            'RTX PRO 4500 Blackwell 32GB GDDR7, 2TB NVMe",3,14995,44985',
            "rtx-pro-4500",
            2,
        ),
        (
            '1,PUG-T140,"Puget Systems T140-S Workstation, Intel Core Ultra 9 285K, NVIDIA RTX '
            'PRO 4000 Blackwell 24GB",2,6100,12200',
            "rtx-pro-4000",
            1,
        ),
    ],
)
def test_the_smaller_rtx_pro_blackwell_desktop_cards_are_read(
    catalog: CatalogSnapshot, line: str, gpu: str, count: int
) -> None:
    intake = read(catalog, line + "\n")
    (system,) = intake.systems
    assert (system.gpu_key, system.gpus_per_system, system.nvlink_domain_gpus) == (gpu, count, 1)
    assert not [p for p in intake.line_problems if "not in the catalog" in p.title]


def test_a_priced_part_after_the_bought_beside_lines_is_not_configured_into_the_last_machine(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        '1,90MS0371-M000A0,"ASUS Ascent GX10 - mini PC - NVIDIA GB10 - SSD 1 TB",4,3099,12396\n'
        '2,MCP1650-V001E30,"NVIDIA 200Gb/s QSFP112 passive copper cable - 1 m",2,93,186\n'
        '3,CDP2HD4K60W,"StarTech.com USB-C to HDMI 2.1 adapter - 8K60",2,90,180\n',
    )
    assert roles(intake) == ["system", "accessory", "accessory"]
    (system,) = intake.systems
    assert system.lines == [1]


@pytest.mark.parametrize(
    "line",
    [
        # "X of Y": the set-up is the head, the system it is done to is its object
        '6,RCP-PS-DLS,"Remote setup of NVIDIA License System (DLS) for the DGX H100 cluster",'
        "1,2500,2500",
        # software licensed per GPU: "Base" is not a chassis
        '4,BCM-ENT-GPU-1Y,"NVIDIA Base Command Manager Enterprise, per GPU",32,450,14400',
        '5,DLI-ILT-LLM-20,"NVIDIA DLI instructor-led workshop: Building LLM Applications, '
        'up to 20 seats",1,15000,15000',
    ],
)
def test_software_training_and_set_up_naming_a_system_buy_no_system(
    catalog: CatalogSnapshot, line: str
) -> None:
    intake = read(catalog, line + "\n")
    assert roles(intake) == ["service"]
    assert intake.systems == []


def test_a_spare_card_for_an_installed_server_is_information_not_a_warning(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        '1,GPU-NVH200NVL-141,"NVIDIA H200 NVL 141GB PCIe GPU, passive - spare for RMA 4471902"'
        ",1,31850,31850\n",
    )
    assert roles(intake) == ["gpu_card"] and intake.systems == []
    (problem,) = intake.line_problems
    assert problem.severity == "info" and "spare" in problem.title
    assert problem.metrics["gpus"] == 1


def test_loose_cards_that_are_not_spares_still_ask_for_their_servers(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(catalog, '1,900-21010-0020-000,"NVIDIA H200 NVL 141GB PCIe GPU",4,31850,127400\n')
    (problem,) = intake.line_problems
    assert problem.severity == "warning" and "no chassis" in problem.title


def test_a_part_for_a_gb10_machine_is_not_the_machine(catalog: CatalogSnapshot) -> None:
    # the chip is what the bracket is for, not what it is: no head noun to go by either
    intake = read(
        catalog, '1,SV-BRKT-01,"VESA mounting bracket for NVIDIA GB10 desktops, black",2,39,78\n'
    )
    assert roles(intake) == ["accessory"] and intake.systems == []


def test_a_jetson_agx_thor_developer_kit_is_one_small_arm_machine(
    catalog: CatalogSnapshot,
) -> None:
    (system,) = read(
        catalog,
        '1,945-14070-0080-000,"NVIDIA Jetson AGX Thor Developer Kit, Jetson T5000 module, '
        '128GB LPDDR5X",4,3499,13996\n',
    ).systems
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (4, "jetson-agx-thor", 1)
    assert (system.form_factor, system.cpu_arch) == ("desktop", "arm")


@pytest.mark.parametrize(
    ("line", "family"),
    [
        (
            '1,T2-CTO,"Dell Pro Max T2 Tower, Intel Core Ultra 9 285K, 2x NVIDIA RTX PRO 6000 '
            'Blackwell Max-Q Workstation Edition 96GB",2,27450,54900',
            "dell-pro-max-t2",
        ),
        (
            '1,30EUCTO1WW,"ThinkStation PX, 2x Intel Xeon Gold 6542Y, 4x NVIDIA RTX PRO 6000 '
            'Blackwell Max-Q Workstation Edition",1,69000,69000',
            "lenovo-thinkstation-px",
        ),
    ],
)
def test_a_named_workstation_is_its_family_not_the_one_card_reference_config(
    catalog: CatalogSnapshot, line: str, family: str
) -> None:
    # not "Workstation, 1x RTX PRO 6000 Blackwell WS with 2 × RTX PRO 6000 Blackwell Max-Q"
    (system,) = read(catalog, line + "\n").systems
    assert system.sku == family
    assert system.figure_sources["power_kw"] == "catalog"


def test_a_bundle_of_two_dgx_spark_is_two_machines(catalog: CatalogSnapshot) -> None:
    (system,) = read(
        catalog,
        '1,940-54242-0009-000,"NVIDIA DGX Spark Bundle: 2x DGX Spark 4TB with QSFP112 cable",'
        "1,8049.00,8049.00\n",
    ).systems
    assert (system.sku, system.quantity, system.gpus_per_system) == ("dgx-spark", 2, 1)
    assert system.nvlink_domain_gpus == 1  # two hosts joined by Ethernet, not one domain
    assert str(system.unit_price) == "4024.50"


def test_a_dgx_stations_display_card_is_not_a_second_superchip(catalog: CatalogSnapshot) -> None:
    (system,) = read(
        catalog,
        '1,90SV0NT1-M00010,"ASUS ExpertCenter Pro ET900N G3 (NVIDIA DGX Station GB300)",'
        "1,84500,84500\n"
        '1.1,,"NVIDIA GB300 Grace Blackwell Ultra Desktop Superchip, 748GB coherent memory",'
        "1,0,0\n"
        '1.2,,"NVIDIA RTX PRO 2000 Blackwell 16GB (display)",1,0,0\n',
    ).systems
    # not "2 × GB300 desktop": the display card is another model, not counted as the engine
    assert (system.gpu_key, system.gpus_per_system) == ("gb300-desktop", 1)


def test_a_builders_geforce_rtx_5090_workstation_carries_its_cards(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        '1,PUGET-X140,"Puget Systems X140-L Workstation",2,9200.00,18400.00\n'
        ',,"  AMD Ryzen 9 9950X 16-core",1,,\n'
        ',,"  NVIDIA GeForce RTX 5090 32GB",2,,\n',
    )
    (system,) = intake.systems
    assert (system.gpu_key, system.gpus_per_system, system.nvlink_domain_gpus) == (
        "rtx-5090",
        2,
        1,
    )
    # 2 × 575 W + the platform: past a 15 A office circuit's 1,440 W, and said to be estimated
    assert system.power_kw is not None and system.power_kw > 1.44
    assert system.figure_sources["power_kw"] == "estimate"


@pytest.mark.parametrize(
    "fitting",
    [
        # the catalog matches "DGX Spark" in the text: a bracket FOR it is not it
        '2,VESA-SPARK-01,"VESA bracket for DGX Spark",2,49.00,98.00',
        # the machine's name leads, the kit noun at the end says what is sold
        '2,KIT-SPARK,"DGX Spark stacking kit",1,120.00,120.00',
        '2,,"Mount compatible with NVIDIA DGX Spark",1,30.00,30.00',
    ],
)
def test_a_fitting_for_a_system_is_an_accessory_not_another_system(
    catalog: CatalogSnapshot, fitting: str
) -> None:
    intake = read(
        catalog, '1,940-54242-0009-000,"NVIDIA DGX Spark 4TB",2,3999,7998\n' + fitting + "\n"
    )
    assert roles(intake) == ["system", "accessory"]
    (system,) = intake.systems
    # the bracket is bought beside the 2 machines, not configured into them
    assert (system.quantity, system.lines) == (2, [1])


@pytest.mark.parametrize(
    ("text", "fitting"),
    [
        ("VESA bracket for DGX Spark", True),
        ("DGX Spark stacking kit", True),
        # the server is the last noun of the head: a rack-mount server, not a mount
        ("Supermicro 4U rack mount GPU server, 8x H200", False),
        # a developer kit is the machine, boxed
        ("NVIDIA Jetson AGX Thor Developer Kit, Jetson T5000 module", False),
        ("NVIDIA DGX Spark 4TB with power adapter", False),
    ],
)
def test_a_fitting_is_told_by_the_last_noun_of_its_head(text: str, fitting: bool) -> None:
    assert made_for_a_system(text) is fitting


def test_a_station_naming_gb300_is_the_dgx_station_class(catalog: CatalogSnapshot) -> None:
    # no "Desktop" and no "Superchip": the "...Station" naming a GB300 is the desk-side
    # machine built on the GB300 Desktop Superchip, one engine (not an NVL72 tray's GB300)
    intake = read(catalog, '1,WS300-GB300,"MSI XpertStation WS300, NVIDIA GB300",1,89000,89000\n')
    assert roles(intake) == ["system"]
    (system,) = intake.systems
    assert (system.gpu_key, system.gpus_per_system, system.nvlink_domain_gpus) == (
        "gb300-desktop",
        1,
        1,
    )
    # a rack's compute tray naming GB300 stays the rack's GB300
    tray = gpu_mention("GB300 NVL72 compute tray, 2x GB300 Superchip (4x B300 GPU)")
    assert tray is not None and tray.key == "gb300"
