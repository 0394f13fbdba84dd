"""memory_fit: the job against the whole quote's GPU memory, at its boundaries."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import memory_fit
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system


@pytest.mark.parametrize(
    ("memory_gb", "severity"),
    [(1391.5, "ok"), (1391.6, "warning"), (1546.1, "warning"), (1546.2, "critical")],
)
def test_training_job_against_a_dgx_b200(
    catalog: CatalogSnapshot, memory_gb: float, severity: str
) -> None:
    # 8 × 180 GiB = 8 × 193.27 = 1,546.19 GB (HBM is binary); up to 90 % (1,391.57 GB)
    # leaves room for the runtime
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-b200")], {"kind": "training", "memory_gb": memory_gb}
    )
    finding = only(memory_fit.check(ctx))
    assert finding.severity == severity
    assert finding.metrics["quote_memory_gb"] == 1546.19


def test_the_pcie_vans_cannot_hold_a_512_gb_job(catalog: CatalogSnapshot) -> None:
    vans = quoted_system(catalog, "supermicro-sys-521ge-tnrt", 2, gpu_key="l40s", gpus=4)
    ctx = context(catalog, [vans], {"kind": "fine_tuning", "memory_gb": 512})
    finding = only(memory_fit.check(ctx))
    # 2 vans × 4 × 48 GB = 384 GB < 512 GB
    assert finding.severity == "critical"
    assert finding.metrics["quote_memory_gb"] == 384
    assert finding.lever


def test_qwen3_32b_bf16_fits_a_spark(catalog: CatalogSnapshot) -> None:
    workload = {"kind": "development", "model": "Qwen3-32B", "precision": "bf16"}
    finding = only(
        memory_fit.check(
            context(catalog, [quoted_system(catalog, "dgx-spark")], workload, OFFICE_15A)
        )
    )
    # 65.6 GB + 2.15 GB = 67.75 GB of 128 GB
    assert finding.severity == "ok"
    assert finding.metrics["job_memory_gb"] == pytest.approx(67.75, abs=0.01)
    assert "65.6 GB" in finding.formula


def test_a_spark_holds_the_model_but_not_a_department(catalog: CatalogSnapshot) -> None:
    workload = {
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": 100,
    }
    finding = only(
        memory_fit.check(
            context(catalog, [quoted_system(catalog, "dgx-spark")], workload, OFFICE_15A)
        )
    )
    # FP8 KV (follows the FP8 weights; was 16-bit → 38): (128 × 0.9 − 1.0 CUDA context −
    # 1.342 activations − 32.8) ÷ 1.074 = 74.6 → 74 conversations of the 100
    assert finding.severity == "warning"
    assert finding.metrics["users_by_memory"] == 74


@pytest.mark.parametrize(("users", "severity"), [(74, "ok"), (75, "warning")])
def test_users_by_memory_boundary(catalog: CatalogSnapshot, users: int, severity: str) -> None:
    workload = {
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": users,
        "tokens_per_sec_per_user": 1,
    }
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark")], workload, OFFICE_15A)
    assert only(memory_fit.check(ctx)).severity == severity


def test_a_model_bigger_than_the_quote_is_critical(catalog: CatalogSnapshot) -> None:
    # Llama-3.1-405B in BF16 = 810 GB against 128 GB
    workload = {"kind": "inference", "model": "Llama-3.1-405B", "precision": "bf16"}
    finding = only(
        memory_fit.check(
            context(catalog, [quoted_system(catalog, "dgx-spark")], workload, OFFICE_15A)
        )
    )
    assert finding.severity == "critical"
    assert "FP8" in finding.lever


def test_no_model_and_no_memory_leaves_the_check_out(catalog: CatalogSnapshot) -> None:
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-h200")], {"kind": "hpc", "fp64_tflops": 100}
    )
    assert memory_fit.check(ctx) == []


def test_the_runtime_is_its_own_line_with_its_arithmetic(catalog: CatalogSnapshot) -> None:
    workload = {
        "kind": "inference",
        "model": "Llama-3.1-70B",
        "precision": "bf16",
        "concurrent_users": 10,
    }
    ctx = context(catalog, [quoted_system(catalog, "dgx-h100")], workload)
    finding = only(memory_fit.check(ctx))
    # each H100: 80 GiB = 85.90 GB − 10 % engine reserve 8.59 − 1.0 CUDA context −
    # 8,192 × 8,192 × 2 B × 16 = 2.147 activations = 74.162 GB for weights and KV cache;
    # × 8 GPUs = 593.30 GB; the runtime takes 8 × (8.590 + 1.0 + 2.147) = 93.90 GB
    assert finding.metrics["quote_memory_gb"] == pytest.approx(687.19, abs=0.01)
    assert finding.metrics["usable_memory_gb"] == pytest.approx(593.30, abs=0.01)
    assert finding.metrics["runtime_overhead_gb"] == pytest.approx(93.90, abs=0.01)
    assert "80 GiB = 85.9 GB − 10 % engine reserve" in finding.detail
    assert "2.1 GB activations (8,192-token prefill chunk) = 74.2 GB" in finding.formula
    assert "(× 8 GPUs = 593.3 GB)" in finding.formula
