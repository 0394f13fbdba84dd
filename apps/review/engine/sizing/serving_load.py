"""An inference load reduced to bytes and FLOPs per token (``ServingLoad``): "Qwen3-32B at
FP8, 100 users at 15 tokens/s, 8,192 tokens of context" is 32.8 GB of weights, the KV cache of
one conversation at its full context (what memory reserves) and half-way through it (what a
decode step reads), and 2 × active parameters of FLOPs a token. MoE models keep their dense part
and routed experts apart, so a batch's step reads only the experts it touches.

Pure: no ORM, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.review.engine.model_resolve import ModelFacts
from apps.review.engine.schemas import KvPrecision, Precision, Workload
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.memory import kv_cache_gb, serving_activations_gb
from apps.review.engine.sizing.quant import kv_bytes_per_value, weight_split

MEAN_CONTEXT_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class ServingLoad:
    """An inference load reduced to bytes and FLOPs per token."""

    model_name: str
    precision: Precision
    users: int
    tokens_per_sec_per_user: float
    context_tokens: int
    weights_gb: float  # every parameter at the precision (what memory must hold)
    active_weights_gb: float  # what one token reads at batch 1 (MoE: active experts only)
    kv_full_gb: float  # one conversation at its full context (what memory reserves)
    kv_mean_gb: float  # KV read per step for one conversation (half-way through its context)
    tflop_per_token: float  # 2 × active parameters
    kv_known: bool
    attn_heads: int | None = None  # tensor-parallel sizes must divide them
    dense_read_gb: float = 0.0  # read every step: attention, dense FFNs, shared experts, head
    expert_gb: float | None = None  # every routed expert; None = the whole model is one pool
    expert_share: float | None = None  # what one token reads of them: k ÷ E
    layers: int = 0
    moe: bool = False
    kv_bytes: float = 2.0
    prompt_tokens: int = 0
    activations_gb: float = 0.0  # per GPU: one prefill chunk's activations (memory.py)
    mla: bool = False  # multi-head latent attention: more kernels per layer

    @property
    def active_share(self) -> float:
        return self.active_weights_gb / self.weights_gb if self.weights_gb else 1.0

    @property
    def is_moe(self) -> bool:
        return self.moe

    def weights_read_gb(self, batch: int) -> float:
        """Weights one step of `batch` conversations reads: the dense part, plus the experts
        the batch touches, 1 − (1 − k/E)^batch of them."""
        pool = self.weights_gb if self.expert_gb is None else self.expert_gb
        share = self.active_share if self.expert_share is None else self.expert_share
        touched = 1.0 - (1.0 - share) ** batch if share < 1.0 else 1.0
        return self.dense_read_gb + pool * touched

    def step_read_gb(self, batch: int) -> float:
        """Weights read as bandwidth sees them: routed experts touched count ÷ the calibrated
        expert efficiency (many small GEMMs reach less of the bandwidth than one big one)."""
        if self.expert_gb is None:
            return self.weights_read_gb(batch)
        experts = self.weights_read_gb(batch) - self.dense_read_gb
        return self.dense_read_gb + experts / calibration().expert_read_efficiency

    @property
    def unit_gb(self) -> float:
        """One copy of the weights plus one full-length conversation."""
        return self.weights_gb + self.kv_full_gb


def serving_load(
    model: ModelFacts,
    *,
    precision: Precision,
    context_tokens: int,
    users: int,
    tokens_per_sec_per_user: float,
    kv_precision: KvPrecision | None = None,
    prompt_tokens: int | None = None,
    mean_context_tokens: int | None = None,
) -> ServingLoad:
    """Bytes and FLOPs per token for `users` conversations of `context_tokens` each."""
    split = weight_split(model, precision)
    kv_bytes = kv_bytes_per_value(precision, kv_precision)
    full = kv_cache_gb(model, context_tokens=context_tokens, bytes_per_value=kv_bytes)
    mean_tokens = mean_context_tokens or max(1, round(context_tokens * MEAN_CONTEXT_SHARE))
    mean = kv_cache_gb(model, context_tokens=mean_tokens, bytes_per_value=kv_bytes)
    layers = model.layers or 0
    return ServingLoad(
        model_name=model.name,
        precision=precision,
        users=users,
        tokens_per_sec_per_user=tokens_per_sec_per_user,
        context_tokens=context_tokens,
        weights_gb=split.weights_gb,
        active_weights_gb=split.active_gb,
        kv_full_gb=full or 0.0,
        kv_mean_gb=mean or 0.0,
        tflop_per_token=2 * model.active_params_b / 1000,
        kv_known=full is not None,
        attn_heads=model.attn_heads,
        dense_read_gb=split.dense_read_gb,
        expert_gb=split.expert_gb if split.priced_per_component or split.dense_read_gb else None,
        expert_share=split.expert_share if split.dense_read_gb else None,
        layers=layers,
        moe=model.is_moe,
        kv_bytes=kv_bytes,
        prompt_tokens=prompt_tokens or context_tokens,
        activations_gb=serving_activations_gb(model),
        mla=model.uses_mla,
    )


def workload_serving_load(workload: Workload, model: ModelFacts) -> ServingLoad:
    """The serving load a workload asks for: "Qwen3-32B at FP8, 100 users at 15 tokens/s, 8,192
    tokens of context" as bytes and FLOPs per token (the review and the recommendation agree)."""
    return serving_load(
        model,
        precision=workload.precision,
        context_tokens=workload.context_tokens,
        users=workload.concurrent_users,
        tokens_per_sec_per_user=workload.tokens_per_sec_per_user,
        kv_precision=workload.kv_precision,
        prompt_tokens=workload.prompt_tokens,
    )
