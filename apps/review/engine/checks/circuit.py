"""circuit: office machines against the branch circuit at the 80 % continuous rule.

A 15 A, 120 V circuit carries 15 × 120 × 0.8 = 1,440 W for three hours or more; 20 A carries
1,920 W. The DGX Station lists 1,600 W: it wants a dedicated 20 A circuit.

Two questions, two kinds of finding:
- Can each machine run on a circuit of the kind the facility describes? A machine that cannot
  (the Station on 15 A) is the real failure: warning up to the breaker, critical above it.
- How many such circuits does the whole quote need? Machines are packed whole onto circuits,
  largest first (first-fit decreasing, `sizing.circuits`): ten DGX Sparks at 240 W are 2,400 W,
  six to a 1,440 W circuit, so 6 + 4 on 2 circuits. When that is more than one circuit, an
  `info` finding gives Facilities the total draw and the count. Info, not a warning: the
  facility describes the kind of circuit, not how many the room has, and an office has many;
  every machine here runs on one alone, so nothing on the quote is wrong. The failure it
  heads off is ten Sparks on one power strip, which is a planning fact for Facilities (their
  gauge goes to raised: the guide's "walk in from the Facilities team"), not a verdict on the
  quote. Phones and laptops charge from anything and are left out of the count.
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.review.engine.checks._common import (
    finding_make,
    num,
    plural,
    power_figures,
    problems_or_one_ok,
)
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity
from apps.review.engine.sizing.circuits import CircuitPacking, circuits_pack
from apps.review.engine.sizing.facility import (
    CONTINUOUS_SHARE,
    DESK_AMPS,
    DESK_OUTLET_W,
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

    findings = problems_or_one_ok(
        ctx.vehicles,
        severity_of,
        lambda vehicle, severity: _finding(ctx, vehicle, severity, volts, amps),
        heaviest=lambda vehicle: vehicle.system.power_kw or 0.0,
    )
    packing = office_packing(ctx.vehicles, volts, amps)
    if packing is None:
        return findings
    if packing.circuits_needed + len(packing.too_big) > 1:
        return [*findings, _room_finding(ctx, packing, volts, amps)]
    # every machine shares the one circuit: say so on the ok line
    return [_shared_circuit_ok(f, packing) if f.severity == "ok" else f for f in findings]


def office_packing(vehicles: Sequence[Vehicle], volts: float, amps: float) -> CircuitPacking | None:
    """Every plugged-in machine of the quote packed onto `amps` A, `volts` V circuits; None when
    there is at most one machine with a known draw (nothing to add up)."""
    watts = [
        vehicle.system.power_kw * 1000
        for vehicle in vehicles
        if vehicle.system.power_kw is not None and not vehicle.is_personal
        for _ in range(vehicle.quantity)
    ]
    if len(watts) < 2:
        return None
    return circuits_pack(watts, circuit_continuous_w(volts, amps))


def at_desk_outlets(vehicles: Sequence[Vehicle]) -> bool:
    """Whether every plugged-in machine plugs into a desk outlet (≤ 15 A × 120 V × 0.8 =
    1,440 W): Sparks and small workstations sit on people's desks, each on its own outlet."""
    return all(
        vehicle.system.power_kw is not None and vehicle.system.power_kw * 1000 <= DESK_OUTLET_W
        for vehicle in vehicles
        if not vehicle.is_personal
    )


def _machines(packing: CircuitPacking) -> int:
    return sum(packing.machines_per_circuit) + len(packing.too_big)


def _room_metrics(packing: CircuitPacking) -> dict[str, object]:
    return {
        "machines": _machines(packing),
        "total_w": round(packing.total_w),
        "circuits_needed": packing.circuits_needed,
        "circuits_lower_bound": packing.lower_bound,
        "machines_per_circuit": list(packing.machines_per_circuit),
        "machines_over_one_circuit": len(packing.too_big),
    }


def _shared_circuit_ok(finding: Finding, packing: CircuitPacking) -> Finding:
    detail = (
        f"{finding.detail} Together the {_machines(packing)} machines draw "
        f"{num(packing.total_w)} W, within one circuit's {num(packing.capacity_w)} W."
    )
    return finding.model_copy(
        update={"detail": detail, "metrics": finding.metrics | _room_metrics(packing)}
    )


def _room_finding(
    ctx: ReviewContext, packing: CircuitPacking, volts: float, amps: float
) -> Finding:
    """The whole quote against circuits of the described kind (see the module docstring)."""
    needed = packing.circuits_needed
    limit = packing.capacity_w
    split = " + ".join(str(n) for n in packing.machines_per_circuit)
    bigger = ""
    if packing.too_big:
        count = len(packing.too_big)
        bigger = (
            f" {plural(count, 'machine')} over {num(limit)} W alone "
            f"{'needs' if count == 1 else 'need'} a bigger circuit each (see above)."
        )
    kind = f"{num(amps)} A, {num(volts)} V"
    packed_w = packing.total_w - sum(packing.too_big)
    if needed > 1:
        fit = f"they need {needed} such circuits ({split} machines, largest first)."
    elif needed == 1:
        fit = "the others share one such circuit."
    else:
        fit = "none of them runs on one such circuit."
    detail = (
        f"The {_machines(packing)} machines on the quote draw {num(packing.total_w)} W together "
        f"at their maximum. A {kind} circuit carries {num(limit)} W continuously, and a machine "
        f"cannot be split across two, so {fit}{bigger} "
        + (
            "Each on a desk outlet of its own they run as they are; on one power strip they trip "
            "it."
            if at_desk_outlets(ctx.vehicles)
            else "Facilities needs to know before they arrive: one power strip will trip."
        )
    )
    formula = (
        f"{num(amps)} A × {num(volts)} V × {CONTINUOUS_SHARE} = {num(limit)} W per circuit; "
        f"ceil({num(packed_w)} W ÷ {num(limit)} W) = {packing.lower_bound}; "
        f"first-fit decreasing: {needed} ({split})"
    )
    return finding_make(
        CHECK,
        "info",
        f"{num(packing.total_w)} W together: "
        + " and ".join(
            part
            for part in (
                f"{plural(needed, 'circuit')} of {num(amps)} A" if needed else "",
                plural(len(packing.too_big), "bigger circuit") if packing.too_big else "",
            )
            if part
        ),
        detail,
        metrics={
            "circuit_volts": volts,
            "circuit_amps": amps,
            "continuous_limit_w": round(limit),
            **_room_metrics(packing),
        },
        formula=formula,
        lever=(
            f"Spread the machines over {plural(needed, 'separate circuit')} of {kind}."
            if needed > 1
            else "Give each machine over the circuit its own bigger circuit."
        ),
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
