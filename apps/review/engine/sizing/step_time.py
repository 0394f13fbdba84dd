"""The decode and prefill arithmetic of one replica (the step-time model of
``apps.review.engine.sizing.throughput``): a decode step of `b` conversations takes the weights
read plus b × the KV read over the usable bandwidth, or b × the FLOPs a token over the usable
compute when that is slower, plus the per-step overhead (``step_seconds``); prefill is
compute-bound (``ttft_seconds``), and the prompts that keep arriving slow decoding
(``PrefillInterleave``). ``users_at_speed`` is the largest batch still served at the asked
speed.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.serving_load import ServingLoad


def decode_bound_tokens_per_sec(bandwidth_gbs: float, active_weights_gb: float) -> float:
    """The simplest memory-bandwidth bound: 273 GB/s ÷ 32.8 GB ≈ 8.3 tokens/s (DGX Spark)."""
    return bandwidth_gbs / active_weights_gb if active_weights_gb > 0 else 0.0


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
