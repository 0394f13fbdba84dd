"""rack_power: systems per rack from the kW each rack is qualified for (at maximum draw), racks
needed against racks available.

"This room qualified for 2 kW rack and you want 60 kW!" One system above the rack budget is
critical; so is needing more racks than the room has.
"""

from __future__ import annotations

from collections.abc import Mapping

from apps.review.engine.checks._common import finding_make, num, power_figures, problems_or_one_ok
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import (
    RackPlan,
    facility_feed_kw,
    feeds_rack_kw,
    rack_power_severity,
    usable_rack_kw,
)
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import and_list, plural

CHECK = "rack_power"

Placed = tuple[Vehicle, RackPlan]


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    if usable_rack_kw(ctx.facility) is None and ctx.racks:
        # the building's number is missing: say so once, for the hungriest system
        return [
            _finding(ctx, max(ctx.racks, key=lambda item: item[0].system.power_kw or 0), "info")
        ]

    def severity_of(item: Placed) -> Severity:
        vehicle, plan = item
        if vehicle.system.power_kw is None or plan.budget_kw is None:
            return "info"
        return rack_power_severity(plan)

    findings = problems_or_one_ok(
        ctx.racks,
        severity_of,
        lambda item, severity: _finding(ctx, item, severity),
        heaviest=lambda item: item[1].rack_kw or 0.0,
    )
    if len(ctx.racks) > 1 and [f.severity for f in findings] == ["ok"]:
        findings = [_whole_quote(ctx)]
    available = ctx.facility.racks_available
    total_racks = sum(plan.racks_needed for _, plan in ctx.racks)
    no_fit = any(plan.single_over_budget for _, plan in ctx.racks)
    if len(ctx.racks) > 1 and available is not None and total_racks > available and not no_fit:
        findings = [f for f in findings if f.severity != "ok"]  # each fits; together they don't
        findings.append(
            finding_make(
                CHECK,
                "critical",
                f"Needs {total_racks} racks, the room has {available}",
                f"Together the systems on the quote need {total_racks} racks at "
                f"{num(usable_rack_kw(ctx.facility) or 0)} kW each; the room has {available}.",
                metrics={"racks_needed": total_racks, "racks_available": available},
                formula=" + ".join(str(p.racks_needed) for _, p in ctx.racks) + f" > {available}",
                lever="More qualified racks, or fewer / lower-power systems.",
            )
        )
    return findings


def _whole_quote(ctx: ReviewContext) -> Finding:
    """Every line fits: one ok finding whose count is the whole quote's, the number the sizing
    block reports. Each rack holds one kind of system (the plan every other rack number uses:
    the densest rack, its cooling, its floor load, the racks drawn), so a quote of 2 L40S nodes
    and 1 H100 NVL node is 1 rack + 1 rack = 2 racks, not the 1 rack of its densest line."""
    heaviest = max(ctx.racks, key=lambda item: item[1].rack_kw or 0.0)
    base = _finding(ctx, heaviest, "ok")
    total = sum(plan.racks_needed for _, plan in ctx.racks)
    available = ctx.facility.racks_available
    of_available = f" of {available}" if available is not None else ""
    lines = and_list(
        f"{plan.quantity} × {vehicle.name} in {plural(plan.racks_needed, 'rack')} "
        f"({num(plan.rack_kw or 0)} kW at most)"
        for vehicle, plan in ctx.racks
    )
    sum_words = " + ".join(str(plan.racks_needed) for _, plan in ctx.racks)
    return base.model_copy(
        update={
            "title": f"{plural(total, 'rack')}{of_available} for {len(ctx.racks)} kinds of system",
            "detail": f"{base.detail} Each rack holds one kind of system: {lines}; "
            f"{sum_words} = {plural(total, 'rack')}.",
            "formula": f"{base.formula}; {sum_words} = {plural(total, 'rack')}",
            "metrics": {**base.metrics, "racks_needed": total},
        }
    )


def _finding(ctx: ReviewContext, item: Placed, severity: Severity) -> Finding:
    vehicle, plan = item
    name = vehicle.name
    kw = vehicle.system.power_kw
    budget = plan.budget_kw
    available = ctx.facility.racks_available
    feeds, feed_formula = _feeds(ctx)
    metrics = {
        "system": vehicle.system.sku,
        "system_kw": kw,
        "rack_budget_kw": round(budget, 2) if budget is not None else None,
        "feed_kw": round(f, 2) if (f := facility_feed_kw(ctx.facility)) is not None else None,
        "systems_per_rack": plan.systems_per_rack,
        "racks_needed": plan.racks_needed_or_none,
        "racks_available": available,
        "rows": ctx.facility.rows,
        "rack_kw": round(plan.rack_kw, 2) if plan.rack_kw is not None else None,
        "overload_ratio": round(plan.overload_ratio, 2) if plan.overload_ratio else None,
        "racks_per_system": plan.racks_per_system,
        "blades_per_cabinet": plan.per_cabinet,
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
            lever="Give the facility's kW qualified per rack, or its feeds (volts, phase, amps).",
            figures=figures,
        )
    quantity = plan.quantity
    rack_kw = plan.rack_kw or 0.0
    spans = plan.racks_per_system
    if spans > 1 and plan.single_over_budget:
        share = kw / spans
        return finding_make(
            CHECK,
            severity,
            f"No rack here can take a rack of the {name}: each of its {spans} racks draws "
            f"{num(share)} kW, a rack {num(budget)} kW",
            f"One {name} is one NVLink domain cabled across {spans} racks; each rack draws "
            f"{num(share)} kW against a {num(budget)} kW qualification "
            f'({num(plan.overload_ratio or 0)}×): "this room qualified for {num(budget)} kW rack '
            f'and you want {num(share)} kW!"{feeds}',
            metrics=metrics,
            formula=(
                f"{feed_formula}{num(kw)} kW ÷ {spans} racks = {num(share)} kW per rack > "
                f"{num(budget)} kW"
            ),
            lever=(
                f"Requalify {quantity * spans} racks for at least {num(share)} kW each, or "
                "choose a lower-power vehicle."
            ),
            figures=figures,
        )
    if spans > 1:
        return _spanning(ctx, item, severity, metrics, feeds, feed_formula)
    if plan.single_over_budget:
        in_rack = min(quantity, plan.systems_per_rack)
        return finding_make(
            CHECK,
            severity,
            f"No rack here can take one {name}: it draws {num(kw)} kW, a rack {num(budget)} kW",
            f"A single system is over the rack's budget before a second one arrives, so there "
            f"is no count of racks that works: racks needed, none of these.{feeds} "
            f"{in_rack} in a rack is {num(rack_kw)} kW against a {num(budget)} kW "
            f'qualification ({num(plan.overload_ratio or 0)}×): "this room qualified for '
            f'{num(budget)} kW rack and you want {num(rack_kw)} kW!"',
            metrics=metrics,
            formula=(
                f"{feed_formula}{num(kw)} kW > {num(budget)} kW per rack; "
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
    space = (
        f"{plan.per_rack_by_space} blade slots per cabinet"
        if plan.per_cabinet
        else f"{plan.per_rack_by_space} by space"
    )
    formula = feed_formula + (
        f"floor({num(budget)} kW ÷ {num(kw)} kW) = {plan.per_rack_by_power} per rack by power, "
        f"{space}; ceil({quantity} ÷ {plan.systems_per_rack}) = "
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
        f"{plan.systems_per_rack}, so the densest rack draws {num(rack_kw)} kW.{feeds}",
        metrics=metrics,
        formula=formula,
        figures=figures,
    )


def _spanning(
    ctx: ReviewContext,
    item: Placed,
    severity: Severity,
    metrics: Mapping[str, object],
    feeds: str,
    feed_formula: str,
) -> Finding:
    """A system that fills several racks and fits the budget in each: a GB200 NVL36x2 is one
    72-GPU domain over two racks, 132 kW ÷ 2 = 66 kW per rack, so 2 racks per system."""
    vehicle, plan = item
    kw = vehicle.system.power_kw or 0.0
    spans = plan.racks_per_system
    share = kw / spans
    budget = plan.budget_kw or 0.0
    available = ctx.facility.racks_available
    quantity = plan.quantity
    formula = (
        f"{feed_formula}{num(kw)} kW ÷ {spans} racks = {num(share)} kW per rack ≤ "
        f"{num(budget)} kW; {quantity} × {spans} = {plan.racks_needed} racks"
    )
    if plan.short_of_racks:
        title = f"Needs {plan.racks_needed} racks, the room has {available}"
        detail = (
            f"Each {vehicle.name} is one NVLink domain cabled across {spans} racks of "
            f"{num(share)} kW; {quantity} of them need {plan.racks_needed} racks and the room "
            f"has {available}. The racks of one system sit side by side: the NVLink cables "
            "between them are short copper."
        )
        lever = "More qualified racks side by side, or fewer systems."
    else:
        of_available = f" of {available}" if available is not None else ""
        title = f"{spans} racks per system, {plan.racks_needed} racks{of_available}"
        detail = (
            f"Each {vehicle.name} is one NVLink domain cabled across {spans} racks: "
            f"{num(kw)} kW ÷ {spans} = {num(share)} kW per rack, within the {num(budget)} kW "
            f"qualification. Its racks sit side by side.{feeds}"
        )
        lever = ""
    return finding_make(
        CHECK,
        severity,
        title,
        detail,
        metrics=dict(metrics),
        formula=formula,
        lever=lever,
        figures=power_figures(vehicle),
    )


def _feeds(ctx: ReviewContext) -> tuple[str, str]:
    """The rack's feeds in words and arithmetic, or ("", "") when only kW per rack was given.

    A/B (N+N) feeds: a system whose power supplies are N+N must run on one side alone, so the
    rack's budget is one side, not both: 2 × 8.6 kW of feeds is 8.6 kW usable."""
    facility = ctx.facility
    one = facility_feed_kw(facility)
    rack = feeds_rack_kw(facility)
    if one is None or rack is None or facility.feed_volts is None or facility.feed_amps is None:
        return "", ""
    three = facility.feed_phase == "three"
    root3 = " × √3" if three else ""
    share = facility.continuous_share
    per_side = facility.feeds_per_side
    formula = (
        f"{num(facility.feed_volts)} V × {num(facility.feed_amps)} A{root3} × {share:g} = "
        f"{num(one)} kW per feed"
    )
    if per_side > 1:
        formula += f"; {per_side} × {num(one)} = {num(rack)} kW per side"
    phase = "three-phase" if three else "single-phase"
    count = "one" if per_side == 1 else str(per_side)
    words = (
        f" Each rack has {count} {num(facility.feed_volts)} V {num(facility.feed_amps)} A "
        f"{phase} feed{'s' if per_side != 1 else ''}"
    )
    if facility.feed_redundant:
        words += (
            f" on each of an A and a B side; either side must carry the whole rack when the "
            f"other fails (N+N), so the rack may draw {num(rack)} kW, not {num(2 * rack)} kW."
        )
        formula += f" (A/B: one side, not {num(2 * rack)} kW)"
    else:
        words += f": {num(rack)} kW at the {share * 100:.0f} % continuous rule."
    if facility.rack_power_kw is not None and facility.rack_power_kw != rack:
        words += (
            f" The rack is also qualified for {num(facility.rack_power_kw)} kW: the smaller counts."
        )
    return words, formula + "; "
