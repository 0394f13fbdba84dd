"""The blood-pressure checks: how Finance and Facilities react when they read the quote.

Finance reacts to spend (calm under $10k: "expensed it without reading the receipt"; raised under
$100k; high under $1M; crisis above), one level higher when most of it would sit idle, and at
least high when the vehicle does not fit the load: "nothing was wasted on paper, everything was
wasted in practice".

Facilities reacts to the building: calm for a desk outlet; raised for a dedicated circuit or a
normal rack with PDUs to check; high for new power or cooling per rack (RDHX, a rack over its
qualification, a floor over its rating, not enough racks); crisis when liquid cooling is missing
or a rack needs three or more times its qualification.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal

from apps.review.engine.checks._common import num, pct, usd
from apps.review.engine.checks.circuit import amps_needed, at_desk_outlets, office_packing
from apps.review.engine.checks.context import WASTE_IDLE_SHARE, ReviewContext
from apps.review.engine.schemas import LEVEL_ORDER, BloodPressure, Finding, Level, Pressure
from apps.review.engine.sizing.facility import (
    DESK_AMPS,
    DESK_OUTLET_W,
    DESK_VOLTS,
    OVERLOAD_CRISIS_RATIO,
    air_limits_kw,
    circuit_continuous_w,
    cooling_severity,
    floor_rating_lb_per_sqft,
    floor_severity,
    usable_rack_kw,
)
from apps.review.engine.sizing.gpu_rates import DESK_FORM_FACTORS
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words.money import money, money_whole

RENT_BEATS_BY = 0.5  # a purchase a rental beats by more than half
WRONG_FIT_CHECKS = frozenset({"memory_fit", "nvlink_domain", "fp64", "throughput"})
DEFAULT_FINANCE_THRESHOLDS = (10_000, 100_000, 1_000_000)

Reason = tuple[int, str]


def spend_level(amount: Decimal | None, thresholds: Sequence[float]) -> int:
    """0 calm, 1 raised, 2 high, 3 crisis by the spend thresholds (USD)."""
    if amount is None:
        return 0
    for level, limit in enumerate(thresholds):
        if amount < Decimal(str(limit)):
            return level
    return len(thresholds)


#: A reason that states a fact (the running bill): it never raises the gauge, always shows.
FACT = -1


def _pressure(reasons: list[Reason]) -> Pressure:
    """The highest level reached, with its reasons first. A calm line ("Facilities didn't even
    notice: the work van…") is true only under a calm gauge: once anything raises it, the calm
    lines go, so a Crisis gauge never lists a reason to relax. A plain fact (level FACT: the
    running bill) never raises the gauge and is always listed, last."""
    level = max(0, max((lvl for lvl, _ in reasons), default=0))
    kept = [r for r in reasons if r[0] != 0 or level == 0]
    ordered = [text for _, text in sorted(kept, key=lambda r: -r[0])]
    name: Level = LEVEL_ORDER[level]  # type: ignore[assignment]
    return Pressure(level=name, reasons=ordered)


def _in_currency(currency: str) -> Callable[[Decimal | float], str]:
    """Money in a sentence in the quote's own currency: $300,000 for USD, "EUR 629,290" else."""
    code = (currency or "USD").upper()
    if code == "USD":
        return usd

    def in_code(amount: Decimal | float) -> str:
        value = Decimal(str(amount))
        return money_whole(value, code) if abs(value) >= 100 else money(value, code)

    return in_code


def finance_pressure(
    ctx: ReviewContext,
    findings: Sequence[Finding],
    thresholds: Sequence[float],
    thresholds_currency: str = "USD",
    thresholds_note: str = "",
) -> Pressure:
    """`thresholds` are in `thresholds_currency`; the caller converts them into the quote's
    currency when it knows a rate (and says how in `thresholds_note`), so a EUR quote is
    judged in EUR against a converted line, never read as dollars."""
    spend = ctx.spend
    amount = spend.amount
    base = spend_level(amount, thresholds)
    note = "" if spend.basis == "quote total" else f" ({spend.basis})"
    quote_money = _in_currency(spend.currency)
    line_money = _in_currency(thresholds_currency)
    line_note = f" ({thresholds_note})" if thresholds_note else ""
    if amount is None:
        text = "No prices on the quote: Finance has nothing to react to yet."
    else:
        money_text = f"{quote_money(amount)}{note}"
        text = (
            f"Finance expensed it without reading the receipt: {money_text}.",
            f"Finance shrugs at {money_text}; a “You sure you need this?” email may have been "
            "written.",
            f"Finance clears their throat: {money_text} is over the "
            f"{line_money(thresholds[1])} line{line_note}.",
            f"Finance is out in the parking lot having a moment: {money_text}. Just why.",
        )[base]
    reasons: list[Reason] = [(base, text)]
    if spend.currency and spend.currency.upper() != thresholds_currency.upper():
        reasons.append(
            (
                base,
                f"Thresholds are in {thresholds_currency.upper()}; the quote is in "
                f"{spend.currency} and was not converted (no exchange rate).",
            )
        )
    level = base
    use = ctx.utilization
    flagged = any(
        f.check == "utilization" and f.severity in {"warning", "critical"} for f in findings
    )
    if use is not None and flagged and use.idle_share >= WASTE_IDLE_SHARE:
        level = min(3, level + 1)
        money = f": roughly {usd(use.idle_usd)} producing nothing" if use.idle_usd else ""
        bus = " Needed a school bus, bought a cement truck." if use.training_grade else ""
        reasons.append((level, f"About {pct(use.idle_share)} of it would sit idle{money}.{bus}"))
    rent = next((f for f in findings if f.check == "buy_or_rent" and f.metrics), None)
    if rent is not None:
        rent_total, buy_total = rent.metrics["rent_total_usd"], rent.metrics["buy_total_usd"]
        if rent_total < buy_total * RENT_BEATS_BY:
            level = min(3, level + 1)
            reasons.append(
                (
                    level,
                    f"Buying a new car for a three-day vacation: a rental of the same GPUs costs "
                    f"{usd(Decimal(str(rent_total)))} for {rent.metrics['period']}, against "
                    f"{usd(Decimal(str(buy_total)))} to buy and power them.",
                )
            )
    energy = next((f for f in findings if f.check == "energy"), None)
    if energy is not None:
        reasons.append(
            (
                FACT,
                f"The running bill: about {usd(energy.metrics['energy_usd_per_year'])} and "
                f"{num(energy.metrics['co2_tonnes_per_year'])} t CO2 a year at typical draw.",
            )
        )
    wrong = [f for f in findings if f.check in WRONG_FIT_CHECKS and f.severity == "critical"]
    if wrong and not ctx.vehicles:
        # a renewal, services or cables: nothing on it was bought to carry the load, so nothing
        # on it failed to; the quote-lines finding says there is no system to review
        reasons.append(
            (
                FACT,
                "No GPU system is bought on this quote: it pays for services, software or "
                "parts for machines bought elsewhere.",
            )
        )
    elif wrong:
        level = max(level, 2)
        titles = "; ".join(dict.fromkeys(f.title for f in wrong))
        reasons.append(
            (
                level,
                "Nothing was wasted on paper, everything was wasted in practice: "
                f"{titles}. After it fails, the right-fit system still has to be bought.",
            )
        )
    per_device = _per_device_receipt(ctx, thresholds)
    if per_device:
        reasons.append((FACT, per_device))
    pressure = _pressure(reasons)
    if amount is not None and base == 0 and pressure.level != "calm":
        # Idleness or a wrong fit raised the gauge, so the calm "expensed it" line went (see
        # _pressure); the spend itself is still a fact worth a line.
        small = (
            f"The spend itself is small: {quote_money(amount)}{note}, under the "
            f"{line_money(thresholds[0])} line{line_note}."
        )
        pressure = pressure.model_copy(update={"reasons": [*pressure.reasons, small]})
    return pressure


def _per_device_receipt(ctx: ReviewContext, thresholds: Sequence[float]) -> str:
    """A fleet of laptops or phones: each one alone is the guide's "expensed it without reading
    the receipt"; together they are a purchase order. Said only when every engine is personal,
    there is more than one, and each costs under the calm line."""
    vehicles = ctx.gpu_vehicles
    if not vehicles or not all(v.is_personal for v in vehicles):
        return ""
    count = sum(v.quantity for v in vehicles)
    prices = [v.system.unit_price for v in vehicles]
    if count < 2 or any(p is None for p in prices):
        return ""
    top = max(p for p in prices if p is not None)
    if top >= Decimal(str(thresholds[0])):
        return ""
    word = "phone" if vehicles[0].system.form_factor == "phone" else "laptop"
    return (
        f"Each {word} alone would be expensed without reading the receipt ({usd(top)}); "
        f"{count:,} of them are a purchase order."
    )


def _personal_reason(vehicle: Vehicle) -> Reason | None:
    """The guide's lines for what one person carries: a phone in a pocket, a laptop on its
    charger. None for every other vehicle."""
    form = vehicle.system.form_factor
    draw = vehicle.system.power_kw
    watts = f" ({num(draw * 1000)} W at most)" if draw is not None else ""
    if form == "phone":
        return (
            0,
            f"Facilities has a {vehicle.name} in their pocket and couldn't care less how much "
            f"power it consumes as long as it is charged up{watts}. If it runs too hot, "
            "they'll switch pockets.",
        )
    if form == "laptop":
        return (
            0,
            f"Facilities couldn't care less how much power the {vehicle.name} consumes as long "
            f"as it is charged up{watts}: it lives on a desk, a lap or a backpack.",
        )
    return None


def facilities_pressure(ctx: ReviewContext) -> Pressure:
    if ctx.facility.site == "office":
        return _office_pressure(ctx)
    return _datacenter_pressure(ctx)


def _shared_circuits_reason(
    ctx: ReviewContext, total_w: float, circuits: int, amps: float
) -> Reason:
    """Several machines over one circuit's worth. Desk-outlet machines (Sparks, small
    workstations) sit on people's desks, each on its own outlet: Facilities still doesn't
    notice, as the guide says of the Spark. Machines that each want more than a desk outlet
    are one room's load, and the separate circuits are Facilities' walk-in."""
    if at_desk_outlets(ctx.vehicles):
        return (
            0,
            f"{num(total_w)} W together is {circuits} circuits' worth at {num(amps)} A, but each "
            "machine plugs into a desk outlet of its own: Facilities won't notice unless they "
            "share one power strip.",
        )
    return (
        1,
        f"{num(total_w)} W together: {circuits} separate {num(amps)} A circuits, not one "
        "power strip. Facilities gets a walk-in.",
    )


def _office_pressure(ctx: ReviewContext) -> Pressure:
    volts = ctx.facility.circuit_volts or DESK_VOLTS
    amps = ctx.facility.circuit_amps or DESK_AMPS
    limit = circuit_continuous_w(volts, amps)
    reasons: list[Reason] = []
    unnoticed: list[str] = []
    for vehicle in ctx.vehicles:
        system = vehicle.system
        personal = _personal_reason(vehicle)
        if personal is not None:
            reasons.append(personal)
            continue
        if vehicle.facility_cooling == "liquid":
            reasons.append(
                (
                    3,
                    f"A liquid-cooled {vehicle.name} in an office: "
                    "there is no facility water at a desk.",
                )
            )
        if system.power_kw is None:
            reasons.append((1, f"The {vehicle.name}'s power is unknown; Facilities will want it."))
            continue
        watts = system.power_kw * 1000
        if watts >= limit * OVERLOAD_CRISIS_RATIO:
            reasons.append(
                (
                    3,
                    f"{num(watts)} W in an office wired for {num(limit)} W per circuit "
                    f"({num(watts / limit)}×): this is a data-center vehicle, and the people "
                    "upstairs will hear it.",
                )
            )
        elif watts > volts * amps:
            reasons.append(
                (
                    2,
                    f"New power: {num(watts)} W is more than a {num(amps)} A breaker "
                    "passes at all.",
                )
            )
        elif watts > DESK_OUTLET_W:
            needed = amps_needed(watts, volts) or amps
            reasons.append(
                (
                    1,
                    f"The {vehicle.name}'s listed {num(watts)} W and its required {needed}-amp "
                    "circuit get a walk-in from the Facilities team.",
                )
            )
        else:
            unnoticed.append(f"the {vehicle.name} draws {num(watts)} W")
    if unnoticed:
        # one sentence for every desk-outlet machine: "the DGX Spark draws 240 W, the Dell Pro
        # Max with GB10 draws 280 W", not the same line three times
        reasons.append(
            (
                0,
                f"Facilities didn't even notice: {', '.join(unnoticed)}"
                + (" and plugs" if len(unnoticed) == 1 else "; each plugs")
                + " into any desk outlet.",
            )
        )
    packing = office_packing(ctx.vehicles, volts, amps)
    if packing is not None and packing.circuits_needed > 1:
        reasons.append(_shared_circuits_reason(ctx, packing.total_w, packing.circuits_needed, amps))
    if not reasons:
        reasons.append((0, "Nothing on the quote needs power from the building."))
    return _pressure(reasons)


def _datacenter_pressure(ctx: ReviewContext) -> Pressure:
    facility = ctx.facility
    # the same budget, air limits and floor rating the checks use: a rack budget given as feeds,
    # a stated air capacity per rack, a floor rated in kg/m² all count here too
    budget = usable_rack_kw(facility)
    limits = air_limits_kw(facility)
    rating = floor_rating_lb_per_sqft(facility)
    reasons: list[Reason] = []
    # A desk vehicle (a 240 W DGX Spark, a workstation) in a data center plugs into an outlet:
    # no rack, no PDUs, nothing for Facilities to raise an eyebrow at.
    racked = [(v, plan) for v, plan in ctx.racks if v.system.form_factor not in DESK_FORM_FACTORS]
    for vehicle, _ in ctx.racks:
        personal = _personal_reason(vehicle)
        if personal is not None:
            reasons.append(personal)
            continue
        if vehicle.system.form_factor in DESK_FORM_FACTORS:
            draw = vehicle.system.power_kw
            watts = f" draws {num(draw * 1000)} W and" if draw is not None else ""
            reasons.append(
                (
                    0,
                    f"Facilities didn't even notice: the {vehicle.name}{watts} plugs into any "
                    "outlet.",
                )
            )
    if racked:
        # every rack system gets the walk-through; say it once, for the densest rack
        densest, densest_plan = max(racked, key=lambda item: item[1].rack_kw or 0.0)
        if densest_plan.rack_kw is not None and budget is not None:
            reasons.append(
                (
                    1,
                    f"Facilities asks which rack, checks the PDUs and the cooling capacity: "
                    f"{num(densest_plan.rack_kw)} kW of {densest.name} in a {num(budget)} kW rack.",
                )
            )
        else:
            reasons.append(
                (1, f"Facilities asks which rack and checks the PDUs for the {densest.name}.")
            )
    for vehicle, plan in racked:
        name = vehicle.name
        rack_kw = plan.rack_kw
        ratio = plan.overload_ratio
        if plan.single_over_budget and ratio is not None:
            if ratio >= OVERLOAD_CRISIS_RATIO:
                reasons.append(
                    (
                        3,
                        f"“This room qualified for {num(budget or 0)} kW rack and you want "
                        f"{num(rack_kw or 0)} kW!” ({num(ratio)}× the qualification.)",
                    )
                )
            else:
                reasons.append(
                    (
                        2,
                        f"New power per rack: {num(rack_kw or 0)} kW against a "
                        f"{num(budget or 0)} kW qualification.",
                    )
                )
        if plan.short_of_racks:
            reasons.append(
                (
                    2,
                    f"{plan.racks_needed} racks of {name} needed and the room has "
                    f"{plan.racks_available}: new racks, new power.",
                )
            )
        cooling = cooling_severity(vehicle.facility_cooling, facility.cooling, rack_kw, limits)
        if cooling == "critical" and vehicle.facility_cooling == "liquid":
            reasons.append(
                (
                    3,
                    f"Without rails in place, you are going nowhere: a liquid-only {name} in a "
                    "room without facility water. Facilities may be questioning past and future "
                    "career choices.",
                )
            )
        elif cooling == "critical":
            reasons.append(
                (
                    3,
                    f"{num(rack_kw or 0)} kW in one rack is more than the room's air can remove: "
                    "it needs liquid cooling the room does not have.",
                )
            )
        elif cooling == "warning":
            need = "rear-door heat exchangers" if facility.cooling == "air" else "liquid cooling"
            reasons.append(
                (
                    2,
                    "Facilities asks about airflow, then asks again, not believing you: "
                    f"{num(rack_kw or 0)} kW per rack needs {need}.",
                )
            )
        floor = floor_severity(plan.floor_lb_per_sqft, rating)
        if floor in {"warning", "critical"}:
            reasons.append(
                (
                    2,
                    "You mention the raised floor and they stare at you sideways: "
                    f"{num(plan.floor_lb_per_sqft or 0)} lb/sq ft on a floor rated "
                    f"{num(rating or 0)}.",
                )
            )
    if not reasons:
        reasons.append((0, "Nothing on the quote needs a rack."))
    return _pressure(reasons)


def blood_pressure_for(
    ctx: ReviewContext,
    findings: Sequence[Finding],
    *,
    thresholds: Sequence[float] = DEFAULT_FINANCE_THRESHOLDS,
    thresholds_currency: str = "USD",
    thresholds_note: str = "",
) -> BloodPressure:
    return BloodPressure(
        finance=finance_pressure(ctx, findings, thresholds, thresholds_currency, thresholds_note),
        facilities=facilities_pressure(ctx),
    )
