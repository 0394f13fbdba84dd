"""ttft: how long a user waits for the first token of an answer (prefill of the prompt).

A RAG prompt of 16k tokens is read before anything is written: Llama-3.1-70B at 141 GFLOP a
token on 8 × H200 is 16,384 × 0.141 ÷ (8 × 989 × prefill efficiency) seconds. Against a target
(`ttft_target_ms`) a slower first token is a warning; without one the figure is information.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding
from apps.review.engine.sizing.calibration import calibration

CHECK = "ttft"


def check(ctx: ReviewContext) -> list[Finding]:
    serving = ctx.serving
    if serving is None or serving.primary is None:
        return []
    vehicle, plan = serving.primary
    load = serving.load
    seconds = plan.ttft_seconds(load)
    if seconds is None:
        return []
    ms = seconds * 1000
    target = ctx.workload.ttft_target_ms
    gpu = vehicle.gpu
    assert gpu is not None
    metrics = {
        "ttft_ms": round(ms, 1),
        "prompt_tokens": load.prompt_tokens,
        "ttft_target_ms": target,
        "gpus_per_replica": plan.gpus_per_replica,
    }
    formula = (
        f"{load.prompt_tokens:,} tokens × {num(load.tflop_per_token * 1000)} GFLOP ÷ "
        f"({plan.gpus_per_replica} × {gpu.model} at {calibration().prefill_efficiency:.0%} "
        f"prefill efficiency = {num(plan.prefill_tflops or 0)} TFLOPS) + "
        f"{num(plan.overhead_seconds * 1000, 2)} ms floor = {num(ms)} ms"
    )
    words = (
        f"A {load.prompt_tokens:,}-token prompt takes about {num(ms)} ms to read before the "
        f"first token (one copy on {plan.gpus_per_replica} × {gpu.model}, no queue)"
    )
    if target is not None and ms > target:
        return [
            finding_make(
                CHECK,
                "warning",
                "The first token is late",
                f"{words}; the target is {num(target)} ms.",
                metrics=metrics,
                formula=formula,
                lever="More compute per copy (a wider replica, a newer engine), a lower "
                "precision, or shorter prompts.",
            )
        ]
    tail = f", within the {num(target)} ms target." if target is not None else "."
    return [finding_make(CHECK, "ok" if target else "info", "Time to first token", words + tail,
                         metrics=metrics, formula=formula)]  # fmt: skip
