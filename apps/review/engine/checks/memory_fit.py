"""memory_fit: does the quote hold the job at all (the bowl must be big enough)?

Inference: one copy of the weights plus one conversation must fit the quote's GPU memory, and
every user's KV cache should fit somewhere. Training: the whole job (16 bytes per parameter plus
activations, or `memory_gb`) must fit the quote. Whether it fits *one NVLink domain* is the
`nvlink_domain` check.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from apps.review.engine.checks._common import FigureRef, finding_make, gpu_figure, num, pct
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding
from apps.review.engine.sizing.memory import (
    RuntimeReserve,
    gpu_memory_words,
    runtime_reserve,
    serving_activations_gb,
)
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import and_list

CHECK = "memory_fit"
TIGHT_SHARE = 0.90


def check(ctx: ReviewContext) -> list[Finding]:
    job = ctx.job
    if job is None:
        return []
    total = ctx.total_memory_gb
    memory_parts = " + ".join(
        f"{v.gpus} × {gpu_memory_words(v.gpu)} {v.gpu.model}" for v in ctx.gpu_vehicles if v.gpu
    )
    quote_text = f"{num(total)} GB on the quote ({memory_parts or 'no GPUs'})"
    runtime = _runtime(ctx) if job.basis == "inference" else None
    metrics: dict[str, object] = {
        "job_memory_gb": round(job.total_gb, 2),
        "unit_memory_gb": round(job.unit_gb, 2),
        "quote_memory_gb": round(total, 2),
        "weights_gb": round(job.weights_gb, 2),
        "kv_per_sequence_gb": round(job.kv_per_sequence_gb, 3),
        "basis": job.basis,
    }
    figures = [gpu_figure(v, "memory_gb") for v in ctx.gpu_vehicles]
    formula = f"{job.formula}; vs {quote_text}"
    notes = f" ({'; '.join(job.notes)})" if job.notes else ""
    what = _job_words(ctx)
    room = total
    if runtime is not None:
        overhead, usable, lines = runtime
        metrics["runtime_overhead_gb"] = round(overhead, 2)
        metrics["usable_memory_gb"] = round(usable, 2)
        formula += "; " + "; ".join(lines)
        notes += f" Runtime: {'; '.join(lines)}."
        room = usable
    if job.unit_gb > room:
        lever = "More GPU memory: a bigger vehicle or more engines"
        if job.basis == "inference":
            lever += ", or a lower precision (FP8 halves BF16 weights, FP4 halves again)"
        return [
            finding_make(
                CHECK,
                "critical",
                "The job is bigger than the whole quote",
                f"{what} needs {num(job.unit_gb)} GB; every GPU on the quote together holds "
                f"{num(total)} GB"
                + (f", {num(room)} GB after the runtime" if room != total else "")
                + f". No arrangement of these engines carries it.{notes}",
                metrics=metrics,
                formula=formula,
                lever=lever + ".",
                figures=figures,
            )
        ]
    serving = ctx.serving
    if (
        job.basis == "inference"
        and serving is not None
        and serving.users_by_memory < ctx.workload.concurrent_users
    ):
        users = ctx.workload.concurrent_users
        metrics["users_by_memory"] = serving.users_by_memory
        return [
            finding_make(
                CHECK,
                "warning",
                "Holds the model, not every conversation",
                f"The weights ({num(job.weights_gb)} GB) fit, but each "
                f"{ctx.workload.context_tokens:,}-token conversation keeps "
                f"{num(job.kv_per_sequence_gb, 2)} GB of KV cache: the "
                f"memory holds {serving.users_by_memory:,} of the {users:,} users at once "
                f"({num(job.total_gb)} GB would hold them all).{notes}",
                metrics=metrics,
                formula=formula,
                lever="More GPU memory or replicas, a shorter context, or fewer concurrent users.",
                figures=figures,
            )
        ]
    if job.total_gb > total * TIGHT_SHARE and job.basis != "inference":
        return [
            finding_make(
                CHECK,
                "warning",
                "Fits, with no room to spare",
                f"{what} needs {num(job.total_gb)} GB of the {num(total)} GB on the quote "
                f"({pct(job.total_gb / total)}): the runtime, buffers and fragmentation need "
                "the rest.",
                metrics=metrics,
                formula=formula,
                lever="Add memory headroom: one more engine, or a larger vehicle.",
                figures=figures,
            )
        ]
    personal = [v for v in ctx.gpu_vehicles if v.is_personal]
    if personal and len(personal) == len(ctx.gpu_vehicles):
        return [_one_device(ctx, personal[0], metrics, figures)]
    share = job.total_gb / total if total else math.inf
    return [
        finding_make(
            CHECK,
            "ok",
            "The job fits in memory",
            f"{what} needs {num(job.total_gb)} GB; the quote holds {num(total)} GB "
            f"({pct(share)} used).{notes}",
            metrics=metrics,
            formula=formula,
            figures=figures,
        )
    ]


def _runtime(ctx: ReviewContext) -> tuple[float, float, list[str]] | None:
    """The serving runtime's share of the quote's memory: (overhead GB, usable GB, one line of
    arithmetic per GPU kind)."""
    if ctx.model is None or not ctx.gpu_vehicles:
        return None
    activations = serving_activations_gb(ctx.model)
    overhead = usable = 0.0
    groups: dict[str, tuple[RuntimeReserve, str, list[Vehicle]]] = {}
    for vehicle in ctx.gpu_vehicles:
        assert vehicle.gpu is not None
        reserve = runtime_reserve(vehicle.gpu, activations)
        overhead += vehicle.gpus * reserve.overhead_gb
        usable += vehicle.gpus * reserve.usable_gb
        groups.setdefault(vehicle.gpu.key, (reserve, vehicle.gpu.model, []))[2].append(vehicle)
    lines = []
    for reserve, model, vehicles in groups.values():
        gpus = sum(v.gpus for v in vehicles)
        line = f"each {model} {reserve.words(gpus)}"
        if len(ctx.gpu_vehicles) > 1:
            line += f": {and_list(f'{v.gpus:,} in the {v.name}' for v in vehicles)}"
        lines.append(line)
    return overhead, usable, lines


def _one_device(
    ctx: ReviewContext,
    device: Vehicle,
    metrics: Mapping[str, object],
    figures: list[FigureRef | None],
) -> Finding:
    """Phones and laptops pool nothing: each is its own host, so the job must fit one of them
    (ten 24 GB laptops are ten 24 GB machines, not one 240 GB pool)."""
    job = ctx.job
    assert job is not None
    held = device.system_memory_gb
    word = "phone" if device.system.form_factor == "phone" else "laptop"
    count = sum(v.quantity for v in ctx.gpu_vehicles)
    each = ""
    if count > 1:
        each = f"; the {count:,} {word}s are {count:,} separate hosts, not one pool"
    piece = "one copy of the weights plus one conversation" if job.basis == "inference" else "it"
    metrics = {**metrics, "device_memory_gb": round(held, 2), "devices": count}
    engine = device.gpu.model if device.gpu is not None else "no GPU"
    formula = f"{job.formula}; vs {num(held)} GB on one {word} ({engine})"
    if job.unit_gb > held:
        return finding_make(
            CHECK,
            "critical",
            f"The job is bigger than one {word}",
            f"{_job_words(ctx)} needs {num(job.unit_gb)} GB for {piece}; one {device.name} "
            f"holds {num(held)} GB{each}. Nothing joins them into a bigger bowl.",
            metrics=metrics,
            formula=formula,
            lever="A machine with more memory for this model (the right fit below), or a "
            "smaller model or lower precision for the laptop.",
            figures=figures,
        )
    return finding_make(
        CHECK,
        "ok",
        f"The job fits one {word}",
        f"{_job_words(ctx)}: {piece} ({num(job.unit_gb)} GB) fits the {num(held)} GB of one "
        f"{device.name} ({pct(job.unit_gb / held)} used){each}.",
        metrics=metrics,
        formula=formula,
        figures=figures,
    )


def _job_words(ctx: ReviewContext) -> str:
    """ "Qwen3-32B in BF16 for 1 user" / "The 512 GB fine-tuning job"."""
    job = ctx.job
    kind = ctx.workload.kind.value.replace("_", "-")
    if job is None or job.basis == "override" or ctx.model is None:
        return f"The {kind} job"
    if job.basis == "inference":
        users = ctx.workload.concurrent_users
        return (
            f"{ctx.model.name} in {ctx.workload.precision.value.upper()} for {users:,} "
            f"user{'s' if users != 1 else ''}"
        )
    return f"{kind.capitalize()} {ctx.model.name}"
