"""When no plan gives a recommendation: the finding that says why, and, when the building
is what stands in the way, the least facility change that would take the cheapest vehicle.

A GB200 NVL72 in an air-cooled hall: "Lay rails first: liquid cooling (a facility water loop
and CDUs), 132 kW racks and a floor rated for 300 lb/sq ft for 1 × NVIDIA GB200 NVL72." An
office takes a dedicated circuit (20 A × 120 V, then 240 V) or a data-center room; a data
center takes rack kW, cooling, racks and floor, each checked with `facility_fit`, so the lever
is never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from apps.review.engine.checks._common import finding_make, num, plural, system_figure
from apps.review.engine.recommendation.demand import CHECK, Demand
from apps.review.engine.recommendation.plans import Candidate, Plan
from apps.review.engine.recommendation.words import COOLING_WORDS, money
from apps.review.engine.schemas import Facility, Finding
from apps.review.engine.sizing.facility import (
    AIR_LIMIT_KW,
    RDHX_LIMIT_KW,
    circuit_severity,
    facility_fit,
    floor_rating_lb_per_sqft,
    usable_rack_kw,
    vehicle_rack_plan,
)
from apps.review.engine.sizing.gpu_rates import DESK_FORM_FACTORS

COOLING_RANK = {"air": 0, "air_rdhx": 1, "liquid": 2}
#: Office circuits to try, smallest first, when a desk-side vehicle outgrows the one it has.
DESK_CIRCUITS = ((120.0, 20.0), (240.0, 20.0), (240.0, 30.0))


@dataclass(frozen=True, slots=True)
class Unlock:
    plan: Plan
    facility: Facility
    changes: list[str]


def _office_unlock(plan: Plan, facility: Facility) -> Unlock | None:
    vehicle = plan.candidate.vehicle
    power = vehicle.system.power_kw
    if vehicle.system.form_factor in DESK_FORM_FACTORS and power is not None:
        for volts, amps in DESK_CIRCUITS:
            if circuit_severity(power * 1000, volts, amps) == "ok":
                better = facility.model_copy(update={"circuit_volts": volts, "circuit_amps": amps})
                return Unlock(plan, better, [f"a dedicated {num(amps)} A × {num(volts)} V circuit"])
        return None
    # A server in an office needs a data-center room: one system per rack, cooled as it needs.
    rack_kw = power or 0.0
    cooling = "air"
    if vehicle.facility_cooling == "liquid" or rack_kw > RDHX_LIMIT_KW:
        cooling = "liquid"
    elif rack_kw > AIR_LIMIT_KW:
        cooling = "air_rdhx"
    room = Facility(
        name=f"{facility.name} (a data-center room)",
        site="datacenter",
        rack_power_kw=rack_kw or None,
        racks_available=plan.quantity,
        cooling=cooling,
    )
    if not facility_fit(vehicle, room, plan.quantity).fits:
        return None
    racks = "a data-center rack" if plan.quantity == 1 else f"{plan.quantity} data-center racks"
    change = f"{racks} of {num(rack_kw)} kW with {COOLING_WORDS[cooling]}"
    return Unlock(plan, room, [change])


def _datacenter_unlock(plan: Plan, facility: Facility) -> Unlock | None:
    """The least the room must change: rack kW for the systems (one per rack while racks last),
    the cooling that removes it (above 20 kW rear doors, above 60 kW or liquid-only: liquid),
    more racks, a stronger floor. Checked with `facility_fit`, so the lever is never a guess."""
    vehicle = plan.candidate.vehicle
    power = vehicle.system.power_kw or 0.0
    racks = facility.racks_available
    spans = vehicle.racks_per_system  # an NVL36x2's 132 kW is two racks of 66 kW
    per_rack = 1 if vehicle.is_rack_scale or not racks else math.ceil(plan.quantity / racks)
    rack_kw = per_rack * power / spans
    cooling = "air"
    if vehicle.facility_cooling == "liquid" or rack_kw > RDHX_LIMIT_KW:
        cooling = "liquid"
    elif rack_kw > AIR_LIMIT_KW:
        cooling = "air_rdhx"
    changes: list[str] = []
    update: dict[str, object] = {}
    if COOLING_RANK[cooling] > COOLING_RANK[facility.cooling]:
        update["cooling"] = cooling
        changes.append(COOLING_WORDS[cooling])
    budget = usable_rack_kw(facility)
    if budget is not None and budget < rack_kw:
        # new power per rack: the kW given replaces the feeds that limited it
        update |= {"rack_power_kw": rack_kw, "feed_volts": None, "feed_amps": None}
        changes.append(f"{num(rack_kw)} kW racks")
    needed = math.ceil(plan.quantity / per_rack) * spans
    if racks is not None and racks < needed:
        update["racks_available"] = needed
        changes.append(f"{needed} racks")
    better = facility.model_copy(update=update)
    floor = vehicle_rack_plan(vehicle, better, plan.quantity).floor_lb_per_sqft
    rating = floor_rating_lb_per_sqft(facility)
    if floor is not None and rating is not None and floor > rating:
        better = better.model_copy(
            update={"floor_load_lb_per_sqft": math.ceil(floor), "floor_load_kg_per_m2": None}
        )
        changes.append(f"a floor rated for {math.ceil(floor):,} lb/sq ft")
    if not changes or not facility_fit(vehicle, better, plan.quantity).fits:
        return None
    return Unlock(plan, better, changes)


def unlock_for(plan: Plan, facility: Facility) -> Unlock | None:
    if facility.site == "office":
        return _office_unlock(plan, facility)
    return _datacenter_unlock(plan, facility)


def facility_changes(current: Facility, needed: Facility) -> dict[str, object]:
    """The facility fields the lever changes, as flat metrics: {"needs_cooling": "liquid",
    "needs_rack_power_kw": 132.0}. `current.model_copy(update=...)` of them is the room that
    takes the vehicle."""
    now, then = current.model_dump(mode="json"), needed.model_dump(mode="json")
    return {
        f"needs_{k}": v
        for k, v in then.items()
        if k != "name" and v is not None and now.get(k) != v
    }


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def blocked_finding(plans: Sequence[Plan], facility: Facility) -> Finding:
    """Critical: the lot has the vehicle, the building cannot take it (yet)."""
    unlocks = [u for u in (unlock_for(p, facility) for p in plans) if u is not None]
    problems = [
        f"{p.candidate.vehicle.name}: {'; '.join(p.fit.problems) or 'too warm'}"
        for p in sorted(plans, key=Plan.rank_key)[:3]
    ]
    demand = plans[0].demand
    detail = (
        f"{plural(len(plans), 'vehicle')} on the lot carry {demand.words}, and "
        f"{facility.name} can take none of them ({'; '.join(problems)})."
    )
    metrics: dict[str, object] = {"candidates": len(plans)}
    if not unlocks:
        return finding_make(
            CHECK,
            "critical",
            f"Nothing on the lot can be turned on in {facility.name}",
            detail,
            metrics=metrics,
            lever="Plan the facility with the vendor before buying: power, cooling and floor.",
        )
    best = min(unlocks, key=lambda u: u.plan.rank_key())
    vehicle = best.plan.candidate.vehicle
    rails = vehicle.is_rack_scale or vehicle.facility_cooling == "liquid"
    first = "Lay rails first" if rails else "Fix the building first"
    what = f"{best.plan.quantity} × {vehicle.name}"
    cost = best.plan.cost
    price = f" ({money(cost)})" if cost is not None else ""
    metrics |= {
        "unlocks": vehicle.system.sku,
        "quantity": best.plan.quantity,
        "changes": best.changes,
        **facility_changes(facility, best.facility),
    }
    return finding_make(
        CHECK,
        "critical",
        f"{first}: nothing on the lot fits {facility.name} as it is",
        f"{detail} {first}: {_and(best.changes)} would let {what}{price} carry it; "
        f"{best.plan.how}.",
        metrics=metrics,
        lever=f"{first}: {_and(best.changes)} for {what}.",
        figures=[system_figure(vehicle, "power_max_kw")],
    )


def nothing_serves_finding(demand: Demand, skipped: Sequence[tuple[Candidate, str]]) -> Finding:
    """Warning: no vehicle on the lot carries this load as asked."""
    biggest = sorted(skipped, key=lambda pair: -pair[0].vehicle.domain_memory_gb)
    reasons = [f"{c.vehicle.name}: {why}" for c, why in biggest[:3]]
    levers = {
        "memory": "Split the job across NVLink domains over a real fabric, or shrink it "
        "(a lower precision, LoRA instead of a full fine-tune).",
        "users": "Ask for fewer tokens/s per user, a lower precision or a smaller model.",
        "fp64": "Talk to an HPC specialist: nothing on the lot is an FP64 cement truck.",
    }
    return finding_make(
        CHECK,
        "warning",
        "Nothing on the lot carries this load as asked",
        f"No vehicle in the catalog serves {demand.words} on its own "
        f"(for example {'; '.join(reasons) or 'no GPU systems in the catalog'}).",
        metrics={"basis": demand.basis, "demand": demand.amount},
        lever=levers[demand.basis],
    )


def nothing_to_size_finding() -> Finding:
    return Finding(
        check=CHECK,
        severity="info",
        title="No recommendation: nothing to size",
        detail="The workload names no model, no memory for its biggest job and no FP64 need, so "
        "there is no load to pick a vehicle for.",
        lever="Give the model, memory_gb or fp64_tflops.",
    )
