"""context_length, precision_support and ttft: what the model and the engine can run."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import model_limits, ttft
from apps.review.engine.sizing.calibration import calibration
from tests.review.engine.engine_kit import context, only, quoted_system


def _load(**fields: object) -> dict:
    return {"kind": "rag", "model": "Qwen3-32B", "precision": "fp8", **fields}


def test_a_context_beyond_the_model_is_critical(catalog: CatalogSnapshot) -> None:
    # Qwen3-32B's config takes 40,960 tokens; 200,000 asked
    ctx = context(catalog, [quoted_system(catalog, "dgx-h200")], _load(context_tokens=200_000))
    finding = only(model_limits.context_check(ctx))
    assert finding.severity == "critical"
    assert finding.metrics == {"context_tokens": 200_000, "model_max_context": 40960}
    ok = context(catalog, [quoted_system(catalog, "dgx-h200")], _load(context_tokens=32_768))
    assert only(model_limits.context_check(ok)).severity == "ok"


def test_fp4_before_blackwell_is_a_warning_with_its_cost(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-h100")], _load(precision="nvfp4"))
    finding = only(model_limits.precision_check(ctx))
    assert finding.severity == "warning"
    assert "FP4 needs Blackwell" in finding.detail
    # NVFP4 on Hopper runs at the FP8 rate (1,979 TFLOPS dense), not FP4's
    assert "FP8 rate (1,979 TFLOPS" in finding.detail
    blackwell = context(catalog, [quoted_system(catalog, "dgx-b200")], _load(precision="nvfp4"))
    assert only(model_limits.precision_check(blackwell)).severity == "ok"


def test_the_kv_format_is_stated(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-h200")], _load())
    finding = only(model_limits.precision_check(ctx))
    assert "FP8 KV cache (follows the FP8 weights" in finding.metrics["kv_cache"]


def test_time_to_first_token_against_a_target(catalog: CatalogSnapshot) -> None:
    workload = _load(prompt_tokens=16_384, context_tokens=20_000, ttft_target_ms=100)
    ctx = context(catalog, [quoted_system(catalog, "dgx-h200")], workload)
    finding = only(ttft.check(ctx))
    assert ctx.serving is not None and ctx.serving.primary is not None
    plan = ctx.serving.primary[1]
    # the plan's copy (4 × H200 at 20k tokens of context): 16,384 tokens × 65.6 GFLOP ÷
    # (4 × 1,979 TFLOPS × prefill efficiency 0.2016 = 1,595.9 TFLOPS) = 0.673 s + the floor,
    # 64 layers × (52.27 + 10.78 NVLink) µs = 4.04 ms: about 677 ms
    efficiency = calibration().prefill_efficiency
    n = plan.gpus_per_replica
    expected = 16_384 * 0.0656 / (n * 1979 * efficiency) + plan.overhead_seconds
    assert n == 4
    assert finding.metrics["ttft_ms"] == pytest.approx(expected * 1000, abs=0.1)
    assert finding.severity == "warning"  # well over 100 ms
    relaxed = context(catalog, [quoted_system(catalog, "dgx-h200")], {**workload,
                      "ttft_target_ms": 60_000})  # fmt: skip
    assert only(ttft.check(relaxed)).severity == "ok"
