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
    AIR_CONTAINED_LIMIT_KW,
    AIR_LIMIT_KW,
    RDHX_LIMIT_KW,
    RDHX_MAX_KW,
    RackPlan,
    cooling_severity,
)
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "cooling"
ROOM_WORDS = {"air": "air", "air_rdhx": "air with rear-door heat exchangers", "liquid": "liquid"}

Placed = tuple[Vehicle, RackPlan]


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    room = ctx.facility.cooling
    return problems_or_one_ok(
        ctx.racks,
        lambda item: cooling_severity(item[0].system.cooling, room, item[1].rack_kw),
        lambda item, severity: _finding(room, item, severity),
        heaviest=lambda item: item[1].rack_kw or 0.0,
    )


def _finding(room: str, item: Placed, severity: Severity) -> Finding:
    vehicle, plan = item
    system = vehicle.system
    rack_kw = plan.rack_kw
    soft, hard = (
        (AIR_LIMIT_KW, AIR_CONTAINED_LIMIT_KW) if room == "air" else (RDHX_LIMIT_KW, RDHX_MAX_KW)
    )
    metrics = {
        "system": system.sku,
        "system_cooling": system.cooling,
        "room_cooling": room,
        "rack_kw": round(rack_kw, 2) if rack_kw is not None else None,
        "room_limit_kw": None if room == "liquid" else soft,
    }
    figures = power_figures(vehicle)
    rack_text = f"{num(rack_kw)} kW" if rack_kw is not None else "an unknown load"
    if system.cooling == "liquid" and severity == "critical":
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
            f"The densest rack of {vehicle.name} gives off {rack_text}; the room "
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
        f"The densest rack of {vehicle.name} gives off {rack_text}; {ROOM_WORDS[room]} removes "
        f"about {num(soft)} kW per rack (at most {num(hard)} kW). Facilities asks about airflow, "
        f"then asks again: it needs {remedy}.",
        metrics=metrics,
        formula=f"{rack_text} > {num(soft)} kW{over_hard}",
        lever=f"Fewer systems per rack, or {remedy}.",
        figures=figures,
    )
