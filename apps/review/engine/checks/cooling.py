"""cooling: can the room remove the heat?

Liquid-only systems (an NVL72 train) in a room without liquid are critical: "without rails in
place, you are going nowhere". Air racks beyond what air removes (about 20 kW) need rear-door heat
exchangers; beyond the doors (about 60 kW) only liquid works.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, power_figures, problems_or_one_ok
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import (
    LIQUID_SHARE,
    RackPlan,
    air_limits_kw,
    btu_per_hr,
    cooling_severity,
    heat_split_kw,
)
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "cooling"
ROOM_WORDS = {"air": "air", "air_rdhx": "air with rear-door heat exchangers", "liquid": "liquid"}

Placed = tuple[Vehicle, RackPlan]


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    room = ctx.facility.cooling
    limits = air_limits_kw(ctx.facility)
    findings = problems_or_one_ok(
        ctx.racks,
        lambda item: cooling_severity(item[0].facility_cooling, room, item[1].rack_kw, limits),
        lambda item, severity: _finding(room, item, severity, limits),
        heaviest=lambda item: item[1].rack_kw or 0.0,
    )
    if room == "liquid":
        findings += _liquid_split(ctx)
    return findings


def _liquid_split(ctx: ReviewContext) -> list[Finding]:
    """A liquid-cooled rack still warms the room: about 80 % of its heat goes to the loop, the
    rest to the air (a planning assumption; no NVIDIA split is published). The liquid share of
    every rack together goes against the CDUs, each rack's air share against the room's air."""
    facility = ctx.facility
    liquid_total = 0.0
    findings: list[Finding] = []
    for vehicle, plan in ctx.racks:
        kw = vehicle.system.power_kw
        if kw is None:
            continue
        liquid, _ = heat_split_kw(vehicle.facility_cooling, "liquid", kw * vehicle.quantity)
        liquid_total += liquid
        rack_liquid, rack_air = heat_split_kw(vehicle.facility_cooling, "liquid", plan.rack_kw or 0)
        air_room = facility.air_kw_per_rack
        if rack_liquid and air_room is not None and rack_air > air_room:
            findings.append(
                finding_make(
                    CHECK,
                    "warning",
                    f"The air share of a {vehicle.name} rack is {num(rack_air)} kW; the room's "
                    f"air removes {num(air_room)} kW",
                    f"Liquid takes about {LIQUID_SHARE * 100:.0f} % of the "
                    f"{num(plan.rack_kw or 0)} kW rack; the rest ({num(rack_air)} kW, "
                    f"{num(btu_per_hr(rack_air))} BTU/h: "
                    "power supplies, NICs, switch trays, fans) still goes to the room's air, and "
                    f"the room removes {num(air_room)} kW per rack. The split is a planning "
                    "assumption: confirm it in the vendor's site-preparation guide.",
                    metrics={
                        "system": vehicle.system.sku,
                        "rack_kw": round(plan.rack_kw or 0, 2),
                        "air_kw": round(rack_air, 2),
                        "room_air_kw_per_rack": air_room,
                        "liquid_share": LIQUID_SHARE,
                    },
                    formula=(
                        f"{num(plan.rack_kw or 0)} kW × {1 - LIQUID_SHARE:.2f} = {num(rack_air)} "
                        f"kW to air > {num(air_room)} kW"
                    ),
                    lever="More air per rack (containment, in-row coolers), or fewer per rack.",
                    figures=power_figures(vehicle),
                )
            )
    cdu = facility.cdu_kw
    if cdu is None or not liquid_total:
        return findings
    over = liquid_total > cdu
    water = (
        f" Facility water at {num(facility.facility_water_c)} °C."
        if facility.facility_water_c is not None
        else ""
    )
    findings.append(
        finding_make(
            CHECK,
            "critical" if over else "ok",
            (
                f"{num(liquid_total)} kW into the liquid loop; the CDUs carry {num(cdu)} kW"
                if over
                else f"The CDUs carry the loop's {num(liquid_total)} kW of {num(cdu)} kW"
            ),
            f"About {LIQUID_SHARE * 100:.0f} % of the liquid-cooled systems' heat goes to the "
            f"loop: {num(liquid_total)} kW ({num(btu_per_hr(liquid_total))} BTU/h) against "
            f"{num(cdu)} kW of CDU capacity.{water}"
            + (" The rails end before the train does: more CDU capacity first." if over else ""),
            metrics={
                "liquid_kw": round(liquid_total, 2),
                "cdu_kw": cdu,
                "liquid_share": LIQUID_SHARE,
                "facility_water_c": facility.facility_water_c,
            },
            formula=f"Σ systems × kW × {LIQUID_SHARE} = {num(liquid_total)} kW "
            + ("> " if over else "≤ ")
            + f"{num(cdu)} kW CDU",
            lever="More CDU capacity (in-row CDUs), or fewer liquid-cooled racks." if over else "",
        )
    )
    return findings


def _finding(room: str, item: Placed, severity: Severity, limits: tuple[float, float]) -> Finding:
    vehicle, plan = item
    system = vehicle.system
    rack_kw = plan.rack_kw
    soft, hard = limits
    metrics = {
        "system": system.sku,
        "system_cooling": system.cooling,
        "facility_cooling": vehicle.facility_cooling,  # a desk machine's sealed loop is air
        "room_cooling": room,
        "rack_kw": round(rack_kw, 2) if rack_kw is not None else None,
        "room_limit_kw": None if room == "liquid" else soft,
        "rack_btu_per_hr": round(btu_per_hr(rack_kw)) if rack_kw is not None else None,
    }
    figures = power_figures(vehicle)
    rack_text = f"{num(rack_kw)} kW" if rack_kw is not None else "an unknown load"
    heat_text = (
        f"{rack_text} ({num(btu_per_hr(rack_kw))} BTU/h)" if rack_kw is not None else rack_text
    )
    if vehicle.facility_cooling == "liquid" and severity == "critical":
        return finding_make(
            CHECK,
            "critical",
            f"Liquid-only {vehicle.name} in a room cooled by {ROOM_WORDS[room]}",
            f"The {vehicle.name} is liquid-cooled because there is no other way to absorb "
            f"{rack_text} of heat in one rack; this room is cooled by {ROOM_WORDS[room]}. Without "
            "rails in place, you are going nowhere: the facility water loop, CDUs and manifolds "
            "are the rails.",
            metrics=metrics,
            formula=f"{system.cooling} system vs {room} room",
            lever=(
                "Lay the rails before delivery (facility water, CDUs, manifolds), or choose an "
                "air-coolable vehicle (a fleet of semis)."
            ),
            figures=figures,
        )
    if severity == "ok":
        words = "Liquid" if room == "liquid" else ROOM_WORDS[room].capitalize()
        return finding_make(
            CHECK,
            "ok",
            f"{words} handles {rack_text} per rack",
            f"The densest rack of {vehicle.name} gives off {heat_text}; the room "
            f"({ROOM_WORDS[room]}) removes it.",
            metrics=metrics,
            formula=f"{rack_text} ≤ {num(soft)} kW" if room != "liquid" else f"{rack_text}, liquid",
            figures=figures,
        )
    beyond = "air removes" if room == "air" else "rear doors remove"
    remedy = (
        "rear-door heat exchangers (with their CDUs and manifolds) or liquid"
        if room == "air"
        else "direct liquid cooling"
    )
    over_hard = f" (> {num(hard)} kW)" if severity == "critical" else ""
    return finding_make(
        CHECK,
        severity,
        f"{rack_text} per rack is beyond what {beyond}",
        f"The densest rack of {vehicle.name} gives off {heat_text}; {ROOM_WORDS[room]} removes "
        f"about {num(soft)} kW per rack (at most {num(hard)} kW). Facilities asks about airflow, "
        f"then asks again: it needs {remedy}.",
        metrics=metrics,
        formula=f"{rack_text} > {num(soft)} kW{over_hard}",
        lever=f"Fewer systems per rack, or {remedy}.",
        figures=figures,
    )
