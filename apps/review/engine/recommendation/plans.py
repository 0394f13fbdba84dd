"""The lot and the building: every GPU system as a priced `Candidate`, and each one that
serves the demand as a `Plan` with its quantity and how the facility takes it.

A plan is comfortable when the room carries it without a warning: a 30 kW air rack planned at
the 20 kW it cools, an office circuit within its 80 % continuous rating (1,440 W of 15 A ×
120 V). `Plan.rank_key` orders plans cheapest per served unit first, then by kW.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.catalog.snapshot import CatalogSnapshot, SystemSpec
from apps.quotes.assembly import quoted_system_from_spec
from apps.review.engine.recommendation.demand import Demand, Serves, quantity_for, serves
from apps.review.engine.schemas import Facility, QuotedSystem
from apps.review.engine.sizing.facility import (
    AIR_LIMIT_KW,
    DESK_AMPS,
    DESK_VOLTS,
    RDHX_LIMIT_KW,
    FacilityFit,
    circuit_severity,
    facility_fit,
)
from apps.review.engine.sizing.gpu_rates import DESK_FORM_FACTORS
from apps.review.engine.sizing.vehicle import Vehicle, vehicles_from


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


@dataclass(frozen=True, slots=True)
class _LotVehicle:
    """A catalog system with GPUs as one vehicle at list price: what a catalog snapshot alone
    decides about a candidate, and the candidate it is when the quote does not name it."""

    spec: SystemSpec
    vehicle: Vehicle
    price_verified: bool
    unquoted: Candidate


def _lot_of(catalog: CatalogSnapshot) -> tuple[tuple[_LotVehicle, ...], frozenset[str]]:
    """Every catalog system with GPUs as a vehicle, and their keys, built once per snapshot
    object (a snapshot is frozen, and a changed catalog is a new snapshot): each review used
    to rebuild them all, a quoted system and a vehicle for each of the catalog's GPU systems."""
    cached = _LOT_CACHE.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1], cached[2]
    lot: list[_LotVehicle] = []
    for spec in catalog.systems:
        if spec.is_chassis or spec.gpu_count <= 0 or spec.gpu not in catalog.gpu_by_key:
            continue
        # The guard above keeps spec.gpu in the catalog, so gpu_key is spec.gpu.
        system = quoted_system_from_spec(spec, catalog, quantity=1, unit_price=spec.list_price_usd)
        vehicle = vehicles_from([system], catalog)[0]
        verified = spec.is_verified("list_price_usd")
        unquoted = Candidate(
            vehicle=vehicle,
            unit_price=spec.list_price_usd,
            price_from_quote=False,
            price_verified=verified,
            price_source=spec.price_source,
            quoted=False,
        )
        lot.append(_LotVehicle(spec, vehicle, verified, unquoted))
    if len(_LOT_CACHE) > 8:
        _LOT_CACHE.clear()
    whole = frozenset(item.vehicle.system.sku for item in lot)
    _LOT_CACHE[id(catalog)] = (catalog, tuple(lot), whole)
    return tuple(lot), whole


#: id(snapshot) → (the snapshot, its lot, the lot's keys); the snapshot is kept so its id is
#: never reused while the entry lives.
_LOT_CACHE: dict[int, tuple[CatalogSnapshot, tuple[_LotVehicle, ...], frozenset[str]]] = {}


def candidates_of(
    catalog: CatalogSnapshot,
    quoted: Sequence[QuotedSystem],
    quote_unit_prices: dict[str, Decimal],
) -> list[Candidate]:
    """Every catalog system with GPUs, priced from the quote when it was quoted; plus each
    quoted kit the catalog has no whole system for (2 × SYS-521GE-TNRT with 4 × L40S each)."""
    quoted_skus = {s.sku for s in quoted}
    lot, whole = _lot_of(catalog)
    out: list[Candidate] = []
    for item in lot:
        spec = item.spec
        from_quote = spec.key in quote_unit_prices
        if not from_quote and spec.key not in quoted_skus:
            out.append(item.unquoted)
            continue
        price = quote_unit_prices[spec.key] if from_quote else spec.list_price_usd
        out.append(
            Candidate(
                vehicle=item.vehicle,
                unit_price=price,
                price_from_quote=from_quote,
                price_verified=item.price_verified,
                price_source=spec.price_source,
                quoted=spec.key in quoted_skus,
            )
        )
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


# --- 3: the building --------------------------------------------------------------------------


def _comfortable(facility: Facility) -> Facility:
    """The room planned at what it cools without a warning: a 30 kW air rack is loaded to 20."""
    soft = {"air": AIR_LIMIT_KW, "air_rdhx": RDHX_LIMIT_KW}.get(facility.cooling)
    budget = facility.rack_power_kw
    if soft is not None:
        budget = soft if budget is None else min(budget, soft)
    return facility.model_copy(update={"rack_power_kw": budget})


def desk_circuit(facility: Facility) -> tuple[float, float]:
    return facility.circuit_volts or DESK_VOLTS, facility.circuit_amps or DESK_AMPS


def building_fit(
    vehicle: Vehicle, facility: Facility, quantity: int, comfortable: Facility | None = None
) -> tuple[FacilityFit, bool]:
    """(the fit, whether it is comfortable). An office takes desk-side vehicles only, and on
    its circuit comfortably only within 80 %: 1,600 W of DGX Station on 15 A × 120 V is over
    the 1,440 W it carries continuously, so it fits only at the edge.

    `comfortable` is `_comfortable(facility)` when the caller made it already (`plans_for`
    makes it once for every candidate)."""
    office = facility.site == "office"
    if office and vehicle.system.form_factor not in DESK_FORM_FACTORS:
        return FacilityFit(fits=False, problems=[f"a {vehicle.system.vehicle} is no desk"]), False
    hard = facility_fit(vehicle, facility, quantity)
    if not hard.fits:
        return hard, False
    if office:
        power = vehicle.system.power_kw
        volts, amps = desk_circuit(facility)
        ok = power is None or circuit_severity(power * 1000, volts, amps) == "ok"
        return hard, ok
    soft = comfortable if comfortable is not None else _comfortable(facility)
    comfy = facility_fit(vehicle, soft, quantity)
    return (comfy, True) if comfy.fits else (hard, False)


def _engine_of(vehicle: Vehicle) -> tuple[int, int, int, int, bool]:
    """Everything `serves` reads of a vehicle: its GPU (the object, so a Mac's own memory size
    is its own engine), GPUs per system, NVLink domain, quantity and whether it is one
    person's host. The catalog's four 8 × B200 NVLink servers are one engine to size."""
    return (
        id(vehicle.gpu),
        vehicle.gpus_per_system,
        vehicle.domain_gpus,
        vehicle.quantity,
        vehicle.is_personal,
    )


class _Sizer:
    """One demand in one building, candidate by candidate: a `Plan`, or why there is none.
    Candidates with the same engine (`_engine_of`) serve the same: each engine is sized once."""

    def __init__(self, demand: Demand, facility: Facility) -> None:
        self.demand = demand
        self.facility = facility
        self.comfortable = _comfortable(facility)
        self.served_by_engine: dict[tuple[int, int, int, int, bool], Serves] = {}

    def plan(self, candidate: Candidate) -> Plan | str:
        demand = self.demand
        vehicle = candidate.vehicle
        if not demand.on_a_desk and vehicle.system.form_factor in DESK_FORM_FACTORS:
            return "a department's production load belongs on a server, not a desk"
        engine = _engine_of(vehicle)
        served = self.served_by_engine.get(engine)
        if served is None:
            served = self.served_by_engine[engine] = serves(vehicle, demand)
        if served.per_system <= 0:
            return served.how
        quantity = quantity_for(vehicle, demand, served.per_system)
        if quantity > 1 and vehicle.system.form_factor in DESK_FORM_FACTORS:
            return f"it would take {quantity}: a desktop for a department"
        fit, comfy = building_fit(vehicle, self.facility, quantity, self.comfortable)
        return Plan(candidate, quantity, served.per_system, served.how, fit, comfy, demand)


def plans_for(
    candidates: Sequence[Candidate], demand: Demand, facility: Facility
) -> tuple[list[Plan], list[tuple[Candidate, str]]]:
    """Every candidate that serves the demand, with its fit; and the others, with the reason."""
    plans: list[Plan] = []
    skipped: list[tuple[Candidate, str]] = []
    sizer = _Sizer(demand, facility)
    for candidate in candidates:
        out = sizer.plan(candidate)
        if isinstance(out, Plan):
            plans.append(out)
        else:
            skipped.append((candidate, out))
    return plans, skipped


def price_floor(candidate: Candidate, demand: Demand) -> Decimal | None:
    """The least a candidate's plan can cost per served unit: one system at its unit price
    (a plan is never fewer) ÷ the demand, $140,000 ÷ 100 users = $1,400; None when there is no
    such floor (no price, a negative one, nothing to serve)."""
    price = candidate.unit_price
    if price is None or price < 0 or demand.amount <= 0:
        return None
    return price / Decimal(str(demand.amount))


def cheapest_comfortable(
    candidates: Sequence[Candidate], demand: Demand, facility: Facility
) -> tuple[Plan | None, list[Plan], list[tuple[Candidate, str]]]:
    """The plan `Plan.rank_key` puts first among those the building takes comfortably (ties:
    the earlier candidate), found cheapest floor first (`price_floor`): once one is in hand,
    a candidate whose floor is above its cost per served unit cannot come first, and neither
    can any after it, so they are not sized. The DGX B200 at $515,000 for 100 users is never
    sized once a $140,000 RTX PRO Server serves them.

    Also the plans and skips of the candidates sized, in candidate order: when no plan is
    comfortable that is every candidate, exactly what `plans_for` gives."""
    # by price, and so by floor (÷ the same demand); no floor first: those are always sized
    order = sorted(
        range(len(candidates)),
        key=lambda i: (
            (False, Decimal(0))
            if (price := candidates[i].unit_price) is None or price < 0 or demand.amount <= 0
            else (True, price)
        ),
    )
    sizer = _Sizer(demand, facility)
    sized: dict[int, Plan | str] = {}
    best: tuple[tuple[bool, Decimal, float, str], int, Plan] | None = None
    best_cost: Decimal | None = None
    for index in order:
        if best_cost is not None:
            floor = price_floor(candidates[index], demand)
            if floor is not None and floor > best_cost:
                break  # the floors only rise from here
        out = sized[index] = sizer.plan(candidates[index])
        if not isinstance(out, Plan) or not (out.fit.fits and out.comfortable):
            continue
        if best is None or (out.rank_key(), index) < best[:2]:
            best = (out.rank_key(), index, out)
            best_cost = out.cost_per_unit
    plans = [out for _, out in sorted(sized.items()) if isinstance(out, Plan)]
    skipped = [(candidates[i], out) for i, out in sorted(sized.items()) if isinstance(out, str)]
    return (best[2] if best is not None else None), plans, skipped
