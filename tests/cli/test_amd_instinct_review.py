"""An AMD Instinct quote through `review_quote`, as a reseller uploads it: 2 × Supermicro
AS-8125GS-TNMR2 with 16 × MI300X (order totals), 2 × PowerEdge XE9680 with the MI300X board as
a per-server sub-line (tests/fixtures/boms/), and a Gaudi 2 server the catalog cannot size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.reviewing import review_command

pytestmark = pytest.mark.usefixtures("catalog_db")

BOMS = Path(__file__).resolve().parent.parent / "fixtures" / "boms"
SUPERMICRO = BOMS / "supermicro-as-8125gs-tnmr2-mi300x-totals" / "quote.csv"
DELL = BOMS / "dell-xe9680-mi300x-per-system" / "quote.csv"
WORKLOAD = {
    "kind": "inference",
    "model": "Llama-3.3-70B",
    "precision": "fp8",
    "concurrent_users": 50,
}
FACILITY = {"site": "datacenter", "rack_power_kw": 20, "racks_available": 2, "cooling": "air"}
GIB_GB = 2**30 / 1e9  # HBM is sized in GiB: 192 GiB = 206.16 GB


def _review(tmp_path: Path, quote: Path, fmt: str) -> str:
    return review_command(tmp_path, quote, WORKLOAD, FACILITY, fmt)[0]


def _json(tmp_path: Path, quote: Path) -> dict[str, Any]:
    return json.loads(_review(tmp_path, quote, "json"))


def _finding(report: dict[str, Any], check: str) -> dict[str, Any]:
    (found,) = [f for f in report["findings"] if f["check"] == check]
    return found


@pytest.mark.parametrize(
    ("quote", "power_kw"),
    [
        # the chassis' 1.5 kW base + 8 × 750 W = 7.5 kW (not the 1.5 kW base alone)
        (SUPERMICRO, 1.5 + 8 * 0.750),
        # the catalog's XE9680 is 11 kW with 8 × 700 W H200: 11 − 5.6 = 5.4 kW base + 8 × 750 W
        (DELL, 11.0 - 8 * 0.700 + 8 * 0.750),
    ],
    ids=["supermicro-totals", "dell-per-system"],
)
def test_two_servers_of_eight_mi300x_each_one_infinity_fabric_domain(
    tmp_path: Path, quote: Path, power_kw: float
) -> None:
    report = _json(tmp_path, quote)
    (system,) = report["systems"]
    # 2 servers × 8 MI300X = 16 GPUs, each server one domain of all 8
    assert (system["quantity"], system["gpu"], system["gpus_per_system"]) == (2, "MI300X", 8)
    assert system["nvlink_domain_gpus"] == 8
    assert system["gpu_interconnect"] == "infinity_fabric"
    assert system["power_kw"] == pytest.approx(power_kw)
    # one server's memory: 8 × 192 GiB = 1,536 GiB = 1,536 × 1.0737 = 1,649.3 GB
    assert report["sizing"]["nvlink_domain_memory_gb"] == pytest.approx(8 * 192 * GIB_GB, abs=0.1)
    # 70.5 GB of FP8 weights + 50 users' KV = 137.7 GB fits one 1,649.3 GB domain
    domain = _finding(report, "nvlink_domain")
    assert domain["severity"] == "ok"
    assert domain["metrics"]["fabric"] == "Infinity Fabric"
    assert "one Infinity Fabric domain of 8 GPUs" in domain["detail"]
    assert _finding(report, "quote_lines")["severity"] == "ok"


@pytest.mark.parametrize("quote", [SUPERMICRO, DELL], ids=["supermicro", "dell"])
def test_the_rocm_warning_and_the_estimate(tmp_path: Path, quote: Path) -> None:
    report = _json(tmp_path, quote)
    (rocm,) = [f for f in report["findings"] if f["check"] == "arch_portability"]
    assert rocm["severity"] == "warning"
    assert rocm["title"] == "Not CUDA: the software has to run on ROCm"
    assert "vLLM, SGLang and PyTorch run on ROCm" in rocm["detail"]
    assert "CUDA-only code and TensorRT-LLM do not" in rocm["detail"]
    assert "ROCm" in rocm["lever"]
    speed = _finding(report, "throughput")
    # the speed model is fitted on NVIDIA GPUs: for the MI300X it is an estimate, said so
    assert speed["metrics"]["confidence"] == "low"
    assert "the MI300X is outside the calibration" in speed["detail"]
    assert speed["metrics"]["tokens_per_sec_per_user"] > 0


@pytest.mark.parametrize("quote", [SUPERMICRO, DELL], ids=["supermicro", "dell"])
def test_the_amd_review_text_never_says_nvlink(tmp_path: Path, quote: Path) -> None:
    text = _review(tmp_path, quote, "text")
    # the right fit at the end is a catalog NVIDIA system: everything before it is the quote's
    review, _right_fit = text.split("\nRight fit:", 1)
    assert "NVLink" not in review
    review = " ".join(review.split())  # the phrases, unwrapped
    assert "8 × MI300X in one Infinity Fabric domain of 8 GPUs" in review
    assert "Memory in one Infinity Fabric domain: 1,649.3 GB" in review
    assert "Infinity Fabric domain: The job fits one Infinity Fabric domain" in review
    assert "[WARNING ] Arm, x86 and CUDA: Not CUDA: the software has to run on ROCm" in review


def test_a_gaudi_server_is_not_called_empty(tmp_path: Path) -> None:
    quote = tmp_path / "gaudi.csv"
    quote.write_text(
        "Line,Part Number,Description,Qty,Unit Price,Extended Price\n"
        '1,SYS-820GH-TNR2,"Supermicro SuperServer SYS-820GH-TNR2, 8U",1,200000.00,200000.00\n'
        '1.1,GPU-HL225H,"Intel Gaudi 2 HL-225H OAM",8,0.00,0.00\n',
        encoding="utf-8",
    )
    report = _json(tmp_path, quote)
    lines = [f for f in report["findings"] if f["check"] == "quote_lines"]
    details = " ".join(f["detail"] for f in lines)
    assert (
        "Line 2 names an accelerator the catalog does not know (Intel Gaudi 2): not counted; "
        "the review cannot size it." in details
    )
    titles = [f["title"] for f in lines]
    assert "Vehicles with no engines" not in titles
    assert "No engine the review can size" in titles
    assert "chassis but no GPUs in them" not in details
