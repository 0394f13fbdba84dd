"""What the load asks for, and how much of it one vehicle carries.

A load becomes one number in one unit (`Demand`): 100 users at 15 tokens/s, 100 FP64 TFLOPS,
or one 512 GB fine-tuning job that must ride in one NVLink domain. `serves` says how much of
it one system carries (a DGX H100: 8 × 80 GB × 0.9 = 576 GB ≥ 512 GB), or why it carries none,
and `quantity_for` scales out: ⌈100 users ÷ 192 per system⌉ = 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from apps.review.engine.checks._common import num, plural
from apps.review.engine.model_resolve import ModelFacts
from apps.review.engine.schemas import Workload, WorkloadKind
from apps.review.engine.sizing.fp64 import fp64_fleet
from apps.review.engine.sizing.memory import (
    USABLE_MEMORY_FRACTION,
    JobMemory,
    gpu_memory_words,
    job_memory,
)
from apps.review.engine.sizing.serving_load import ServingLoad, workload_serving_load
from apps.review.engine.sizing.throughput import ReplicaPlan, replica_candidates, replica_evaluate
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "recommendation"
SERVING_KINDS = frozenset(
    {WorkloadKind.INFERENCE, WorkloadKind.RAG, WorkloadKind.DEVELOPMENT, WorkloadKind.VISION}
)
ONE_DOMAIN_KINDS = frozenset({WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING, WorkloadKind.LORA})

Basis = Literal["users", "fp64", "memory"]
# A full fine-tune or training run is a cement-truck job: "it wants an eight-GPU node to start"
# (the field guide); a 4-way NVLink bridge of PCIe cards holds 4 × 141 GiB = 605.6 GB but
# "is a poor vehicle for a job that needs eight GPUs talking at memory speed". LoRA is the
# lighter fine-tuning a work van carries.
SEMI_KINDS = frozenset({WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING})
NVSWITCH_DOMAIN_GPUS = 8
# "Hopeless for a department needing to host a production workload" (the field guide on desk
# vehicles): production serving for more than a small team goes on a server, whatever a
# workstation's memory could hold (with FP8 KV a 4 × RTX PRO Max-Q holds ~196 conversations).
PRODUCTION_KINDS = frozenset({WorkloadKind.INFERENCE, WorkloadKind.RAG, WorkloadKind.VISION})
DESK_TEAM_USERS = 10  # the most concurrent users a desk-side vehicle is offered for


def served_unit(basis: Basis, *, tokens_per_sec_per_user: float | None = None) -> str:
    """What one served unit is, for `why` and for compare: "user at 15 tokens/s"."""
    if basis == "users":
        return f"user at {num(tokens_per_sec_per_user or 0)} tokens/s"
    if basis == "fp64":
        return "FP64 TFLOPS"
    return "GB of one-domain memory"


@dataclass(frozen=True, slots=True)
class Demand:
    """What the load asks for, in the unit the systems are counted in.

    users: 100 conversations at 15 tokens/s; fp64: 100 TFLOPS; memory: one 512 GB job.
    """

    basis: Basis
    amount: float
    words: str  # "the 512 GB fine-tuning job"
    unit: str
    job: JobMemory | None = None
    load: ServingLoad | None = None
    min_domain_gpus: int = 1  # 8 for training and full fine-tuning: an NVSwitch semi or more
    on_a_desk: bool = True  # False for a department's production serving: a server's job


def _kind_words(kind: WorkloadKind) -> str:
    return {"fine_tuning": "fine-tuning", "lora": "LoRA", "hpc": "HPC"}.get(kind.value, kind.value)


def demand_of(workload: Workload, model: ModelFacts | None) -> Demand | None:
    """The load as a number to serve; None when it gives nothing to size (VDI without a model)."""
    job = job_memory(workload, model)
    if workload.fp64_tflops is not None:
        return Demand(
            basis="fp64",
            amount=workload.fp64_tflops,
            words=f"{workload.name} ({num(workload.fp64_tflops)} FP64 TFLOPS)",
            unit=served_unit("fp64"),
            job=job,
        )
    if model is not None and workload.kind in SERVING_KINDS:
        load = workload_serving_load(workload, model)
        speed = workload.tokens_per_sec_per_user
        return Demand(
            basis="users",
            amount=float(workload.concurrent_users),
            words=(
                f"{model.name} at {workload.precision.value.upper()} for "
                f"{plural(workload.concurrent_users, 'user')} at {num(speed)} tokens/s"
            ),
            unit=served_unit("users", tokens_per_sec_per_user=speed),
            job=job,
            load=load,
            on_a_desk=workload.kind not in PRODUCTION_KINDS
            or workload.concurrent_users <= DESK_TEAM_USERS,
        )
    if job is not None:
        return Demand(
            basis="memory",
            amount=job.unit_gb,
            words=f"the {num(job.unit_gb)} GB {_kind_words(workload.kind)} job",
            unit=served_unit("memory"),
            min_domain_gpus=NVSWITCH_DOMAIN_GPUS if workload.kind in SEMI_KINDS else 1,
            job=job,
        )
    return None


# --- 1 and 2: hold the biggest job, then scale out ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Serves:
    per_system: float  # 0 when it cannot serve; `how` then says why
    how: str


def _serves_memory(vehicle: Vehicle, gb: float, words: str, min_domain_gpus: int = 1) -> Serves:
    """One domain must hold the job at 90 %: 8 × 80 GiB × 0.9 = 8 × 85.9 × 0.9 = 618.4 GB
    ≥ 512 GB."""
    usable = vehicle.domain_memory_gb * USABLE_MEMORY_FRACTION
    gpu = vehicle.gpu
    assert gpu is not None
    domain = (
        f"one {vehicle.domain_gpus}-GPU NVLink domain of {vehicle.domain_gpus} × "
        f"{gpu_memory_words(gpu)} = {num(vehicle.domain_memory_gb)} GB"
        if vehicle.domain_gpus > 1
        else f"one {gpu.model} of {gpu_memory_words(gpu)} (no NVLink to a neighbour)"
    )
    if usable < gb:
        return Serves(0.0, f"{domain} holds {num(usable)} GB usable, less than {num(gb)} GB")
    if vehicle.domain_gpus < min_domain_gpus:
        return Serves(
            0.0,
            f"{domain} holds {num(usable)} GB usable, but {words} wants an NVSwitch domain of "
            f"at least {min_domain_gpus} GPUs talking at memory speed, not "
            f"{vehicle.domain_gpus} joined by a bridge or PCIe",
        )
    return Serves(gb, f"{words} fits {domain} ({num(usable)} GB usable at 90 %)")


def _best_replica(vehicle: Vehicle, load: ServingLoad) -> ReplicaPlan | None:
    """The replica size inside one NVLink domain that serves the most users at the asked speed
    (ties: fewer GPUs). Sizes come from `replica_candidates`; PCIe splits are not offered."""
    best: ReplicaPlan | None = None
    for size in replica_candidates(vehicle, load):
        if size > vehicle.domain_gpus:
            continue
        plan = replica_evaluate(vehicle, load, size)
        if plan.fits and (best is None or plan.capacity_users > best.capacity_users):
            best = plan
    return best


def _serves_users(vehicle: Vehicle, demand: Demand) -> Serves:
    load = demand.load
    assert load is not None and vehicle.gpu is not None
    job = demand.job
    if job is not None and job.basis == "override":
        held = _serves_memory(vehicle, job.unit_gb, f"the {num(job.unit_gb)} GB job")
        if not held.per_system:
            return held
    plan = _best_replica(vehicle, load)
    if plan is None:
        return Serves(
            0.0,
            f"one copy of the weights plus one conversation ({num(load.unit_gb)} GB) does not "
            f"fit one {num(vehicle.domain_memory_gb)} GB NVLink domain",
        )
    if plan.users_at_speed < 1:
        speed = num(load.tokens_per_sec_per_user)
        return Serves(0.0, f"too slow: not one conversation reaches {speed} tokens/s")
    copies = "one copy of the model" if plan.replicas == 1 else f"{plan.replicas} copies of it"
    where = (
        "one per GPU"
        if plan.gpus_per_replica == 1
        else f"each on {plan.gpus_per_replica} GPUs joined by NVLink"
    )
    return Serves(
        float(plan.capacity_users),
        f"{copies}, {where}, {plural(plan.users_at_speed, 'user')} apiece at "
        f"{num(load.tokens_per_sec_per_user)} tokens/s: {plan.replicas} × "
        f"{plan.users_at_speed:,} = {plural(plan.capacity_users, 'user')} per system",
    )


def _serves_fp64(vehicle: Vehicle) -> Serves:
    """8 × 67 = 536 TFLOPS for a DGX H100; a B300 (1.25 each) is a muscle car and is skipped."""
    fleet = fp64_fleet([vehicle])
    gpu = vehicle.gpu
    assert gpu is not None
    if fleet.muscle_cars or fleet.best_tflops <= 0:
        return Serves(0.0, f"{gpu.model} is not a significant source of FP64")
    return Serves(
        fleet.best_tflops,
        f"{vehicle.gpus} × {num(gpu.best_fp64_tflops)} = {num(fleet.best_tflops)} FP64 TFLOPS "
        "per system",
    )


def serves(vehicle: Vehicle, demand: Demand) -> Serves:
    """How much of the demand one system serves, or why it serves none of it."""
    if demand.basis == "memory":
        assert demand.job is not None
        return _serves_memory(vehicle, demand.job.unit_gb, demand.words, demand.min_domain_gpus)
    if demand.basis == "users":
        return _serves_users(vehicle, demand)
    return _serves_fp64(vehicle)


def quantity_for(vehicle: Vehicle, demand: Demand, per_system: float) -> int:
    """Systems to serve the demand: ⌈100 users ÷ 192 per system⌉ = 1; one domain per training
    job; for HPC also enough memory when `memory_gb` is given (spread over the fleet)."""
    if demand.basis == "memory":
        return 1
    count = max(1, math.ceil(demand.amount / per_system - 1e-9))
    job = demand.job
    if demand.basis == "fp64" and job is not None:
        per_system_gb = vehicle.system_memory_gb * USABLE_MEMORY_FRACTION
        if per_system_gb > 0:
            count = max(count, math.ceil(job.total_gb / per_system_gb - 1e-9))
    return count
