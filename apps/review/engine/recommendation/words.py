"""The recommendation in words: the serving arithmetic, the building, the price and the
figures it rests on, for the `why` a customer reads.

For the school bus on an RTX PRO Server: "8 copies of it, one per GPU, 24 users apiece at
15 tokens/s: 8 × 24 = 192 users per system; 1 × 192 = 192 users ≥ 100. ... $140,000, $1,400
per user at 15 tokens/s, at the catalog's list price: an unverified estimate ..., so get a real
quote before anyone signs."
"""

from __future__ import annotations

from decimal import Decimal

from apps.review.engine.checks._common import gpu_figure, num, plural, system_figure, usd
from apps.review.engine.recommendation.plans import Plan, desk_circuit
from apps.review.engine.schemas import (
    Facility,
    Recommendation,
)
from apps.review.engine.sizing.facility import (
    circuit_continuous_w,
)

COOLING_WORDS = {
    "air": "air cooling",
    "air_rdhx": "rear-door heat exchangers",
    "liquid": "liquid cooling (a facility water loop and CDUs)",
}


money = usd  # $300,000 · $586 · $12.50 (cents only below $100), as every face writes it


def _price_words(plan: Plan) -> str:
    candidate = plan.candidate
    cost, per_unit = plan.cost, plan.cost_per_unit
    if cost is None or per_unit is None or candidate.unit_price is None:
        return "The catalog has no price for it: ask for a quote."
    each = f"{plan.quantity} × {money(candidate.unit_price)} = " if plan.quantity > 1 else ""
    head = f"{each}{money(cost)}, {money(per_unit)} per {plan.demand.unit}"
    if candidate.price_from_quote:
        return f"{head}, at the quote's own price."
    if candidate.price_verified:
        return f"{head}, at the catalog's list price ({candidate.price_source})."
    source = f" ({candidate.price_source})" if candidate.price_source else ""
    return (
        f"{head}, at the catalog's list price: an unverified estimate{source}, so get a real "
        "quote before anyone signs."
    )


def _building_words(plan: Plan, facility: Facility) -> str:
    system = plan.candidate.vehicle.system
    power = system.power_kw
    if facility.site == "office":
        volts, amps = desk_circuit(facility)
        if power is None:
            return f"On the {num(amps)} A × {num(volts)} V desk circuit (its draw is not known)."
        words = (
            f"On the {num(amps)} A × {num(volts)} V desk circuit: {num(power * 1000)} W of the "
            f"{num(circuit_continuous_w(volts, amps))} W it carries continuously."
        )
        return words if plan.comfortable else words.replace("of the", "over the")
    rack = plan.fit.plan
    kw = f"{num(power)} kW each" if power is not None else "draw not known"
    if rack is None:
        return f"In {facility.name}: {kw}."
    budget = f" {num(rack.budget_kw)} kW" if rack.budget_kw else ""
    racks = plural(rack.racks_needed, "rack") + (
        f" of {rack.racks_available}" if rack.racks_available is not None else ""
    )
    edge = "" if plan.comfortable else " It fits only at the edge of what the room cools."
    return (
        f"In {facility.name}: {kw}, {rack.systems_per_rack} per{budget} rack, {racks}, "
        f"{COOLING_WORDS[facility.cooling].split(' (')[0]}.{edge}"
    )


#: The GPU figures each kind of demand rests on.
DEMAND_FIGURES: dict[str, tuple[str, ...]] = {
    "memory": ("memory_gb",),
    "users": ("memory_gb", "bandwidth_tbs"),
    "fp64": ("fp64_tflops", "fp64_tensor_tflops"),
}


def _unverified_words(plan: Plan) -> str:
    """ " Resting on unverified figures: 4× H200 NVL PCIe server maximum power ~4.5 kW." or
    nothing."""
    vehicle = plan.candidate.vehicle
    refs = [system_figure(vehicle, "power_max_kw")]
    refs += [gpu_figure(vehicle, field) for field in DEMAND_FIGURES[plan.demand.basis]]
    texts = [r.words or r.text for r in refs if r is not None and not r.verified]
    return f" Resting on unverified figures: {'; '.join(texts)}." if texts else ""


def why_of(plan: Plan, facility: Facility) -> str:
    vehicle = plan.candidate.vehicle
    demand = plan.demand
    gpu = vehicle.gpu
    engines = f" ({vehicle.gpus_per_system} × {gpu.model})" if gpu is not None else ""
    count = f"{plan.quantity} × {vehicle.name}{engines}"
    if demand.basis == "memory":
        serving = f"{demand.words[0].upper()}{demand.words[1:]} has to ride in one coupled "
        serving += f"vehicle: {count}; {plan.how}."
    elif demand.basis == "users":
        total = plan.quantity * plan.per_system
        serving = (
            f"{demand.words}: {count} runs {plan.how}; {plan.quantity} × "
            f"{num(plan.per_system)} = {plural(round(total), 'user')} ≥ {num(demand.amount)}."
        )
    else:
        total = plan.quantity * plan.per_system
        serving = (
            f"{demand.words}: {count} brings {plan.how}; {plan.quantity} × "
            f"{num(plan.per_system)} = {num(total)} ≥ {num(demand.amount)} TFLOPS."
        )
    quoted = " That is what was quoted." if plan.candidate.quoted else ""
    return (
        f"{serving} {_building_words(plan, facility)} {_price_words(plan)}{quoted}"
        f"{_unverified_words(plan)}"
    )


def recommendation_of(plan: Plan, facility: Facility) -> Recommendation:
    vehicle = plan.candidate.vehicle
    cost = plan.cost
    return Recommendation(
        sku=vehicle.system.sku,
        name=vehicle.name,
        quantity=plan.quantity,
        nvlink_domain_gpus=vehicle.domain_gpus,
        nvlink_domain_memory_gb=round(vehicle.domain_memory_gb, 1),
        power_kw=vehicle.system.power_kw,
        why=why_of(plan, facility),
        gpu=vehicle.gpu.model if vehicle.gpu else None,
        vehicle=vehicle.system.vehicle,
        estimated_cost_usd=cost.quantize(Decimal("0.01")) if cost is not None else None,
        is_quoted=plan.candidate.quoted,
    )
