"""circuit: office machines against the branch circuit at the 80 % continuous rule.

A 15 A, 120 V circuit carries 15 × 120 × 0.8 = 1,440 W for three hours or more; 20 A carries
1,920 W. The DGX Station lists 1,600 W: it wants a dedicated 20 A circuit. Each machine is taken
to have its own circuit of the kind the facility describes.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, power_figures, problems_or_one_ok
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.facility import (
    CONTINUOUS_SHARE,
    DESK_AMPS,
    DESK_VOLTS,
    circuit_continuous_w,
    circuit_severity,
)
from apps.review.engine.sizing.vehicle import Vehicle

CHECK = "circuit"
STANDARD_AMPS = (15, 20, 30, 40, 50)
IEC_AMPS = (10, 16, 20, 25, 32)  # 230 V countries' final circuits (common practice, unverified)


def amps_needed(watts: float, volts: float) -> int | None:
    """The smallest standard breaker that carries `watts` continuously at `volts`:
    1,600 W at 120 V → 20 A (20 × 120 × 0.8 = 1,920 W); at 230 V the IEC sizes:
    3,000 W → 20 A (20 × 230 × 0.8 = 3,680 W; 16 A carries 2,944 W)."""
    sizes = IEC_AMPS if 220 <= volts <= 230 else STANDARD_AMPS
    for amps in sizes:
        if circuit_continuous_w(volts, amps) >= watts:
            return amps
    return None


def check(ctx: ReviewContext) -> list[Finding]:
    if ctx.facility.site != "office":
        return []
    volts = ctx.facility.circuit_volts or DESK_VOLTS
    amps = ctx.facility.circuit_amps or DESK_AMPS

    def severity_of(vehicle: Vehicle) -> Severity:
        if vehicle.system.power_kw is None:
            return "info"
        return circuit_severity(vehicle.system.power_kw * 1000, volts, amps)

    return problems_or_one_ok(
        ctx.vehicles,
        severity_of,
        lambda vehicle, severity: _finding(ctx, vehicle, severity, volts, amps),
        heaviest=lambda vehicle: vehicle.system.power_kw or 0.0,
    )


def _finding(
    ctx: ReviewContext, vehicle: Vehicle, severity: Severity, volts: float, amps: float
) -> Finding:
    system = vehicle.system
    if system.power_kw is None:
        return finding_make(
            CHECK,
            "info",
            f"Power unknown for {vehicle.name}",
            "The catalog has no maximum draw for this machine, so the circuit was not checked.",
            metrics={"system": system.sku},
            lever="Get the machine's maximum draw from the vendor.",
        )
    assumed = ""
    if not (ctx.facility.circuit_volts and ctx.facility.circuit_amps):
        assumed = (
            f" (no circuit given: a standard {num(DESK_AMPS)} A, {num(DESK_VOLTS)} V outlet "
            "assumed)"
        )
    limit = circuit_continuous_w(volts, amps)
    watts = system.power_kw * 1000
    needed = amps_needed(watts, volts)
    metrics = {
        "system": system.sku,
        "watts": round(watts),
        "circuit_volts": volts,
        "circuit_amps": amps,
        "continuous_limit_w": round(limit),
        "amps_needed": needed,
    }
    formula = (
        f"{num(amps)} A × {num(volts)} V × {CONTINUOUS_SHARE} = {num(limit)} W continuous vs "
        f"{num(watts)} W"
    )
    figures = power_figures(vehicle)
    if severity == "ok":
        return finding_make(
            CHECK,
            "ok",
            f"{num(watts)} W fits a {num(amps)} A circuit",
            f"The {vehicle.name} draws up to {num(watts)} W; a {num(amps)} A, {num(volts)} V "
            f"circuit carries {num(limit)} W continuously{assumed}.",
            metrics=metrics,
            formula=formula,
            figures=figures,
        )
    want = (
        f"a dedicated {needed} A, {num(volts)} V circuit "
        f"({num(circuit_continuous_w(volts, needed))} W continuous)"
        if needed
        else "208-240 V data-center power"
    )
    if severity == "warning":
        title = f"{num(watts)} W needs more than a {num(amps)} A circuit"
        detail = (
            f"The {vehicle.name} lists {num(watts)} W; a {num(amps)} A, {num(volts)} V circuit "
            f"carries {num(limit)} W continuously (the 80 % rule for loads of three hours or "
            f"more){assumed}. It runs until a long job trips the breaker. It wants {want}: "
            "Facilities gets a walk-in."
        )
    else:
        title = f"{num(watts)} W is over a {num(amps)} A breaker"
        detail = (
            f"The {vehicle.name} draws up to {num(watts)} W, more than the {num(volts * amps)} W "
            f"a {num(amps)} A, {num(volts)} V breaker passes at all{assumed}. It wants {want}."
        )
    return finding_make(
        CHECK,
        severity,
        title,
        detail,
        metrics=metrics,
        formula=formula,
        lever=f"Install {want}, or choose a lower-power machine.",
        figures=figures,
    )
