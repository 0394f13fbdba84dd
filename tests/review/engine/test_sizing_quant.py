"""Weights per component at their own precision, the KV cache's format, native formats."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.model_resolve import ModelFacts, model_resolve
from apps.review.engine.schemas import KvPrecision, Precision
from apps.review.engine.sizing.quant import native_support, weight_split
from apps.review.engine.sizing.serving_load import serving_load


def _model(catalog: CatalogSnapshot, name: str) -> ModelFacts:
    model = model_resolve(name, catalog)
    assert model is not None
    return model


def test_gpt_oss_keeps_attention_embeddings_and_head_in_bf16(catalog: CatalogSnapshot) -> None:
    split = weight_split(_model(catalog, "gpt-oss-120b"), Precision.MXFP4)
    # the computed split (116.83 B) scaled onto the catalog's 117 B: ×1.00146
    # experts 114.870 B × 4.25 bits ÷ 8 = 61.02 GB; attention 0.957 + router 0.013 +
    # embeddings 0.580 + head 0.580 = 2.130 B × 2 bytes = 4.26 GB; total 65.28 GB
    assert split.expert_gb == pytest.approx(61.025, abs=0.01)
    assert split.weights_gb == pytest.approx(65.285, abs=0.01)
    assert split.priced_per_component
    # a token reads attention, router and head (3.10 GB) and 4 of 128 experts (1.91 GB)
    assert split.dense_read_gb == pytest.approx(3.1005, abs=0.001)
    assert split.active_gb == pytest.approx(3.1005 + 61.025 * 4 / 128, abs=0.01)


def test_plain_widths_price_every_part_alike(catalog: CatalogSnapshot) -> None:
    # the field guide's figure stands: Qwen3-32B at 8 bits = 32.8 B × 1 byte = 32.8 GB
    split = weight_split(_model(catalog, "Qwen3-32B"), Precision.FP8)
    assert (split.weights_gb, split.active_gb) == (32.8, 32.8)
    # NVFP4: 4.5 bits on the linear layers, BF16 embeddings and head (2 × 0.779 B):
    # (32.8 − 1.558) × 0.5625 + 1.558 × 2 = 17.57 + 3.12 = 20.69 GB
    nvfp4 = weight_split(_model(catalog, "Qwen3-32B"), Precision.NVFP4)
    assert nvfp4.weights_gb == pytest.approx(20.69, abs=0.01)


@pytest.mark.parametrize(
    ("precision", "bits"),
    [
        (Precision.NVFP4, 4.5),
        (Precision.MXFP4, 4.25),
        (Precision.AWQ, 4.156),
        (Precision.GPTQ, 4.125),
        (Precision.Q4_K_M, 4.89),
        (Precision.Q5_K_M, 5.70),
        (Precision.Q6_K, 6.56),
        (Precision.Q8_0, 8.5),
    ],
)
def test_formats_carry_their_bits_per_weight(precision: Precision, bits: float) -> None:
    assert precision.bytes_per_param == pytest.approx(bits / 8)


def test_gguf_prices_the_whole_model_at_the_file_average(catalog: CatalogSnapshot) -> None:
    # Llama-3.1-70B at Q4_K_M: 70.6 B × 4.89 ÷ 8 = 43.2 GB (llama.cpp README: 43.1 GB)
    split = weight_split(_model(catalog, "Llama-3.1-70B"), Precision.Q4_K_M)
    assert split.weights_gb == pytest.approx(70.6 * 4.89 / 8, abs=0.1)


def test_fp8_kv_halves_the_cache_and_can_be_asked_for(catalog: CatalogSnapshot) -> None:
    model = _model(catalog, "Llama-3.1-70B")
    common = {"context_tokens": 8192, "users": 1, "tokens_per_sec_per_user": 10.0}
    bf16 = serving_load(model, precision=Precision.BF16, **common)
    fp8_kv = serving_load(model, precision=Precision.BF16, kv_precision=KvPrecision.FP8, **common)
    # 2 × 80 layers × 8 KV heads × 128 × 2 B × 8,192 tokens = 2.684 GB; FP8 KV 1.342 GB
    assert bf16.kv_full_gb == pytest.approx(2.68435456)
    assert fp8_kv.kv_full_gb == pytest.approx(1.34217728)
    # FP8 weights follow with FP8 KV unless told otherwise
    fp8 = serving_load(model, precision=Precision.FP8, **common)
    assert fp8.kv_bytes == 1.0


def test_native_formats_by_generation(catalog: CatalogSnapshot) -> None:
    assert native_support(catalog.gpu("h100-sxm"), Precision.FP8) == (True, "")
    assert native_support(catalog.gpu("h100-sxm"), Precision.NVFP4)[0] is False
    assert native_support(catalog.gpu("b200"), Precision.NVFP4) == (True, "")
    assert native_support(catalog.gpu("a100-sxm"), Precision.FP8)[0] is False
    assert native_support(catalog.gpu("l40s"), Precision.FP8) == (True, "")
