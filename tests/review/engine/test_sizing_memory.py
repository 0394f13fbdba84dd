"""Job memory: weights, KV cache (standard, MLA, sliding window), training, LoRA, QLoRA."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.model_resolve import ModelFacts, model_resolve
from apps.review.engine.schemas import KvPrecision, ModelShape, Precision, Workload
from apps.review.engine.sizing.memory import (
    activations_gb,
    hidden_size_of,
    job_memory,
    kv_bytes_per_value,
    kv_cache_gb,
    weights_gb,
)


@pytest.fixture
def qwen32(catalog: CatalogSnapshot) -> ModelFacts:
    model = model_resolve("Qwen3-32B", catalog)
    assert model is not None
    return model


def test_weights_are_params_times_bytes() -> None:
    # 32.8 B params × 2 bytes (BF16) = 65.6 GB; × 1 byte (FP8) = 32.8 GB; × 0.5 (FP4) = 16.4 GB
    assert weights_gb(32.8, Precision.BF16.bytes_per_param) == pytest.approx(65.6)
    assert weights_gb(32.8, Precision.FP8.bytes_per_param) == pytest.approx(32.8)
    assert weights_gb(32.8, Precision.FP4.bytes_per_param) == pytest.approx(16.4)


def test_kv_cache_of_one_qwen3_32b_conversation(qwen32: ModelFacts) -> None:
    # 2 (K and V) × 64 layers × 8 KV heads × 128 head dim × 2 bytes × 8,192 tokens
    # = 2,147,483,648 bytes = 2.147 GB
    assert kv_cache_gb(qwen32, context_tokens=8192) == pytest.approx(2.147483648)
    # × 10 conversations = 21.47 GB
    assert kv_cache_gb(qwen32, context_tokens=8192, sequences=10) == pytest.approx(21.47483648)


def test_qwen3_32b_bf16_fits_a_128_gb_spark(qwen32: ModelFacts) -> None:
    workload = Workload(
        kind="development", model="Qwen3-32B", precision="bf16", context_tokens=8192
    )
    job = job_memory(workload, qwen32)
    assert job is not None
    # 65.6 GB of weights + 2.147 GB of KV for one user = 67.75 GB, inside 128 GB
    assert job.weights_gb == pytest.approx(65.6)
    assert job.total_gb == pytest.approx(65.6 + 2.147483648)
    assert job.total_gb < 128


def test_inference_job_counts_every_user_but_the_unit_is_one_conversation(
    qwen32: ModelFacts,
) -> None:
    workload = Workload(kind="inference", model="Qwen3-32B", precision="fp8", concurrent_users=100)
    job = job_memory(workload, qwen32)
    assert job is not None
    # FP8 weights keep an FP8 KV cache (was 16-bit, 2.147 GB a conversation):
    # 32.8 GB + 100 × 1.074 GB = 140.2 GB for the whole load ...
    assert job.total_gb == pytest.approx(32.8 + 107.3741824)
    # ... but one copy of the weights + one conversation = 33.87 GB must sit together
    assert job.unit_gb == pytest.approx(32.8 + 1.073741824)


def test_kv_follows_the_weights_unless_asked() -> None:
    # Engines default the KV cache to the checkpoint's: FP8 and FP4 (ModelOpt) checkpoints
    # keep FP8 KV (1 byte; was 2), the rest 16-bit; FP32 keeps 4 bytes. Asked, it is as asked.
    assert kv_bytes_per_value(Precision.FP4) == 1
    assert kv_bytes_per_value(Precision.NVFP4) == 1
    assert kv_bytes_per_value(Precision.FP8) == 1
    assert kv_bytes_per_value(Precision.INT4) == 2
    assert kv_bytes_per_value(Precision.MXFP4) == 2
    assert kv_bytes_per_value(Precision.BF16) == 2
    assert kv_bytes_per_value(Precision.FP32) == 4
    assert kv_bytes_per_value(Precision.BF16, KvPrecision.FP8) == 1
    assert kv_bytes_per_value(Precision.FP8, KvPrecision.BF16) == 2
    assert kv_bytes_per_value(Precision.BF16, KvPrecision.FP4) == 0.5625  # E2M1 + E4M3 / 16


def test_mla_caches_the_compressed_latent(catalog: CatalogSnapshot) -> None:
    deepseek = model_resolve("DeepSeek-V3 / R1", catalog)
    assert deepseek is not None and deepseek.uses_mla
    # 61 layers × (512 kv_lora_rank + 64 rope dim) × 2 bytes × 8,192 tokens = 575,668,224 B
    assert kv_cache_gb(deepseek, context_tokens=8192) == pytest.approx(0.575668224)


def test_sliding_window_layers_are_capped_at_the_window(catalog: CatalogSnapshot) -> None:
    gpt_oss = model_resolve("gpt-oss-120b", catalog)
    assert gpt_oss is not None
    # Per token per layer: 2 × 8 KV heads × 64 head dim × 2 bytes = 2,048 B.
    # Half the 36 layers see 8,192 tokens, half only their 128-token window:
    # 36 × 2,048 × (0.5 × 8,192 + 0.5 × 128) = 306,708,480 B
    assert kv_cache_gb(gpt_oss, context_tokens=8192) == pytest.approx(0.30670848)
    # Below the window every layer sees the whole context: 36 × 2,048 × 100 = 7,372,800 B
    assert kv_cache_gb(gpt_oss, context_tokens=100) == pytest.approx(0.0073728)


def test_moe_needs_memory_for_every_parameter(catalog: CatalogSnapshot) -> None:
    qwen235 = model_resolve("Qwen3-235B-A22B", catalog)
    workload = Workload(kind="inference", model="Qwen3-235B-A22B", precision="fp8")
    job = job_memory(workload, qwen235)
    assert job is not None
    # 235 B total params × 1 byte = 235 GB resident, though a token reads only 22 GB
    assert job.weights_gb == pytest.approx(235.0)


def test_full_training_is_16_bytes_per_param_plus_activations(qwen32: ModelFacts) -> None:
    workload = Workload(kind="fine_tuning", model="Qwen3-32B", context_tokens=8192)
    job = job_memory(workload, qwen32)
    assert job is not None and job.basis == "training"
    # 32.8 B × 16 bytes (BF16 weights 2 + grads 2 + FP32 master 4 + Adam moments 8) = 524.8 GB
    assert job.training_state_gb == pytest.approx(524.8)
    # (2 × 64 layers + 34) × 8,192 tokens × 5,120 hidden = 6,794,772,480 B of activations
    assert job.activations_gb == pytest.approx(6.79477248)
    assert job.total_gb == pytest.approx(524.8 + 6.79477248)
    assert job.unit_gb == job.total_gb  # the whole job must ride in one domain


def test_lora_is_the_base_plus_small_adapters(catalog: CatalogSnapshot) -> None:
    llama8 = model_resolve("Llama-3.1-8B", catalog)
    job = job_memory(Workload(kind="lora", model="Llama-3.1-8B", precision="bf16"), llama8)
    assert job is not None and job.basis == "lora"
    # base 8.03 B × 2 B = 16.06 GB; adapters 1 % × 8.03 B × 16 B = 1.2848 GB;
    # activations (2 × 32 + 34) × 8,192 × 4,096 = 3,288,334,336 B
    assert job.weights_gb == pytest.approx(16.06)
    assert job.adapters_gb == pytest.approx(1.2848)
    assert job.total_gb == pytest.approx(16.06 + 1.2848 + 3.288334336)


def test_qlora_base_is_about_half_a_byte_per_param(catalog: CatalogSnapshot) -> None:
    llama70 = model_resolve("Llama-3.1-70B", catalog)
    job = job_memory(Workload(kind="lora", model="Llama-3.1-70B", precision="int4"), llama70)
    assert job is not None and job.basis == "qlora"
    # 70.55 B × 0.55 B (NF4 + scales) = 38.80 GB, against 141.1 GB in BF16
    assert job.weights_gb == pytest.approx(38.8025)


def test_memory_gb_overrides_everything(qwen32: ModelFacts) -> None:
    workload = Workload(kind="fine_tuning", model="Qwen3-32B", memory_gb=512)
    job = job_memory(workload, qwen32)
    assert job is not None
    assert (job.basis, job.total_gb, job.unit_gb) == ("override", 512, 512)


def test_no_model_and_no_memory_means_no_job() -> None:
    assert job_memory(Workload(kind="hpc", fp64_tflops=100), None) is None


def test_a_shape_without_attention_counts_weights_only_and_says_so(
    catalog: CatalogSnapshot,
) -> None:
    shape = ModelShape(name="Mystery-20B", params_b=20)
    model = model_resolve(shape, catalog)
    assert model is not None
    assert kv_cache_gb(model, context_tokens=8192) is None
    job = job_memory(Workload(kind="inference", model=shape, precision="bf16"), model)
    assert job is not None
    assert job.total_gb == pytest.approx(40.0)  # 20 B × 2 bytes, no KV
    assert any("KV cache not counted" in note for note in job.notes)
    assert activations_gb(model, context_tokens=8192) == 0.0


def test_hidden_size_is_estimated_from_params_and_layers() -> None:
    shape = ModelFacts(name="x", total_params_b=32.8, active_params_b=32.8, layers=64)
    # params ≈ 12 × layers × hidden² → hidden = √(32.8e9 ÷ (12 × 64)) = 6,535
    assert hidden_size_of(shape) == 6535
