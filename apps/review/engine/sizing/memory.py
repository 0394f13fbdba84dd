"""How much memory one job needs: the bowl the engine must have (shared/reference/measured.md).

- Inference: weights = parameters × bytes of the precision (Qwen3-32B in BF16 = 32.8 × 2 =
  65.6 GB) plus a KV cache of 2 × layers × KV heads × head dim × bytes × tokens per sequence
  (2 × 64 × 8 × 128 × 2 B × 8,192 tokens = 2.15 GB per 8k conversation).
- Training / full fine-tuning: 16 bytes per parameter for mixed-precision AdamW (BF16 weights and
  gradients, FP32 master copy and two moments; ZeRO paper §3) plus activations with full
  checkpointing.
- LoRA: the frozen base at its precision plus small adapters; QLoRA: a 4-bit base at about
  0.55 bytes per parameter (NF4 plus its scales).
- `memory_gb` on the workload overrides everything: the user knows their job.

GB here are decimal (10^9 bytes), as parameter counts and bandwidths are. GPU memory is not:
HBM is built from binary-sized stacks, so an "80 GB" H100 holds 80 GiB = 80 × 2^30 bytes =
85.9 GB and a "180 GB" B200 179-180 GiB as nvidia-smi shows (`gpu_memory_gb`); counting it as
80 × 10^9 would lose 7 % of every card. GDDR and LPDDR sizes are taken as listed.

Serving never gets the whole card (`runtime_reserve`): the engine takes 90 % of it (vLLM's
`gpu_memory_utilization` 0.9; TensorRT-LLM and SGLang keep a similar share free) and, inside
that, the CUDA context with its library workspaces and CUDA graphs and the activations of one
prefill chunk come before the KV cache. H100 with Llama-3.1-70B: 85.9 × 0.9 = 77.3 GB, − 1.0 GB
context, − 8,192 × 8,192 × 2 B × 16 = 2.1 GB activations = 74.2 GB for weights and KV cache.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.model_resolve import ModelFacts
from apps.review.engine.schemas import KvPrecision, Precision, Workload, WorkloadKind
from apps.review.engine.sizing import quant

TRAINING_BYTES_PER_PARAM = 16.0  # mixed-precision AdamW: 2 + 2 + 12 (ZeRO, arXiv 1910.02054)
QLORA_BASE_BYTES_PER_PARAM = 0.55  # NF4 base 0.5-0.6 (QLoRA, arXiv 2305.14314)
LORA_ADAPTER_SHARE = 0.01  # adapters ≈ 1 % of the base's parameters (rank 16-64 on all linears)
LORA_ADAPTER_BYTES_PER_PARAM = 16.0  # adapters train like a full model: weights, grads, AdamW
KV_BYTES_DEFAULT = 2.0  # serving engines keep the KV cache in 16-bit unless told otherwise
CHECKPOINT_BYTES_PER_LAYER = 2  # full checkpointing keeps 2·s·b·h bytes per layer
RECOMPUTE_BYTES_ONE_LAYER = 34  # and recomputes one layer at a time: 34·s·b·h (arXiv 2205.05198)
USABLE_MEMORY_FRACTION = 0.90  # the runtime, CUDA context and fragmentation take the rest
GIB_GB = 2**30 / 1e9  # 1.0737 decimal GB in a GiB
ENGINE_MEMORY_UTILIZATION = 0.90  # vLLM gpu_memory_utilization default (docs.vllm.ai)
CUDA_CONTEXT_GB = 1.0  # per GPU: CUDA context, cuBLAS/NCCL workspaces, CUDA graphs (estimate)
PREFILL_CHUNK_TOKENS = 8_192  # vLLM's max_num_batched_tokens for an API server
ACTIVATION_BUFFERS = 16  # hidden-width 16-bit buffers a forward pass peaks at (estimate)
FOUR_BIT = {Precision.FP4, Precision.INT4}

Basis = Literal["override", "inference", "training", "lora", "qlora"]


def binary_memory(gpu: GpuSpec) -> bool:
    """HBM sizes are GiB (binary stacks); other memory types are taken as listed."""
    return gpu.memory_type.upper().startswith("HBM")


def gpu_memory_gb(gpu: GpuSpec) -> float:
    """One GPU's memory in decimal GB: an "80 GB" H100 is 80 GiB = 80 × 1.0737 = 85.9 GB."""
    return gpu.memory_gb * GIB_GB if binary_memory(gpu) else gpu.memory_gb


def gpu_memory_words(gpu: GpuSpec) -> str:
    """The size as the spec sheet means it: "80 GiB" for HBM, "96 GB" for GDDR7."""
    unit = "GiB" if binary_memory(gpu) else "GB"
    return f"{gpu.memory_gb:,g} {unit}"


def serving_activations_gb(model: ModelFacts) -> float:
    """Activations of one prefill chunk on each GPU: 8,192 tokens × hidden × 2 B × 16 buffers
    (Llama-3.1-70B: 8,192 × 8,192 × 2 × 16 = 2.15 GB); 0 when the hidden size is unknown."""
    hidden = hidden_size_of(model)
    if not hidden:
        return 0.0
    return PREFILL_CHUNK_TOKENS * hidden * 2 * ACTIVATION_BUFFERS / 1e9


class RuntimeReserve(BaseModel):
    """What a serving engine keeps of one GPU before weights and KV cache."""

    model_config = ConfigDict(frozen=True)

    label: str  # the spec sheet's size: "80 GiB", "96 GB"
    gpu_gb: float
    engine_reserve_gb: float
    cuda_context_gb: float
    activations_gb: float
    #: whose runtime context the 1 GB is: CUDA's, or ROCm's on an AMD GPU (same estimate)
    runtime: str = "CUDA"

    @property
    def overhead_gb(self) -> float:
        return self.engine_reserve_gb + self.cuda_context_gb + self.activations_gb

    @property
    def usable_gb(self) -> float:
        return max(0.0, self.gpu_gb - self.overhead_gb)

    def words(self, gpus: int = 1) -> str:
        """ "80 GiB = 85.9 GB − 10 % engine reserve (vLLM gpu_memory_utilization 0.9) 8.6 GB −
        1.0 GB CUDA context − 2.1 GB activations (8,192-token prefill chunk) = 74.2 GB for
        weights and KV cache (× 8 GPUs = 593.5 GB)"."""
        size = f"{self.label} = {self.gpu_gb:,.1f} GB" if "GiB" in self.label else self.label
        total = f" (× {gpus:,} GPUs = {gpus * self.usable_gb:,.1f} GB)" if gpus > 1 else ""
        reserve = round((1 - ENGINE_MEMORY_UTILIZATION) * 100)
        return (
            f"{size} − {reserve} % engine reserve (vLLM gpu_memory_utilization "
            f"{ENGINE_MEMORY_UTILIZATION:g}) {self.engine_reserve_gb:,.1f} GB − "
            f"{self.cuda_context_gb:,.1f} GB {self.runtime} context − "
            f"{self.activations_gb:,.1f} GB activations ({PREFILL_CHUNK_TOKENS:,}-token "
            "prefill chunk) = "
            f"{self.usable_gb:,.1f} GB for weights and KV cache{total}"
        )


def runtime_reserve(gpu: GpuSpec, activations_gb: float = 0.0) -> RuntimeReserve:
    """One GPU as a serving engine sees it: 10 % reserve, CUDA context, activations."""
    gb = gpu_memory_gb(gpu)
    return RuntimeReserve(
        label=gpu_memory_words(gpu),
        gpu_gb=gb,
        engine_reserve_gb=gb * (1 - ENGINE_MEMORY_UTILIZATION),
        cuda_context_gb=CUDA_CONTEXT_GB,
        activations_gb=activations_gb,
        runtime="ROCm" if gpu.vendor == "AMD" else "CUDA",
    )


def serving_usable_gb(gpu: GpuSpec, activations_gb: float = 0.0) -> float:
    """`runtime_reserve(gpu, activations_gb).usable_gb`, the same sum without building the
    model and its words: the serving search asks it for every size of every catalog system."""
    gb = gpu_memory_gb(gpu)
    overhead = gb * (1 - ENGINE_MEMORY_UTILIZATION) + CUDA_CONTEXT_GB + activations_gb
    return max(0.0, gb - overhead)


def weights_gb(params_b: float, bytes_per_param: float) -> float:
    """Weights in GB: 32.8 B parameters × 2 bytes (BF16) = 65.6 GB."""
    return params_b * bytes_per_param


def kv_bytes_per_value(precision: Precision, kv: KvPrecision | None = None) -> float:
    """KV cache bytes per value: as asked, else following the weights (FP8 and FP4 checkpoints
    keep an FP8 cache, the rest 16-bit, FP32 4 bytes)."""
    return quant.kv_bytes_per_value(precision, kv)


def kv_cache_gb(
    model: ModelFacts,
    *,
    context_tokens: int,
    sequences: int = 1,
    bytes_per_value: float = KV_BYTES_DEFAULT,
) -> float | None:
    """KV cache in GB for `sequences` conversations of `context_tokens` each; None if unknown.

    Standard attention: 2 × layers × KV heads × head dim × bytes × tokens × sequences
    (Qwen3-32B, 8,192 tokens: 2 × 64 × 8 × 128 × 2 × 8,192 = 2.15 GB).
    MLA (DeepSeek-V3): layers × (kv_lora_rank + qk_rope_head_dim) × bytes × tokens
    (61 × (512 + 64) × 2 × 8,192 = 0.58 GB).
    Sliding-window layers hold at most their window (gpt-oss: half the layers keep 128 tokens).
    """
    if not model.has_kv_shape or model.layers is None:
        return None
    if model.uses_mla:
        per_token_per_layer = (model.kv_lora_rank or 0) + (model.qk_rope_head_dim or 0)
    else:
        per_token_per_layer = 2 * (model.kv_heads or 0) * (model.head_dim or 0)
    sliding = (model.sliding_layers_fraction or 0.0) if model.sliding_window else 0.0
    window_tokens = min(context_tokens, model.sliding_window or context_tokens)
    tokens_per_layer = (1 - sliding) * context_tokens + sliding * window_tokens
    total = model.layers * per_token_per_layer * bytes_per_value * tokens_per_layer * sequences
    return total / 1e9


def kv_formula(model: ModelFacts, *, context_tokens: int, bytes_per_value: float) -> str:
    """The KV arithmetic as text, for a finding's formula."""
    if model.uses_mla:
        shape = f"{model.layers} layers × ({model.kv_lora_rank} + {model.qk_rope_head_dim})"
    else:
        shape = f"2 × {model.layers} layers × {model.kv_heads} KV heads × {model.head_dim}"
    window = ""
    if model.sliding_window and model.sliding_layers_fraction:
        window = (
            f" ({model.sliding_layers_fraction:.0%} of layers capped at "
            f"{model.sliding_window:,} tokens)"
        )
    return f"{shape} × {bytes_per_value:g} B × {context_tokens:,} tokens{window}"


def hidden_size_of(model: ModelFacts) -> int | None:
    """The hidden size, or an estimate from params ≈ 12 × layers × hidden² when not given."""
    if model.hidden_size:
        return model.hidden_size
    if not model.layers:
        return None
    return round(math.sqrt(model.total_params_b * 1e9 / (12 * model.layers)))


def activations_gb(model: ModelFacts, *, context_tokens: int, micro_batch: int = 1) -> float:
    """Training activations with full checkpointing: (2 × layers + 34) × s × b × h bytes.

    Qwen3-32B at 8,192 tokens, micro-batch 1: (2 × 64 + 34) × 8,192 × 1 × 5,120 = 6.8 GB.
    Zero when the layer count is unknown (the finding says so).
    """
    hidden = hidden_size_of(model)
    if not hidden or not model.layers:
        return 0.0
    per_token = (CHECKPOINT_BYTES_PER_LAYER * model.layers + RECOMPUTE_BYTES_ONE_LAYER) * hidden
    return per_token * context_tokens * micro_batch / 1e9


class JobMemory(BaseModel):
    """The memory of the biggest single job, with its parts and the arithmetic as text.

    `total_gb` is the job (for inference: one copy of the weights plus every user's KV cache);
    `unit_gb` is the smallest piece that must sit in one NVLink domain (training: the whole job;
    inference: one copy of the weights plus one full-length conversation).
    """

    model_config = ConfigDict(frozen=True)

    basis: Basis
    total_gb: float
    unit_gb: float
    weights_gb: float = 0.0
    kv_gb: float = 0.0
    kv_per_sequence_gb: float = 0.0
    training_state_gb: float = 0.0
    adapters_gb: float = 0.0
    activations_gb: float = 0.0
    formula: str = ""
    notes: list[str] = Field(default_factory=list)


def job_memory(workload: Workload, model: ModelFacts | None) -> JobMemory | None:
    """The biggest single job's memory, or None when there is neither a model nor `memory_gb`."""
    if workload.memory_gb is not None:
        gb = workload.memory_gb
        return JobMemory(
            basis="override", total_gb=gb, unit_gb=gb, formula=f"memory_gb given: {gb:,g} GB"
        )
    if model is None:
        return None
    if workload.kind in {WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING}:
        return _training_memory(workload, model)
    if workload.kind == WorkloadKind.LORA:
        return _lora_memory(workload, model)
    return _inference_memory(workload, model)


def _training_memory(workload: Workload, model: ModelFacts) -> JobMemory:
    state = weights_gb(model.total_params_b, TRAINING_BYTES_PER_PARAM)
    acts = activations_gb(model, context_tokens=workload.context_tokens)
    total = state + acts
    notes = [] if acts else ["activations not counted: the model shape gives no layer count"]
    return JobMemory(
        basis="training",
        total_gb=total,
        unit_gb=total,
        training_state_gb=state,
        activations_gb=acts,
        formula=(
            f"{model.total_params_b:g} B params × 16 B (weights, gradients, AdamW)"
            f" = {state:,.1f} GB"
            f" + activations {acts:,.1f} GB = {total:,.1f} GB"
        ),
        notes=notes,
    )


def _lora_memory(workload: Workload, model: ModelFacts) -> JobMemory:
    qlora = workload.precision in FOUR_BIT
    base_bytes = QLORA_BASE_BYTES_PER_PARAM if qlora else workload.precision.bytes_per_param
    base = weights_gb(model.total_params_b, base_bytes)
    adapters = weights_gb(model.total_params_b * LORA_ADAPTER_SHARE, LORA_ADAPTER_BYTES_PER_PARAM)
    acts = activations_gb(model, context_tokens=workload.context_tokens)
    total = base + adapters + acts
    return JobMemory(
        basis="qlora" if qlora else "lora",
        total_gb=total,
        unit_gb=total,
        weights_gb=base,
        adapters_gb=adapters,
        activations_gb=acts,
        formula=(
            f"base {model.total_params_b:g} B × {base_bytes:g} B = {base:,.1f} GB"
            f" + adapters 1 % × 16 B = {adapters:,.1f} GB + activations {acts:,.1f} GB"
            f" = {total:,.1f} GB"
        ),
    )


def _inference_memory(workload: Workload, model: ModelFacts) -> JobMemory:
    split = quant.weight_split(model, workload.precision)
    weights = split.weights_gb
    kv_bytes = kv_bytes_per_value(workload.precision, workload.kv_precision)
    per_seq = kv_cache_gb(model, context_tokens=workload.context_tokens, bytes_per_value=kv_bytes)
    notes = []
    if per_seq is None:
        per_seq = 0.0
        notes.append("KV cache not counted: the model shape gives no layers, KV heads or head dim")
    users = workload.concurrent_users
    kv_all = per_seq * users
    total = weights + kv_all
    kv_text = kv_formula(model, context_tokens=workload.context_tokens, bytes_per_value=kv_bytes)
    return JobMemory(
        basis="inference",
        total_gb=total,
        unit_gb=weights + per_seq,
        weights_gb=weights,
        kv_gb=kv_all,
        kv_per_sequence_gb=per_seq,
        formula=(
            f"weights {model.total_params_b:g} B × {workload.precision.bytes_per_param:g} B"
            f"{' (per component)' if split.priced_per_component else ''}"
            f" = {weights:,.1f} GB + KV ({kv_text} = {per_seq:,.2f} GB)"
            f" × {users:,} user{'' if users == 1 else 's'}"
            f" = {total:,.1f} GB"
        ),
        notes=notes,
    )
