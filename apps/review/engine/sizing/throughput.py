"""How fast, for how many: the bandwidth bound and a calibrated step-time model of users served.

The bound (CONTRACT.md `decode_tokens_per_sec_bound`) is the field guide's simplest sum: one
conversation reads every active weight once per token, so tokens/s ≤ bandwidth ÷ bytes of active
weights. Qwen3-32B at 8 bits on a 273 GB/s DGX Spark: 273 ÷ 32.8 ≈ 8.3 tokens/s. It counts
weights only and stays that simple sum; the realistic estimate is what is calibrated.

The realistic estimate is a step time per decode step of one replica serving `b` conversations
(apps/review/engine/sizing/calibration.py):
  step = max( (weights read ÷ unpacking efficiency + b × KV read per sequence)
                  ÷ (bandwidth × efficiency),
              b × 2 × active parameters ÷ (FLOPS × compute efficiency at that rate) )
         + per-step overhead
         + layers × (per-layer overhead + collective on the replica's link × log2(GPUs))
         + MoE layers × routing overhead + MLA layers × latent-attention overhead
(the unpacking efficiency is below 1 only for 4-bit weights a GPU has no FP4 tensor cores for,
gpt-oss MXFP4 on Hopper; the FP4 rate has its own fitted efficiency)
and each conversation gets one token per step. Weights read: the dense part every step, and of
the routed experts the share a batch touches, 1 − (1 − k/E)^b. A sequence is on average half-way
through its context, so the KV read per step is half the full-context cache; memory reserves the
full one, in what the serving runtime leaves of each GPU (memory.py `runtime_reserve`: HBM in
GiB, 10 % engine reserve, CUDA context, one prefill chunk's activations). Prefill (time to
first token) is compute-bound: prompt × 2 × active ÷ (rate × prefill efficiency) plus the
per-layer floor; the prompts that keep arriving slow decoding (`PrefillInterleave`).

Capacity (`max_concurrent_users`) is a property of the quote, the model, its precision, the
context and the asked speed, never of the asked user count: the replica plan is the one that
serves the most users at that speed (`replica_plan`), and per-user speed at the load only falls
as users are added.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.model_resolve import ModelFacts
from apps.review.engine.schemas import KvPrecision, Precision, Workload
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.memory import (
    kv_cache_gb,
    serving_activations_gb,
    serving_usable_gb,
)
from apps.review.engine.sizing.quant import (
    FOUR_BIT_COMPUTE,
    kv_bytes_per_value,
    native_support,
    weight_split,
)
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import fabric_name

DESK_FORM_FACTORS = frozenset({"phone", "laptop", "desktop", "workstation"})
BANDWIDTH_EFFICIENCY_DESK = calibration().bandwidth_efficiency_desk
BANDWIDTH_EFFICIENCY_DATACENTER = calibration().bandwidth_efficiency_datacenter
COMPUTE_EFFICIENCY = calibration().compute_efficiency
SPLIT_EFFICIENCY = {"one GPU": 1.0, "NVLink": 1.0, "PCIe": 0.70, "network": 0.50}
MEAN_CONTEXT_SHARE = 0.5
SMALL_BATCH = 8  # below this, datacenter bandwidth efficiency is the least certain
MAX_SLOTS = 1_000_000  # when the KV cache cannot be counted, memory does not limit users


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


def decode_bound_tokens_per_sec(bandwidth_gbs: float, active_weights_gb: float) -> float:
    """The simplest memory-bandwidth bound: 273 GB/s ÷ 32.8 GB ≈ 8.3 tokens/s (DGX Spark)."""
    return bandwidth_gbs / active_weights_gb if active_weights_gb > 0 else 0.0


_RATE_FALLBACKS: dict[str, tuple[tuple[str, float], ...]] = {
    # (field, multiplier): an engine without FP8 runs FP8 weights at its BF16 rate, and so on.
    "fp4": (("fp4_tflops", 1.0), ("fp8_tflops", 1.0), ("bf16_tflops", 1.0)),
    "fp8": (("fp8_tflops", 1.0), ("bf16_tflops", 1.0), ("fp4_tflops", 0.5)),
    "bf16": (("bf16_tflops", 1.0), ("fp8_tflops", 0.5), ("fp4_tflops", 0.25), ("fp32_tflops", 1.0)),
    "fp32": (("fp32_tflops", 1.0),),
}
_RATE_FAMILY = {
    Precision.FP4: "fp4",
    Precision.INT4: "fp4",
    Precision.FP8: "fp8",
    Precision.INT8: "fp8",
    Precision.BF16: "bf16",
    Precision.FP16: "bf16",
    Precision.FP32: "fp32",
    Precision.NVFP4: "fp4",
    Precision.MXFP4: "fp4",
    # weight-only int4 and GGUF formats dequantise and multiply at the BF16 rate
    Precision.AWQ: "bf16",
    Precision.GPTQ: "bf16",
    Precision.Q4_K_M: "bf16",
    Precision.Q5_K_M: "bf16",
    Precision.Q6_K: "bf16",
    Precision.Q8_0: "bf16",
}


def compute_tflops(gpu: GpuSpec, precision: Precision) -> tuple[float | None, str]:
    """Dense TFLOPS of one GPU at the precision, and the catalog field it came from.

    GB10 lists only FP4 (~500, unverified): FP8 is taken as half of it, 250.
    """
    if precision == Precision.FP64:
        rate = gpu.best_fp64_tflops
        return (rate or None), "fp64_tensor_tflops" if gpu.fp64_tensor_tflops else "fp64_tflops"
    for field, multiplier in _RATE_FALLBACKS[_RATE_FAMILY[precision]]:
        value = getattr(gpu, field)
        if value:
            return value * multiplier, field
    return None, ""


def bandwidth_efficiency(gpu: GpuSpec) -> float:
    """The calibrated share of the spec-sheet bandwidth a decode step reaches."""
    if gpu.form_factor in DESK_FORM_FACTORS:
        return calibration().bandwidth_efficiency_desk
    return calibration().bandwidth_efficiency_datacenter


def unpacking_efficiency(gpu: GpuSpec, precision: Precision) -> float:
    """The share of the bandwidth 4-bit weights reach when the GPU has no FP4 tensor cores and
    unpacks them in the kernel (gpt-oss MXFP4 on Hopper); 1 when the format is native."""
    if precision in FOUR_BIT_COMPUTE and not native_support(gpu, precision)[0]:
        return calibration().dequant_read_efficiency
    return 1.0


@dataclass(frozen=True, slots=True)
class ReplicaPlan:
    """One way to serve the load on a vehicle: `replicas` copies of `gpus_per_replica` GPUs."""

    gpus_per_replica: int
    replicas: int
    link: str  # "one GPU", "NVLink", "PCIe" or "network": what joins a replica's GPUs
    bandwidth_gbs: float  # raw, all GPUs of one replica
    effective_bandwidth_gbs: float
    effective_tflops: float | None
    kv_slots: int  # conversations one replica's memory holds at full context
    users_at_speed: int  # conversations one replica serves at the asked speed
    decode_bound: float
    fits: bool
    overhead_seconds: float = 0.0  # per decode step: launches, per-layer collectives, routing
    prefill_tflops: float | None = None
    weight_read_efficiency: float = 1.0  # < 1 when 4-bit weights are unpacked (no FP4 cores)
    #: The link in words, the one every finding names: "the network between 2 NVIDIA DGX
    #: Spark hosts (ConnectX-7, 200 Gb/s per port)" (`link_words`).
    link_text: str = ""

    @property
    def split_penalty(self) -> float:
        """The share of the replica's combined bandwidth and compute the split costs: 0.5 over
        the network (a Rightsize estimate), 0.3 over PCIe, none on one GPU or NVLink."""
        return 1.0 - SPLIT_EFFICIENCY[self.link]

    @property
    def capacity_users(self) -> int:
        return self.replicas * self.users_at_speed

    @property
    def users_by_memory(self) -> int:
        return self.replicas * self.kv_slots

    def step_seconds(self, batch: int, load: ServingLoad) -> float:
        """Time of one decode step with `batch` conversations (memory or compute, plus the
        per-step floor)."""
        return step_seconds(
            batch,
            load=load,
            bandwidth_gbs=self.effective_bandwidth_gbs,
            tflops=self.effective_tflops,
            overhead_seconds=self.overhead_seconds,
            weight_read_efficiency=self.weight_read_efficiency,
        )

    def tokens_per_sec_per_user(self, batch: int, load: ServingLoad) -> float:
        if batch < 1 or not self.fits:
            return 0.0
        return 1.0 / self.step_seconds(batch, load)

    def ttft_seconds(self, load: ServingLoad) -> float | None:
        """Time to first token for one prompt: its FLOPs ÷ usable prefill compute, plus reading
        the weights once and the per-layer floor."""
        if not self.fits or not self.prefill_tflops:
            return None
        return ttft_seconds(
            load,
            prefill_tflops=self.prefill_tflops,
            bandwidth_gbs=self.effective_bandwidth_gbs,
            overhead_seconds=self.overhead_seconds,
        )


def step_seconds(
    batch: int,
    *,
    load: ServingLoad,
    bandwidth_gbs: float,
    tflops: float | None,
    overhead_seconds: float = 0.0,
    weight_read_efficiency: float = 1.0,
) -> float:
    """One decode step: (weights read + batch × KV read) ÷ usable bandwidth, or the FLOPs
    ÷ usable compute when that is slower, plus the per-step overhead. MoE weights read =
    dense part + experts × (1 − (1 − k/E)^batch); 4-bit weights a GPU unpacks in the kernel
    count ÷ the dequantisation efficiency."""
    weights = load.step_read_gb(batch) / weight_read_efficiency
    seconds = (weights + batch * load.kv_mean_gb) / bandwidth_gbs
    if tflops:
        seconds = max(seconds, batch * load.tflop_per_token / tflops)
    return seconds + overhead_seconds


def ttft_seconds(
    load: ServingLoad, *, prefill_tflops: float, bandwidth_gbs: float, overhead_seconds: float
) -> float:
    """Prefill of one prompt: prompt × 2 × active parameters ÷ usable compute, at least one
    read of the weights, plus the per-step floor. Llama-3.1-70B (141 GFLOP a token) with a
    4,096-token prompt on 8 × H200 at 989 × 8 × 0.5 TFLOPS: 4,096 × 0.141 ÷ 3,956 ≈ 0.146 s."""
    compute = load.prompt_tokens * load.tflop_per_token / prefill_tflops
    memory = load.weights_read_gb(load.prompt_tokens) / bandwidth_gbs
    return max(compute, memory) + overhead_seconds


DEFAULT_ANSWER_TOKENS = 512  # an answer's length when the workload gives only the prompt


@dataclass(frozen=True, slots=True)
class PrefillInterleave:
    """Decode slowed by the prompts that arrive while it runs (prefill interleaved with decode,
    as chunked-prefill engines do): each of `batch` conversations on a replica writes
    `answer_tokens` at `speed`, then sends a new prompt that takes `prefill_seconds`."""

    batch: int
    speed: float  # tokens/s per user without arriving prompts
    prefill_seconds: float
    answer_tokens: int

    @property
    def prompts_per_sec(self) -> float:
        """New prompts per second on one replica: batch × speed ÷ answer tokens."""
        return self.batch * self.speed / self.answer_tokens if self.answer_tokens else 0.0

    @property
    def prefill_share(self) -> float:
        """Prefill time per second of decode: prompts per second × prefill time (> 1: the
        replica spends more time reading prompts than writing answers)."""
        return self.prompts_per_sec * self.prefill_seconds

    @property
    def slowed_speed(self) -> float:
        """tokens/s per user with prompts interleaved: speed ÷ (1 + prefill share); 20 users
        at 30 tokens/s writing 512-token answers send 20 × 30 ÷ 512 = 1.17 prompts/s, at
        0.2 s each 0.234 s of prefill a second: 30 ÷ 1.234 = 24.3 tokens/s."""
        return self.speed / (1 + self.prefill_share)


def prefill_interleave(
    batch: int, speed: float, prefill_seconds: float, *, context_tokens: int, prompt_tokens: int
) -> PrefillInterleave:
    """The interleave for a load: the answer is the context after the prompt, or 512 tokens
    when the prompt is the whole context."""
    answer = context_tokens - prompt_tokens if prompt_tokens < context_tokens else 0
    return PrefillInterleave(
        batch=batch,
        speed=speed,
        prefill_seconds=prefill_seconds,
        answer_tokens=answer or DEFAULT_ANSWER_TOKENS,
    )


def step_overhead_seconds(load: ServingLoad, link: str, gpus: int = 1) -> float:
    """The per-step floor: a fixed cost, each layer's kernels, each layer's collective on the
    replica's link (none on one GPU, log2(GPUs) steps of a tree otherwise), each MoE layer's
    routing and dispatch, each latent-attention (MLA) layer's extra kernels."""
    cal = calibration()
    per_layer = cal.layer_overhead_us + cal.collective(link, gpus)
    micro = cal.step_overhead_us + load.layers * per_layer
    if load.is_moe:
        micro += load.layers * cal.moe_layer_overhead_us
    if load.mla:
        micro += load.layers * cal.mla_layer_overhead_us
    return micro / 1e6


def users_at_speed(
    load: ServingLoad,
    *,
    slots: int,
    bandwidth_gbs: float,
    tflops: float | None,
    overhead_seconds: float = 0.0,
    weight_read_efficiency: float = 1.0,
) -> int:
    """The most conversations (≤ slots) one replica serves at the asked speed: the largest
    batch whose step takes at most 1 ÷ speed seconds (step time only grows with the batch,
    so a binary search finds it).

    The search first tries the batch the step-time sum solves to (`_batch_estimate`) and the
    one after it: when the estimate is right, those two steps settle it; when it is not, they
    still only narrow the range the bisection then searches, so the answer is the bisection's
    either way (the serving plan asks this ~80 times a review)."""
    target_seconds = 1.0 / load.tokens_per_sec_per_user

    def fast_enough(batch: int) -> bool:
        seconds = step_seconds(
            batch,
            load=load,
            bandwidth_gbs=bandwidth_gbs,
            tflops=tflops,
            overhead_seconds=overhead_seconds,
            weight_read_efficiency=weight_read_efficiency,
        )
        return seconds <= target_seconds * (1 + 1e-12)

    if slots < 1 or not fast_enough(1):
        return 0
    low, high = 1, slots
    estimate = _batch_estimate(
        load,
        slots=slots,
        seconds=target_seconds - overhead_seconds,
        bandwidth_gbs=bandwidth_gbs,
        tflops=tflops,
        weight_read_efficiency=weight_read_efficiency,
    )
    for probe in (estimate, estimate + 1):
        if low < probe <= high:
            if fast_enough(probe):
                low = probe
            else:
                high = probe - 1
    while low < high:
        mid = (low + high + 1) // 2
        if fast_enough(mid):
            low = mid
        else:
            high = mid - 1
    return low


def _batch_estimate(
    load: ServingLoad,
    *,
    slots: int,
    seconds: float,
    bandwidth_gbs: float,
    tflops: float | None,
    weight_read_efficiency: float,
) -> int:
    """The batch whose step takes `seconds` (the step floor taken off), solved from the
    step-time sum: (weights read + b × KV read) ÷ bandwidth ≤ seconds and b × FLOPs per token
    ÷ compute ≤ seconds. 191.1 GB/s for 1 ÷ 4 s, 32.02 GB of weights and 0.537 GB of KV a
    conversation: (47.78 − 32.02) ÷ 0.537 = 29. MoE weights read grow with the batch, so the
    estimate is refined a few times. Only a starting point for `users_at_speed`'s search."""
    batch = 1
    weights = load.step_read_gb(batch) / weight_read_efficiency
    for _ in range(4):
        bound = float(slots)
        if load.kv_mean_gb > 0:
            bound = min(bound, (seconds * bandwidth_gbs - weights) / load.kv_mean_gb)
        if tflops and load.tflop_per_token > 0:
            bound = min(bound, seconds * tflops / load.tflop_per_token)
        estimate = max(1, min(slots, math.floor(bound))) if bound == bound else 1
        if estimate == batch:
            break
        batch = estimate
        read = load.step_read_gb(batch) / weight_read_efficiency
        if read == weights:  # a dense model reads the same weights at any batch
            break
        weights = read
    return batch


def link_words(vehicle: Vehicle, link: str, gpus_per_replica: int) -> str:
    """What joins one replica's GPUs, as every finding says it. Over the network the hosts are
    named with the port the catalog sources: two DGX Sparks cabled together are "the network
    between 2 NVIDIA DGX Spark hosts (ConnectX-7, 200 Gb/s per port)", never "PCIe"."""
    if link == "one GPU":
        return "one GPU"
    if link == "NVLink":  # the GPUs' own fabric: NVLink, or Infinity Fabric for AMD's
        fabric = fabric_name(vehicle.gpu.interconnect if vehicle.gpu else None)
        return f"{fabric} inside one {vehicle.name}"
    if link == "PCIe":
        return f"PCIe inside one {vehicle.name}"
    hosts = math.ceil(gpus_per_replica / max(vehicle.gpus_per_system, 1))
    port = vehicle.spec.scale_out_link if vehicle.spec is not None else None
    port_text = f" ({port} per port)" if port else ""
    return f"the network between {hosts} {vehicle.name} hosts{port_text}"


def replica_evaluate(vehicle: Vehicle, load: ServingLoad, gpus_per_replica: int) -> ReplicaPlan:
    """Serve the load with replicas of `gpus_per_replica` GPUs of this vehicle line."""
    gpu = vehicle.gpu
    if gpu is None or vehicle.gpus == 0:
        raise ValueError("a vehicle without GPUs serves nothing")
    n = gpus_per_replica
    per_system = vehicle.gpus_per_system
    if n == 1:
        link = "one GPU"
    elif n <= vehicle.domain_gpus:
        link = "NVLink"
    elif n <= per_system:
        link = "PCIe"
    else:
        link = "network"
    replicas = vehicle.quantity * (per_system // n) if n <= per_system else vehicle.gpus // n
    usable = n * serving_usable_gb(gpu, load.activations_gb)
    free = usable - load.weights_gb
    fits = free >= load.kv_full_gb and free > 0 and replicas > 0
    if not fits:
        slots = 0
    elif load.kv_full_gb > 0:
        slots = min(MAX_SLOTS, math.floor(free / load.kv_full_gb))
    else:
        slots = MAX_SLOTS
    raw_bw = n * gpu.bandwidth_tbs * 1000
    split = SPLIT_EFFICIENCY[link]
    tflops, field = compute_tflops(gpu, load.precision)
    usable_bw = raw_bw * bandwidth_efficiency(gpu) * split
    cal = calibration()
    efficiency = cal.compute_efficiency_fp4 if field == "fp4_tflops" else cal.compute_efficiency
    usable_tflops = n * tflops * efficiency * split if tflops else None
    prefill_tflops = n * tflops * cal.prefill_efficiency * split if tflops else None
    overhead = step_overhead_seconds(load, link, n)
    read_efficiency = unpacking_efficiency(gpu, load.precision)
    return ReplicaPlan(
        gpus_per_replica=n,
        replicas=replicas,
        link=link,
        bandwidth_gbs=raw_bw,
        effective_bandwidth_gbs=usable_bw,
        effective_tflops=usable_tflops,
        kv_slots=slots,
        users_at_speed=users_at_speed(
            load,
            slots=slots,
            bandwidth_gbs=usable_bw,
            tflops=usable_tflops,
            overhead_seconds=overhead,
            weight_read_efficiency=read_efficiency,
        ),
        decode_bound=decode_bound_tokens_per_sec(raw_bw, load.active_weights_gb),
        fits=fits,
        overhead_seconds=overhead,
        prefill_tflops=prefill_tflops,
        weight_read_efficiency=read_efficiency,
        link_text=link_words(vehicle, link, n),
    )


MAX_TENSOR_PARALLEL = 64  # engines split one replica at most this wide; beyond it, pipeline
COUPLING_GAIN = 1.25  # a wider replica must serve 25 % more users to be worth its coupling


def tensor_parallel_sizes(vehicle: Vehicle, heads: int | None) -> list[int]:
    """Tensor-parallel sizes one system can run: powers of two that divide the attention heads
    (128 heads split 1, 2, 4, 8 ways, never 5) and the system's GPUs; NVLink joins those up to
    the NVLink domain, PCIe the rest (RTX PRO servers: 2 cards over PCIe)."""
    sizes = []
    size = 1
    per_system = vehicle.gpus_per_system
    while size <= min(per_system, vehicle.gpus, MAX_TENSOR_PARALLEL):
        # the size divides the heads and the system, so no GPU of a system idles (an NVL72
        # runs nine 8-GPU copies, not one of 64 with 8 idle)
        if (heads is None or heads % size == 0) and per_system % size == 0:
            sizes.append(size)
        size *= 2
    return sizes or [1]


def replica_candidates(vehicle: Vehicle, load: ServingLoad) -> list[int]:
    """GPUs per replica worth trying: every tensor-parallel size inside one NVLink domain that
    holds one copy of the weights plus one conversation; when none does, the sizes over PCIe
    inside one system; when none does, pipeline stages of the widest size across systems
    (2 × 8 GPUs over the network) until one holds it."""
    assert vehicle.gpu is not None
    per_gpu = serving_usable_gb(vehicle.gpu, load.activations_gb)
    sizes = tensor_parallel_sizes(vehicle, load.attn_heads)
    holding = [n for n in sizes if n * per_gpu - load.weights_gb >= load.kv_full_gb]
    coupled = [n for n in holding if n <= vehicle.domain_gpus]
    if coupled:  # a copy that fits one NVLink domain is never split over PCIe
        return coupled
    if holding:
        return holding
    widest = sizes[-1]
    if vehicle.is_personal:
        return [widest]  # laptops and phones are separate hosts with no fabric between them
    stages = 2
    while widest * stages <= vehicle.gpus:
        if widest * stages * per_gpu - load.weights_gb >= load.kv_full_gb:
            return [widest * stages]
        stages += 1
    return [widest]  # nothing on the quote holds it: the widest split, marked as not fitting


def _better(plan: ReplicaPlan, best: ReplicaPlan) -> bool:
    """A plan that fits beats one that does not; a wider one must serve 25 % more users; when
    nobody is served at the speed, the one holding more conversations."""
    if plan.fits != best.fits:
        return plan.fits
    if plan.capacity_users > best.capacity_users * COUPLING_GAIN:
        return True
    return best.capacity_users == 0 and plan.users_by_memory > best.users_by_memory


def replica_plan(vehicle: Vehicle, load: ServingLoad) -> ReplicaPlan:
    """The deployment that serves the most users at the asked speed, whatever the asked user
    count: capacity is a property of (vehicle, model, precision, context, speed). A wider
    replica wins only when it serves 25 % more (coupling GPUs costs reliability and
    flexibility for little): Qwen3-32B on a DGX B300 runs one copy per GPU (8 replicas)."""
    best: ReplicaPlan | None = None
    for size in replica_candidates(vehicle, load):
        plan = replica_evaluate(vehicle, load, size)
        if best is None or _better(plan, best):
            best = plan
    assert best is not None  # replica_candidates never returns an empty list
    return best


@dataclass(frozen=True, slots=True)
class FleetServing:
    """The whole quote serving the load: users at the asked speed and the speed at the load."""

    load: ServingLoad
    plans: tuple[tuple[Vehicle, ReplicaPlan], ...]
    max_concurrent_users: int
    users_by_memory: int
    tokens_per_sec_per_user: float
    batch_at_load: int  # conversations per replica on the primary vehicle at the asked load
    decode_bound: float | None
    primary: tuple[Vehicle, ReplicaPlan] | None
    confidence: str
    confidence_reason: str

    @property
    def served_users(self) -> int:
        return min(self.load.users, self.max_concurrent_users)


def fleet_serving(vehicles: Sequence[Vehicle], load: ServingLoad) -> FleetServing:
    """Plan every vehicle line, then share the users out in proportion to what each serves."""
    plans = tuple((v, replica_plan(v, load)) for v in vehicles if v.gpu is not None and v.gpus)
    capacity = sum(p.capacity_users for _, p in plans)
    by_memory = sum(p.users_by_memory for _, p in plans)
    weights = [p.capacity_users if capacity else p.users_by_memory for _, p in plans]
    weight_total = sum(weights)
    speeds: list[float] = []
    batches: list[int] = []
    for (_, plan), weight in zip(plans, weights, strict=True):
        share = load.users * weight / weight_total if weight_total else 0.0
        batch = min(math.ceil(share / plan.replicas), plan.kv_slots) if plan.replicas else 0
        batches.append(batch)
        if share > 0 and batch >= 1:
            speeds.append(plan.tokens_per_sec_per_user(batch, load))
    primary_index = max(range(len(plans)), key=lambda i: weights[i], default=None)
    primary = plans[primary_index] if primary_index is not None else None
    confidence, reason = _confidence(plans, batches, load)
    return FleetServing(
        load=load,
        plans=plans,
        max_concurrent_users=capacity,
        users_by_memory=by_memory,
        tokens_per_sec_per_user=min(speeds) if speeds else 0.0,
        batch_at_load=batches[primary_index] if primary_index is not None else 0,
        decode_bound=primary[1].decode_bound if primary else None,
        primary=primary,
        confidence=confidence,
        confidence_reason=reason,
    )


def uncalibrated_words(gpu: GpuSpec) -> str:
    """Why a data-center GPU outside the fit is an estimate: "the MI300X is outside the
    calibration, which is fitted on NVIDIA GPUs, so this is an estimate from its spec-sheet
    bandwidth and compute alone"."""
    return (
        f"the {gpu.model} is outside the calibration, which is fitted on NVIDIA GPUs, so this is "
        "an estimate from its spec-sheet bandwidth and compute alone"
    )


def _confidence(
    plans: Sequence[tuple[Vehicle, ReplicaPlan]], batches: Sequence[int], load: ServingLoad
) -> tuple[str, str]:
    reasons = []
    for (vehicle, plan), batch in zip(plans, batches, strict=True):
        gpu = vehicle.gpu
        if gpu is not None and not gpu.is_cuda and gpu.form_factor not in DESK_FORM_FACTORS:
            # no measurement of a ROCm engine in the fit: the same roofline on the MI300X's
            # spec-sheet bandwidth and compute, said to be an estimate
            reasons.append(uncalibrated_words(gpu))
        if gpu is not None and gpu.form_factor not in DESK_FORM_FACTORS and batch < SMALL_BATCH:
            reasons.append(f"{gpu.model} at a small batch reaches a less predictable share")
        if plan.link in {"PCIe", "network"}:
            reasons.append(f"a replica is split over {plan.link_text}")
    if load.is_moe:
        reasons.append("which experts a batch touches is estimated")
    if not load.kv_known:
        reasons.append("the KV cache could not be counted")
    if reasons:
        return "low", "; ".join(dict.fromkeys(reasons))
    return "medium", "calibrated on measured DGX Spark decode and TensorRT-LLM throughput"
