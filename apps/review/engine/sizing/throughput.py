"""How fast, for how many: the bandwidth bound and a roofline estimate of users served.

The bound (CONTRACT.md `decode_tokens_per_sec_bound`) is the field guide's simplest sum: one
conversation reads every active weight once per token, so tokens/s ≤ bandwidth ÷ bytes of active
weights. Qwen3-32B at 8 bits on a 273 GB/s DGX Spark: 273 ÷ 32.8 ≈ 8.3 tokens/s. It counts
weights only; the KV cache read is left to the realistic estimate.

The realistic estimate is a roofline per batch step of one replica serving `b` conversations:
  step time = max( (weights touched + b × KV read per sequence) ÷ (bandwidth × efficiency),
                   b × 2 × active parameters ÷ (FLOPS × compute efficiency) )
and each conversation gets one token per step. A sequence is on average half-way through its
context, so the KV read per step is half the full-context cache; memory reserves the full one.

Calibration (shared/reference/measured.md):
- bandwidth efficiency 0.70 on desk-class engines (GB10, RTX PRO, DGX Station): single-stream
  decode on the DGX Spark lands at 60-87 % of the bound (Qwen3-8B BF16 vLLM 13.1 of 18.0 = 73 %);
- 0.60 on datacenter engines, which reach a lower share of their much higher bandwidth at batch 1;
- compute efficiency 0.50 of the dense tensor rate (TensorRT-LLM H200 FP8 Llama-3.3-70B 128/128:
  3,803 output tok/s, about half the FP8 roofline once prefill is counted);
- a replica split over PCIe keeps 0.70 of that (RTX PRO 6000 8-GPU PCIe vs B200 NVLink on
  Llama-3.1-405B), one split over the network 0.50.
Confidence is "medium" where these were measured and "low" elsewhere (datacenter GPUs at small
batch, MoE expert routing, PCIe or network splits, unknown KV shape).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.model_resolve import ModelFacts
from apps.review.engine.schemas import Precision, Workload
from apps.review.engine.sizing.memory import (
    USABLE_MEMORY_FRACTION,
    kv_bytes_per_value,
    kv_cache_gb,
    weights_gb,
)
from apps.review.engine.sizing.vehicle import Vehicle

DESK_FORM_FACTORS = frozenset({"phone", "laptop", "desktop", "workstation"})
BANDWIDTH_EFFICIENCY_DESK = 0.70
BANDWIDTH_EFFICIENCY_DATACENTER = 0.60
COMPUTE_EFFICIENCY = 0.50
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

    @property
    def active_share(self) -> float:
        return self.active_weights_gb / self.weights_gb if self.weights_gb else 1.0

    @property
    def is_moe(self) -> bool:
        return self.active_share < 1.0

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
) -> ServingLoad:
    """Bytes and FLOPs per token for `users` conversations of `context_tokens` each."""
    bytes_per_param = precision.bytes_per_param
    kv_bytes = kv_bytes_per_value(precision)
    full = kv_cache_gb(model, context_tokens=context_tokens, bytes_per_value=kv_bytes)
    mean_tokens = max(1, round(context_tokens * MEAN_CONTEXT_SHARE))
    mean = kv_cache_gb(model, context_tokens=mean_tokens, bytes_per_value=kv_bytes)
    return ServingLoad(
        model_name=model.name,
        precision=precision,
        users=users,
        tokens_per_sec_per_user=tokens_per_sec_per_user,
        context_tokens=context_tokens,
        weights_gb=weights_gb(model.total_params_b, bytes_per_param),
        active_weights_gb=weights_gb(model.active_params_b, bytes_per_param),
        kv_full_gb=full or 0.0,
        kv_mean_gb=mean or 0.0,
        tflop_per_token=2 * model.active_params_b / 1000,
        kv_known=full is not None,
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
    if gpu.form_factor in DESK_FORM_FACTORS:
        return BANDWIDTH_EFFICIENCY_DESK
    return BANDWIDTH_EFFICIENCY_DATACENTER


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

    @property
    def capacity_users(self) -> int:
        return self.replicas * self.users_at_speed

    @property
    def users_by_memory(self) -> int:
        return self.replicas * self.kv_slots

    def step_seconds(self, batch: int, load: ServingLoad) -> float:
        """Time of one decode step with `batch` conversations (roofline: memory or compute)."""
        return step_seconds(
            batch,
            load=load,
            bandwidth_gbs=self.effective_bandwidth_gbs,
            tflops=self.effective_tflops,
        )

    def tokens_per_sec_per_user(self, batch: int, load: ServingLoad) -> float:
        if batch < 1 or not self.fits:
            return 0.0
        return 1.0 / self.step_seconds(batch, load)


def step_seconds(
    batch: int, *, load: ServingLoad, bandwidth_gbs: float, tflops: float | None
) -> float:
    """One decode step: (weights touched + batch × KV read) ÷ usable bandwidth, or the FLOPs
    ÷ usable compute when that is slower. MoE weights touched = 1 − (1 − active share)^batch."""
    touched = 1.0 - (1.0 - load.active_share) ** batch
    seconds = (load.weights_gb * touched + batch * load.kv_mean_gb) / bandwidth_gbs
    if tflops:
        seconds = max(seconds, batch * load.tflop_per_token / tflops)
    return seconds


def users_at_speed(
    load: ServingLoad, *, slots: int, bandwidth_gbs: float, tflops: float | None
) -> int:
    """The most conversations (≤ slots) one replica serves at the asked speed.

    Each step must take at most 1 ÷ speed seconds, so memory allows
    b ≤ (seconds × bandwidth − weights touched) ÷ KV per conversation and compute allows
    b ≤ seconds × TFLOPS ÷ TFLOP per token. For a dense model that is the answer; for MoE the
    weights touched grow with b, so a binary search runs below that ceiling.
    """
    target_seconds = 1.0 / load.tokens_per_sec_per_user
    spare_gb = target_seconds * bandwidth_gbs - load.weights_gb * load.active_share
    if slots < 1 or spare_gb < 0:
        return 0
    ceiling = float(slots)
    if load.kv_mean_gb > 0:
        ceiling = min(ceiling, spare_gb / load.kv_mean_gb)
    if tflops:
        ceiling = min(ceiling, target_seconds * tflops / load.tflop_per_token)
    high = math.floor(ceiling + 1e-9)
    if high < 1 or not load.is_moe:
        return max(0, high)

    def fast_enough(batch: int) -> bool:
        return (
            step_seconds(batch, load=load, bandwidth_gbs=bandwidth_gbs, tflops=tflops)
            <= target_seconds
        )

    if not fast_enough(1):
        return 0
    low = 1
    while low < high:
        mid = (low + high + 1) // 2
        if fast_enough(mid):
            low = mid
        else:
            high = mid - 1
    return low


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
    usable = n * gpu.memory_gb * USABLE_MEMORY_FRACTION
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
    tflops, _ = compute_tflops(gpu, load.precision)
    usable_bw = raw_bw * bandwidth_efficiency(gpu) * split
    usable_tflops = n * tflops * COMPUTE_EFFICIENCY * split if tflops else None
    return ReplicaPlan(
        gpus_per_replica=n,
        replicas=replicas,
        link=link,
        bandwidth_gbs=raw_bw,
        effective_bandwidth_gbs=usable_bw,
        effective_tflops=usable_tflops,
        kv_slots=slots,
        users_at_speed=users_at_speed(
            load, slots=slots, bandwidth_gbs=usable_bw, tflops=usable_tflops
        ),
        decode_bound=decode_bound_tokens_per_sec(raw_bw, load.active_weights_gb),
        fits=fits,
    )


def replica_candidates(vehicle: Vehicle, load: ServingLoad) -> list[int]:
    """Replica sizes worth trying: the fewest GPUs that hold one copy, then doublings."""
    per_gpu = vehicle.gpu_memory_gb * USABLE_MEMORY_FRACTION
    smallest = max(1, math.ceil(load.unit_gb / per_gpu)) if per_gpu > 0 else 1
    total = vehicle.gpus
    if smallest > total:
        return [smallest]
    sizes = {smallest}
    size = 1
    while size <= total:
        if size > smallest:
            sizes.add(size)
        size *= 2
    for natural in (vehicle.domain_gpus, vehicle.gpus_per_system):
        if smallest <= natural <= total:
            sizes.add(natural)
    return sorted(sizes)


def replica_plan(vehicle: Vehicle, load: ServingLoad) -> ReplicaPlan:
    """The fewest GPUs per replica that serve every user at the asked speed; when no size does,
    the size that serves the most (ties: fewer GPUs). Qwen3-32B on a DGX B300 runs one copy per
    GPU (8 replicas), not one copy over all eight."""
    best: ReplicaPlan | None = None
    for size in replica_candidates(vehicle, load):
        plan = replica_evaluate(vehicle, load, size)
        if plan.capacity_users >= load.users:
            return plan
        more_served = best is None or plan.capacity_users > best.capacity_users
        more_held = (
            best is not None
            and best.capacity_users == 0
            and plan.users_by_memory > best.users_by_memory
        )
        if more_served or more_held:
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


def _confidence(
    plans: Sequence[tuple[Vehicle, ReplicaPlan]], batches: Sequence[int], load: ServingLoad
) -> tuple[str, str]:
    reasons = []
    for (vehicle, plan), batch in zip(plans, batches, strict=True):
        gpu = vehicle.gpu
        if gpu is not None and gpu.form_factor not in DESK_FORM_FACTORS and batch < SMALL_BATCH:
            reasons.append(f"{gpu.model} at a small batch reaches a less predictable share")
        if plan.link in {"PCIe", "network"}:
            reasons.append(f"a replica is split over {plan.link}")
    if load.is_moe:
        reasons.append("which experts a batch touches is estimated")
    if not load.kv_known:
        reasons.append("the KV cache could not be counted")
    if reasons:
        return "low", "; ".join(dict.fromkeys(reasons))
    return "medium", "calibrated on measured DGX Spark decode and TensorRT-LLM throughput"
