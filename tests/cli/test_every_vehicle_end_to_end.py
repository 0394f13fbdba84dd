"""Every vehicle the field guide walks past, end to end: a quote written as a vendor writes it,
through the real `review_quote` command (intake, reading, review), checked for the vehicle, its
GPU count, its NVLink domain, its power and the blood pressure the guide gives it.

The guide's gauges: the moped and the motorcycle are expensed and charged up (calm, calm); the
Spark goes unnoticed on a desk; the DGX Station's 1,600 W gets a walk-in from Facilities
(raised); the work van gets "which rack, which PDUs" (raised); the semi makes Finance clear its
throat; the trains send both out to the parking lot (crisis, crisis).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.cli.reviewing import review_command

pytestmark = pytest.mark.usefixtures("catalog_db")

HEAD = "Part Number,Description,Qty,Unit Price,Extended Price"
OFFICE = {"name": "Office desk", "site": "office", "circuit_volts": 120, "circuit_amps": 15}
ROW = {
    "name": "Row 3",
    "site": "datacenter",
    "rack_power_kw": 20,
    "racks_available": 4,
    "cooling": "air_rdhx",
    "floor_load_lb_per_sqft": 250,
}
#: The guide's server room, qualified for less than a semi: air, 10 kW racks ("asks about
#: airflow, then asks again, not believing you").
SERVER_ROOM = ROW | {"rack_power_kw": 10, "cooling": "air"}


def _dev(model: str, precision: str = "bf16", speed: float = 10) -> dict[str, Any]:
    return {
        "kind": "development",
        "model": model,
        "precision": precision,
        "concurrent_users": 1,
        "tokens_per_sec_per_user": speed,
    }


def _serving(model: str, users: int = 100) -> dict[str, Any]:
    return {
        "kind": "inference",
        "model": model,
        "precision": "fp8",
        "concurrent_users": users,
        "tokens_per_sec_per_user": 15,
    }


def _finetune(model: str) -> dict[str, Any]:
    return {"kind": "fine_tuning", "model": model, "precision": "bf16"}


@dataclass(frozen=True)
class Walk:
    name: str
    lines: list[str]  # the quote's data rows, as the vendor wrote them
    workload: dict[str, Any]
    facility: dict[str, Any]
    vehicle: str
    form_factor: str
    gpus: int  # every GPU on the quote
    domain: int  # GPUs in one NVLink domain
    power_kw: float  # one system at its maximum
    finance: set[str]
    facilities: set[str]
    header: str = HEAD
    said: list[str] = field(default_factory=list)


WALK = [
    Walk(
        # The moped: on-device only. A18 Pro, ~8 GB; the catalog's iPhone draws ~0.03 kW.
        "phone",
        ['MYMJ3LL/A,"Apple iPhone 16 Pro 256GB, Black Titanium",1,1099.00,1099.00'],
        _dev("Llama-3.2-1B", "int4", 5),
        OFFICE,
        "moped",
        "phone",
        gpus=1,
        domain=1,
        power_kw=0.03,
        finance={"calm"},
        facilities={"calm"},
        said=["On-device only", "they'll switch pockets", "expensed it without reading"],
    ),
    Walk(
        # The motorcycle: one RTX PRO 5000 laptop GPU (24 GB); the 280 W adapter is the most
        # the laptop draws: 0.28 kW.
        "laptop",
        [
            'dpm16p250_cto,"Dell Pro Max 16 Plus laptop, Intel Core Ultra 9 285HX, NVIDIA RTX '
            'PRO 5000 Blackwell 24GB laptop GPU, 64GB DDR5, 2TB SSD",1,4689.00,4689.00'
        ],
        _dev("Qwen3-8B"),
        OFFICE,
        "motorcycle",
        "laptop",
        gpus=1,
        domain=1,
        power_kw=0.28,
        finance={"calm"},
        facilities={"calm"},
        said=["Breakfast for one", "as long as it is charged up"],
    ),
    Walk(
        # The compact car: one GB10 (128 GB), 240 W.
        "DGX Spark",
        [
            '940-54542-0000-000,"NVIDIA DGX Spark - GB10 Grace Blackwell Superchip, 128GB '
            'unified LPDDR5X, 4TB NVMe",1,3999.00,3999.00'
        ],
        _dev("Qwen3-32B", speed=2),
        OFFICE,
        "compact car",
        "desktop",
        gpus=1,
        domain=1,
        power_kw=0.24,
        finance={"calm"},
        facilities={"calm"},
        said=["Facilities didn't even notice", "Breakfast for one"],
    ),
    Walk(
        # "Sparks can be physically cabled together": 2 × GB10 joined by the QSFP cable, each
        # its own NVLink domain; 405B at FP4 (202.5 GB) shards over 2 × 128 = 256 GB.
        "DGX Spark pair, cabled",
        [
            '940-54542-0000-000,"NVIDIA DGX Spark - GB10 Grace Blackwell Superchip, 128GB '
            'unified LPDDR5X, 4TB NVMe, ConnectX-7 2x QSFP",2,3999.00,7998.00',
            'MCP1650-V00AE30,"NVIDIA DAC cable, 200GbE QSFP112 to QSFP112, passive, 0.5m",'
            "1,89.00,89.00",
        ],
        {**_dev("Llama-3.1-405B", "fp4", 0.5), "kind": "inference"},
        OFFICE,
        "compact car",
        "desktop",
        gpus=2,
        domain=1,
        power_kw=0.24,
        finance={"calm"},
        facilities={"calm"},
        said=["the network between 2 NVIDIA DGX Spark hosts (ConnectX-7, 200 Gb/s per port)"],
    ),
    Walk(
        # The sedan: one 96 GB RTX PRO 6000 WS, ~1.15 kW at most.
        "RTX PRO 6000 workstation",
        [
            'PMT2-RTXPRO6000,"Dell Pro Max T2 Tower, Intel Xeon w5-3535X, NVIDIA RTX PRO 6000 '
            'Blackwell Workstation Edition 96GB, 128GB DDR5",1,14000.00,14000.00'
        ],
        _dev("Qwen3-8B"),
        OFFICE,
        "sedan",
        "workstation",
        gpus=1,
        domain=1,
        power_kw=1.15,
        finance={"raised"},
        facilities={"calm"},
    ),
    Walk(
        # The station wagon: 1,600 W over a 15 A × 120 V × 80 % = 1,440 W circuit: a walk-in.
        "DGX Station",
        [
            'DGX-STATION-GB300,"NVIDIA DGX Station GB300 Ultra Superchip, 784GB coherent '
            'memory",1,85000.00,85000.00'
        ],
        _dev("Qwen3-32B", speed=2),
        OFFICE,
        "station wagon",
        "workstation",
        gpus=1,
        domain=1,
        power_kw=1.6,
        finance={"raised"},
        facilities={"raised"},
    ),
    Walk(
        # The work van: 8 × L40S, each its own domain; 2.2 kW chassis + 8 × 350 W = 5.0 kW.
        "PCIe server, L40S",
        [
            'SYS-521GE-TNRT,"Supermicro SYS-521GE-TNRT GPU server with 8x NVIDIA L40S 48GB '
            'PCIe",1,104000.00,104000.00'
        ],
        _serving("Qwen3-32B"),
        ROW,
        "work van",
        "pcie_server",
        gpus=8,
        domain=1,
        power_kw=5.0,
        finance={"high"},
        facilities={"raised"},
    ),
    Walk(
        # 4 × H200 NVL joined by the 4-way bridge: one 4-GPU domain (4 × 141 = 564 GB), 4.5 kW.
        "PCIe server, H200 NVL with bridges",
        [
            '1,S4R14A,"HPE ProLiant DL380a Gen12 GPU server",1,30000.00,30000.00',
            '1.1,S3T16C,"NVIDIA H200 NVL 141GB PCIe accelerator",4,30000.00,120000.00',
            '1.2,S3T17C,"NVIDIA NVLink 4-way bridge for H200 NVL",1,2500.00,2500.00',
        ],
        _serving("Llama-3.3-70B"),
        ROW,
        "work van",
        "pcie_server",
        gpus=4,
        domain=4,
        power_kw=4.5,
        finance={"high"},
        facilities={"raised"},
        header="Item,Part Number,Description,Qty,Unit Price,Extended Price",
    ),
    Walk(
        # 8 × RTX PRO 6000 Server Edition over PCIe, each its own domain, 7 kW.
        "PCIe server, RTX PRO 6000 Server Edition",
        [
            'XE7745-RTXPRO,"Dell PowerEdge XE7745 with 8x NVIDIA RTX PRO 6000 Blackwell Server '
            'Edition 96GB",1,140000.00,140000.00'
        ],
        _serving("Qwen3-32B"),
        ROW,
        "work van",
        "pcie_server",
        gpus=8,
        domain=1,
        power_kw=7.0,
        finance={"high"},
        facilities={"raised"},
    ),
    Walk(
        # The semi: 8 × B200 in one NVSwitch domain (8 × 180 = 1,440 GB), 14.3 kW.
        "DGX B200",
        ['DGXB-G1440+P2CMI36,"NVIDIA DGX B200 1440GB, 8x B200",1,515000.00,515000.00'],
        _finetune("Llama-3.1-70B"),
        SERVER_ROOM,
        "semi",
        "nvl8_server",
        gpus=8,
        domain=8,
        power_kw=14.3,
        finance={"high"},
        facilities={"high"},
    ),
    Walk(
        # An OEM HGX B200 semi: the same 8-GPU board, 14.5 kW in Supermicro's 10U.
        "HGX B200",
        [
            'SYS-A21GE-NBRT,"Supermicro SYS-A21GE-NBRT 10U with NVIDIA HGX B200 8-GPU",1,'
            "470000.00,470000.00"
        ],
        _finetune("Llama-3.1-70B"),
        SERVER_ROOM,
        "semi",
        "nvl8_server",
        gpus=8,
        domain=8,
        power_kw=14.5,
        finance={"high"},
        facilities={"high"},
    ),
    Walk(
        # HGX Vera Rubin NVL8: 8 Rubin GPUs in one domain, ~24 kW: liquid, so crisis in air.
        "HGX Vera Rubin NVL8",
        ['HGX-RUBIN-NVL8,"Compal HGX Vera Rubin NVL8 server, 8x Rubin GPU",1,800000.00,800000.00'],
        _finetune("Llama-3.1-70B"),
        SERVER_ROOM,
        "semi",
        "nvl8_server",
        gpus=8,
        domain=8,
        power_kw=24.0,
        finance={"high"},
        facilities={"crisis"},
    ),
    Walk(
        # The freight train: 72 GPUs, one NVLink domain, 120-142 kW (breakers sized for 142).
        "GB300 NVL72",
        [
            'GB300-NVL72,"NVIDIA GB300 NVL72 rack, 72x Blackwell Ultra GPU, 36x Grace CPU",1,'
            "3900000.00,3900000.00"
        ],
        _finetune("DeepSeek-V3 / R1"),
        ROW,
        "freight train",
        "rack_nvl72",
        gpus=72,
        domain=72,
        power_kw=142.0,
        finance={"crisis"},
        facilities={"crisis"},
    ),
    Walk(
        # Vera Rubin NVL72: 72 Rubin GPUs in one domain, ~230 kW.
        "Vera Rubin NVL72",
        [
            'VR-NVL72,"NVIDIA Vera Rubin NVL72 rack, 72x Rubin GPU, 36x Vera CPU",1,'
            "6000000.00,6000000.00"
        ],
        _finetune("DeepSeek-V3 / R1"),
        ROW,
        "freight train",
        "rack_nvl72",
        gpus=72,
        domain=72,
        power_kw=230.0,
        finance={"crisis"},
        facilities={"crisis"},
    ),
]


def _review(tmp_path: Path, walk: Walk) -> dict[str, Any]:
    quote = tmp_path / "quote.csv"
    quote.write_text("\n".join([walk.header, *walk.lines]) + "\n", encoding="utf-8")
    out, err = review_command(tmp_path, quote, {"name": walk.name, **walk.workload}, walk.facility)
    assert err == ""
    return json.loads(out)


@pytest.mark.parametrize("walk", WALK, ids=[w.name for w in WALK])
def test_every_vehicle_of_the_guide(tmp_path: Path, walk: Walk) -> None:
    report = _review(tmp_path, walk)
    (system,) = report["systems"]
    assert (system["vehicle"], system["form_factor"]) == (walk.vehicle, walk.form_factor)
    assert system["quantity"] * system["gpus_per_system"] == walk.gpus
    assert system["nvlink_domain_gpus"] == walk.domain
    assert system["power_kw"] == pytest.approx(walk.power_kw)
    gauges = report["blood_pressure"]
    assert gauges["finance"]["level"] in walk.finance, gauges
    assert gauges["facilities"]["level"] in walk.facilities, gauges
    said = "\n".join(
        [f"{f['title']}\n{f['detail']}" for f in report["findings"]]
        + gauges["finance"]["reasons"]
        + gauges["facilities"]["reasons"]
    )
    for line in walk.said:
        assert line in said, said
