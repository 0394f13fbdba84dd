"""throughput: users served at the asked speed; half served is the critical line."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import throughput
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system


def _spark(catalog: CatalogSnapshot, users: int, speed: float = 4):
    workload = {
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": users,
        "tokens_per_sec_per_user": speed,
    }
    return context(catalog, [quoted_system(catalog, "dgx-spark")], workload, OFFICE_15A)


@pytest.mark.parametrize(
    ("users", "severity"), [(28, "ok"), (29, "warning"), (56, "warning"), (57, "critical")]
)
def test_a_spark_serves_28_at_4_tokens_per_second(
    catalog: CatalogSnapshot, users: int, severity: str
) -> None:
    # ((0.25 − 0.003345 step floor) s × 191.1 GB/s − 32.02 GB read) ÷ 0.537 GB (FP8 KV) = 28
    # users (was 13 with a 16-bit cache and every weight read); 56 asked → 28 = half →
    # warning; 57 asked → 28 < 28.5 → critical. The same 28 whatever the asked count.
    finding = only(throughput.check(_spark(catalog, users)))
    assert finding.severity == severity
    assert finding.metrics["max_concurrent_users"] == 28


def test_spark_for_a_department(catalog: CatalogSnapshot) -> None:
    finding = only(throughput.check(_spark(catalog, 100, speed=10)))
    assert finding.severity == "critical"
    assert finding.metrics["max_concurrent_users"] == 0
    # 273 GB/s ÷ 32.8 GB = 8.32 tok/s, the field guide's "approximately eight"; the formula
    # writes it as the sizing table does (8.32, not 8.3)
    assert finding.metrics["decode_tokens_per_sec_bound"] == pytest.approx(8.32, abs=0.01)
    assert "273 GB/s ÷ 32.8 GB = 8.32 tok/s" in finding.formula
    assert "Hopeless for a department" in finding.detail


def test_no_model_means_no_throughput(catalog: CatalogSnapshot) -> None:
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-spark")], {"kind": "inference", "memory_gb": 40}
    )
    assert throughput.check(ctx) == []


def test_training_loads_have_no_throughput(catalog: CatalogSnapshot) -> None:
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-b200")], {"kind": "training", "model": "Qwen3-8B"}
    )
    assert throughput.check(ctx) == []
