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
    # (4 × 1,979 TFLOPS × prefill efficiency 0.2036 = 1,611.7 TFLOPS) = 0.667 s + the floor,
    # 1.0 µs + 64 layers × (52.79 + 4.3 NVLink × log2(4)) µs = 3.93 ms: about 671 ms
    efficiency = calibration().prefill_efficiency
    n = plan.gpus_per_replica
    expected = 16_384 * 0.0656 / (n * 1979 * efficiency) + plan.overhead_seconds
    assert n == 4
    assert finding.metrics["ttft_ms"] == pytest.approx(expected * 1000, abs=0.1)
    assert finding.severity == "warning"  # well over 100 ms
    relaxed = context(catalog, [quoted_system(catalog, "dgx-h200")], {**workload,
                      "ttft_target_ms": 60_000})  # fmt: skip
    assert only(ttft.check(relaxed)).severity == "ok"


def test_the_decode_slowdown_from_arriving_prompts_sits_beside_ttft(
    catalog: CatalogSnapshot,
) -> None:
    workload = _load(
        prompt_tokens=4_096, context_tokens=8_192, concurrent_users=100, tokens_per_sec_per_user=10
    )
    ctx = context(catalog, [quoted_system(catalog, "dgx-h200")], workload)
    finding = only(ttft.check(ctx))
    assert ctx.serving is not None and ctx.serving.primary is not None
    plan = ctx.serving.primary[1]
    batch = ctx.serving.batch_at_load
    speed = plan.tokens_per_sec_per_user(batch, ctx.serving.load)
    prefill = plan.ttft_seconds(ctx.serving.load)
    assert prefill is not None
    # each conversation writes 8,192 − 4,096 = 4,096 tokens then sends a new prompt: a copy
    # with `batch` conversations at `speed` gets batch × speed ÷ 4,096 prompts a second, each
    # taking the TTFT to read; decoding slows to speed ÷ (1 + prompts/s × TTFT)
    prompts = batch * speed / 4096
    assert finding.metrics["answer_tokens"] == 4096
    assert finding.metrics["prompts_per_sec_per_replica"] == pytest.approx(prompts, abs=1e-3)
    slowed = speed / (1 + prompts * prefill)
    assert finding.metrics["tokens_per_sec_per_user_with_prefill"] == pytest.approx(
        slowed, abs=0.01
    )
    assert slowed < speed
    assert "new prompts arrive" in finding.detail
    assert f"{prompts:.2f} prompts/s" in finding.formula
    assert finding.metrics["prompt_is_whole_context"] is False
