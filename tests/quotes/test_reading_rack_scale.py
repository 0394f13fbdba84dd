"""Rack-scale and newest platforms read the way partners and ODMs quote them: an NVL72 rack is
one 72-GPU NVLink domain however its compute trays are listed, the cluster's switches and the
rack's services are not parts of it, and a blade or a superchip pair is a system."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import gpu_mention
from apps.quotes.bom_words import head, head_category
from tests.quotes.quote_text import csv_quote_read as read
from tests.quotes.quote_text import row_roles as roles


def test_a_switch_after_the_racks_services_is_not_a_part_of_the_rack(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        '1,DGXGB300-R72,"NVIDIA DGX GB300 rack system, 72x Blackwell Ultra GPU, liquid-cooled",'
        "2,4150000.00,8300000.00\n"
        '2,DGXGB300-INST,"NVIDIA DGX GB300 rack installation (per rack)",2,95000.00,190000.00\n'
        '3,920-9B36F,"NVIDIA Quantum-X800 Q3400-RA InfiniBand switch, 144 ports XDR",4,'
        "185000.00,740000.00\n",
    )
    (system,) = intake.systems
    # a flat list: the priced installation closes the rack's block, the switch is the cluster's
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (2, 72, 72)
    assert system.lines == [1]
    assert roles(intake) == ["system", "service", "accessory"]
    assert intake.child_quantities == "none"


@pytest.mark.parametrize(
    "text",
    [
        "Rack & stack, OS install and HGX B300 NVL16 burn-in (per server)",
        "Rack and stack of GB200 NVL72 racks",
        "Dell Integrated Rack Scalable Systems (IRSS) factory rack build and L11 cluster "
        "validation",
    ],
)
def test_rack_services_are_services(text: str) -> None:
    # "Rack & stack" is labour, not a rack; an aside in parentheses does not end the head:
    # the IRSS line's noun is its "factory rack build", not "Systems"
    assert head_category(head(text)) == "service"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("HPE Cray Supercomputing EX154n Accelerator Blade", "system"),
        ("Compute blade", "system"),
        ("HPE Slingshot 400 switch blade", "component"),
        ("IR7000 50OU rack enclosure", "rack"),
    ],
)
def test_a_blade_or_an_enclosure_is_what_its_modifier_says(text: str, category: str) -> None:
    assert head_category(text) == category


def test_a_cray_blade_cabinet_reads_as_its_blades(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,R9J11A,"HPE Cray Supercomputing EX4000 cabinet, direct liquid cooled",1,'
        "612000.00,612000.00\n"
        '2,S2Q58A,"HPE Cray Supercomputing EX154n Accelerator Blade, 1x NVIDIA GB200 NVL4 '
        'Superchip",16,238000.00,3808000.00\n'
        '3,R8M47A,"HPE Slingshot 400 switch blade, 64 ports, liquid cooled",4,74000.00,'
        "296000.00\n",
    )
    (system,) = intake.systems
    # 16 blades, each one GB200 NVL4: 4 GPUs in one 4-GPU NVLink domain, liquid
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (16, "gb200", 4)
    assert (system.nvlink_domain_gpus, system.cooling) == (4, "liquid")
    assert roles(intake) == ["accessory", "system", "accessory"]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("1x NVIDIA GB200 NVL4 Superchip", 4),
        ("2x NVIDIA GB200 Grace Blackwell Superchip", 4),
        ("NVIDIA GH200 NVL2 144GB Grace Hopper Superchip pair", 2),
    ],
)
def test_superchips_count_their_gpus(text: str, count: int) -> None:
    mention = gpu_mention(text)
    assert mention is not None and mention.count == count


def test_a_banner_naming_the_racks_is_a_heading(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        ',,"GB300 NVL72 rack x 4 (L11, fully integrated, liquid-cooled)",,,\n'
        'A1,WY-CT1U,"GB300 NVL72 compute tray, 1U, 2x NVIDIA GB300 Grace Blackwell Ultra '
        'Superchip (4x B300 GPU, 2x Grace CPU)",72,438000.00,31536000.00\n',
    )
    assert roles(intake)[0] == "note"


def test_compute_trays_without_a_rack_line_are_racks_of_72(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        'A1,WY-CT1U,"GB300 NVL72 compute tray, 1U, 2x NVIDIA GB300 Grace Blackwell Ultra '
        'Superchip (4x B300 GPU, 2x Grace CPU), cold plate",72,438000.00,31536000.00\n'
        'A2,WY-NVLSW,"NVLink switch tray, 1U, 2x NVLink 5 switch ASIC",36,96000.00,3456000.00\n'
        'A3,WY-PSHELF,"Power shelf, 1U, 33kW, 6x 5.5kW PSU",32,14500.00,464000.00\n'
        'B1,WY-SVC,"L11 rack integration and NCCL test, per GB300 NVL72 rack",4,58000.00,'
        "232000.00\n",
    )
    (system,) = intake.systems
    # 72 trays of 4 GPUs are 4 racks of 18 trays: 4 NVLink domains of 72, not 72 systems of 4
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (4, "gb300", 72)
    assert (system.nvlink_domain_gpus, system.cooling, system.form_factor) == (
        72,
        "liquid",
        "rack_nvl72",
    )
    assert roles(intake) == ["system", "component", "component", "service"]
    assert intake.child_quantities == "totals"
    assert not [p for p in intake.line_problems if p.severity in ("warning", "critical")]


def test_a_gh200_nvl2_server_is_two_grace_hoppers(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,P71411-B21,"HPE ProLiant Compute DL384 Gen12 NVIDIA GH200 NVL2 Configure-to-order '
        'Server, 2U",2,38400.00,76800.00\n'
        '1.1,P71440-B21,"HPE DL384 Gen12 NVIDIA GH200 NVL2 144GB Grace Hopper Superchip pair with '
        'NVLink bridge FIO Kit",2,142000.00,284000.00\n',
    )
    (system,) = intake.systems
    # GH200 NVL2: two superchips joined by NVLink, one GPU each: 2 GPUs, one 2-GPU domain
    assert (system.quantity, system.gpu_key, system.gpus_per_system) == (2, "gh200", 2)
    assert system.nvlink_domain_gpus == 2
    assert roles(intake) == ["system", "gpu_board"]


def test_rack_infrastructure_beside_the_racks_is_shared(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        'A1,WY-CT1U,"GB300 NVL72 compute tray, 2x NVIDIA GB300 Superchip (4x B300 GPU)",72,'
        "438000.00,31536000.00\n"
        'A4,WY-RACK,"MGX 48U rack with DC busbar and liquid manifolds",4,86000.00,344000.00\n'
        'A5,WY-CDU,"In-row coolant distribution unit, 1.3MW, N+1 pumps",2,265000.00,530000.00\n'
        'A6,WY-RDHX,"Rear-door heat exchanger, 40kW",4,21500.00,86000.00\n',
    )
    # one enclosure and one rear door per rack are the racks' own; 2 CDUs serve all 4 racks
    assert roles(intake) == ["system", "component", "accessory", "component"]
    assert intake.child_quantities == "totals"


def test_a_discount_with_only_an_amount_reads_completely(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,G894-SD3-AAX7,"GIGABYTE G894-SD3-AAX7 8U server, NVIDIA HGX B300 NVL16",4,468500.00,'
        "1874000.00\n"
        ',,"Project discount",,,-37400.00\n',
    )
    # a discount is a money line: no quantity is how it is written, not a cell to fix
    assert roles(intake) == ["system", "discount"]
    assert not [p for p in intake.line_problems if p.severity in ("warning", "critical")]
    (system,) = intake.systems
    # "HGX B300 NVL16" counts 16 dies: 8 GPUs, one 8-GPU NVLink domain
    assert (system.gpus_per_system, system.nvlink_domain_gpus) == (8, 8)


def test_the_trays_decide_over_a_shared_part_under_the_racks(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,S5D41A,"NVIDIA GB300 NVL72 by HPE, 72x Blackwell Ultra GPU, liquid cooled rack",2,'
        "3476000.00,6952000.00\n"
        '1.1,S5D43A,"HPE GB300 NVL72 Compute Tray, 2x NVIDIA GB300 Superchip",36,0.00,0.00\n'
        '1.2,S5D51A,"HPE 1.3MW Coolant Distribution Unit, in-row",1,0.00,0.00\n',
    )
    (system,) = intake.systems
    # 1 CDU does not divide over 2 racks, but 36 trays per rack would be 144 GPUs in a
    # 72-GPU rack: order totals, 18 trays and 72 GPUs per rack
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (2, 72, 72)
    assert intake.child_quantities == "totals"


def test_an_nvl36x2_supercluster_is_one_72_gpu_domain(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,SRS-GB200-NVL36X2,"Supermicro GB200 NVL36x2 SuperCluster: 2 racks of 36 Blackwell '
        'GPUs joined into one NVLink domain, liquid-cooled",1,3890000.00,3890000.00\n'
        '1.1,ARS-121GL-NBO-LCC,"1U GB200 compute tray, 2x GB200 Grace Blackwell Superchip",18,'
        "0.00,0.00\n"
        '1.2,SRS-RACK-48U-ORV3,"48U ORv3 rack with DC busbar and liquid manifolds",2,0.00,0.00\n',
    )
    (system,) = intake.systems
    # two racks of 36 cabled into one NVLink domain: one system of 72, not two of 36
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (1, 72, 72)
    assert roles(intake) == ["system", "gpu_board", "component"]


def test_dells_18_xe9712_servers_are_one_rack(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,210-BRIR,"Dell Integrated Rack 7000 (IR7000), 21in ORv3, 50OU",1,185000.00,185000.00\n'
        '2,210-BRHX,"PowerEdge XE9712 Server",18,168000.00,3024000.00\n'
        '2.1,338-CHXT,"2x NVIDIA GB200 Grace Blackwell Superchip (4x B200 GPU, 2x Grace CPU)",1,'
        "0.00,0.00\n"
        '2.2,540-BFLV,"NVIDIA ConnectX-7 400Gb/s OSFP SuperNIC",4,0.00,0.00\n',
    )
    (system,) = intake.systems
    # the XE9712 is Dell's GB200 NVL72 compute tray: 18 of 4 GPUs are one 72-GPU rack, not 18
    # systems of 4 (nor 18 racks drawing 132 kW and weighing 3,000 lb each)
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (1, 72, 72)
    assert (system.form_factor, system.cooling, system.power_kw) == ("rack_nvl72", "liquid", 132)


@pytest.mark.parametrize(
    ("line", "gpu"),
    [
        # the catalog's Supermicro SuperCluster row: GB200, 72 GPUs always; the line names the
        # GPU but not how many
        ('SRS-GB200-NVL72-M1,"Supermicro GB200 NVL72 rack solution"', "GB200"),
        ('SRS-GB300-NVL72,"Supermicro SuperCluster GB300 NVL72"', "GB300"),
        # no GPU named at all: the part number and the "rack" head; the family's own GPUs
        ('SRS-GB200-NVL72-M1,"SuperCluster rack"', "GB200"),
        ('XE9712,"Dell PowerEdge XE9712 rack (NVL72)"', "GB200"),
    ],
)
def test_a_bare_rack_scale_line_is_its_72_gpus(
    catalog: CatalogSnapshot, line: str, gpu: str
) -> None:
    intake = read(catalog, f"1,{line},2,3500000.00,7000000.00\n")
    (system,) = intake.systems
    # before: 0 GPUs (the count came only from "72x" in the text), or an empty rack
    # (accessory); now 2 racks × 72 GPUs = 144, each rack one 72-GPU NVLink domain
    assert system.gpu is not None and system.gpu.startswith(gpu)
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (2, 72, 72)
    assert roles(intake) == ["system"]


def test_a_rack_bought_for_a_rack_scale_system_is_an_enclosure(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,AR3300,"APC NetShelter SX 42U rack for GB200 NVL72 deployments",1,3500.00,3500.00\n',
    )
    # the GB200 it names is what it is for, not what it holds
    assert intake.systems == []
    assert roles(intake) == ["accessory"]
