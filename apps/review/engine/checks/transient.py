"""transient_headroom: the short spikes above the maximum, where a source states them.

An NVL72 steadies at about 120 kW but spikes to ~1.4× that (ai-infrastructure.net): ~168 kW for
milliseconds, above its 142 kW maximum. The spikes are not continuous, so they go against the
feed's full rating (breaker amps × volts, not the 80 % continuous share) or, with no feeds given,
against the kW the rack is qualified for. Over it is a warning when the peak figure is verified;
info when it rests on an estimate, so nobody re-plans a hall on a rule of thumb.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, system_figure
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import feeds_rack_kw, usable_rack_kw

CHECK = "transient_headroom"


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.is_datacenter:
        return []
    facility = ctx.facility
    feeds = feeds_rack_kw(facility)
    full = feeds / facility.continuous_share if feeds is not None else None
    limit = full if full is not None else usable_rack_kw(facility)
    findings = []
    for vehicle, plan in ctx.racks:
        spec = vehicle.spec
        peak = spec.power_peak_kw if spec is not None else None
        top = vehicle.system.power_kw
        if peak is None or top is None or peak <= top or limit is None:
            continue
        in_rack = min(plan.quantity, plan.systems_per_rack)
        rack_peak = in_rack * peak / plan.racks_per_system  # an NVL36x2 spikes over 2 racks
        verified = spec is not None and spec.is_verified("power_peak_kw")
        over = rack_peak > limit
        severity: Severity = ("warning" if verified else "info") if over else "ok"
        against = (
            f"the feeds' full rating of {num(limit)} kW"
            if full is not None
            else f"the rack's {num(limit)} kW qualification"
        )
        headroom = limit - rack_peak
        findings.append(
            finding_make(
                CHECK,
                severity,
                (
                    f"Spikes of {num(rack_peak)} kW per rack, over {against}"
                    if over
                    else f"Spikes of {num(rack_peak)} kW per rack fit {against}"
                ),
                f"The {vehicle.name} draws up to {num(top)} kW steadily and spikes to about "
                f"{num(peak)} kW for milliseconds. {in_rack} in a rack peak at {num(rack_peak)} kW "
                f"against {against}: "
                + (
                    f"{num(-headroom)} kW short; ask the electrical engineer about the breakers' "
                    "trip curves and the power shelves' hold-up."
                    if over
                    else f"{num(headroom)} kW of headroom."
                )
                + ("" if verified else " The peak is an estimate, not a vendor figure."),
                metrics={
                    "system": vehicle.system.sku,
                    "peak_kw": peak,
                    "max_kw": top,
                    "rack_peak_kw": round(rack_peak, 2),
                    "limit_kw": round(limit, 2),
                    "headroom_kw": round(headroom, 2),
                    "peak_verified": verified,
                },
                formula=f"{in_rack} × {num(peak)} kW = {num(rack_peak)} kW "
                + ("> " if over else "≤ ")
                + f"{num(limit)} kW",
                lever="Feeds and power shelves sized for the spikes, not only the steady draw."
                if over
                else "",
                figures=[system_figure(vehicle, "power_peak_kw")],
            )
        )
    return findings
