"""Issue 21 as a new user tries it, through `review_quote`: a fleet of laptops for a developer
team, a MacBook, and two DGX Sparks cabled together."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.reviewing import review_command

pytestmark = pytest.mark.usefixtures("catalog_db")

HEAD = "Part Number,Description,Qty,Unit Price,Extended Price"
OFFICE = {"name": "Office", "site": "office", "circuit_volts": 120, "circuit_amps": 15}
DEV_TEAM = {
    "name": "Developer team",
    "kind": "development",
    "model": "Qwen3-8B",
    "precision": "bf16",
    "context_tokens": 8192,
    "concurrent_users": 10,
    "tokens_per_sec_per_user": 10,
}
LAPTOPS = (
    'dpm16p250_cto,"Dell Pro Max 16 Plus laptop, Intel Core Ultra 9 285HX, NVIDIA RTX PRO 5000 '
    'Blackwell 24GB laptop GPU, 64GB DDR5, 2TB SSD",10,4689.00,46890.00'
)
MACBOOK = (
    'MX2K3LL/A,"Apple MacBook Pro 16-inch, M4 Max chip with 16-core CPU and 40-core GPU, 48GB '
    'unified memory, 1TB SSD",1,3899.00,3899.00'
)
SPARKS = [
    '940-54542-0000-000,"NVIDIA DGX Spark - GB10 Grace Blackwell Superchip, 128GB unified '
    'LPDDR5X, 4TB NVMe, ConnectX-7 2x QSFP",2,3999.00,7998.00',
    'MCP1650-V00AE30,"NVIDIA DAC cable, 200GbE QSFP112 to QSFP112, passive, 0.5m",1,89.00,89.00',
]
BIG_MODEL = {
    "name": "405B on the desk",
    "kind": "inference",
    "model": "Llama-3.1-405B",
    "precision": "fp4",
    "context_tokens": 8192,
    "concurrent_users": 1,
    "tokens_per_sec_per_user": 0.5,
}


def _review(tmp_path: Path, lines: list[str], workload: dict[str, Any]) -> dict[str, Any]:
    quote = tmp_path / "quote.csv"
    quote.write_text("\n".join([HEAD, *lines]) + "\n", encoding="utf-8")
    return json.loads(review_command(tmp_path, quote, workload, OFFICE)[0])


def _finding(report: dict[str, Any], check: str) -> dict[str, Any]:
    (found,) = [f for f in report["findings"] if f["check"] == check]
    return found


def test_ten_laptops_are_ten_machines_with_one_rtx_pro_5000_each(tmp_path: Path) -> None:
    report = _review(tmp_path, [LAPTOPS], DEV_TEAM)
    (laptop,) = report["systems"]
    assert (laptop["quantity"], laptop["gpus_per_system"], laptop["nvlink_domain_gpus"]) == (
        10,
        1,
        1,
    )
    assert (laptop["vehicle"], laptop["gpu"]) == ("motorcycle", "RTX PRO 5000 Blackwell")
    memory = _finding(report, "memory_fit")
    # weights 8.19 B × 2 B = 16.4 GB + one 8,192-token conversation 1.21 GB = 17.6 GB per copy,
    # against one laptop's 24 GB (not 10 × 24 = 240 GB: each laptop is its own host)
    assert memory["severity"] == "ok"
    assert memory["metrics"]["device_memory_gb"] == 24
    assert memory["metrics"]["unit_memory_gb"] == pytest.approx(17.6, abs=0.05)
    assert "10 separate hosts, not one pool" in memory["detail"]
    throughput = _finding(report, "throughput")
    # one laptop: 896 GB/s ÷ 16.4 GB of weights ≈ 54.7 tokens/s for a single conversation
    assert throughput["metrics"]["decode_tokens_per_sec_bound"] == pytest.approx(54.7, abs=0.1)
    assert "on one RTX PRO 5000 Blackwell (896 GB/s)" in throughput["detail"]
    assert "One developer per laptop on each of the 10" in throughput["detail"]
    assert report["verdict"] == "pass"


def test_a_department_on_the_laptops_is_the_guides_mismatch(tmp_path: Path) -> None:
    department = DEV_TEAM | {"kind": "inference", "concurrent_users": 200}
    report = _review(tmp_path, [LAPTOPS], department)
    throughput = _finding(report, "throughput")
    assert (throughput["severity"], throughput["title"]) == (
        "critical",
        "Nobody runs a factory from a motorcycle",
    )
    assert "Breakfast for one" not in json.dumps(report)


def test_a_macbook_is_a_non_cuda_vehicle_with_its_configured_memory(tmp_path: Path) -> None:
    report = _review(tmp_path, [MACBOOK], DEV_TEAM | {"concurrent_users": 1})
    (mac,) = report["systems"]
    assert (mac["vehicle"], mac["gpu"], mac["gpus_per_system"]) == (
        "motorcycle",
        "Apple M4 Max",
        1,
    )
    # the line configures 48 GB of unified memory, not the chip's 128 GB maximum
    assert mac["gpu_memory_gb"] == 48
    portability = _finding(report, "arch_portability")
    assert portability["title"] == "Not CUDA: the containers and the DGX stack do not carry over"
    for stays_behind in ("CUDA containers", "DGX software stack", "NVLink"):
        assert stays_behind in portability["detail"]
    # 546 GB/s ÷ 16.4 GB ≈ 33.3 tokens/s for one conversation on the M4 Max
    bound = _finding(report, "throughput")["metrics"]["decode_tokens_per_sec_bound"]
    assert bound == pytest.approx(33.3, abs=0.1)


def test_cabled_sparks_name_one_link_in_every_finding(tmp_path: Path) -> None:
    report = _review(tmp_path, SPARKS, BIG_MODEL)
    link = "the network between 2 NVIDIA DGX Spark hosts (ConnectX-7, 200 Gb/s per port)"
    texts = {
        check: _finding(report, check)["detail"]
        for check in ("nvlink_domain", "throughput", "utilization", "ttft")
    }
    for check, detail in texts.items():
        assert link in detail, check
        assert "PCIe" not in detail, check
    nvlink = _finding(report, "nvlink_domain")
    # 405 B × 0.5 B = 202.5 GB of FP4 weights + 2.11 GB KV = 204.6 GB > one GB10's 128 GB,
    # so the copy shards over 2 × 128 = 256 GB pooled, paying the network split's 50 %
    assert nvlink["metrics"]["link"] == "network"
    assert nvlink["metrics"]["pooled_memory_gb"] == 256
    assert nvlink["metrics"]["split_penalty"] == 0.5
    assert nvlink["metrics"]["interconnect_line"] == 2
    assert "pooled for sharding (2 × 128 GB = 256 GB)" in nvlink["detail"]
    # one link, one speed: no other link speed is named anywhere
    assert set(re.findall(r"\d+ Gb/s", json.dumps(report["findings"]))) == {"200 Gb/s"}


def test_uncabled_sparks_are_told_to_add_the_cable(tmp_path: Path) -> None:
    report = _review(tmp_path, SPARKS[:1], BIG_MODEL)
    nvlink = _finding(report, "nvlink_domain")
    assert nvlink["metrics"]["interconnect_line"] is None
    assert "The quote carries no cable between them" in nvlink["detail"]


def test_one_user_on_the_pair_is_never_called_a_department(tmp_path: Path) -> None:
    # 546 GB/s ÷ 202.5 GB ≈ 2.7 tokens/s bound; asked 2 tokens/s for one user: too slow for
    # one conversation, which is not "hopeless for a department"
    report = _review(tmp_path, SPARKS, BIG_MODEL | {"tokens_per_sec_per_user": 2})
    throughput = _finding(report, "throughput")
    assert throughput["title"] == "Too slow for even one conversation"
    assert "Hopeless for a department" not in json.dumps(report)
