"""context_length and precision_support: what the model and the engines can actually run.

- context_length: a context beyond the model's maximum (200k tokens on a 41k-token Qwen3) is
  not a bigger bowl, it is a load the model cannot carry: critical.
- precision_support: FP4 tensor cores arrive with Blackwell, FP8 with Ada and Hopper. On older
  engines the format is stored and dequantised to BF16: the memory saving stays, the compute
  runs at the BF16 rate (a warning, with what it costs).
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.checks._common import finding_make, num
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding
from apps.review.engine.sizing.gpu_rates import compute_tflops
from apps.review.engine.sizing.quant import kv_precision_words, native_support
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import and_list

CONTEXT = "context_length"
PRECISION = "precision_support"


def context_check(ctx: ReviewContext) -> list[Finding]:
    model = ctx.model
    if model is None or not model.max_context or ctx.job is None or ctx.job.basis == "override":
        return []
    asked = ctx.workload.context_tokens
    limit = model.max_context
    metrics = {"context_tokens": asked, "model_max_context": limit}
    formula = f"{asked:,} tokens asked vs {limit:,} the model takes"
    if asked > limit:
        return [
            finding_make(
                CONTEXT,
                "critical",
                "Longer than the model reads",
                f"{model.name} takes at most {limit:,} tokens of context; {asked:,} were asked. "
                "No quote fixes that: the load needs a longer-context model or a shorter "
                "context (retrieval that sends less).",
                metrics=metrics,
                formula=formula,
                lever="A model with a longer context, or a shorter context per conversation.",
            )
        ]
    return [
        finding_make(
            CONTEXT,
            "ok",
            "Within the model's context",
            f"{asked:,} tokens of context fit {model.name}'s {limit:,}.",
            metrics=metrics,
            formula=formula,
        )
    ]


def precision_check(ctx: ReviewContext) -> list[Finding]:
    if ctx.model is None or ctx.serving is None:
        return []
    precision = ctx.workload.precision
    kv_words = kv_precision_words(precision, ctx.workload.kv_precision)
    findings = []
    for gpu, machines in _by_gpu(ctx.gpu_vehicles):
        native, why = native_support(gpu, precision)
        on = f" (on the {and_list(machines)})" if len(machines) > 1 else ""
        metrics = {
            "precision": precision.value,
            "gpu": gpu.model,
            "native": native,
            "kv_cache": kv_words,
            "systems": machines,
        }
        if native:
            findings.append(
                finding_make(
                    PRECISION,
                    "ok",
                    f"{gpu.model} runs {precision.value.upper()} natively",
                    f"{precision.value.upper()} weights on {gpu.model}{on}; {kv_words}.",
                    metrics=metrics,
                )
            )
            continue
        rate, field = compute_tflops(gpu, precision)
        bf16 = gpu.bf16_tflops
        cost = (
            f" Compute runs at the {field.removesuffix('_tflops').upper()} rate "
            f"({num(rate)} TFLOPS dense per GPU"
            + (f", the BF16 rate is {num(bf16)}" if bf16 else "")
            + "): the memory saving stays, the speed-up of the format does not."
            if rate
            else ""
        )
        findings.append(
            finding_make(
                PRECISION,
                "warning",
                f"{precision.value.upper()} is not native on {gpu.model}",
                f"{why}; {gpu.model}{on} stores {precision.value.upper()} weights and dequantises "
                f"them.{cost} {kv_words[0].upper()}{kv_words[1:]}.",
                metrics=metrics,
                lever="A precision the engine runs natively (FP8 on Hopper, FP4 on Blackwell), "
                "or a newer engine.",
            )
        )
    return findings


def _by_gpu(vehicles: Sequence[Vehicle]) -> list[tuple[GpuSpec, list[str]]]:
    """The quote's GPU kinds, each once, with the machines that carry it: a fleet of GB10
    boxes from ASUS, MSI and Dell is one GB10 finding naming the three, not three copies."""
    groups: dict[str, tuple[GpuSpec, list[str]]] = {}
    for vehicle in vehicles:
        gpu = vehicle.gpu
        assert gpu is not None
        groups.setdefault(gpu.key, (gpu, []))[1].append(vehicle.name)
    return list(groups.values())
