"""Build fixtures/catalog.json from shared/reference/ (hardware.csv, models.csv) plus our parts
and the project-local reference data in fixtures/reference/ (extra GPUs, OEM chassis families,
rental rates in gpu_rental.csv, vendor peak power in power_peaks.csv).

Run from the project root: `python scripts/build_catalog.py ../shared/reference`.
The output is committed; `manage.py load_catalog` loads it. Conventions from the reference:
`~X` is unverified, `a-b` is a range (facilities use the top, finance the bottom).
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.catalog.snapshot import CatalogSnapshot  # noqa: E402

GPU_KEYS = [
    "h100-sxm",
    "h100-pcie",
    "h100-nvl",
    "h200-sxm",
    "h200-nvl",
    "b200",
    "b300",
    "gb200",
    "gb300",
    "l40s",
    "l4",
    "rtx-pro-6000-ws",
    "rtx-pro-6000-server",
    "rtx-pro-6000-maxq",
    "gb10",
    "a100-sxm",
    "rubin",
]
# system key, gpu key, vendor for the part table
SYSTEM_KEYS = [
    ("dgx-spark", "gb10", "NVIDIA"),
    ("dgx-station-gb300", "gb300-desktop", "NVIDIA"),
    ("ws-1x-rtx-pro-6000", "rtx-pro-6000-ws", "Dell / HP / Lenovo"),
    ("ws-2x-rtx-pro-6000", "rtx-pro-6000-ws", "Dell / HP / Lenovo"),
    ("ws-4x-rtx-pro-6000-maxq", "rtx-pro-6000-maxq", "Dell / HP / Lenovo"),
    ("ws-4x-rtx-pro-6000", "rtx-pro-6000-ws", "Specialist builders"),
    ("supermicro-521ge-tnrt-8x-l40s", "l40s", "Supermicro"),
    ("pcie-4x-h200-nvl", "h200-nvl", "OEM"),
    ("pcie-8x-h200-nvl", "h200-nvl", "OEM"),
    ("rtx-pro-server-8x", "rtx-pro-6000-server", "Dell"),
    ("dgx-h100", "h100-sxm", "NVIDIA"),
    ("dgx-h200", "h200-sxm", "NVIDIA"),
    ("dgx-b200", "b200", "NVIDIA"),
    ("dgx-b300", "b300", "NVIDIA"),
    ("dell-xe9680", "h200-sxm", "Dell"),
    ("supermicro-821ge-tnhr", "h200-sxm", "Supermicro"),
    ("hpe-cray-xd670", "h200-sxm", "HPE"),
    ("lenovo-sr680a-v3", "b200", "Lenovo"),
    ("supermicro-a21ge-nbrt", "b200", "Supermicro"),
    ("dell-xe9685l", "b200", "Dell"),
    ("dell-xe9780", "b300", "Dell"),
    ("asus-xa-nb3i-e12", "b300", "ASUS"),
    ("gb200-nvl4", "gb200", "HPE"),
    ("gb200-nvl72", "gb200", "NVIDIA"),
    ("gb300-nvl72", "gb300", "NVIDIA"),
    ("vera-rubin-nvl72", "rubin", "NVIDIA"),
    ("hgx-rubin-nvl8", "rubin", "Compal"),
]
EXAMPLE_PRICES = "price on a reseller's example quote, not a list price"
ESTIMATE = "Rightsize planning estimate from street prices; unverified"
# key: (price USD, source, verified)
PRICES = {
    "dgx-spark": (3999, "ai-infrastructure.net/dgx-spark: '~$3,999'", True),
    "dgx-station-gb300": (
        85000,
        EXAMPLE_PRICES + " (STH quotes ~$125,000 for Supermicro's)",
        False,
    ),
    "ws-1x-rtx-pro-6000": (14000, ESTIMATE, False),
    "ws-2x-rtx-pro-6000": (24000, ESTIMATE, False),
    "ws-4x-rtx-pro-6000-maxq": (42000, ESTIMATE, False),
    "ws-4x-rtx-pro-6000": (45000, ESTIMATE, False),
    "supermicro-521ge-tnrt-8x-l40s": (
        104000,
        EXAMPLE_PRICES + " (28,000 chassis + 8 x 9,500)",
        False,
    ),
    "pcie-4x-h200-nvl": (150000, ESTIMATE, False),
    "pcie-8x-h200-nvl": (280000, ESTIMATE, False),
    "rtx-pro-server-8x": (140000, EXAMPLE_PRICES, False),
    "dgx-h100": (300000, ESTIMATE, False),
    "dgx-h200": (400000, EXAMPLE_PRICES, False),
    "dgx-b200": (515000, EXAMPLE_PRICES, False),
    "dgx-b300": (600000, EXAMPLE_PRICES, False),
    "dell-xe9680": (350000, ESTIMATE, False),
    "supermicro-821ge-tnhr": (340000, ESTIMATE, False),
    "hpe-cray-xd670": (350000, ESTIMATE, False),
    "lenovo-sr680a-v3": (480000, ESTIMATE, False),
    "supermicro-a21ge-nbrt": (470000, ESTIMATE, False),
    "dell-xe9685l": (490000, ESTIMATE, False),
    "dell-xe9780": (560000, ESTIMATE, False),
    "asus-xa-nb3i-e12": (550000, ESTIMATE, False),
    "gb200-nvl4": (250000, ESTIMATE, False),
    "gb200-nvl72": (3400000, ESTIMATE, False),
    "gb300-nvl72": (3900000, EXAMPLE_PRICES, False),
    "vera-rubin-nvl72": (6000000, ESTIMATE, False),
    "hgx-rubin-nvl8": (800000, ESTIMATE, False),
}
# Floor planning: fall-back weights where the sources give none (lb), always unverified.
#: A weight the catalog guessed from the form factor means nothing for a blade: a 300 lb
#: "8-GPU server" times 56 blades is not an EX4000 cabinet.
FORM_FACTOR_WEIGHT = "Rightsize estimate by form factor"


WEIGHT_ESTIMATES = {
    "workstation": 60,
    "pcie_server": 120,
    "nvl8_server": 300,
    "rack_nvl72": 3000,
    "desktop": 3,
}

# Part numbers and aliases. The first group are the numbers on the shared example quotes.
PARTS = [
    (
        "NVIDIA",
        "DGXB-G1440+P2CMI36",
        "system",
        "dgx-b200",
        None,
        None,
        ["DGX B200", "DGX B200 1440GB", "DGXB-G1440"],
    ),
    ("NVIDIA", "DGXB300-G2304", "system", "dgx-b300", None, None, ["DGX B300", "DGX B300 2304GB"]),
    (
        "NVIDIA",
        "DGXH-G1128+P2CMI36",
        "system",
        "dgx-h200",
        None,
        None,
        ["DGX H200", "DGX H200 1128GB", "DGXH-G1128"],
    ),
    (
        "NVIDIA",
        "DGXH-G640F+P2CMI36",
        "system",
        "dgx-h100",
        None,
        None,
        ["DGX H100", "DGX H100 640GB"],
    ),
    (
        "NVIDIA",
        "DGX-SPARK-4TB",
        "system",
        "dgx-spark",
        None,
        None,
        ["DGX Spark", "DGX Spark 4TB", "NVIDIA DGX Spark Founders Edition"],
    ),
    (
        "NVIDIA",
        "DGX-STATION-GB300",
        "system",
        "dgx-station-gb300",
        None,
        None,
        ["DGX Station", "DGX Station GB300", "Super AI Station"],
    ),
    (
        "NVIDIA",
        "GB300-NVL72",
        "system",
        "gb300-nvl72",
        None,
        None,
        ["GB300 NVL72", "DGX GB300", "GB300 NVL72 rack"],
    ),
    (
        "NVIDIA",
        "GB200-NVL72",
        "system",
        "gb200-nvl72",
        None,
        None,
        ["GB200 NVL72", "DGX GB200", "PowerEdge XE9712"],
    ),
    (
        "NVIDIA",
        "VR-NVL72",
        "system",
        "vera-rubin-nvl72",
        None,
        None,
        ["Vera Rubin NVL72", "Vera Rubin NVL144"],
    ),
    (
        "Dell",
        "XE7745-RTXPRO",
        "system",
        "rtx-pro-server-8x",
        None,
        None,
        ["PowerEdge XE7745", "PowerEdge XE7740", "RTX PRO Server", "XE7740-RTXPRO"],
    ),
    ("Dell", "XE9680", "system", "dell-xe9680", None, None, ["PowerEdge XE9680"]),
    ("Dell", "XE9685L", "system", "dell-xe9685l", None, None, ["PowerEdge XE9685L"]),
    (
        "Dell",
        "XE9780",
        "system",
        "dell-xe9780",
        None,
        None,
        ["PowerEdge XE9780", "PowerEdge XE9785", "XE9785", "XE9780L", "XE9785L"],
    ),
    ("Supermicro", "SYS-821GE-TNHR", "system", "supermicro-821ge-tnhr", None, None, []),
    ("Supermicro", "SYS-A21GE-NBRT", "system", "supermicro-a21ge-nbrt", None, None, []),
    ("HPE", "XD670", "system", "hpe-cray-xd670", None, None, ["HPE Cray XD670", "Cray XD670"]),
    ("HPE", "EX154N", "system", "gb200-nvl4", None, None, ["GB200 NVL4", "Cray EX154n"]),
    (
        "Lenovo",
        "SR680A-V3",
        "system",
        "lenovo-sr680a-v3",
        None,
        None,
        ["ThinkSystem SR680a V3", "SR680a V3"],
    ),
    ("ASUS", "XA-NB3I-E12", "system", "asus-xa-nb3i-e12", None, None, ["XA NB3I-E12"]),
    ("Compal", "HGX-RUBIN-NVL8", "system", "hgx-rubin-nvl8", None, None, ["HGX Rubin NVL8"]),
    (
        "Dell / HP / Lenovo",
        "WS-1X-RTXPRO6000",
        "system",
        "ws-1x-rtx-pro-6000",
        None,
        None,
        # the workstations it names as examples are families of their own (oem_systems_*):
        # a quoted "Dell Pro Max T2 Tower" is that family, with the cards the quote states
        ["ThinkStation P4"],
    ),
    ("Dell / HP / Lenovo", "WS-2X-RTXPRO6000", "system", "ws-2x-rtx-pro-6000", None, None, []),
    (
        "Dell / HP / Lenovo",
        "WS-4X-RTXPRO6000-MAXQ",
        "system",
        "ws-4x-rtx-pro-6000-maxq",
        None,
        None,
        [],
    ),
    ("Specialist builders", "WS-4X-RTXPRO6000", "system", "ws-4x-rtx-pro-6000", None, None, []),
    (
        "OEM",
        "PCIE-4X-H200NVL",
        "system",
        "pcie-4x-h200-nvl",
        None,
        None,
        ["H200 NVL 2-4-3", "ProLiant DL380a Gen12"],
    ),
    ("OEM", "PCIE-8X-H200NVL", "system", "pcie-8x-h200-nvl", None, None, ["H200 NVL 2-8-5"]),
    (
        "Supermicro",
        "SYS-521GE-TNRT-8L40S",
        "system",
        "supermicro-521ge-tnrt-8x-l40s",
        None,
        None,
        # Not "ESC8000A-E13P": the ASUS box is its own system (asus-esc8000a-e13p); as an
        # alias here a quote for 8x RTX PRO 6000 in an ESC8000A-E13P read as this L40S box.
        [],
    ),
    # A chassis that takes cards, and the cards.
    (
        "Supermicro",
        "SYS-521GE-TNRT",
        "chassis",
        "supermicro-sys-521ge-tnrt",
        None,
        None,
        ["Supermicro 5U PCIe GPU server"],
    ),
    ("Supermicro", "SYS-421GE-TNRT", "chassis", "supermicro-sys-421ge-tnrt", None, None, []),
    (
        "NVIDIA",
        "900-2G133-0080-000",
        "gpu_card",
        None,
        "l40s",
        None,
        ["L40S", "NVIDIA L40S 48GB", "L40S 48GB PCIe"],
    ),
    ("NVIDIA", "900-2G193-0000-000", "gpu_card", None, "l4", None, ["L4", "NVIDIA L4 24GB"]),
    (
        "NVIDIA",
        "900-21010-0020-000",
        "gpu_card",
        None,
        "h200-nvl",
        None,
        ["H200 NVL", "H200 NVL 141GB"],
    ),
    (
        "NVIDIA",
        "900-21010-0120-030",
        "gpu_card",
        None,
        "h100-nvl",
        None,
        ["H100 NVL", "H100 NVL 94GB"],
    ),
    ("NVIDIA", "900-21010-0000-000", "gpu_card", None, "h100-pcie", None, ["H100 PCIe 80GB"]),
    (
        "NVIDIA",
        "RTXPRO6000-SE",
        "gpu_card",
        None,
        "rtx-pro-6000-server",
        None,
        ["RTX PRO 6000 Blackwell Server Edition"],
    ),
    (
        "NVIDIA",
        "RTXPRO6000-WS",
        "gpu_card",
        None,
        "rtx-pro-6000-ws",
        None,
        ["RTX PRO 6000 Blackwell Workstation Edition"],
    ),
    (
        "NVIDIA",
        "RTXPRO6000-MAXQ",
        "gpu_card",
        None,
        "rtx-pro-6000-maxq",
        None,
        ["RTX PRO 6000 Blackwell Max-Q"],
    ),
    (
        "NVIDIA",
        "NVLINK-BRIDGE-4WAY",
        "bridge",
        None,
        None,
        4,
        ["NVLink 4-way bridge", "NVL4 bridge", "4-way NVLink bridge"],
    ),
    (
        "NVIDIA",
        "NVLINK-BRIDGE-2WAY",
        "bridge",
        None,
        None,
        2,
        ["NVLink 2-way bridge", "NVL2 bridge", "2-way NVLink bridge"],
    ),
]
CHASSIS = [
    {
        "key": "supermicro-sys-521ge-tnrt",
        "name": "Supermicro SYS-521GE-TNRT (5U, 10x PCIe GPU)",
        "vendor": "Supermicro",
        "form_factor": "pcie_server",
        "gpu": None,
        "gpu_count": 0,
        "nvlink_domain_gpus": 1,
        "gpu_slots": 10,
        "max_gpu_watts": 600,
        "base_power_kw": 2.2,
        "weight_lb": 120,
        "rack_units": 5,
        "cooling": "air",
        "cpu_arch": "x86",
        "list_price_usd": "28000",
        "price_source": EXAMPLE_PRICES,
        "source_urls": "https://servethehome.com/nvidia-l40s-is-the-nvidia-h100-ai-alternative-with-a-big-benefit-supermicro/2",
        "notes": "Chassis without GPUs. Base power derived: STH's 4.3-5 kW with 8 x 350 W L40S "
        "(2.8 kW) leaves 1.5-2.2 kW for CPUs, fans and drives.",
        "figures": {
            "base_power_kw": {"raw": "~1.5-2.2", "verified": False},
            "weight_lb": {"raw": "~120", "verified": False, "source": ESTIMATE},
            "gpu_slots": {"raw": "10", "verified": True, "source": "quote description"},
            "list_price_usd": {"raw": "28000", "verified": False, "source": EXAMPLE_PRICES},
        },
    },
    {
        "key": "supermicro-sys-421ge-tnrt",
        "name": "Supermicro SYS-421GE-TNRT (4U, 10x PCIe GPU)",
        "vendor": "Supermicro",
        "form_factor": "pcie_server",
        "gpu": None,
        "gpu_count": 0,
        "nvlink_domain_gpus": 1,
        "gpu_slots": 10,
        "max_gpu_watts": 600,
        "base_power_kw": 2.0,
        "weight_lb": 110,
        "rack_units": 4,
        "cooling": "air",
        "cpu_arch": "x86",
        "list_price_usd": "25000",
        "price_source": ESTIMATE,
        "source_urls": ESTIMATE,
        "notes": "Chassis without GPUs; all figures are planning estimates.",
        "figures": {
            f: {"raw": "~", "verified": False}
            for f in ("base_power_kw", "weight_lb", "gpu_slots", "list_price_usd", "max_gpu_watts")
        },
    },
]
FIELD_MAP = {
    "gpu_memory_gb_each": "memory_gb",
    "mem_bandwidth_tbs_each": "bandwidth_tbs",
    "fp64_tflops_each": "fp64_tflops",
    "fp64_tensor_tflops_each": "fp64_tensor_tflops",
    "fp32_tflops_each": "fp32_tflops",
    "bf16_dense_tflops_each": "bf16_tflops",
    "fp8_dense_tflops_each": "fp8_tflops",
    "fp4_dense_tflops_each": "fp4_tflops",
    "nvlink_bw_gbs_per_gpu": "nvlink_bw_gbs",
}
NUM = re.compile(r"^(~)?\s*([0-9.]+)\s*(?:-\s*([0-9.]+))?$")
LOCAL = ROOT / "fixtures" / "reference"
#: Extra GPUs (fixtures/reference/gpus.csv), in the file's row order.
LOCAL_GPU_KEYS = [
    "rtx-6000-ada",
    "rtx-pro-5000-laptop",
    "rtx-pro-5000",
    # mopeds and motorcycles: laptop GPUs, then the non-CUDA engines (unified-memory SoCs)
    "rtx-5090-laptop",
    "rtx-5080-laptop",
    "rtx-5070-ti-laptop",
    "rtx-5070-laptop",
    "rtx-pro-4000-laptop",
    "rtx-pro-3000-laptop",
    "rtx-pro-2000-laptop",
    "rtx-pro-1000-laptop",
    "rtx-pro-500-laptop",
    "apple-m4-pro",
    "apple-m4-max",
    "apple-m3-ultra",
    "ryzen-ai-max-395",
    "snapdragon-x-elite",
    "apple-a18-pro",
    "snapdragon-8-elite",
    # AMD Instinct: OAM GPUs on an 8-GPU Infinity Fabric baseboard (not CUDA: ROCm)
    "mi300x",
    "mi325x",
    "mi350x",
    "mi355x",
    # Grace Hopper: one H100-class GPU per superchip, two in an NVL2 server
    "gh200",
    # desktop RTX PRO Blackwell below the 5000, and the edge-robotics SoC of the Jetson AGX Thor
    "rtx-pro-4500",
    "rtx-pro-4000",
    "jetson-agx-thor",
    "rtx-5090",  # the desktop GeForce card builders quote in AI workstations
    "gaudi3",  # Intel Gaudi 3 OAM: 8 per baseboard on their own RoCE mesh (not CUDA)
]
#: How the OEM family files name GPUs -> catalog GPU keys.
GPU_NAMES = {
    "H100 SXM": "h100-sxm",
    "H100 PCIe": "h100-pcie",
    "H100 NVL": "h100-nvl",
    "H200 SXM": "h200-sxm",
    "H200 NVL": "h200-nvl",
    "B200": "b200",
    "B300": "b300",
    "GB200": "gb200",
    "GB300": "gb300",
    "L40S": "l40s",
    "L4": "l4",
    "A100": "a100-sxm",
    "GB10": "gb10",
    "RTX PRO 6000 Blackwell WS": "rtx-pro-6000-ws",
    "RTX PRO 6000 Blackwell Server": "rtx-pro-6000-server",
    "RTX PRO 6000 Blackwell Max-Q": "rtx-pro-6000-maxq",
    "RTX 6000 Ada": "rtx-6000-ada",
    "Snapdragon X Elite": "snapdragon-x-elite",
    "Apple A18 Pro": "apple-a18-pro",
    "Snapdragon 8 Elite": "snapdragon-8-elite",
    "MI300X": "mi300x",
    "MI325X": "mi325x",
    "MI350X": "mi350x",
    "MI355X": "mi355x",
    "GH200": "gh200",
    "Jetson AGX Thor": "jetson-agx-thor",
    "Gaudi 3": "gaudi3",
}
OEM_FILES = (
    "oem_systems_dell_hpe_lenovo_cisco.csv",
    "oem_systems_supermicro_gigabyte_asus_hp_builders.csv",
    "mobile_systems.csv",  # laptops, Macs, Copilot+ PCs, phones
    "rack_scale_systems.csv",  # NVIDIA's two-rack NVL36x2 forms
)
#: Aliases in the family files that name something else on a quote (a rack, a GPU board
#: feature code) or a different class of system: not used for matching.
ALIAS_SKIP = re.compile(r"^(?:IR7000|C9JN|GB200 NVL4|GB200 NVL72|GB300 NVL72)$|different class")


def parse_figure(raw: str) -> tuple[float, float, bool] | None:
    """'~1.45-1.75' -> (1.45, 1.75, unverified). Returns (low, high, verified)."""
    raw = raw.strip().replace(",", "")
    if not raw:
        return None
    m = NUM.match(raw)
    if not m:
        raise ValueError(f"cannot read figure {raw!r}")
    low = float(m.group(2))
    high = float(m.group(3)) if m.group(3) else low
    return low, high, m.group(1) is None


def sources(row: dict[str, str]) -> str:
    return row["source_urls"].strip()


def put(target: dict, figures: dict, field: str, raw: str, *, top: bool = True) -> None:
    parsed = parse_figure(raw)
    if parsed is None:
        return
    low, high, verified = parsed
    target[field] = high if top else low
    figures[field] = {"raw": raw.strip(), "verified": verified}


def gpu_from_row(key: str, row: dict[str, str]) -> dict:
    gpu: dict = {
        "key": key,
        "name": row["name"],
        "vendor": row["vendor"].split(" (")[0],
        "model": row["gpu_model"],
        "form_factor": row["form_factor"],
        "memory_type": row["gpu_memory_type"],
        "interconnect": row["interconnect"],
        "nvlink_domain_gpus": int(row["nvlink_domain_gpus"] or 1),
        "cooling": row["cooling"] or "air",
        "cpu_arch": row["cpu_arch"],
        "source_urls": sources(row),
        "notes": row["notes"],
    }
    figures: dict = {}
    for col, field in FIELD_MAP.items():
        put(gpu, figures, field, row[col])
    put(gpu, figures, "tdp_w_max", row["gpu_tdp_w"])
    put(gpu, figures, "tdp_w_typical", row["gpu_tdp_w"], top=False)
    if "tdp_w_typical" in figures:
        figures["tdp_w_typical"] = dict(figures["tdp_w_max"])
    gpu["figures"] = figures
    return gpu


def system_from_row(key: str, gpu_key: str, row: dict[str, str]) -> dict:
    system: dict = {
        "key": key,
        "name": row["name"],
        "vendor": row["vendor"],
        "form_factor": row["form_factor"],
        "gpu": gpu_key,
        "gpu_count": int(row["gpu_count"]),
        "nvlink_domain_gpus": int(row["nvlink_domain_gpus"] or 1),
        "cooling": row["cooling"] or "air",
        "cpu_arch": row["cpu_arch"] or "x86",
        "circuit_note": row["circuit_note"],
        "source_urls": sources(row),
        "notes": row["notes"],
    }
    figures: dict = {}
    put(system, figures, "power_max_kw", row["system_power_kw"])
    put(system, figures, "power_typical_kw", row["system_power_kw"], top=False)
    put(system, figures, "weight_lb", row["weight_lb"])
    put(system, figures, "rack_units", row["rack_units"])
    put(system, figures, "cpu_memory_gb", row["cpu_memory_gb"])
    if "weight_lb" not in system and row["form_factor"] in WEIGHT_ESTIMATES:
        system["weight_lb"] = WEIGHT_ESTIMATES[row["form_factor"]]
        figures["weight_lb"] = {
            "raw": f"~{system['weight_lb']}",
            "verified": False,
            "source": f"{FORM_FACTOR_WEIGHT} (the sources give no weight)",
        }
    price, price_source, price_verified = PRICES[key]
    system["list_price_usd"] = str(price)
    system["price_source"] = price_source
    figures["list_price_usd"] = {
        "raw": str(price),
        "verified": price_verified,
        "source": price_source,
    }
    system["figures"] = figures
    return system


def loose_figure(raw: str) -> tuple[float, float, bool] | None:
    """A family-file figure: "~10-11", "3000", "1500|2400|3200" (options: the largest),
    "6-8". (low, high, verified); None when the cell holds no number."""
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", raw.replace(",", ""))]
    if not numbers:
        return None
    return min(numbers), max(numbers), "~" not in raw


def put_loose(target: dict, figures: dict, field: str, raw: str, *, top: bool = True) -> None:
    parsed = loose_figure(raw)
    if parsed is None:
        return
    low, high, verified = parsed
    target[field] = high if top else low
    figures[field] = {"raw": raw.strip(), "verified": verified}


def family_from_row(row: dict[str, str]) -> tuple[dict, list[str]]:
    """One OEM chassis family as a catalog system: every figure kept with its verified flag
    ("~" = unverified) and the row's sources. A family with a fixed configuration (a GB200
    NVL72 rack, a GB10 desktop) carries its GPUs; the others take what the quote states."""
    vendor = row["vendor"].strip()
    family = row["family"].strip()
    name = family if family.casefold().startswith(vendor.casefold()) else f"{vendor} {family}"
    supported = tuple(g.strip() for g in row["supported_gpus"].split("|") if g.strip())
    fixed_gpu = None
    if row["gpu_kind"] == "fixed" and supported:
        fixed_gpu = GPU_NAMES.get(supported[0].lstrip("~"))
    system: dict = {
        "key": row["key"],
        "name": name,
        "vendor": vendor,
        "form_factor": row["form_factor"],
        "gpu": fixed_gpu,
        "gpu_count": 0,
        "nvlink_domain_gpus": 1,
        "cooling": row["cooling"] or "air",
        "cpu_arch": "arm" if row["cpu_arch"] == "arm" else "x86",
        "family": family,
        "gpu_kind": row["gpu_kind"],
        "supported_gpus": supported,
        "psu_redundancy": row["psu_redundancy"].strip(),
        "source_urls": row["source_urls"].strip(),
        "notes": row["notes"].strip(),
    }
    figures: dict = {}
    put_loose(system, figures, "gpu_slots", row["max_gpus"])
    if "gpu_slots" in system:
        system["gpu_slots"] = int(system["gpu_slots"])
        system["max_gpus"] = system["gpu_slots"]
        figures["max_gpus"] = figures["gpu_slots"]
    put_loose(system, figures, "max_gpu_watts", row["max_gpu_watts"])
    put_loose(system, figures, "rack_units", row["rack_units"])
    put_loose(system, figures, "weight_lb", row["weight_lb"])
    put_loose(system, figures, "psu_watts", row["psu_watts"])
    put_loose(system, figures, "psu_count", row["psu_count"])
    if "psu_count" in system:
        system["psu_count"] = int(system["psu_count"])
    put_loose(system, figures, "power_max_kw", row["power_max_kw"])
    put_loose(system, figures, "power_typical_kw", row["power_max_kw"], top=False)
    put_loose(system, figures, "base_power_kw", row["base_power_kw"])
    if fixed_gpu:
        # A fixed configuration (an NVL72 rack, a GB10 desktop) is read with the GPUs it
        # always carries, but it stays a family (gpu None): it is matched on quotes, not
        # offered by the recommendation, which weighs only the catalog's priced systems.
        system["gpu"] = None
        slots = system.get("gpu_slots") or 1
        system["nvlink_domain_gpus"] = slots if row["form_factor"] == "rack_nvl72" else 1
    elif row["gpu_kind"] == "sxm_board":
        system["nvlink_domain_gpus"] = 1  # the board the quote states sets the domain
    system["figures"] = figures
    aliases = [family]
    for alias in row["aliases"].split("|"):
        alias = re.sub(r"\s*\([^)]*\)", "", alias).strip()
        if alias and "..." not in alias and not ALIAS_SKIP.search(alias) and alias not in aliases:
            aliases.append(alias)
    return system, aliases


def families_from_csv(paths: list[Path]) -> list[tuple[dict, list[str]]]:
    out = []
    for path in paths:
        for row in csv.DictReader(path.open(encoding="utf-8")):
            if row["form_factor"] not in (
                "phone",
                "laptop",
                "desktop",
                "workstation",
                "pcie_server",
                "nvl8_server",
                "rack_nvl72",
            ):
                continue
            out.append(family_from_row(row))
    return out


FAMILY_FIELDS = (
    "family",
    "gpu_kind",
    "supported_gpus",
    "max_gpus",
    "psu_count",
    "psu_watts",
    "psu_redundancy",
)


LOCAL_MODELS = ROOT / "fixtures" / "reference" / "models.csv"
SLIDING = {"gpt-oss-120b": (128, 0.5), "gpt-oss-20b": (128, 0.5), "Gemma-3-27B": (1024, 5 / 6)}
# Core columns the shared reference owns: where a preset is in both files, shared's figure stands
# (the field guide quotes Qwen3-32B as 32.8 B; the local computed split says 32.76).
SHARED_COLUMNS = (
    "hf_repo", "total_params_b", "active_params_b", "layers", "hidden_size", "attn_heads",
    "kv_heads", "head_dim", "kv_lora_rank", "qk_rope_head_dim", "max_context", "vocab",
    "native_dtype",
)  # fmt: skip


def _int(row: dict[str, str], col: str) -> int | None:
    value = row.get(col, "").strip().lstrip("~")
    return int(float(value)) if value else None


def _float(row: dict[str, str], col: str) -> float | None:
    value = row.get(col, "").strip().lstrip("~")
    return float(value) if value else None


def model_from_row(row: dict[str, str], shared: dict[str, str] | None) -> dict:
    """One preset: the local row (fixtures/reference/models.csv) with the shared reference's
    core figures where shared has the preset."""
    merged = dict(row)
    source = row.get("source", "")
    if shared is not None:
        merged.update({col: shared[col] for col in SHARED_COLUMNS if col in shared})
        source = f"{shared['source']}; split and aliases: {source}" if source else shared["source"]
    window, fraction = SLIDING.get(merged["name"], (None, None))
    if merged.get("sliding_window", "").strip():
        window = _int(merged, "sliding_window")
        fraction = _float(merged, "sliding_layers_fraction")
    if not fraction:
        window, fraction = None, None
    aliases = tuple(a.strip() for a in merged.get("aliases", "").split("|") if a.strip())
    return {
        "name": merged["name"],
        "hf_repo": merged["hf_repo"],
        "total_params_b": float(merged["total_params_b"]),
        "active_params_b": float(merged["active_params_b"]),
        "layers": int(merged["layers"]),
        "hidden_size": _int(merged, "hidden_size"),
        "attn_heads": _int(merged, "attn_heads"),
        "kv_heads": int(merged["kv_heads"]),
        "head_dim": int(merged["head_dim"]),
        "kv_lora_rank": _int(merged, "kv_lora_rank"),
        "qk_rope_head_dim": _int(merged, "qk_rope_head_dim"),
        "max_context": _int(merged, "max_context"),
        "vocab": _int(merged, "vocab"),
        "native_dtype": merged["native_dtype"],
        "sliding_window": window,
        "sliding_layers_fraction": fraction,
        "source": source,
        "aliases": list(aliases),
        "num_experts": _int(merged, "num_experts"),
        "experts_per_token": _int(merged, "experts_per_token"),
        "kv_layers": _int(merged, "kv_layers"),
        "attn_params_b": _float(merged, "attn_params_b"),
        "expert_params_b": _float(merged, "expert_params_b"),
        "dense_mlp_params_b": _float(merged, "dense_mlp_params_b"),
        "embed_params_b": _float(merged, "embed_params_b"),
        "lm_head_params_b": _float(merged, "lm_head_params_b"),
        "decode_read_params_b": _float(merged, "decode_read_params_b"),
        "license": merged.get("license", ""),
        "release_date": merged.get("release_date", ""),
    }


def models_from_csv(path: Path, local: Path = LOCAL_MODELS) -> list[dict]:
    """Presets: every row of the shared reference, plus the local research rows (more families,
    aliases, MoE shape and parameter split), skipping a row without a shape (a documented gap)."""
    with path.open(encoding="utf-8") as handle:
        shared = {r["name"]: r for r in csv.DictReader(handle)}
    rows = []
    if local.exists():
        with local.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    local_names = {r["name"] for r in rows}
    out = [
        model_from_row(row, shared.get(row["name"]))
        for row in rows
        if row["layers"].strip() or row["name"] in shared
    ]
    out += [model_from_row(row, None) for name, row in shared.items() if name not in local_names]
    return out


# gpu_rental.csv names the GPU as providers do; the catalog key it rents
RENTAL_GPU_KEYS = {
    "H100 SXM": "h100-sxm",
    "H100 PCIe": "h100-pcie",
    "H100 NVL": "h100-nvl",
    "H200 SXM": "h200-sxm",
    "B200": "b200",
    "B300": "b300",
    "GB200": "gb200",
    "L40S": "l40s",
    "L4": "l4",
    "A100 SXM 80GB": "a100-sxm",
    "RTX PRO 6000 Blackwell Server": "rtx-pro-6000-server",
}


def rental_rates_from_csv(path: Path, gpu_keys: set[str]) -> list[dict]:
    """Rental rates per GPU-hour for the GPUs the catalog carries (an RTX 4090 is not on the
    lot, so its rates are left out). A row without a price is an error naming the row."""
    with path.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    out = []
    for number, row in enumerate(rows, start=2):
        key = RENTAL_GPU_KEYS.get(row["gpu"].strip())
        if key is None or key not in gpu_keys:
            continue
        price = row["usd_per_gpu_hour"].strip()
        if not price:
            raise ValueError(f"{path.name}: row {number}, column usd_per_gpu_hour: empty")
        out.append(
            {
                "gpu": key,
                "provider": row["provider"].strip(),
                "offering": row["offering"].strip(),
                "term": row["term"].strip(),
                "usd_per_gpu_hour": price,
                "region": row["region"].strip(),
                "as_of": row["date"].strip(),
                "verified": row["verified"].strip().lower() == "true",
                "source_url": row["source_url"].strip(),
                "notes": row["notes"].strip(),
            }
        )
    return out


def peaks_from_csv(path: Path, systems: list[dict]) -> None:
    """Transient peaks above the maximum (fixtures/reference/power_peaks.csv) onto the systems,
    each with its source; `~` marks an unverified figure as in the shared reference."""
    by_key = {s["key"]: s for s in systems}
    with path.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    for number, row in enumerate(rows, start=2):
        system = by_key.get(row["system"].strip())
        if system is None:
            raise ValueError(f"{path.name}: row {number}, column system: unknown {row['system']!r}")
        parsed = parse_figure(row["power_peak_kw"])
        if parsed is None:
            raise ValueError(f"{path.name}: row {number}, column power_peak_kw: empty")
        system["power_peak_kw"] = parsed[1]
        system["figures"]["power_peak_kw"] = {
            "raw": row["power_peak_kw"].strip(),
            "verified": parsed[2],
            "source": row["source"].strip(),
        }


def layout_from_csv(path: Path, systems: list[dict]) -> None:
    """How systems land in racks (fixtures/reference/rack_layout.csv), each figure with its
    source: racks per system (a GB200 NVL36x2 fills 2) and blades per cabinet (56 EX154n in an
    HPE Cray EX4000). A blade drops a form-factor weight guess: unknown beats wrong."""
    by_key = {s["key"]: s for s in systems}
    with path.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    for number, row in enumerate(rows, start=2):
        system = by_key.get(row["system"].strip())
        if system is None:
            raise ValueError(f"{path.name}: row {number}, column system: unknown {row['system']!r}")
        field, raw = row["field"].strip(), row["value"].strip()
        if field not in ("racks_per_system", "blades_per_cabinet"):
            raise ValueError(f"{path.name}: row {number}, column field: unknown {field!r}")
        if not raw.lstrip("~").isdigit() or int(raw.lstrip("~")) < 1:
            raise ValueError(f"{path.name}: row {number}, column value: not a count {raw!r}")
        figures = system.setdefault("figures", {})
        figures[field] = {
            "raw": raw,
            "verified": not raw.startswith("~"),
            "source": row["source"].strip(),
        }
        weight = figures.get("weight_lb", {})
        if field == "blades_per_cabinet" and str(weight.get("source", "")).startswith(
            FORM_FACTOR_WEIGHT
        ):
            system.pop("weight_lb", None)
            figures.pop("weight_lb")


#: The network between GB10 desktops: each has a ConnectX-7 with two 200 GbE QSFP ports, so two
#: Sparks cabled together are two hosts over the network, not one NVLink domain.
SCALE_OUT = {
    "raw": "200 Gb/s ConnectX-7",
    "verified": True,
    "source": "https://www.servethehome.com/the-nvidia-gb10-connectx-7-200gbe-networking-is-really-"
    "different ('a 200Gbps ConnectX-7 part'; measured 'around 160-198Gbps out of two ports' with "
    "iperf3 and jumbo frames)|https://dgx-spark.warehack.ing/how-to/connect-two-sparks/ (direct "
    "QSFP cable between the two CX-7 200GbE ports, RoCE)",
}


def scale_out_add(systems: list[dict]) -> None:
    """Every GB10 desktop (DGX Spark and the OEM twins) learns its ConnectX-7 link."""
    for system in systems:
        gb10 = system.get("gpu") == "gb10" or (
            system.get("gpu_kind") == "fixed" and "GB10" in system.get("supported_gpus", ())
        )
        if gb10:
            system.setdefault("figures", {})["scale_out_gbps"] = dict(SCALE_OUT)


def build(reference: Path) -> dict:
    rows = list(csv.DictReader((reference / "hardware.csv").open(encoding="utf-8")))
    gpu_rows = [r for r in rows if r["kind"] == "gpu"]
    system_rows = [r for r in rows if r["kind"] == "system"]
    assert len(gpu_rows) == len(GPU_KEYS) and len(system_rows) == len(SYSTEM_KEYS)
    gpus = [gpu_from_row(k, r) for k, r in zip(GPU_KEYS, gpu_rows, strict=True)]
    station_row = system_rows[1]
    station_gpu = gpu_from_row("gb300-desktop", station_row)
    station_gpu.update(
        name="GB300 Desktop Superchip GPU (DGX Station)",
        form_factor="workstation",
        tdp_w_max=1100.0,
        tdp_w_typical=1100.0,
        cooling="air",
    )
    station_gpu["figures"]["tdp_w_max"] = {
        "raw": "~1100",
        "verified": False,
        "source": "B300-class GPU TDP, unverified for Station",
    }
    station_gpu["figures"]["tdp_w_typical"] = station_gpu["figures"]["tdp_w_max"]
    gpus.append(station_gpu)
    systems = [
        system_from_row(k, g, r) for (k, g, _), r in zip(SYSTEM_KEYS, system_rows, strict=True)
    ]
    systems += CHASSIS
    local_rows = list(csv.DictReader((LOCAL / "gpus.csv").open(encoding="utf-8")))
    assert len(local_rows) == len(LOCAL_GPU_KEYS)
    gpus += [gpu_from_row(k, r) for k, r in zip(LOCAL_GPU_KEYS, local_rows, strict=True)]
    by_key = {s["key"]: s for s in systems}
    family_parts = []
    for family, aliases in families_from_csv([LOCAL / f for f in OEM_FILES]):
        existing = by_key.get(family["key"])
        if existing is not None:
            # A system the catalog already carries keeps its figures; it learns its family.
            for name in FAMILY_FIELDS:
                if name in family:
                    existing[name] = family[name]
            for name in ("max_gpus", "psu_count", "psu_watts"):
                if name in family["figures"]:
                    existing.setdefault("figures", {})[name] = family["figures"][name]
        else:
            systems.append(family)
            by_key[family["key"]] = family
        kind = "chassis"
        if existing is not None:
            kind = "system" if existing.get("gpu") else "chassis"
        family_parts.append(
            (family["vendor"], family["family"], kind, family["key"], None, None, aliases)
        )
    known = {(v, pn) for v, pn, *_ in PARTS}

    def words(text: str) -> str:
        return " ".join(re.findall(r"[0-9a-z]+", text.casefold()))

    # A name the catalog's own parts already use stays theirs: "PowerEdge XE7745" is the
    # 8 x RTX PRO server system, not also the XE7745 family.
    taken = {words(name) for _v, pn, _k, _s, _g, _b, aliases in PARTS for name in (pn, *aliases)}
    all_parts = list(PARTS)
    for vendor, pn, kind, key, gpu, bridge, aliases in family_parts:
        if (vendor, pn) in known:
            continue
        free = [a for a in aliases if words(a) not in taken]
        if free:
            all_parts.append((vendor, free[0], kind, key, gpu, bridge, free[1:]))
    peaks_from_csv(LOCAL / "power_peaks.csv", systems)
    layout_from_csv(LOCAL / "rack_layout.csv", systems)
    scale_out_add(systems)
    vendors = sorted(
        {p[0] for p in all_parts} | {g["vendor"] for g in gpus} | {s["vendor"] for s in systems}
    )
    parts = [
        {
            "vendor": v,
            "part_number": pn,
            "kind": kind,
            "system": sys_key,
            "gpu": gpu,
            "bridge_gpus": bridge,
            "aliases": aliases,
            "description": "",
        }
        for v, pn, kind, sys_key, gpu, bridge, aliases in all_parts
    ]
    data = {
        "version": "2026-11-29",
        "vendors": vendors,
        "gpus": gpus,
        "systems": systems,
        "parts": parts,
        "models": models_from_csv(reference / "models.csv"),
        "rental_rates": rental_rates_from_csv(LOCAL / "gpu_rental.csv", {g["key"] for g in gpus}),
    }
    CatalogSnapshot.model_validate(data)  # fails loudly on a bad row
    return data


if __name__ == "__main__":
    ref = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT.parent / "shared" / "reference")
    out = ROOT / "fixtures" / "catalog.json"
    out.write_text(json.dumps(build(ref), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
