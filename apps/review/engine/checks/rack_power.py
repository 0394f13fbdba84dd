"""rack_power: systems per rack from the kW each rack is qualified for (at maximum draw), racks
needed against racks available.

"This room qualified for 2 kW rack and you want 60 kW!" One system above the rack budget is
critical; so is needing more racks than the room has.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, power_figures, problems_or_one_ok
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import RackPlan, rack_power_severity
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "rack_power"

Placed = tuple[Vehicle, RackPlan]


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    if ctx.facility.rack_power_kw is None and ctx.racks:
        # the building's number is missing: say so once, for the hungriest system
        return [
            _finding(ctx, max(ctx.racks, key=lambda item: item[0].system.power_kw or 0), "info")
        ]

    def severity_of(item: Placed) -> Severity:
        vehicle, plan = item
        if vehicle.system.power_kw is None or ctx.facility.rack_power_kw is None:
            return "info"
        return rack_power_severity(plan)

    findings = problems_or_one_ok(
        ctx.racks,
        severity_of,
        lambda item, severity: _finding(ctx, item, severity),
        heaviest=lambda item: item[1].rack_kw or 0.0,
    )
    available = ctx.facility.racks_available
    total_racks = sum(plan.racks_needed for _, plan in ctx.racks)
    if len(ctx.racks) > 1 and available is not None and total_racks > available:
        findings = [f for f in findings if f.severity != "ok"]  # each fits; together they don't
        findings.append(
            finding_make(
                CHECK,
                "critical",
                f"Needs {total_racks} racks, the room has {available}",
                f"Together the systems on the quote need {total_racks} racks at "
                f"{num(ctx.facility.rack_power_kw or 0)} kW each; the room has {available}.",
                metrics={"racks_needed": total_racks, "racks_available": available},
                formula=" + ".join(str(p.racks_needed) for _, p in ctx.racks) + f" > {available}",
                lever="More qualified racks, or fewer / lower-power systems.",
            )
        )
    return findings


def _finding(ctx: ReviewContext, item: Placed, severity: Severity) -> Finding:
    vehicle, plan = item
    name = vehicle.name
    kw = vehicle.system.power_kw
    budget = ctx.facility.rack_power_kw
    available = ctx.facility.racks_available
    metrics = {
        "system": vehicle.system.sku,
        "system_kw": kw,
        "rack_budget_kw": budget,
        "systems_per_rack": plan.systems_per_rack,
        "racks_needed": plan.racks_needed,
        "racks_available": available,
        "rack_kw": round(plan.rack_kw, 2) if plan.rack_kw is not None else None,
        "overload_ratio": round(plan.overload_ratio, 2) if plan.overload_ratio else None,
    }
    figures = power_figures(vehicle)
    if kw is None:
        return finding_make(
            CHECK,
            "info",
            f"Power unknown for {name}",
            "The catalog has no maximum draw for this system, so rack power was not checked.",
            metrics=metrics,
            lever="Get the system's maximum draw from the vendor's site requirements.",
        )
    if budget is None:
        return finding_make(
            CHECK,
            "info",
            "No rack qualification given",
            f"Each {name} draws up to {num(kw)} kW. Facilities will ask which rack, and check "
            "the PDUs.",
            metrics=metrics,
            lever="Give the facility's kW qualified per rack.",
            figures=figures,
        )
    quantity = plan.quantity
    rack_kw = plan.rack_kw or 0.0
    if plan.single_over_budget:
        in_rack = min(quantity, plan.systems_per_rack)
        return finding_make(
            CHECK,
            severity,
            f"One {name} draws {num(kw)} kW; the rack is qualified for {num(budget)} kW",
            f"A single system is over the rack's budget before a second one arrives. "
            f"{in_rack} in a rack is {num(rack_kw)} kW against a {num(budget)} kW "
            f'qualification ({num(plan.overload_ratio or 0)}×): "this room qualified for '
            f'{num(budget)} kW rack and you want {num(rack_kw)} kW!"',
            metrics=metrics,
            formula=(
                f"{in_rack} × {num(kw)} kW = {num(rack_kw)} kW per rack vs {num(budget)} kW "
                "qualified"
            ),
            lever=(
                f"Requalify racks for at least {num(kw)} kW per system (new power per rack), or "
                "choose a lower-power vehicle."
            ),
            figures=figures,
        )
    racks_word = f"rack{'s' if plan.racks_needed != 1 else ''}"
    formula = (
        f"floor({num(budget)} kW ÷ {num(kw)} kW) = {plan.per_rack_by_power} per rack by power, "
        f"{plan.per_rack_by_space} by space; ceil({quantity} ÷ {plan.systems_per_rack}) = "
        f"{plan.racks_needed} {racks_word}"
    )
    if plan.short_of_racks:
        return finding_make(
            CHECK,
            severity,
            f"Needs {plan.racks_needed} racks, the room has {available}",
            f"At {num(kw)} kW each, a {num(budget)} kW rack takes {plan.systems_per_rack} "
            f"{name}; {quantity} of them need {plan.racks_needed} racks and the room has "
            f"{available}.",
            metrics=metrics,
            formula=formula,
            lever="More qualified racks, higher kW per rack, or fewer systems.",
            figures=figures,
        )
    of_available = f" of {available}" if available is not None else ""
    return finding_make(
        CHECK,
        severity,
        f"{plan.systems_per_rack} per rack, {plan.racks_needed} {racks_word}{of_available}",
        f"Each {name} draws up to {num(kw)} kW; a {num(budget)} kW rack takes "
        f"{plan.systems_per_rack}, so the densest rack draws {num(rack_kw)} kW.",
        metrics=metrics,
        formula=formula,
        figures=figures,
    )
