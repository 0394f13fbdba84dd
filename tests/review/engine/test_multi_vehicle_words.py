"""Multi-vehicle quotes say each thing once, name every machine, and count racks one way.

The audit's quotes: a Cisco X-Series chassis with L40S and H100 NVL nodes (the rack finding said
"1 rack" while the sizing said 2), and a CDW fleet of GB10 boxes from ASUS, MSI and Dell (the
precision finding three times, the memory workings short of the Dell boxes, "Serves all 1 user").
"""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import arch_portability, floor_load, memory_fit, rack_power
from apps.review.engine.checks._common import finding_make, fold_repeats
from apps.review.engine.checks.model_limits import precision_check
from apps.review.engine.schemas import Facility, QuotedSystem
from apps.words import and_list, every
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system, run

DEVELOPER = {
    "kind": "development",
    "model": "Qwen3-32B",
    "precision": "bf16",
    "context_tokens": 8192,
    "concurrent_users": 1,
    "tokens_per_sec_per_user": 2,
}
TRAINING = {"kind": "training", "memory_gb": 100}
ROW_20KW = Facility(
    rack_power_kw=20, racks_available=4, cooling="air_rdhx", floor_load_lb_per_sqft=250
)


def _gb10_fleet(catalog: CatalogSnapshot) -> list[QuotedSystem]:
    return [
        quoted_system(catalog, "asus-ascent-gx10", 4, gpu_key="gb10", gpus=1),
        quoted_system(catalog, "dell-pro-max-gb10", 2, gpu_key="gb10", gpus=1),
    ]


def _cisco_nodes(catalog: CatalogSnapshot) -> list[QuotedSystem]:
    l40s = quoted_system(
        catalog, "cisco-ucsx-440p", 2, gpu_key="l40s", gpus=2, name="X440p with 2 × L40S"
    )
    h100 = quoted_system(
        catalog, "cisco-ucsx-440p", 1, gpu_key="h100-nvl", gpus=2, name="X440p with 2 × H100 NVL"
    )
    return [l40s, h100]


def test_every_says_the_one_and_all_the_many() -> None:
    assert every(1, "user") == "the 1 user"
    assert every(100, "user") == "all 100 users"
    assert and_list(["A", "B", "A", "C"]) == "A, B and C"
    assert and_list(["A"]) == "A"


def test_throughput_title_for_one_user(catalog: CatalogSnapshot) -> None:
    report = run(catalog, _gb10_fleet(catalog), DEVELOPER, OFFICE_15A)
    (throughput,) = [f for f in report.findings if f.check == "throughput"]
    assert throughput.title == "Serves the 1 user at 2 tokens/s"


def test_precision_is_said_once_naming_the_machines(catalog: CatalogSnapshot) -> None:
    # two GB10 boxes from two makers: one GPU kind, so one finding, not two copies
    finding = only(precision_check(context(catalog, _gb10_fleet(catalog), DEVELOPER, OFFICE_15A)))
    assert finding.title == "GB10 runs BF16 natively"
    assert "ASUS Ascent GX10" in finding.detail
    assert "Dell Pro Max" in finding.detail
    assert len(finding.metrics["systems"]) == 2


def test_memory_runtime_counts_and_names_every_box(catalog: CatalogSnapshot) -> None:
    finding = only(memory_fit.check(context(catalog, _gb10_fleet(catalog), DEVELOPER, OFFICE_15A)))
    # 4 ASUS + 2 Dell boxes, one GB10 each: 4 + 2 = 6 GPUs in one runtime line
    assert "× 6 GPUs" in finding.detail
    assert "4 in the ASUS Ascent GX10" in finding.detail
    assert "2 in the Dell Pro Max" in finding.detail
    # 6 × 112.9 GB usable each = 677.2 GB: the metric and the words are the same sum
    usable = finding.metrics["usable_memory_gb"]
    assert f"= {usable:,.1f} GB)" in finding.detail


def test_racks_agree_with_the_sizing(catalog: CatalogSnapshot) -> None:
    # 1.3 kW nodes in a 20 kW rack: floor(20 ÷ 1.3) = 15 by power; a rack holds one kind of
    # system, so 2 L40S nodes take 1 rack and 1 H100 NVL node another: 1 + 1 = 2 racks
    systems = _cisco_nodes(catalog)
    finding = only(rack_power.check(context(catalog, systems, TRAINING, ROW_20KW)))
    assert finding.severity == "ok"
    assert finding.title == "2 racks of 4 for 2 kinds of system"
    assert finding.metrics["racks_needed"] == 2
    assert finding.formula.endswith("1 + 1 = 2 racks")
    assert "The other kind" not in finding.detail
    report = run(catalog, systems, TRAINING, ROW_20KW)
    assert report.sizing.racks_needed == 2
    (said,) = [f for f in report.findings if f.check == "rack_power"]
    assert said.metrics["racks_needed"] == report.sizing.racks_needed


def test_one_line_keeps_its_own_rack_words(catalog: CatalogSnapshot) -> None:
    # one line: ceil(2 ÷ 10) = 1 rack, as before
    finding = only(
        rack_power.check(context(catalog, _cisco_nodes(catalog)[:1], TRAINING, ROW_20KW))
    )
    assert finding.title.endswith("1 rack of 4")


def test_unknown_weights_are_one_finding(catalog: CatalogSnapshot) -> None:
    systems = [s.model_copy(update={"weight_lb": None}) for s in _cisco_nodes(catalog)]
    findings = floor_load.check(context(catalog, systems, TRAINING, ROW_20KW))
    finding = only(findings)
    assert finding.title == "Weight unknown for X440p with 2 × L40S and X440p with 2 × H100 NVL"
    assert finding.metrics["systems"] == ["cisco-ucsx-440p", "cisco-ucsx-440p"]


def test_not_cuda_servers_of_one_gpu_are_one_warning(catalog: CatalogSnapshot) -> None:
    systems = [
        quoted_system(catalog, "lenovo-sr685a-v3", gpu_key="mi300x", gpus=8, domain=8),
        quoted_system(catalog, "dell-xe9680", gpu_key="mi300x", gpus=8, domain=8),
    ]
    finding = only(arch_portability.check(context(catalog, systems, TRAINING, ROW_20KW)))
    assert finding.severity == "warning"
    assert finding.metrics["systems"] == ["lenovo-sr685a-v3", "dell-xe9680"]
    assert "vLLM, SGLang and PyTorch run on ROCm" in finding.detail


@pytest.mark.parametrize("twice", [1, 3])
def test_fold_repeats_says_identical_findings_once(twice: int) -> None:
    same = [finding_make("x", "ok", "T", "D", metrics={"system": f"s{i}"}) for i in range(twice)]
    other = finding_make("x", "ok", "T", "different")
    folded = fold_repeats([*same, other])
    assert len(folded) == 2
    assert folded[1] is other
    if twice > 1:
        assert folded[0].metrics["systems"] == ["s0", "s1", "s2"]
