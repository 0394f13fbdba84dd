"""floor_load: weight per rack footprint against the floor's rating.

"The servers are about 300 pounds in 10 rack units … and you want to put how many in a rack?"
Rack weight = systems × weight + a 300 lb empty rack (an NVL72 is its own rack), over 10 sq ft.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, problems_or_one_ok, system_figure
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import (
    RACK_TARE_LB,
    RackPlan,
    floor_rating_lb_per_sqft,
    floor_severity,
    kg_per_m2,
)
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import and_list

CHECK = "floor_load"

Placed = tuple[Vehicle, RackPlan]


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    rating = floor_rating_lb_per_sqft(ctx.facility)
    si = ctx.facility.units == "si"
    if rating is None and ctx.racks:
        # the building's number is missing: say so once, for the heaviest rack
        heaviest = max(ctx.racks, key=lambda item: item[1].floor_lb_per_sqft or 0)
        return [_finding(rating, heaviest, "info", si)]

    def severity_of(item: Placed) -> Severity:
        if item[0].system.weight_lb is None:
            return "info"
        return floor_severity(item[1].floor_lb_per_sqft, rating)

    weighed = [item for item in ctx.racks if item[0].system.weight_lb is not None]
    unweighed = [item for item in ctx.racks if item[0].system.weight_lb is None]
    findings = problems_or_one_ok(
        weighed,
        severity_of,
        lambda item, severity: _finding(rating, item, severity, si),
        heaviest=lambda item: item[1].floor_lb_per_sqft or 0.0,
    )
    if len(unweighed) == 1:
        findings.append(_finding(rating, unweighed[0], "info", si))
    elif unweighed:
        findings.append(_unweighed(rating, unweighed))
    return findings


def _unweighed(rating: float | None, items: list[Placed]) -> Finding:
    """Several systems with no catalog weight: one finding naming them all, not one copy of
    the same sentence per system."""
    first = _finding(rating, items[0], "info")
    names = and_list(vehicle.name for vehicle, _ in items)
    return first.model_copy(
        update={
            "title": f"Weight unknown for {names}",
            "detail": "The catalog has no weight for these systems, so the floor was not "
            "checked for them.",
            "metrics": {**first.metrics, "systems": [v.system.sku for v, _ in items]},
        }
    )


def pressure(lb_per_sqft: float, *, si: bool) -> str:
    """A floor load in the reader's units, the other in brackets:
    "250 lb/sq ft (1,221 kg/m²)" or "1,221 kg/m² (250 lb/sq ft)"."""
    lb, kg = f"{num(lb_per_sqft)} lb/sq ft", f"{num(round(kg_per_m2(lb_per_sqft)))} kg/m²"
    return f"{kg} ({lb})" if si else f"{lb} ({kg})"


def _finding(rating: float | None, item: Placed, severity: Severity, si: bool = False) -> Finding:
    vehicle, plan = item
    system = vehicle.system
    load = plan.floor_lb_per_sqft
    metrics = {
        "system": system.sku,
        "rack_weight_lb": round(plan.rack_weight_lb, 1) if plan.rack_weight_lb else None,
        "floor_lb_per_sqft": round(load, 1) if load is not None else None,
        "floor_rating_lb_per_sqft": round(rating, 1) if rating is not None else None,
        "floor_kg_per_m2": round(kg_per_m2(load), 1) if load is not None else None,
        "floor_rating_kg_per_m2": round(kg_per_m2(rating), 1) if rating is not None else None,
        "footprint_sqft": round(plan.footprint_sqft, 2),
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
    if plan.racks_per_system > 1:  # an NVL36x2's weight over its 2 racks
        tare += f" ÷ {plan.racks_per_system} racks"
    formula = (
        f"({in_rack} × {num(system.weight_lb)} lb{tare}) ÷ {num(plan.footprint_sqft)} sq ft = "
        f"{num(load)} lb/sq ft load"
        + (f" vs {num(rating)} lb/sq ft rating" if rating else "")
        + f"; {num(load)} × 4.882 = {num(round(kg_per_m2(load)))} kg/m²"
    )
    if severity == "info":
        return finding_make(
            CHECK,
            "info",
            "No floor rating given",
            f"The densest rack weighs {rack_lb} lb: a load of {pressure(load, si=si)}. Check the "
            "raised floor's rating before it arrives.",
            metrics=metrics,
            formula=formula,
            lever="Give the floor's rating in lb per sq ft or kg per m².",
            figures=figures,
        )
    load_text, rating_text = pressure(load, si=si), pressure(rating or 0, si=si)
    if severity == "ok":
        return finding_make(
            CHECK,
            "ok",
            f"Floor load {pressure(load, si=si)} within a {pressure(rating or 0, si=si)} rating",
            f"The densest rack weighs {rack_lb} lb over its footprint: a load of "
            f"{load_text} against the floor's rating of {rating_text}.",
            metrics=metrics,
            formula=formula,
            figures=figures,
        )
    return finding_make(
        CHECK,
        severity,
        f"Floor load {pressure(load, si=si)} over a {pressure(rating or 0, si=si)} rating",
        f"The densest rack weighs {rack_lb} lb: a load of {pressure(load, si=si)} against a "
        f"rating of {rating_text}. Even if the power and cooling can handle it, the "
        "floor has to as well; bring a server lift and a structural engineer.",
        metrics=metrics,
        formula=formula,
        lever="Spread the systems over more racks, add spreader plates, or place the rack on slab.",
        figures=figures,
    )
