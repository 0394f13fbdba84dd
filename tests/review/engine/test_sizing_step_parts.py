"""The parts of the step model fitted in issue #14's second pass, and memory in GiB."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.model_resolve import ModelFacts, model_resolve
from apps.review.engine.schemas import Precision
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.memory import (
    gpu_memory_gb,
    gpu_memory_words,
    runtime_reserve,
    serving_activations_gb,
)
from apps.review.engine.sizing.serving_load import serving_load
from apps.review.engine.sizing.step_time import decode_bound_tokens_per_sec, prefill_interleave
from apps.review.engine.sizing.throughput import replica_evaluate
from apps.review.engine.sizing.vehicle import Vehicle, vehicles_from
from tests.review.engine.engine_kit import quoted_system


def _model(catalog: CatalogSnapshot, name: str) -> ModelFacts:
    model = model_resolve(name, catalog)
    assert model is not None
    return model


def _vehicle(catalog: CatalogSnapshot, sku: str) -> Vehicle:
    return vehicles_from([quoted_system(catalog, sku)], catalog)[0]


def test_hbm_is_counted_in_gib(catalog: CatalogSnapshot) -> None:
    # an "80 GB" H100 is 80 GiB = 80 × 2^30 bytes = 80 × 1.073741824 = 85.90 GB
    h100 = catalog.gpu("h100-sxm")
    assert gpu_memory_gb(h100) == pytest.approx(85.899, abs=0.001)
    assert gpu_memory_words(h100) == "80 GiB"
    # GDDR7 is taken as listed: the RTX PRO 6000 Server's 96 GB stays 96 GB
    rtx = catalog.gpu("rtx-pro-6000-server")
    assert gpu_memory_gb(rtx) == 96.0
    assert gpu_memory_words(rtx) == "96 GB"
    # a DGX B200 domain: 8 × 180 GiB = 8 × 193.27 = 1,546.19 GB (was 1,440)
    assert _vehicle(catalog, "dgx-b200").domain_memory_gb == pytest.approx(1546.19, abs=0.01)


def test_the_field_guide_bound_is_unchanged() -> None:
    # the bound stays the simple sum: 273 GB/s ÷ 32.8 GB ≈ 8.3 tokens/s (DGX Spark, Qwen3-32B 8-bit)
    assert decode_bound_tokens_per_sec(273, 32.8) == pytest.approx(8.323, abs=0.001)


def test_the_runtime_reserve_of_one_h100(catalog: CatalogSnapshot) -> None:
    # Llama-3.1-70B activations: 8,192-token chunk × 8,192 hidden × 2 B × 16 = 2.147 GB
    activations = serving_activations_gb(_model(catalog, "Llama-3.1-70B"))
    assert activations == pytest.approx(2.147, abs=0.001)
    reserve = runtime_reserve(catalog.gpu("h100-sxm"), activations)
    # 85.90 GB × 10 % = 8.590 engine reserve + 1.0 CUDA context + 2.147 = 11.737 GB taken;
    # 85.90 − 11.737 = 74.16 GB left for weights and KV cache
    assert reserve.engine_reserve_gb == pytest.approx(8.590, abs=0.001)
    assert reserve.overhead_gb == pytest.approx(11.737, abs=0.001)
    assert reserve.usable_gb == pytest.approx(74.162, abs=0.001)


def test_collectives_grow_with_the_log_of_the_replica(catalog: CatalogSnapshot) -> None:
    cal = calibration()
    nvlink = cal.collective("NVLink", 2)
    # one tree step for 2 GPUs, three for 8, none for one GPU
    assert cal.collective("NVLink", 8) == pytest.approx(3 * nvlink)
    assert cal.collective("NVLink", 4) == pytest.approx(2 * nvlink)
    assert cal.collective("one GPU", 1) == 0.0


def test_mxfp4_on_hopper_is_unpacked_at_the_dequantisation_efficiency(
    catalog: CatalogSnapshot,
) -> None:
    load = serving_load(
        _model(catalog, "gpt-oss-120b"),
        precision=Precision.MXFP4,
        context_tokens=8192,
        users=1,
        tokens_per_sec_per_user=10,
    )
    hopper = replica_evaluate(_vehicle(catalog, "dgx-h100"), load, 1)
    blackwell = replica_evaluate(_vehicle(catalog, "dgx-b200"), load, 1)
    cal = calibration()
    # H100 has no FP4 tensor cores: MXFP4 weights are read ÷ the fitted efficiency; B200 runs
    # them natively
    assert hopper.weight_read_efficiency == cal.dequant_read_efficiency
    assert blackwell.weight_read_efficiency == 1.0
    # one step on H100: (5.008 GB of weights ÷ 0.589 + 0.156 GB KV) ÷ (3,350 × 0.8039 =
    # 2,693.1 GB/s) + 1.0 µs + 36 layers × (52.79 + 11.0 MoE) µs = 3.215 + 2.297 = 5.51 ms
    weights, kv = load.step_read_gb(1), load.kv_mean_gb
    expected = (weights / cal.dequant_read_efficiency + kv) / hopper.effective_bandwidth_gbs
    expected += hopper.overhead_seconds
    assert hopper.step_seconds(1, load) == pytest.approx(expected, rel=1e-9)
    assert hopper.overhead_seconds == pytest.approx(
        (cal.step_overhead_us + 36 * (cal.layer_overhead_us + cal.moe_layer_overhead_us)) / 1e6
    )
    assert hopper.step_seconds(1, load) > blackwell.step_seconds(1, load)


def test_fp4_compute_has_its_own_efficiency(catalog: CatalogSnapshot) -> None:
    model = _model(catalog, "DeepSeek-R1")
    b200 = _vehicle(catalog, "dgx-b200")
    cal = calibration()
    fp4 = serving_load(model, precision=Precision.NVFP4, context_tokens=8192, users=1,
                       tokens_per_sec_per_user=10)  # fmt: skip
    fp8 = serving_load(model, precision=Precision.FP8, context_tokens=8192, users=1,
                       tokens_per_sec_per_user=10)  # fmt: skip
    # 8 × 9,000 FP4 TFLOPS × the FP4 efficiency; 8 × 4,500 FP8 TFLOPS × the FP8/BF16 one
    assert replica_evaluate(b200, fp4, 8).effective_tflops == pytest.approx(
        8 * 9000 * cal.compute_efficiency_fp4
    )
    assert replica_evaluate(b200, fp8, 8).effective_tflops == pytest.approx(
        8 * 4500 * cal.compute_efficiency
    )


def test_latent_attention_layers_carry_their_own_cost(catalog: CatalogSnapshot) -> None:
    load = serving_load(
        _model(catalog, "DeepSeek-R1"),
        precision=Precision.FP8,
        context_tokens=8192,
        users=1,
        tokens_per_sec_per_user=10,
    )
    assert load.mla
    plan = replica_evaluate(_vehicle(catalog, "dgx-b200"), load, 8)
    cal = calibration()
    # 1.0 µs + 61 layers × (52.79 kernels + 4.3 × log2(8) NVLink + 11.0 MoE + 44.26 MLA) µs
    # = 1.0 + 61 × 120.95 = 7,379 µs
    per_layer = (
        cal.layer_overhead_us
        + cal.collective("NVLink", 8)
        + cal.moe_layer_overhead_us
        + cal.mla_layer_overhead_us
    )
    assert plan.overhead_seconds == pytest.approx((cal.step_overhead_us + 61 * per_layer) / 1e6)
    assert plan.overhead_seconds == pytest.approx(0.007379, abs=2e-6)


def test_arriving_prompts_slow_decoding() -> None:
    # 20 conversations at 30 tok/s writing 512-token answers (8,192 context − 7,680 prompt)
    # send 20 × 30 ÷ 512 = 1.172 prompts/s; at 0.2 s of prefill each that is 0.234 s of
    # prefill per second, so decoding runs at 30 ÷ 1.234 = 24.3 tok/s each
    mix = prefill_interleave(20, 30.0, 0.2, context_tokens=8192, prompt_tokens=7680)
    assert mix.answer_tokens == 512
    assert mix.prompts_per_sec == pytest.approx(1.171875)
    assert mix.prefill_share == pytest.approx(0.234375)
    assert mix.slowed_speed == pytest.approx(24.304, abs=0.001)
    # a prompt that is the whole context leaves no answer length: 512 tokens are assumed
    whole = prefill_interleave(20, 30.0, 0.2, context_tokens=8192, prompt_tokens=8192)
    assert whole.answer_tokens == 512
    # more conversations, more prompts: the slowdown only grows with the batch
    assert prefill_interleave(
        40, 30.0, 0.2, context_tokens=8192, prompt_tokens=7680
    ).slowed_speed < (mix.slowed_speed)
