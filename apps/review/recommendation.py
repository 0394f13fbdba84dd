"""The right-fit vehicle: what the lot should sell for this load, in this building.

The field guide's rule, "buy the smallest NVLink domain your biggest single job requires, then
scale out", as four steps over every catalog system that carries GPUs (a chassis without cards
is an engine-less vehicle and is skipped) plus any kit the quote assembled itself:

1. Hold the biggest job in one NVLink domain, at the 90 % of memory the runtime leaves usable.
   Training, full fine-tuning and LoRA must fit one domain: a 512 GB fine-tune fits a DGX H100
   (8 × 80 = 640 GB, 576 GB usable) and not four bridged H200 NVL (4 × 141 = 564 GB, 507.6
   usable). Inference holds one copy of the weights plus one conversation per replica, and a
   replica may span the GPUs of one domain, never PCIe or the network.
2. Scale out to the demand: users at the asked tokens/s for inference-type loads (replicas ×
   users each), FP64 TFLOPS for HPC, one domain for a training job. Desk-side vehicles are
   one-desk vehicles: never a fleet of them ("a desktop for a department").
3. Keep what the facility can power, cool and carry (`facility_fit`), planned at what the room
   cools without a warning (20 kW of air per rack, 60 kW with rear doors) and, on an office
   circuit, within its 80 % continuous rating; only when nothing fits that way, at the hard limits.
   An office takes desk-side vehicles only.
4. Rank by cost per served unit (the quote's own unit price when the quoted system is a
   candidate, else the catalog list price, mostly unverified estimates), then by kW.

When nothing on the lot fits the building, there is no recommendation and a `recommendation`
finding names the facility change that would unlock the cheapest one: "lay rails first".
Pure: pydantic in, pydantic out; the sizing is `apps/review/sizing`, reused, never copied.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.assembly import quoted_system_from_spec
from apps.review.checks._common import finding_make, gpu_figure, num, plural, system_figure
from apps.review.models_resolve import ModelFacts, model_resolve
from apps.review.schemas import (
    Facility,
    Finding,
    QuotedSystem,
    Recommendation,
    Workload,
    WorkloadKind,
)
from apps.review.sizing.facility import (
    AIR_LIMIT_KW,
    DESK_AMPS,
    DESK_VOLTS,
    RDHX_LIMIT_KW,
    FacilityFit,
    circuit_continuous_w,
    circuit_severity,
    facility_fit,
    vehicle_rack_plan,
)
from apps.review.sizing.fp64 import fp64_fleet
from apps.review.sizing.memory import USABLE_MEMORY_FRACTION, JobMemory, job_memory
from apps.review.sizing.throughput import (
    DESK_FORM_FACTORS,
    ReplicaPlan,
    ServingLoad,
    replica_candidates,
    replica_evaluate,
    workload_serving_load,
)
from apps.review.sizing.vehicle import Vehicle, vehicles_from

if TYPE_CHECKING:
    from apps.review.checks.context import ReviewContext

CHECK = "recommendation"
SERVING_KINDS = frozenset(
    {WorkloadKind.INFERENCE, WorkloadKind.RAG, WorkloadKind.DEVELOPMENT, WorkloadKind.VISION}
)
ONE_DOMAIN_KINDS = frozenset({WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING, WorkloadKind.LORA})
COOLING_RANK = {"air": 0, "air_rdhx": 1, "liquid": 2}
COOLING_WORDS = {
    "air": "air cooling",
    "air_rdhx": "rear-door heat exchangers",
    "liquid": "liquid cooling (a facility water loop and CDUs)",
}
#: Office circuits to try, smallest first, when a desk-side vehicle outgrows the one it has.
DESK_CIRCUITS = ((120.0, 20.0), (240.0, 20.0), (240.0, 30.0))

Basis = Literal["users", "fp64", "memory"]


def served_unit(basis: Basis, *, tokens_per_sec_per_user: float | None = None) -> str:
    """What one served unit is, for `why` and for compare: "user at 15 tokens/s"."""
    if basis == "users":
        return f"user at {num(tokens_per_sec_per_user or 0)} tokens/s"
    if basis == "fp64":
        return "FP64 TFLOPS"
    return "GB of one-domain memory"


@dataclass(frozen=True, slots=True)
class Demand:
    """What the load asks for, in the unit the systems are counted in.

    users: 100 conversations at 15 tokens/s; fp64: 100 TFLOPS; memory: one 512 GB job.
    """

    basis: Basis
    amount: float
    words: str  # "the 512 GB fine-tuning job"
    unit: str
    job: JobMemory | None = None
    load: ServingLoad | None = None


def _kind_words(kind: WorkloadKind) -> str:
    return {"fine_tuning": "fine-tuning", "lora": "LoRA", "hpc": "HPC"}.get(kind.value, kind.value)


def demand_of(workload: Workload, model: ModelFacts | None) -> Demand | None:
    """The load as a number to serve; None when it gives nothing to size (VDI without a model)."""
    job = job_memory(workload, model)
    if workload.fp64_tflops is not None:
        return Demand(
            basis="fp64",
            amount=workload.fp64_tflops,
            words=f"{workload.name} ({num(workload.fp64_tflops)} FP64 TFLOPS)",
            unit=served_unit("fp64"),
            job=job,
        )
    if model is not None and workload.kind in SERVING_KINDS:
        load = workload_serving_load(workload, model)
        speed = workload.tokens_per_sec_per_user
        return Demand(
            basis="users",
            amount=float(workload.concurrent_users),
            words=(
                f"{model.name} at {workload.precision.value.upper()} for "
                f"{plural(workload.concurrent_users, 'user')} at {num(speed)} tokens/s"
            ),
            unit=served_unit("users", tokens_per_sec_per_user=speed),
            job=job,
            load=load,
        )
    if job is not None:
        return Demand(
            basis="memory",
            amount=job.unit_gb,
            words=f"the {num(job.unit_gb)} GB {_kind_words(workload.kind)} job",
            unit=served_unit("memory"),
            job=job,
        )
    return None


@dataclass(frozen=True, slots=True)
class Candidate:
    """One vehicle on the lot (quantity 1) and the price it would be bought at."""

    vehicle: Vehicle
    unit_price: Decimal | None
    price_from_quote: bool
    price_verified: bool
    price_source: str
    quoted: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """`quantity` of a candidate serving the demand, and how the building takes them."""

    candidate: Candidate
    quantity: int
    per_system: float  # users, TFLOPS or GB one system serves
    how: str  # the arithmetic of the serving, in words
    fit: FacilityFit
    comfortable: bool  # fits without a cooling or circuit warning
    demand: Demand

    @property
    def cost(self) -> Decimal | None:
        """List (or quoted) unit price × quantity: 1 × $300,000 for one DGX H100."""
        price = self.candidate.unit_price
        return price * self.quantity if price is not None else None

    @property
    def cost_per_unit(self) -> Decimal | None:
        """Cost ÷ served units; every plan serves the whole demand, so $300,000 ÷ 512 GB."""
        cost = self.cost
        if cost is None or self.demand.amount <= 0:
            return None
        return cost / Decimal(str(self.demand.amount))

    @property
    def power_kw(self) -> float:
        return (self.candidate.vehicle.system.power_kw or 0.0) * self.quantity

    def rank_key(self) -> tuple[bool, Decimal, float, str]:
        """Cheapest per served unit first (unknown prices last), then the lighter facilities
        burden, then the name, so the answer never depends on catalog order."""
        cost = self.cost_per_unit
        return (cost is None, cost or Decimal(0), self.power_kw, self.candidate.vehicle.name)


def candidates_of(
    catalog: CatalogSnapshot,
    quoted: Sequence[QuotedSystem],
    quote_unit_prices: dict[str, Decimal],
) -> list[Candidate]:
    """Every catalog system with GPUs, priced from the quote when it was quoted; plus each
    quoted kit the catalog has no whole system for (2 × SYS-521GE-TNRT with 4 × L40S each)."""
    quoted_skus = {s.sku for s in quoted}
    out: list[Candidate] = []
    for spec in catalog.systems:
        if spec.is_chassis or spec.gpu_count <= 0 or spec.gpu not in catalog.gpu_by_key:
            continue
        # The guard above keeps spec.gpu in the catalog, so gpu_key is spec.gpu.
        system = quoted_system_from_spec(spec, catalog, quantity=1, unit_price=spec.list_price_usd)
        from_quote = spec.key in quote_unit_prices
        price = quote_unit_prices[spec.key] if from_quote else spec.list_price_usd
        out.append(
            Candidate(
                vehicle=vehicles_from([system], catalog)[0],
                unit_price=price,
                price_from_quote=from_quote,
                price_verified=spec.is_verified("list_price_usd"),
                price_source=spec.price_source,
                quoted=spec.key in quoted_skus,
            )
        )
    whole = {c.vehicle.system.sku for c in out}
    kits: dict[tuple[str, str | None, int], QuotedSystem] = {}
    for system in quoted:
        if system.sku not in whole and system.gpu_key and system.gpus_per_system > 0:
            kits.setdefault((system.sku, system.gpu_key, system.gpus_per_system), system)
    for system in kits.values():
        price = quote_unit_prices.get(system.sku)  # none in a non-dollar quote
        out.append(
            Candidate(
                vehicle=vehicles_from([system.model_copy(update={"quantity": 1})], catalog)[0],
                unit_price=price,
                price_from_quote=price is not None,
                price_verified=True,
                price_source="the quote",
                quoted=True,
            )
        )
    return out


# --- 1 and 2: hold the biggest job, then scale out ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Serves:
    per_system: float  # 0 when it cannot serve; `how` then says why
    how: str


def _serves_memory(vehicle: Vehicle, gb: float, words: str) -> Serves:
    """One domain must hold the job at 90 %: 8 × 80 GB × 0.9 = 576 GB ≥ 512 GB."""
    usable = vehicle.domain_memory_gb * USABLE_MEMORY_FRACTION
    gpu = vehicle.gpu
    assert gpu is not None
    domain = (
        f"one {vehicle.domain_gpus}-GPU NVLink domain of {vehicle.domain_gpus} × "
        f"{num(gpu.memory_gb)} = {num(vehicle.domain_memory_gb)} GB"
        if vehicle.domain_gpus > 1
        else f"one {gpu.model} of {num(gpu.memory_gb)} GB (no NVLink to a neighbour)"
    )
    if usable < gb:
        return Serves(0.0, f"{domain} holds {num(usable)} GB usable, less than {num(gb)} GB")
    return Serves(gb, f"{words} fits {domain} ({num(usable)} GB usable at 90 %)")


def _best_replica(vehicle: Vehicle, load: ServingLoad) -> ReplicaPlan | None:
    """The replica size inside one NVLink domain that serves the most users at the asked speed
    (ties: fewer GPUs). Sizes come from `replica_candidates`; PCIe splits are not offered."""
    best: ReplicaPlan | None = None
    for size in replica_candidates(vehicle, load):
        if size > vehicle.domain_gpus:
            continue
        plan = replica_evaluate(vehicle, load, size)
        if plan.fits and (best is None or plan.capacity_users > best.capacity_users):
            best = plan
    return best


def _serves_users(vehicle: Vehicle, demand: Demand) -> Serves:
    load = demand.load
    assert load is not None and vehicle.gpu is not None
    job = demand.job
    if job is not None and job.basis == "override":
        held = _serves_memory(vehicle, job.unit_gb, f"the {num(job.unit_gb)} GB job")
        if not held.per_system:
            return held
    plan = _best_replica(vehicle, load)
    if plan is None:
        return Serves(
            0.0,
            f"one copy of the weights plus one conversation ({num(load.unit_gb)} GB) does not "
            f"fit one {num(vehicle.domain_memory_gb)} GB NVLink domain",
        )
    if plan.users_at_speed < 1:
        speed = num(load.tokens_per_sec_per_user)
        return Serves(0.0, f"too slow: not one conversation reaches {speed} tokens/s")
    copies = "one copy of the model" if plan.replicas == 1 else f"{plan.replicas} copies of it"
    where = (
        "one per GPU"
        if plan.gpus_per_replica == 1
        else f"each on {plan.gpus_per_replica} GPUs joined by NVLink"
    )
    return Serves(
        float(plan.capacity_users),
        f"{copies}, {where}, {plural(plan.users_at_speed, 'user')} apiece at "
        f"{num(load.tokens_per_sec_per_user)} tokens/s: {plan.replicas} × "
        f"{plan.users_at_speed:,} = {plural(plan.capacity_users, 'user')} per system",
    )


def _serves_fp64(vehicle: Vehicle) -> Serves:
    """8 × 67 = 536 TFLOPS for a DGX H100; a B300 (1.25 each) is a muscle car and is skipped."""
    fleet = fp64_fleet([vehicle])
    gpu = vehicle.gpu
    assert gpu is not None
    if fleet.muscle_cars or fleet.best_tflops <= 0:
        return Serves(0.0, f"{gpu.model} is not a significant source of FP64")
    return Serves(
        fleet.best_tflops,
        f"{vehicle.gpus} × {num(gpu.best_fp64_tflops)} = {num(fleet.best_tflops)} FP64 TFLOPS "
        "per system",
    )


def serves(vehicle: Vehicle, demand: Demand) -> Serves:
    """How much of the demand one system serves, or why it serves none of it."""
    if demand.basis == "memory":
        assert demand.job is not None
        return _serves_memory(vehicle, demand.job.unit_gb, demand.words)
    if demand.basis == "users":
        return _serves_users(vehicle, demand)
    return _serves_fp64(vehicle)


def quantity_for(vehicle: Vehicle, demand: Demand, per_system: float) -> int:
    """Systems to serve the demand: ⌈100 users ÷ 192 per system⌉ = 1; one domain per training
    job; for HPC also enough memory when `memory_gb` is given (spread over the fleet)."""
    if demand.basis == "memory":
        return 1
    count = max(1, math.ceil(demand.amount / per_system - 1e-9))
    job = demand.job
    if demand.basis == "fp64" and job is not None:
        per_system_gb = vehicle.system_memory_gb * USABLE_MEMORY_FRACTION
        if per_system_gb > 0:
            count = max(count, math.ceil(job.total_gb / per_system_gb - 1e-9))
    return count


# --- 3: the building --------------------------------------------------------------------------


def _comfortable(facility: Facility) -> Facility:
    """The room planned at what it cools without a warning: a 30 kW air rack is loaded to 20."""
    soft = {"air": AIR_LIMIT_KW, "air_rdhx": RDHX_LIMIT_KW}.get(facility.cooling)
    budget = facility.rack_power_kw
    if soft is not None:
        budget = soft if budget is None else min(budget, soft)
    return facility.model_copy(update={"rack_power_kw": budget})


def _circuit(facility: Facility) -> tuple[float, float]:
    return facility.circuit_volts or DESK_VOLTS, facility.circuit_amps or DESK_AMPS


def building_fit(vehicle: Vehicle, facility: Facility, quantity: int) -> tuple[FacilityFit, bool]:
    """(the fit, whether it is comfortable). An office takes desk-side vehicles only, and on
    its circuit comfortably only within 80 %: 1,600 W of DGX Station on 15 A × 120 V is over
    the 1,440 W it carries continuously, so it fits only at the edge."""
    office = facility.site == "office"
    if office and vehicle.system.form_factor not in DESK_FORM_FACTORS:
        return FacilityFit(fits=False, problems=[f"a {vehicle.system.vehicle} is no desk"]), False
    hard = facility_fit(vehicle, facility, quantity)
    if not hard.fits:
        return hard, False
    if office:
        power = vehicle.system.power_kw
        volts, amps = _circuit(facility)
        ok = power is None or circuit_severity(power * 1000, volts, amps) == "ok"
        return hard, ok
    comfy = facility_fit(vehicle, _comfortable(facility), quantity)
    return (comfy, True) if comfy.fits else (hard, False)


def plans_for(
    candidates: Sequence[Candidate], demand: Demand, facility: Facility
) -> tuple[list[Plan], list[tuple[Candidate, str]]]:
    """Every candidate that serves the demand, with its fit; and the others, with the reason."""
    plans: list[Plan] = []
    skipped: list[tuple[Candidate, str]] = []
    for candidate in candidates:
        vehicle = candidate.vehicle
        served = serves(vehicle, demand)
        if served.per_system <= 0:
            skipped.append((candidate, served.how))
            continue
        quantity = quantity_for(vehicle, demand, served.per_system)
        if quantity > 1 and vehicle.system.form_factor in DESK_FORM_FACTORS:
            skipped.append((candidate, f"it would take {quantity}: a desktop for a department"))
            continue
        fit, comfortable = building_fit(vehicle, facility, quantity)
        plans.append(
            Plan(candidate, quantity, served.per_system, served.how, fit, comfortable, demand)
        )
    return plans, skipped


# --- 4: rank, and say why ---------------------------------------------------------------------


def money(amount: Decimal) -> str:
    """$300,000 · $586 · $12.50 (cents only below $100)."""
    return f"${amount:,.0f}" if amount >= 100 else f"${amount:,.2f}"


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
        volts, amps = _circuit(facility)
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
    """ "Unverified: pcie-4x-h200-nvl.power_max_kw: ~4.5 (unverified)." or nothing."""
    vehicle = plan.candidate.vehicle
    refs = [system_figure(vehicle, "power_max_kw")]
    refs += [gpu_figure(vehicle, field) for field in DEMAND_FIGURES[plan.demand.basis]]
    texts = [r.text for r in refs if r is not None and not r.verified]
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


# --- nothing fits: what would unlock it -------------------------------------------------------


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
    if vehicle.system.cooling == "liquid" or rack_kw > RDHX_LIMIT_KW:
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
    per_rack = 1 if vehicle.is_rack_scale or not racks else math.ceil(plan.quantity / racks)
    rack_kw = per_rack * power
    cooling = "air"
    if vehicle.system.cooling == "liquid" or rack_kw > RDHX_LIMIT_KW:
        cooling = "liquid"
    elif rack_kw > AIR_LIMIT_KW:
        cooling = "air_rdhx"
    changes: list[str] = []
    update: dict[str, object] = {}
    if COOLING_RANK[cooling] > COOLING_RANK[facility.cooling]:
        update["cooling"] = cooling
        changes.append(COOLING_WORDS[cooling])
    if facility.rack_power_kw is not None and facility.rack_power_kw < rack_kw:
        update["rack_power_kw"] = rack_kw
        changes.append(f"{num(rack_kw)} kW racks")
    needed = math.ceil(plan.quantity / per_rack)
    if racks is not None and racks < needed:
        update["racks_available"] = needed
        changes.append(f"{needed} racks")
    better = facility.model_copy(update=update)
    floor = vehicle_rack_plan(vehicle, better, plan.quantity).floor_lb_per_sqft
    rating = facility.floor_load_lb_per_sqft
    if floor is not None and rating is not None and floor > rating:
        better = better.model_copy(update={"floor_load_lb_per_sqft": math.ceil(floor)})
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


def _blocked_finding(plans: Sequence[Plan], facility: Facility) -> Finding:
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
    rails = vehicle.is_rack_scale or vehicle.system.cooling == "liquid"
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


def _nothing_serves_finding(demand: Demand, skipped: Sequence[tuple[Candidate, str]]) -> Finding:
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


def _nothing_to_size_finding() -> Finding:
    return Finding(
        check=CHECK,
        severity="info",
        title="No recommendation: nothing to size",
        detail="The workload names no model, no memory for its biggest job and no FP64 need, so "
        "there is no load to pick a vehicle for.",
        lever="Give the model, memory_gb or fp64_tflops.",
    )


def recommend(
    *,
    workload: Workload,
    facility: Facility,
    catalog: CatalogSnapshot,
    quoted: list[QuotedSystem] | None = None,
    quote_unit_prices: dict[str, Decimal] | None = None,
) -> tuple[Recommendation | None, Finding | None]:
    """The right-fit vehicle, or None and the finding that says why (module doc).

    `quote_unit_prices` (sku → unit price) defaults to the quoted systems' own unit prices.
    Raises ReviewInputError for an unknown model preset, like the review itself.
    """
    quoted = quoted or []
    if quote_unit_prices is None:
        quote_unit_prices = {s.sku: s.unit_price for s in quoted if s.unit_price is not None}
    demand = demand_of(workload, model_resolve(workload.model, catalog))
    if demand is None:
        return None, _nothing_to_size_finding()
    candidates = candidates_of(catalog, quoted, quote_unit_prices)
    plans, skipped = plans_for(candidates, demand, facility)
    fitting = [p for p in plans if p.fit.fits]
    pool = [p for p in fitting if p.comfortable] or fitting
    if pool:
        return recommendation_of(min(pool, key=Plan.rank_key), facility), None
    if plans:
        return None, _blocked_finding(plans, facility)
    return None, _nothing_serves_finding(demand, skipped)


def recommend_from_context(ctx: ReviewContext) -> tuple[Recommendation | None, Finding | None]:
    """The engine's one call: the quoted vehicles and their prices (in USD only, since the
    catalog is priced in dollars) from the review's context."""
    systems = [v.system for v in ctx.vehicles]
    prices = None if ctx.quote.currency.upper() == "USD" else {}
    return recommend(
        workload=ctx.workload,
        facility=ctx.facility,
        catalog=ctx.catalog,
        quoted=systems,
        quote_unit_prices=prices,
    )
