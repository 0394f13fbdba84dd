"""floor_load: weight per rack footprint against the floor's rating.

"The servers are about 300 pounds in 10 rack units … and you want to put how many in a rack?"
Rack weight = systems × weight + a 300 lb empty rack (an NVL72 is its own rack), over 10 sq ft.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, problems_or_one_ok, system_figure
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import (
    RACK_FOOTPRINT_SQFT,
    RACK_TARE_LB,
    RackPlan,
    floor_severity,
)
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "floor_load"

Placed = tuple[Vehicle, RackPlan]


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    rating = ctx.facility.floor_load_lb_per_sqft
    if rating is None and ctx.racks:
        # the building's number is missing: say so once, for the heaviest rack
        heaviest = max(ctx.racks, key=lambda item: item[1].floor_lb_per_sqft or 0)
        return [_finding(rating, heaviest, "info")]

    def severity_of(item: Placed) -> Severity:
        if item[0].system.weight_lb is None:
            return "info"
        return floor_severity(item[1].floor_lb_per_sqft, rating)

    return problems_or_one_ok(
        ctx.racks,
        severity_of,
        lambda item, severity: _finding(rating, item, severity),
        heaviest=lambda item: item[1].floor_lb_per_sqft or 0.0,
    )


def _finding(rating: float | None, item: Placed, severity: Severity) -> Finding:
    vehicle, plan = item
    system = vehicle.system
    load = plan.floor_lb_per_sqft
    metrics = {
        "system": system.sku,
        "rack_weight_lb": round(plan.rack_weight_lb, 1) if plan.rack_weight_lb else None,
        "floor_lb_per_sqft": round(load, 1) if load is not None else None,
        "floor_rating_lb_per_sqft": rating,
    }
    if load is None or system.weight_lb is None:
        return finding_make(
            CHECK,
            "info",
            f"Weight unknown for {vehicle.name}",
            "The catalog has no weight for this system, so the floor was not checked.",
            metrics=metrics,
            lever="Get the shipping and installed weight from the vendor.",
        )
    figures = [system_figure(vehicle, "weight_lb")]
    in_rack = min(plan.quantity, plan.systems_per_rack)
    rack_lb = num(plan.rack_weight_lb or 0)
    tare = "" if vehicle.is_rack_scale else f" + {num(RACK_TARE_LB)} lb rack"
    formula = (
        f"({in_rack} × {num(system.weight_lb)} lb{tare}) ÷ {num(RACK_FOOTPRINT_SQFT)} sq ft = "
        f"{num(load)} lb/sq ft" + (f" vs {num(rating)} rated" if rating else "")
    )
    if severity == "info":
        return finding_make(
            CHECK,
            "info",
            "No floor rating given",
            f"The densest rack weighs {rack_lb} lb ({num(load)} lb/sq ft). Check the raised floor "
            "before it arrives.",
            metrics=metrics,
            formula=formula,
            lever="Give the floor's rating in lb per sq ft.",
            figures=figures,
        )
    if severity == "ok":
        return finding_make(
            CHECK,
            "ok",
            f"The floor holds it: {num(load)} lb/sq ft on a floor rated {num(rating or 0)}",
            f"The densest rack weighs {rack_lb} lb over its footprint: {num(load)} lb/sq ft on a "
            f"floor rated {num(rating or 0)}.",
            metrics=metrics,
            formula=formula,
            figures=figures,
        )
    return finding_make(
        CHECK,
        severity,
        f"{num(load)} lb/sq ft on a floor rated {num(rating or 0)}",
        f"The densest rack weighs {rack_lb} lb: {num(load)} lb/sq ft against a "
        f"{num(rating or 0)} lb/sq ft rating. Even if the power and cooling can handle it, the "
        "floor has to as well; bring a server lift and a structural engineer.",
        metrics=metrics,
        formula=formula,
        lever="Spread the systems over more racks, add spreader plates, or place the rack on slab.",
        figures=figures,
    )
