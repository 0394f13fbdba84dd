"""throughput: how many users the quote serves at the asked speed (the school bus's seats).

Fewer than half the users served is critical, fewer than all a warning. The field guide's desk
lines ("Breakfast for one… hopeless for a department") only for a desk vehicle that seats one;
a semi short of seats for 5,000 users is "Seats for 1,200 of 5,000 users". The finding shows
the field guide's bound (bandwidth ÷ bytes per token) and the realistic roofline estimate with
its confidence.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, gpu_figure, num
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, WorkloadKind
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.gpu_rates import DESK_FORM_FACTORS
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import every, plural, vehicle_name

CHECK = "throughput"


def check(ctx: ReviewContext) -> list[Finding]:
    serving = ctx.serving
    if serving is None:
        return []
    load = serving.load
    users = load.users
    asked = load.tokens_per_sec_per_user
    served = serving.served_users
    metrics = {
        "decode_tokens_per_sec_bound": _round(serving.decode_bound),
        "tokens_per_sec_per_user": round(serving.tokens_per_sec_per_user, 2),
        "max_concurrent_users": serving.max_concurrent_users,
        "users": users,
        "asked_tokens_per_sec_per_user": asked,
        "confidence": serving.confidence,
    }
    if serving.primary is None:
        return [
            finding_make(
                CHECK,
                "critical",
                "No engine to serve anyone",
                "There are no GPUs on the quote.",
                metrics=metrics,
                lever="Quote a vehicle with engines.",
            )
        ]
    vehicle, plan = serving.primary
    gpu = vehicle.gpu
    assert gpu is not None
    metrics |= {
        "gpus_per_replica": plan.gpus_per_replica,
        "replicas": sum(p.replicas for _, p in serving.plans),
        "conversations_per_replica_by_memory": plan.kv_slots,
        "link": plan.link,
        "step_floor_ms": round(plan.overhead_seconds * 1000, 3),
        "kv_bytes_per_value": load.kv_bytes,
    }
    bound_text = (
        f"{num(plan.bandwidth_gbs)} GB/s ÷ {num(load.active_weights_gb)} GB = "
        f"{num(plan.decode_bound)} tok/s"
    )
    compute = (
        f", {num(plan.effective_tflops)} TFLOPS usable" if plan.effective_tflops is not None else ""
    )
    formula = (
        f"bound: {bound_text}; step per replica = max((weights read + batch × "
        f"{num(load.kv_mean_gb, 2)} GB KV) ÷ {num(plan.effective_bandwidth_gbs)} GB/s usable, "
        f"batch × {num(load.tflop_per_token, 3)} TFLOP ÷ usable compute{compute} at "
        f"{calibration().compute_efficiency:.0%}) + {num(plan.overhead_seconds * 1000, 2)} ms "
        f"per-step floor ({load.layers} layers: kernels, collectives"
        f"{', expert routing' if load.is_moe else ''}); calibrated on aiconfigurator 0.12"
    )
    if not gpu.is_cuda and gpu.form_factor not in DESK_FORM_FACTORS:
        formula += f" (NVIDIA GPUs; the {gpu.model} is not in it: an estimate)"
    replica = (
        f"one replica on {plan.gpus_per_replica} × {gpu.model}"
        if plan.gpus_per_replica > 1
        else f"one {gpu.model}"
    )
    split_text = f", split over {plan.link_text}," if plan.gpus_per_replica > 1 else ""
    intro = (
        f"Using the simplest memory-bandwidth calculation, {load.model_name} at "
        f"{load.precision.value.upper()} on {replica} ({num(plan.bandwidth_gbs)} GB/s)"
        f"{split_text} reads "
        f"{num(load.active_weights_gb)} GB of weights per token: about "
        f"{num(plan.decode_bound)} tokens/s for a single conversation."
    )
    estimate = (
        f" With {users:,} user{'s' if users != 1 else ''} at {load.context_tokens:,} tokens of "
        f"context the estimate is {num(serving.tokens_per_sec_per_user)} tokens/s each, and the "
        f"quote serves {plural(serving.max_concurrent_users, 'user')} at the asked "
        f"{num(asked)} tokens/s "
        f"({serving.confidence} confidence: {serving.confidence_reason})."
    )
    figures = [gpu_figure(v, "bandwidth_tbs") for v, _ in serving.plans]
    figures += [gpu_figure(v, "memory_gb") for v, _ in serving.plans]
    lever = (
        "More bandwidth per conversation: more replicas (GPUs or systems), a faster engine, or a "
        "lower precision (FP8 halves the bytes read per token); or ask less speed per user."
    )
    personal = [v for v in ctx.gpu_vehicles if v.is_personal]
    devices = sum(v.quantity for v in personal)
    developers = ctx.workload.kind == WorkloadKind.DEVELOPMENT
    if personal and len(personal) == len(ctx.gpu_vehicles) and not developers and users > devices:
        # "Nobody runs a factory from a motorcycle": a department's production load on phones
        # or laptops is the guide's mismatch whatever the arithmetic says, since each device
        # is its own host for one or two riders.
        kind = vehicle_name(vehicle.system.form_factor)
        return [
            finding_make(
                CHECK,
                "critical",
                f"Nobody runs a factory from a {kind}",
                intro
                + f" The {devices:,} {_device_word(vehicle, devices)} on the quote are {devices:,} "
                f"separate hosts, each built for one or two riders; {users:,} users sharing one "
                f"{ctx.workload.kind.value.replace('_', '-')} service are a department's "
                "production workload, and that is not what this vehicle is for.",
                metrics=metrics | {"devices": devices},
                formula=formula,
                lever="Keep the laptops for the people who carry them; serve the department from "
                "the right fit below (a workstation or a server), then scale out.",
                figures=figures,
            )
        ]
    one_each = developers and served >= users and users <= max(devices, 1)
    at_the_desk_alone = vehicle.system.form_factor in DESK_FORM_FACTORS and users <= 1
    if one_each and (personal or at_the_desk_alone):
        # The guide's "Fine for one developer ... Breakfast for one": only where one developer
        # is each machine's load.
        each = f" on each of the {devices:,}" if devices > 1 else ""
        breakfast = (
            f" One developer per {_device_word(vehicle, 1)}{each}: fine for learning the "
            "software and testing an application. Breakfast for one."
        )
        return [
            finding_make(
                CHECK,
                "ok",
                f"Serves {every(users, 'user')} at {num(asked)} tokens/s",
                intro + estimate + breakfast,
                metrics=metrics,
                formula=formula,
                figures=figures,
            )
        ]
    if served < users / 2:
        # The field guide's desk-machine lines ("Breakfast for one", "hopeless for a
        # department") describe a Spark-sized vehicle; a semi that seats 1,200 of 5,000 users is
        # short of seats, not a breakfast for one.
        at_the_desk = vehicle.system.form_factor in DESK_FORM_FACTORS
        if users <= 1:
            title = "Too slow for even one conversation"
            tail = ""
        elif at_the_desk and served <= 1:
            title = "Breakfast for one, and no friends are coming over"
            tail = " Hopeless for a department needing a production workload."
        else:
            title = f"Seats for {served:,} of {users:,} users"
            fleet = f" about {-(-users // served):,}× the engines quoted" if served else ""
            tail = (
                f" Fewer than half of the riders get a seat: the load needs{fleet or ' more'}"
                f"{'' if served else ' engines than this vehicle has'}."
            )
        return [
            finding_make(
                CHECK,
                "critical",
                title,
                intro + estimate + tail,
                metrics=metrics,
                formula=formula,
                lever=lever,
                figures=figures,
            )
        ]
    if served < users:
        return [
            finding_make(
                CHECK,
                "warning",
                f"Seats for {served:,} of {users:,} users",
                intro + estimate + " The rest wait for a seat or get a slower ride.",
                metrics=metrics,
                formula=formula,
                lever=lever,
                figures=figures,
            )
        ]
    return [
        finding_make(
            CHECK,
            "ok",
            f"Serves {every(users, 'user')} at {num(asked)} tokens/s",
            intro + estimate,
            metrics=metrics,
            formula=formula,
            figures=figures,
        )
    ]


def _round(value: float | None) -> float | None:
    return round(value, 2) if value is not None else None


def _device_word(vehicle: Vehicle, count: int) -> str:
    """ "laptop(s)" or "phone(s)" for a personal vehicle, its name otherwise."""
    word = {"laptop": "laptop", "phone": "phone"}.get(vehicle.system.form_factor)
    if word is None:
        return vehicle.name
    return word if count == 1 else f"{word}s"
