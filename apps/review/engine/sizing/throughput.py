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

The load in bytes and FLOPs is ``serving_load``, what one GPU reaches of its spec sheet
``gpu_rates``, the step and prefill arithmetic ``step_time``; this module plans the replicas
and shares the users out over the quote.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.gpu_rates import (
    DESK_FORM_FACTORS,
    bandwidth_efficiency,
    compute_tflops,
    unpacking_efficiency,
)
from apps.review.engine.sizing.memory import serving_usable_gb
from apps.review.engine.sizing.serving_load import ServingLoad
from apps.review.engine.sizing.step_time import (
    decode_bound_tokens_per_sec,
    step_overhead_seconds,
    step_seconds,
    ttft_seconds,
    users_at_speed,
)
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import fabric_name

SPLIT_EFFICIENCY = {"one GPU": 1.0, "NVLink": 1.0, "PCIe": 0.70, "network": 0.50}
SMALL_BATCH = 8  # below this, datacenter bandwidth efficiency is the least certain
MAX_SLOTS = 1_000_000  # when the KV cache cannot be counted, memory does not limit users


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
