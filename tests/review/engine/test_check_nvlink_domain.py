"""nvlink_domain: the biggest job against one coupled vehicle."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import nvlink_domain
from tests.review.engine.engine_kit import context, only, quoted_system


def _vans(catalog: CatalogSnapshot, count: int):
    return quoted_system(catalog, "supermicro-sys-521ge-tnrt", count, gpu_key="l40s", gpus=4)


@pytest.mark.parametrize(("memory_gb", "severity"), [(1546.1, "ok"), (1546.2, "warning")])
def test_fine_tune_on_two_semis(catalog: CatalogSnapshot, memory_gb: float, severity: str) -> None:
    # one DGX B200 domain = 8 × 180 GiB = 8 × 193.27 = 1,546.19 GB; beyond it the job is
    # sharded over the network between two NVSwitch domains: it works with a real fabric, so
    # a warning
    ctx = context(
        catalog,
        [quoted_system(catalog, "dgx-b200", 2)],
        {"kind": "fine_tuning", "memory_gb": memory_gb},
    )
    finding = only(nvlink_domain.check(ctx))
    assert finding.severity == severity
    assert finding.metrics["nvlink_domain_memory_gb"] == 1546.19


def test_a_house_on_the_roofs_of_eight_vans(catalog: CatalogSnapshot) -> None:
    # 3 vans × 4 × 48 GB = 576 GB hold 512 GB in total, but each L40S is its own 48 GB domain
    ctx = context(catalog, [_vans(catalog, 3)], {"kind": "fine_tuning", "memory_gb": 512})
    finding = only(nvlink_domain.check(ctx))
    assert (finding.severity, finding.title) == ("critical", "A house on the roofs of eight vans")
    # ceil(512 ÷ 48) = 11 GPUs over PCIe
    assert finding.metrics["gpus_needed"] == 11
    # the lever names the smallest NVSwitch domain that holds 512 GB: a DGX H100,
    # 8 × 80 GiB = 8 × 85.90 = 687.2 GB
    assert "DGX H100: 8 × 80 GiB = 687.2 GB" in finding.lever


def test_the_two_vans_of_the_example_fit_nowhere(catalog: CatalogSnapshot) -> None:
    # 2 × 4 × 48 = 384 GB < 512 GB: bigger than the whole quote
    ctx = context(catalog, [_vans(catalog, 2)], {"kind": "fine_tuning", "memory_gb": 512})
    assert only(nvlink_domain.check(ctx)).severity == "critical"


@pytest.mark.parametrize(("memory_gb", "severity"), [(96, "ok"), (96.5, "warning")])
def test_inference_over_pcie_runs_slower(
    catalog: CatalogSnapshot, memory_gb: float, severity: str
) -> None:
    # an RTX PRO 6000 card is its own 96 GB domain; a bigger inference job runs over PCIe
    ctx = context(
        catalog,
        [quoted_system(catalog, "rtx-pro-server-8x")],
        {"kind": "inference", "memory_gb": memory_gb},
    )
    assert only(nvlink_domain.check(ctx)).severity == severity


def test_lora_over_pcie_is_a_warning(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [_vans(catalog, 1)], {"kind": "lora", "memory_gb": 100})
    assert only(nvlink_domain.check(ctx)).severity == "warning"


def test_inference_unit_is_one_copy_and_one_conversation(catalog: CatalogSnapshot) -> None:
    # Qwen3-32B FP8 (FP8 KV) for 100 users: 140.2 GB in all, but a copy + one conversation is
    # 32.8 + 1.074 = 33.87 GB (was 34.95 with a 16-bit cache), which fits a 96 GB card; the
    # other users ride on the other copies
    workload = {"kind": "rag", "model": "Qwen3-32B", "precision": "fp8", "concurrent_users": 100}
    ctx = context(catalog, [quoted_system(catalog, "rtx-pro-server-8x")], workload)
    finding = only(nvlink_domain.check(ctx))
    assert finding.severity == "ok"
    assert finding.metrics["unit_memory_gb"] == pytest.approx(33.87, abs=0.01)
