"""ttft: how long a user waits for the first token of an answer (prefill of the prompt).

A RAG prompt of 16k tokens is read before anything is written: Llama-3.1-70B at 141 GFLOP a
token on 8 × H200 is 16,384 × 0.141 ÷ (8 × 989 × prefill efficiency) seconds. Against a target
(`ttft_target_ms`) a slower first token is a warning; without one the figure is information.

Alongside it, the decode slowdown from those prompts at the asked load: every conversation that
finishes an answer sends a new prompt, and prefill interleaved with decode takes its time from
everyone's next token (`PrefillInterleave`).
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, pct
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.step_time import prefill_interleave
from apps.words import article

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
    # the same link the NVLink and throughput findings name (one plan per report)
    split = f", split over {plan.link_text}" if plan.gpus_per_replica > 1 else ""
    words = (
        f"{article(load.prompt_tokens).capitalize()} {load.prompt_tokens:,}-token prompt takes "
        f"about {num(ms)} ms to read before the "
        f"first token (one copy on {plan.gpus_per_replica} × {gpu.model}{split}, no queue)"
    )
    slowdown = _slowdown(ctx, seconds)
    if slowdown is not None:
        sentence, arithmetic, extra = slowdown
        metrics.update(extra)
        formula += f"; {arithmetic}"
    if target is not None and ms > target:
        return [
            finding_make(
                CHECK,
                "warning",
                "The first token is late",
                f"{words}; the target is {num(target)} ms.{sentence}",
                metrics=metrics,
                formula=formula,
                lever="More compute per copy (a wider replica, a newer engine), a lower "
                "precision, or shorter prompts.",
            )
        ]
    tail = f", within the {num(target)} ms target." if target is not None else "."
    return [finding_make(CHECK, "ok" if target else "info", "Time to first token",
                         words + tail + sentence, metrics=metrics, formula=formula)]  # fmt: skip


def _slowdown(ctx: ReviewContext, prefill_seconds: float) -> tuple[str, str, dict] | None:
    """Decode slowed by arriving prompts at the asked load: (sentence, arithmetic, metrics)."""
    serving = ctx.serving
    assert serving is not None and serving.primary is not None
    _, plan = serving.primary
    batch = serving.batch_at_load
    speed = plan.tokens_per_sec_per_user(batch, serving.load)
    if batch < 1 or speed <= 0:
        return None
    mix = prefill_interleave(
        batch,
        speed,
        prefill_seconds,
        context_tokens=serving.load.context_tokens,
        prompt_tokens=serving.load.prompt_tokens,
    )
    slowed = mix.slowed_speed
    sentence = (
        f" While answers are written, new prompts arrive: {batch:,} conversation"
        f"{'s' if batch != 1 else ''} per copy at {num(speed)} tokens/s with "
        f"{mix.answer_tokens:,}-token answers send {num(mix.prompts_per_sec, 2)} prompts/s, "
        f"and reading them slows decoding to about {num(slowed)} tokens/s each "
        f"({pct(1 - slowed / speed)} slower)"
        + (
            ": an upper bound, as no prompt length was given and every request is taken to "
            "re-read the whole context (a chat's cached history costs less)."
            if ctx.workload.prompt_tokens is None
            else "."
        )
    )
    arithmetic = (
        f"{batch:,} × {num(speed)} tok/s ÷ {mix.answer_tokens:,} answer tokens = "
        f"{num(mix.prompts_per_sec, 2)} prompts/s × {num(prefill_seconds, 3)} s prefill = "
        f"{num(mix.prefill_share, 3)} s of prefill per second; {num(speed)} ÷ "
        f"(1 + {num(mix.prefill_share, 3)}) = {num(slowed)} tok/s per user"
    )
    metrics = {
        "answer_tokens": mix.answer_tokens,
        "prompts_per_sec_per_replica": round(mix.prompts_per_sec, 3),
        "prefill_share": round(mix.prefill_share, 4),
        "tokens_per_sec_per_user_with_prefill": round(slowed, 2),
        "prompt_is_whole_context": ctx.workload.prompt_tokens is None,
    }
    return sentence, arithmetic, metrics
