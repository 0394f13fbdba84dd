"""The serving-plan search's shortcuts give the answers the long way gives.

The recommendation weighs every catalog system on every review, so the search takes five
shortcuts: the catalog's vehicles are built once per snapshot; candidates with the same engine
(the catalog's four 8 × B200 NVLink servers) are sized once; candidates are sized cheapest
price floor first, and once a comfortable plan is in hand the dearer ones are not sized; the
users a replica serves start their search at the batch the step-time sum solves to; and the
runtime's usable memory is summed without building its words. Each test here does it the long
way and compares."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.model_resolve import model_resolve
from apps.review.engine.recommendation import (
    Plan,
    candidates_of,
    cheapest_comfortable,
    demand_of,
    plans_for,
    price_floor,
    serves,
)
from apps.review.engine.schemas import Facility, Precision, Workload
from apps.review.engine.sizing.memory import runtime_reserve, serving_usable_gb
from apps.review.engine.sizing.serving_load import ServingLoad, serving_load
from apps.review.engine.sizing.step_time import step_seconds, users_at_speed
from apps.review.engine.sizing.vehicle import vehicles_from
from apps.review.inputs import FACILITY_PRESETS
from tests.review.engine.engine_kit import quoted_system

ROW = Facility(name="Row 3", site="datacenter", rack_power_kw=40, cooling="air_rdhx")


def _bisection(
    load: ServingLoad,
    *,
    slots: int,
    bandwidth_gbs: float,
    tflops: float | None,
    overhead_seconds: float,
    weight_read_efficiency: float,
) -> int:
    """The plain bisection `users_at_speed` was before it started from an estimate."""
    target = 1.0 / load.tokens_per_sec_per_user

    def fast_enough(batch: int) -> bool:
        seconds = step_seconds(
            batch,
            load=load,
            bandwidth_gbs=bandwidth_gbs,
            tflops=tflops,
            overhead_seconds=overhead_seconds,
            weight_read_efficiency=weight_read_efficiency,
        )
        return seconds <= target * (1 + 1e-12)

    if slots < 1 or not fast_enough(1):
        return 0
    low, high = 1, slots
    while low < high:
        mid = (low + high + 1) // 2
        if fast_enough(mid):
            low = mid
        else:
            high = mid - 1
    return low


@pytest.mark.parametrize(
    "model", ["Qwen3-32B", "Llama-3.1-405B", "Qwen3-235B-A22B", "gpt-oss-120b", "DeepSeek-V3 / R1"]
)
def test_users_at_speed_is_the_bisections_answer(catalog: CatalogSnapshot, model: str) -> None:
    # dense and MoE (whose weights read grow with the batch), memory-, compute- and
    # slot-bound, with and without a step floor and 4-bit unpacking
    facts = model_resolve(model, catalog)
    assert facts is not None
    cases = 0
    for precision in (Precision.FP8, Precision.BF16, Precision.MXFP4):
        for speed in (1.0, 4.0, 15.0, 60.0, 400.0):
            load = serving_load(
                facts,
                precision=precision,
                context_tokens=8192,
                users=100,
                tokens_per_sec_per_user=speed,
            )
            for slots in (0, 1, 7, 38, 1000, 1_000_000):
                for bandwidth, tflops in ((191.1, 125.0), (6_000.0, 2_000.0), (40_000.0, 1.0)):
                    for overhead in (0.0, 0.004):
                        for efficiency in (1.0, 0.55):
                            args: dict[str, Any] = {
                                "slots": slots,
                                "bandwidth_gbs": bandwidth,
                                "tflops": tflops,
                                "overhead_seconds": overhead,
                                "weight_read_efficiency": efficiency,
                            }
                            assert users_at_speed(load, **args) == _bisection(load, **args), args
                            cases += 1
    assert cases == 3 * 5 * 6 * 3 * 2 * 2


def test_usable_memory_is_the_runtime_reserves(catalog: CatalogSnapshot) -> None:
    for gpu in catalog.gpus:
        for activations in (0.0, 0.537, 2.147483648, 40.0):
            assert serving_usable_gb(gpu, activations) == (
                runtime_reserve(gpu, activations).usable_gb
            )


@pytest.mark.parametrize(
    "workload",
    [
        {"kind": "inference", "model": "Qwen3-32B", "precision": "fp8", "concurrent_users": 100},
        {"kind": "rag", "model": "Qwen3-235B-A22B", "precision": "fp8", "concurrent_users": 40},
        {"kind": "development", "model": "Llama-3.1-70B", "tokens_per_sec_per_user": 5},
        {"kind": "fine_tuning", "memory_gb": 512},
        {"kind": "hpc", "fp64_tflops": 100},
    ],
)
def test_same_engine_same_serving(catalog: CatalogSnapshot, workload: dict[str, object]) -> None:
    wl = Workload.model_validate(workload)
    demand = demand_of(wl, model_resolve(wl.model, catalog))
    assert demand is not None
    candidates = candidates_of(catalog, [], {})
    plans, skipped = plans_for(candidates, demand, ROW)
    for plan in plans:
        served = serves(plan.candidate.vehicle, demand)
        assert (plan.per_system, plan.how) == (served.per_system, served.how)
    for candidate, why in skipped:
        served = serves(candidate.vehicle, demand)
        if served.per_system <= 0 and "desk" not in why:
            assert why == served.how
    b200s = [c for c in candidates if c.vehicle.gpu is not None and c.vehicle.gpu.key == "b200"]
    assert len({c.vehicle.system.sku for c in b200s}) > 1  # the shortcut has work to do


def test_a_changed_catalog_gets_its_own_vehicles(catalog: CatalogSnapshot) -> None:
    before = {c.vehicle.system.sku: c for c in candidates_of(catalog, [], {})}
    assert candidates_of(catalog, [], {})[0].vehicle is next(iter(before.values())).vehicle
    systems = tuple(
        s.model_copy(update={"name": "DGX H100 (renamed)", "list_price_usd": Decimal(1)})
        if s.key == "dgx-h100"
        else s
        for s in catalog.systems
        if s.key != "dgx-b200"
    )
    changed = CatalogSnapshot(**{**dict(catalog), "systems": systems})
    after = {c.vehicle.system.sku: c for c in candidates_of(changed, [], {})}
    assert after["dgx-h100"].unit_price == Decimal(1)
    assert after["dgx-h100"].vehicle.name == "DGX H100"
    assert "dgx-b200" not in after
    # and the bundled catalog's own vehicles are untouched
    assert before["dgx-h100"].unit_price != Decimal(1)
    again = {c.vehicle.system.sku: c for c in candidates_of(catalog, [], {})}
    assert again["dgx-h100"].vehicle.name == before["dgx-h100"].vehicle.name
    assert "dgx-b200" in again


def test_a_vehicles_counts_follow_a_replaced_quantity(catalog: CatalogSnapshot) -> None:
    one = vehicles_from([quoted_system(catalog, "dgx-b200", 1)], catalog)[0]
    four = dataclasses.replace(one, quantity=4)
    assert (one.gpus, four.gpus) == (8, 32)
    assert four.domain_gpus == one.domain_gpus == 8
    assert four.memory_gb == pytest.approx(4 * one.memory_gb)


WORKLOADS = [
    {"kind": "inference", "model": "Qwen3-32B", "precision": "fp8", "concurrent_users": 100},
    {"kind": "inference", "model": "Llama-3.1-405B", "precision": "fp8", "concurrent_users": 64},
    {"kind": "rag", "model": "Qwen3-235B-A22B", "precision": "fp8", "concurrent_users": 2000},
    {"kind": "development", "model": "Llama-3.1-70B", "tokens_per_sec_per_user": 5},
    {"kind": "fine_tuning", "memory_gb": 512},
    {"kind": "training", "memory_gb": 1000},
    {"kind": "hpc", "fp64_tflops": 100},
]


@pytest.mark.parametrize("workload", WORKLOADS)
def test_cheapest_comfortable_is_the_first_of_every_plan(
    catalog: CatalogSnapshot, workload: dict[str, object]
) -> None:
    # the long way: size every candidate, keep the comfortable ones that fit, take the first
    # by rank (ties: candidate order, as min() does); in every preset building
    wl = Workload.model_validate(workload)
    demand = demand_of(wl, model_resolve(wl.model, catalog))
    assert demand is not None
    candidates = candidates_of(catalog, [], {})
    for preset in FACILITY_PRESETS.values():
        facility = Facility.model_validate(preset)
        plans, skipped = plans_for(candidates, demand, facility)
        pool = [p for p in plans if p.fit.fits and p.comfortable]
        best, sized_plans, sized_skipped = cheapest_comfortable(candidates, demand, facility)
        if not pool:
            assert best is None
            assert sized_plans == plans
            assert sized_skipped == skipped
            continue
        assert best == min(pool, key=Plan.rank_key)
        assert len(sized_plans) + len(sized_skipped) <= len(candidates)


def test_a_cheap_comfortable_plan_spares_the_dearer_candidates(catalog: CatalogSnapshot) -> None:
    # 100 users of Qwen3-32B in a 40 kW row: the first comfortable plan found cheapest floor
    # first leaves most of the lot unsized, and its answer is the long way's
    wl = Workload.model_validate(WORKLOADS[0])
    demand = demand_of(wl, model_resolve(wl.model, catalog))
    assert demand is not None
    candidates = candidates_of(catalog, [], {})
    best, plans, skipped = cheapest_comfortable(candidates, demand, ROW)
    assert best is not None
    assert len(plans) + len(skipped) < len(candidates) / 2
    every, _ = plans_for(candidates, demand, ROW)
    assert best == min((p for p in every if p.fit.fits and p.comfortable), key=Plan.rank_key)
    floor = price_floor(best.candidate, demand)
    assert floor is not None and best.cost_per_unit is not None and floor <= best.cost_per_unit


def test_a_price_floor_needs_a_price(catalog: CatalogSnapshot) -> None:
    wl = Workload.model_validate(WORKLOADS[0])
    demand = demand_of(wl, model_resolve(wl.model, catalog))
    assert demand is not None
    one = candidates_of(catalog, [], {})[0]
    assert price_floor(dataclasses.replace(one, unit_price=None), demand) is None
    assert price_floor(dataclasses.replace(one, unit_price=Decimal(-5)), demand) is None
    assert price_floor(dataclasses.replace(one, unit_price=Decimal(1500)), demand) == Decimal(15)
