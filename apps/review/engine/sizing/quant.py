"""Weights priced per component at their own precision, the KV cache's format, and which
engines run a format natively (fixtures/reference/quant_formats.md).

A model's parameters split into attention, routed experts, dense FFNs (with shared experts and
routers), the embedding table and the head (fixtures/reference/models.csv). The plain widths
(FP8, BF16, FP4 …) price every part alike, so Qwen3-32B at FP8 stays 32.8 GB. The named formats
keep some parts wide: gpt-oss ships MXFP4 experts (4.25 bits) with attention, router, embeddings
and head in BF16, so gpt-oss-120b is (0.96 + 0.01 + 0.58 + 0.58) B × 2 = 4.26 GB plus 114.9 B of
experts × 4.25/8 = 61.0 GB: 65.3 GB, not 117 × 2 = 234 GB; NVFP4 and AWQ/GPTQ keep embeddings and
head in BF16.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.model_resolve import ModelFacts
from apps.review.engine.schemas import KvPrecision, Precision

WIDE_BYTES = 2.0  # BF16: the parts a named format leaves unquantised
FP8_KV_WEIGHTS = frozenset({Precision.FP8, Precision.FP4, Precision.NVFP4})
# formats whose embeddings and head stay BF16 (ModelOpt NVFP4, AWQ/GPTQ int4, MXFP4)
WIDE_EMBEDDINGS = frozenset({Precision.NVFP4, Precision.MXFP4, Precision.AWQ, Precision.GPTQ})
FOUR_BIT_COMPUTE = frozenset({Precision.FP4, Precision.NVFP4, Precision.MXFP4})
EIGHT_BIT_COMPUTE = frozenset({Precision.FP8})


@dataclass(frozen=True, slots=True)
class WeightSplit:
    """Bytes of one copy of the weights, and what a decode step reads of them.

    `dense_read_gb` is read every step (attention, dense FFNs, shared experts, the head);
    `expert_gb` is every routed expert, of which one token reads `expert_share` (k ÷ E).
    Without a parameter split the whole model is one pool read at the active share.
    """

    weights_gb: float
    dense_read_gb: float
    expert_gb: float
    expert_share: float
    active_gb: float  # the field guide's simple sum: active parameters at their precision
    priced_per_component: bool


def _has_split(model: ModelFacts) -> bool:
    parts = (model.attn_params_b, model.dense_mlp_params_b, model.embed_params_b)
    return all(p is not None for p in parts)


def weight_split(model: ModelFacts, precision: Precision) -> WeightSplit:
    """Weights in GB with each part at its own precision: Qwen3-32B at FP8 = 32.8 × 1 = 32.8 GB
    (plain widths price every part alike); gpt-oss-120b at MXFP4 prices experts at 4.25 bits
    and the rest at BF16."""
    bytes_per_param = precision.bytes_per_param
    total = model.total_params_b
    if not _has_split(model):
        weights = total * bytes_per_param
        active = model.active_params_b * bytes_per_param
        share = model.active_params_b / total if total else 1.0
        return WeightSplit(weights, 0.0, weights, share, active, False)
    attn = model.attn_params_b or 0.0
    experts = model.expert_params_b or 0.0
    dense = model.dense_mlp_params_b or 0.0
    embed = model.embed_params_b or 0.0
    head = model.lm_head_params_b or 0.0
    # scale the computed split onto the catalog's total (Qwen3-32B: 32.76 → 32.8 B)
    scale = total / (attn + experts + dense + embed + head)
    attn, experts, dense, embed, head = (x * scale for x in (attn, experts, dense, embed, head))
    expert_bytes = bytes_per_param
    linear_bytes = WIDE_BYTES if precision == Precision.MXFP4 and experts > 0 else bytes_per_param
    table_bytes = WIDE_BYTES if precision in WIDE_EMBEDDINGS else bytes_per_param
    read_head = head if head > 0 else embed  # tied: the embedding matrix is the head
    share = 1.0
    if experts > 0 and model.num_experts and model.experts_per_token:
        share = model.experts_per_token / model.num_experts
    expert_gb = experts * expert_bytes
    dense_read = (attn + dense) * linear_bytes + read_head * table_bytes
    weights = expert_gb + (attn + dense) * linear_bytes + (embed + head) * table_bytes
    uniform = linear_bytes == table_bytes == expert_bytes
    if uniform:
        weights = total * bytes_per_param  # exactly the catalog's figure: 235 B × 1 = 235 GB
    active = model.active_params_b * bytes_per_param if uniform else dense_read + expert_gb * share
    return WeightSplit(weights, dense_read, expert_gb, share, active, not uniform)


def kv_bytes_per_value(precision: Precision, kv: KvPrecision | None = None) -> float:
    """KV bytes per value: as asked, else following the weights as serving engines do — FP8
    and FP4 checkpoints keep an FP8 cache (1 byte), the rest 16-bit (2 bytes), FP32 4."""
    if kv is not None:
        return kv.bytes_per_value
    if precision in FP8_KV_WEIGHTS:
        return 1.0
    return max(WIDE_BYTES, precision.bytes_per_param)


def kv_precision_words(precision: Precision, kv: KvPrecision | None) -> str:
    """ "FP8 KV (follows the FP8 weights)" / "BF16 KV (as asked)" for the findings."""
    if kv is not None:
        return f"{kv.value.upper()} KV cache (as asked)"
    label = "FP8" if precision in FP8_KV_WEIGHTS else "16-bit"
    return f"{label} KV cache (follows the {precision.value.upper()} weights, as engines default)"


def native_support(gpu: GpuSpec, precision: Precision) -> tuple[bool, str]:
    """Whether the GPU computes in the format natively, and what happens when it does not.

    FP4 tensor cores arrive with Blackwell (a catalog FP4 rate); FP8 with Ada and Hopper (an
    FP8 rate). Elsewhere engines store the format and dequantise to BF16: the memory saving
    stays, the compute runs at the BF16 rate.
    """
    if precision in FOUR_BIT_COMPUTE and not gpu.fp4_tflops:
        return False, "FP4 needs Blackwell tensor cores"
    if precision in EIGHT_BIT_COMPUTE and not (gpu.fp8_tflops or gpu.fp4_tflops):
        return False, "FP8 needs Ada, Hopper or Blackwell tensor cores"
    return True, ""
