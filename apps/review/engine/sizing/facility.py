"""Racks, power, cooling, floors and office circuits: will the building let the vehicle run?

Rules of thumb (shared/reference/hardware-sources.md):
- systems per rack = what the rack's qualified kW allows at maximum draw (breakers are sized for
  the maximum), and what fits in 42 usable U; a DGX B200 (14.3 kW, 10U) in a 20 kW rack: one.
  The field guide puts four 10U semis in a rack (40 of 42 U) and asks for no U held back for
  switches or PDUs (rack PDUs are zero-U strips), so none is.
- a rack-scale system is its own rack(s): a GB200 NVL72 is one rack of 120-132 kW; a GB200
  NVL36x2 is one 72-GPU NVLink domain over two racks, its 132 kW split 66 kW per rack. Each rack
  of it is checked against the rack budget, so a 70 kW room takes the NVL36x2, not the NVL72.
- a blade with no rack-unit height goes into its cabinet by slot count: an HPE Cray EX4000
  cabinet takes 56 EX154n (GB200 NVL4) blades, fewer when the cabinet's kW runs out first.
- conventional air removes about 20 kW per rack (41 kW with perfect containment); rear-door heat
  exchangers about 60 kW (75 kW for the largest doors); beyond that only liquid works.
- floor load = (systems × weight + a 300 lb empty rack) ÷ 10 sq ft (a 600 × 1,200 mm rack and its
  share of the aisle; the NVL72 planning guides put 3,000 lb "over roughly ten square feet").
- office circuits carry 80 % continuously: 15 A × 120 V × 0.8 = 1,440 W, 20 A → 1,920 W.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from apps.review.engine.schemas import Facility, Severity
from apps.review.engine.sizing.vehicle import Vehicle

RACK_USABLE_U = 42
RACK_TARE_LB = 300.0
RACK_FOOTPRINT_SQFT = 10.0
AIR_LIMIT_KW = 20.0
AIR_CONTAINED_LIMIT_KW = 41.0
RDHX_LIMIT_KW = 60.0
RDHX_MAX_KW = 75.0
CONTINUOUS_SHARE = 0.8
DESK_VOLTS = 120.0
DESK_AMPS = 15.0
OVERLOAD_CRISIS_RATIO = 3.0  # a rack at 3× its qualification is a new building, not a new PDU
FLOOR_CRITICAL_RATIO = 1.5


def gpus_power_kw(count: int, watts_each: float) -> float:
    """The engines alone: 8 × 600 W = 4.8 kW before the rest of the server."""
    return count * watts_each / 1000


def assembled_power_kw(*, base_kw: float, gpus: int, watts_each: float) -> float:
    """A chassis plus its cards at maximum: 2.2 kW + 4 × 350 W = 3.6 kW (a four-L40S van)."""
    return base_kw + gpus_power_kw(gpus, watts_each)


def circuit_continuous_w(volts: float, amps: float) -> float:
    """What a branch circuit carries for 3+ hours: 120 V × 15 A × 0.8 = 1,440 W."""
    return volts * amps * CONTINUOUS_SHARE


DESK_OUTLET_W = circuit_continuous_w(DESK_VOLTS, DESK_AMPS)

# --- units (fixtures/reference/facility_rules.csv) ----------------------------------------------
BTU_PER_HR_PER_KW = 3412.14  # NIST SP 811 B.8: 1 W = 3.412141 BTU(IT)/h
KG_M2_PER_LB_SQFT = 0.45359237 / 0.09290304  # exact definitions: 4.882428
SQFT_PER_M2 = 1 / 0.09290304
SQRT3 = math.sqrt(3)
HOURS_PER_YEAR = 8760.0
# --- running-bill defaults, stated and sourced (fixtures/reference/energy.csv) ---------------
DEFAULT_USD_PER_KWH = 0.0895  # EIA 2023, Virginia commercial (a state proxy: no US total stored)
DEFAULT_KG_CO2_PER_KWH = 0.3674  # EIA 2023 US grid: 0.81 lb/kWh × 0.45359237
DEFAULT_PUE = 1.54  # Uptime Institute 2025 survey average (third-party summary, unverified)
# A liquid-cooled rack still warms the room: PSUs, NICs, switch trays and fans. No NVIDIA split
# was found; planning assumption ~80-85 % to liquid (facility_rules.md §4), the low end here.
LIQUID_SHARE = 0.80


def btu_per_hr(kw: float) -> float:
    """Heat for a mechanical engineer: 14.3 kW × 3,412.14 = 48,794 BTU/h."""
    return kw * BTU_PER_HR_PER_KW


def kg_per_m2(lb_per_sqft: float) -> float:
    """250 lb/sq ft × 4.882428 = 1,220.6 kg/m² (≈ 1,221)."""
    return lb_per_sqft * KG_M2_PER_LB_SQFT


def lb_per_sqft(kg_m2: float) -> float:
    return kg_m2 / KG_M2_PER_LB_SQFT


def feed_kw(*, volts: float, amps: float, three_phase: bool, continuous_share: float) -> float:
    """One feed's continuous kW (power factor 1): 208 V × 30 A × √3 × 0.8 = 8.6 kW three-phase;
    208 V × 30 A × 0.8 = 4.99 kW single-phase."""
    return volts * amps * (SQRT3 if three_phase else 1.0) * continuous_share / 1000


def facility_feed_kw(facility: Facility) -> float | None:
    """One feed of this facility's racks, or None when no feed is described."""
    if facility.feed_volts is None or facility.feed_amps is None:
        return None
    return feed_kw(
        volts=facility.feed_volts,
        amps=facility.feed_amps,
        three_phase=facility.feed_phase == "three",
        continuous_share=facility.continuous_share,
    )


def feeds_rack_kw(facility: Facility) -> float | None:
    """What the feeds let one rack draw: feeds per side × one feed. With A/B (N+N) feeds that is
    one side only: either side must carry the whole rack when the other fails."""
    one = facility_feed_kw(facility)
    return one * facility.feeds_per_side if one is not None else None


def usable_rack_kw(facility: Facility) -> float | None:
    """The rack budget the checks use: the kW given per rack, the feeds' kW, or the smaller of
    the two when both are given (a 15 kW qualification on 8.6 kW feeds is 8.6 kW)."""
    given = [kw for kw in (facility.rack_power_kw, feeds_rack_kw(facility)) if kw is not None]
    return min(given) if given else None


def floor_rating_lb_per_sqft(facility: Facility) -> float | None:
    """The floor's rating in lb/sq ft, from whichever unit Facilities gave it in."""
    if facility.floor_load_lb_per_sqft is not None:
        return facility.floor_load_lb_per_sqft
    if facility.floor_load_kg_per_m2 is not None:
        return lb_per_sqft(facility.floor_load_kg_per_m2)
    return None


def rack_footprint_sqft(facility: Facility) -> float:
    """The area one rack's weight spreads over: given, or 10 sq ft (rack plus its aisle share)."""
    if facility.rack_footprint_sqft is not None:
        return facility.rack_footprint_sqft
    if facility.rack_footprint_m2 is not None:
        return facility.rack_footprint_m2 * SQFT_PER_M2
    return RACK_FOOTPRINT_SQFT


def air_limits_kw(facility: Facility) -> tuple[float, float]:
    """(what the room removes per rack, the hard ceiling) for air and rear-door rooms. A stated
    capacity replaces the rule of thumb (20 kW air, 60 kW doors); the ceiling (41 kW contained
    air, 75 kW doors) never drops below it."""
    if facility.cooling == "air_rdhx":
        soft = facility.rdhx_kw_per_rack or RDHX_LIMIT_KW
        return soft, max(soft, RDHX_MAX_KW)
    soft = facility.air_kw_per_rack or AIR_LIMIT_KW
    return soft, max(soft, AIR_CONTAINED_LIMIT_KW)


def heat_split_kw(system_cooling: str, room_cooling: str, kw: float) -> tuple[float, float]:
    """(liquid kW, air kW) of a rack: a liquid-only system sends about 80 % to the loop and the
    rest to the room; a system that can go either way uses the loop only in a liquid room."""
    if system_cooling == "liquid" or (
        system_cooling == "air_or_liquid" and room_cooling == "liquid"
    ):
        return kw * LIQUID_SHARE, kw * (1 - LIQUID_SHARE)
    return 0.0, kw


def energy_per_year(
    *, typical_kw: float, pue: float, usd_per_kwh: float, kg_co2_per_kwh: float
) -> tuple[float, float, float]:
    """(kWh, USD, tonnes CO2) a year at typical draw, round the clock, with the building's
    overhead: 10 kW × 8,760 h × 1.54 = 134,904 kWh; × $0.0895 = $12,074; × 0.3674 kg = 49.6 t."""
    kwh = typical_kw * HOURS_PER_YEAR * pue
    return kwh, kwh * usd_per_kwh, kwh * kg_co2_per_kwh / 1000


@dataclass(frozen=True, slots=True)
class RackPlan:
    """How one line of identical systems lands in the facility's racks."""

    quantity: int
    per_rack_by_power: int | None  # None when the rack budget or the system's kW is unknown
    per_rack_by_space: int
    systems_per_rack: int
    racks_needed: int
    rack_kw: float | None  # the densest rack, at maximum draw
    rack_weight_lb: float | None
    floor_lb_per_sqft: float | None
    single_over_budget: bool  # one system alone draws more than a rack may
    budget_kw: float | None
    racks_available: int | None
    footprint_sqft: float = RACK_FOOTPRINT_SQFT
    racks_per_system: int = 1  # 2 for an NVL36x2: one system, two racks
    per_cabinet: int | None = None  # blades per cabinet, when placed by slots not by U

    @property
    def racks_needed_or_none(self) -> int | None:
        """Racks needed, or None when no rack here can take even one system (then there is no
        count: four DGX B200 in a 2 kW room need new power, not "1 rack")."""
        return None if self.single_over_budget else self.racks_needed

    @property
    def overload_ratio(self) -> float | None:
        """Densest rack ÷ qualification: 57.2 kW ÷ 2 kW = 28.6 for four DGX B200."""
        if self.rack_kw is None or not self.budget_kw:
            return None
        return self.rack_kw / self.budget_kw

    @property
    def short_of_racks(self) -> bool:
        return self.racks_available is not None and self.racks_needed > self.racks_available


def rack_plan(
    *,
    quantity: int,
    power_kw: float | None,
    rack_units: float,
    weight_lb: float | None,
    rack_scale: bool,
    rack_power_kw: float | None,
    racks_available: int | None,
    footprint_sqft: float = RACK_FOOTPRINT_SQFT,
    racks_per_system: int = 1,
    per_cabinet: int | None = None,
) -> RackPlan:
    """Place `quantity` systems in racks of `rack_power_kw` (maximum draw) and 42 U.

    When one system alone is over the budget there is no legal layout; the plan then shows what
    the quote implies: the systems spread over the racks available (four DGX B200 in one rack =
    4 × 14.3 = 57.2 kW, the field guide's "this room qualified for 2 kW and you want 60 kW").

    A rack-scale system fills `racks_per_system` racks and shares its kW and weight evenly
    among them (an NVL36x2: 132 kW ÷ 2 = 66 kW per rack, 2 racks per system). A blade system
    (`per_cabinet` set) fills cabinet slots instead of rack units.
    """
    spans = max(1, racks_per_system) if rack_scale else 1
    rack_share_kw = power_kw / spans if power_kw is not None else None
    if rack_scale:
        by_space = 1
    elif per_cabinet:
        by_space = per_cabinet
    else:
        by_space = max(1, math.floor(RACK_USABLE_U / rack_units))
    by_power = None
    if rack_power_kw is not None and rack_share_kw:
        by_power = math.floor(rack_power_kw / rack_share_kw + 1e-9)
    single_over = by_power == 0
    if by_power is None:
        per_rack = by_space
    elif by_power >= 1:
        per_rack = min(by_space, by_power)
    else:
        spread = math.ceil(quantity / racks_available) if racks_available else by_space
        per_rack = max(1, min(by_space, spread))
    racks = math.ceil(quantity / per_rack) * spans if quantity else 0
    densest = min(quantity, per_rack)
    rack_kw = densest * rack_share_kw if rack_share_kw is not None else None
    rack_weight = None
    if weight_lb is not None:
        rack_weight = densest * weight_lb / spans + (0.0 if rack_scale else RACK_TARE_LB)
    return RackPlan(
        quantity=quantity,
        per_rack_by_power=by_power,
        per_rack_by_space=by_space,
        systems_per_rack=per_rack,
        racks_needed=racks,
        rack_kw=rack_kw,
        rack_weight_lb=rack_weight,
        floor_lb_per_sqft=rack_weight / footprint_sqft if rack_weight is not None else None,
        single_over_budget=single_over,
        budget_kw=rack_power_kw,
        racks_available=racks_available,
        footprint_sqft=footprint_sqft,
        racks_per_system=spans,
        per_cabinet=per_cabinet if not rack_scale else None,
    )


def vehicle_rack_plan(
    vehicle: Vehicle, facility: Facility, quantity: int | None = None
) -> RackPlan:
    """`rack_plan` for a quoted vehicle line (or `quantity` of them) in this facility."""
    return rack_plan(
        quantity=vehicle.quantity if quantity is None else quantity,
        power_kw=vehicle.system.power_kw,
        rack_units=vehicle.rack_units,
        weight_lb=vehicle.system.weight_lb,
        rack_scale=vehicle.is_rack_scale,
        rack_power_kw=usable_rack_kw(facility),
        racks_available=facility.racks_available,
        footprint_sqft=rack_footprint_sqft(facility),
        racks_per_system=vehicle.racks_per_system,
        per_cabinet=vehicle.blades_per_cabinet,
    )


def rack_power_severity(plan: RackPlan) -> Severity:
    """Critical when one system is over the rack budget or the racks run out; else ok."""
    if plan.single_over_budget or plan.short_of_racks:
        return "critical"
    if plan.per_rack_by_power is None:
        return "info"
    return "ok"


def cooling_severity(
    system_cooling: str,
    room_cooling: str,
    rack_kw: float | None,
    limits: tuple[float, float] | None = None,
) -> Severity:
    """Liquid-only in a room without liquid: critical. Air racks beyond what the room removes:
    a warning up to the hard ceiling (41 kW contained air, 75 kW rear doors), critical above."""
    if system_cooling == "liquid" and room_cooling != "liquid":
        return "critical"
    if room_cooling == "liquid" or rack_kw is None:
        return "ok"
    soft, hard = limits or (
        (AIR_LIMIT_KW, AIR_CONTAINED_LIMIT_KW)
        if room_cooling == "air"
        else (RDHX_LIMIT_KW, RDHX_MAX_KW)
    )
    if rack_kw > hard:
        return "critical"
    if rack_kw > soft:
        return "warning"
    return "ok"


def floor_severity(lb_per_sqft: float | None, rating: float | None) -> Severity:
    """Over the floor's rating: a warning (spread the load, ask a structural engineer); at
    1.5× the rating: critical."""
    if lb_per_sqft is None or rating is None:
        return "info"
    if lb_per_sqft > rating * FLOOR_CRITICAL_RATIO:
        return "critical"
    if lb_per_sqft > rating:
        return "warning"
    return "ok"


def circuit_severity(watts: float, volts: float, amps: float) -> Severity:
    """Within 80 % of the breaker: ok; up to the breaker: warning (it trips on a long run);
    above the breaker: critical (it trips at once)."""
    if watts > volts * amps:
        return "critical"
    if watts > circuit_continuous_w(volts, amps):
        return "warning"
    return "ok"


@dataclass(frozen=True, slots=True)
class FacilityFit:
    """Whether `quantity` of a vehicle can be turned on in this facility, and why not."""

    fits: bool
    problems: list[str] = field(default_factory=list)
    plan: RackPlan | None = None


def facility_fit(vehicle: Vehicle, facility: Facility, quantity: int | None = None) -> FacilityFit:
    """The facility checks for one vehicle line, as one yes/no with reasons (no warnings count
    against the fit, only criticals). Used by the recommendation to skip what the building
    cannot take."""
    count = vehicle.quantity if quantity is None else quantity
    power_kw = vehicle.system.power_kw
    problems = []
    if facility.site == "office":
        volts = facility.circuit_volts or DESK_VOLTS
        amps = facility.circuit_amps or DESK_AMPS
        if power_kw is not None and circuit_severity(power_kw * 1000, volts, amps) == "critical":
            problems.append(f"{power_kw * 1000:,.0f} W is over a {amps:g} A × {volts:g} V circuit")
        if vehicle.facility_cooling == "liquid":
            problems.append("liquid-cooled, and an office has no facility water")
        return FacilityFit(fits=not problems, problems=problems)
    plan = vehicle_rack_plan(vehicle, facility, count)
    if plan.single_over_budget:
        share = (power_kw or 0.0) / plan.racks_per_system
        what = "one system" if plan.racks_per_system == 1 else "each rack of one system"
        problems.append(f"{what} draws {share:,.1f} kW, over {plan.budget_kw or 0:,.1f} kW")
    if plan.short_of_racks:
        problems.append(f"needs {plan.racks_needed} racks, {facility.racks_available} available")
    limits = air_limits_kw(facility)
    if (
        cooling_severity(vehicle.facility_cooling, facility.cooling, plan.rack_kw, limits)
        == "critical"
    ):
        problems.append(f"{facility.cooling} cooling cannot remove this rack's heat")
    if floor_severity(plan.floor_lb_per_sqft, floor_rating_lb_per_sqft(facility)) == "critical":
        problems.append("the floor is not rated for the rack's weight")
    return FacilityFit(fits=not problems, problems=problems, plan=plan)
