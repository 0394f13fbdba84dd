"""Serving plans hold their invariants on every catalog system (Hypothesis).

- capacity (max_concurrent_users, the single-stream bound, the plan's GPUs) is a property of
  (quote, model, precision, context, speed), never of the asked user count;
- per-user speed at the load never rises when users are added;
- a replica inside one system runs a tensor-parallel size that divides the attention heads,
  and is split over PCIe only when no NVLink-domain size holds a copy;
- one plan per report: the NVLink finding quotes the throughput finding's GPUs per copy.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.catalog.snapshot import CatalogSnapshot, snapshot_from_fixture
from apps.review.engine.checks import nvlink_domain, throughput
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.sizing.memory import runtime_reserve
from tests.review.engine.engine_kit import context, only, quoted_system

CATALOG = snapshot_from_fixture()
SYSTEMS = [s.key for s in CATALOG.systems if s.gpu and s.gpu_count]
MODELS = [m.name for m in CATALOG.models]
PRECISIONS = ["bf16", "fp8", "fp4", "nvfp4", "mxfp4", "awq", "q4_k_m"]
PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _ctx(sku: str, quantity: int, model: str, precision: str, context_tokens: int,
         speed: float, users: int) -> ReviewContext:  # fmt: skip
    workload = {
        "kind": "inference",
        "model": model,
        "precision": precision,
        "context_tokens": context_tokens,
        "tokens_per_sec_per_user": speed,
        "concurrent_users": users,
    }
    return context(CATALOG, [quoted_system(CATALOG, sku, quantity)], workload)


loads = st.tuples(
    st.sampled_from(SYSTEMS),
    st.integers(1, 3),
    st.sampled_from(MODELS),
    st.sampled_from(PRECISIONS),
    st.sampled_from([1024, 8192, 32768]),
    st.sampled_from([2.0, 10.0, 20.0, 50.0]),
)


@PROPERTY
@given(load=loads, few=st.integers(1, 64), more=st.integers(1, 4096))
def test_capacity_never_depends_on_the_asked_users(load: tuple, few: int, more: int) -> None:
    low, high = sorted((few, more))
    a, b = _ctx(*load, users=low).serving, _ctx(*load, users=high).serving
    assert a is not None and b is not None
    assert a.max_concurrent_users == b.max_concurrent_users
    assert a.decode_bound == b.decode_bound
    plans_a = [(p.gpus_per_replica, p.replicas) for _, p in a.plans]
    assert plans_a == [(p.gpus_per_replica, p.replicas) for _, p in b.plans]
    # per-user speed only falls (or stays) as users are added
    assert b.tokens_per_sec_per_user <= a.tokens_per_sec_per_user + 1e-9


@PROPERTY
@given(load=loads, users=st.integers(1, 2000))
def test_plans_split_the_heads_and_stay_in_one_domain(load: tuple, users: int) -> None:
    ctx = _ctx(*load, users=users)
    assert ctx.serving is not None and ctx.model is not None
    heads = ctx.model.attn_heads
    for vehicle, plan in ctx.serving.plans:
        n = plan.gpus_per_replica
        if n <= vehicle.gpus_per_system and heads:
            assert heads % n == 0, (vehicle.name, n, heads)
            assert vehicle.gpus_per_system % n == 0  # no GPU of a system idles
        if plan.link == "NVLink":
            assert n <= vehicle.domain_gpus
        if plan.link in {"PCIe", "network"} and plan.fits:
            # no NVLink-domain size held a copy of the weights plus one conversation, with
            # the runtime's reserve, CUDA context and activations taken off every GPU
            assert vehicle.gpu is not None
            per_gpu = runtime_reserve(vehicle.gpu, ctx.serving.load.activations_gb).usable_gb
            domain_room = vehicle.domain_gpus * per_gpu - ctx.serving.load.weights_gb
            assert domain_room < ctx.serving.load.kv_full_gb


@PROPERTY
@given(load=loads, users=st.integers(1, 2000))
def test_one_plan_per_report(load: tuple, users: int) -> None:
    ctx = _ctx(*load, users=users)
    speed = only(throughput.check(ctx))
    domain = only(nvlink_domain.check(ctx))
    if "gpus_per_replica" in speed.metrics:
        assert domain.metrics["gpus_needed"] == speed.metrics["gpus_per_replica"]


def test_deepseek_r1_on_b200_is_never_a_five_gpu_replica(catalog: CatalogSnapshot) -> None:
    # 671 GB FP8 + one conversation needs ⌈672 ÷ 162⌉ = 5 B200s, but 128 heads split 1, 2, 4
    # or 8 ways: the copy rides on all 8 (was 5, with 3 GPUs idle)
    ctx = _ctx("dgx-b200", 1, "DeepSeek-R1", "fp8", 8192, 20.0, users=32)
    assert ctx.serving is not None and ctx.serving.primary is not None
    assert ctx.serving.primary[1].gpus_per_replica == 8
    assert only(nvlink_domain.check(ctx)).metrics["gpus_needed"] == 8


def test_an_nvl72_runs_copies_that_use_every_gpu(catalog: CatalogSnapshot) -> None:
    # 72 GPUs = 9 × 8: DeepSeek-R1 FP8 rides in nine 8-GPU copies, never one 64-GPU copy
    # with 8 GPUs idle
    ctx = _ctx("gb200-nvl72", 1, "DeepSeek-R1", "fp8", 8192, 20.0, users=32)
    assert ctx.serving is not None and ctx.serving.primary is not None
    plan = ctx.serving.primary[1]
    assert (plan.gpus_per_replica, plan.replicas) == (8, 9)
