"""The review engine: a quote, a workload and a facility in; findings, sizing, blood pressure and
a verdict out. Pure: no ORM, no HTTP, no settings (the CLI and pages pass the thresholds in).

    report = review(ReviewInput(quote=..., systems=..., workload=..., facility=...), catalog)

Sizing runs once (`checks.context.context_build`), then every check reads the same context; a
100-line quote is a few dictionary lookups and a few hundred float operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from pydantic import BaseModel, Field

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.blood_pressure import DEFAULT_FINANCE_THRESHOLDS, blood_pressure_for
from apps.review.engine.checks import CHECKS
from apps.review.engine.checks._common import fold_repeats
from apps.review.engine.checks.buy_or_rent import comparison
from apps.review.engine.checks.context import ReviewContext, context_build
from apps.review.engine.checks.energy import fleet_kw, tariff_of
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.recommendation import recommend_from_context
from apps.review.engine.schemas import (
    Facility,
    LineProblem,
    QuotedSystem,
    QuoteSummary,
    RackLoad,
    ReviewReport,
    Sizing,
    Workload,
    verdict_for,
)
from apps.review.engine.sizing.facility import (
    btu_per_hr,
    energy_per_year,
    heat_split_kw,
    usable_rack_kw,
)

__all__ = ["ReviewInput", "ReviewInputError", "review", "sizing_of"]


class ReviewInput(BaseModel):
    """What a review needs: the quote as read, its vehicles, the load and the building.

    `line_problems` are what quote intake found wrong with the lines (unmatched lines,
    quantity × unit ≠ extended, GPUs without a chassis); the `quote_lines` check words them.
    """

    quote: QuoteSummary
    systems: list[QuotedSystem]
    workload: Workload
    facility: Facility
    line_problems: list[LineProblem] = Field(default_factory=list)


def review(
    inp: ReviewInput,
    catalog: CatalogSnapshot,
    *,
    finance_thresholds: Sequence[float] = DEFAULT_FINANCE_THRESHOLDS,
    thresholds_currency: str = "USD",
    thresholds_note: str = "",
) -> ReviewReport:
    """Review one quote. Raises ReviewInputError for input it cannot review (unknown model).

    `finance_thresholds` are in `thresholds_currency` (USD unless the caller converted them
    into the quote's currency, saying how in `thresholds_note`)."""
    ctx = context_build(
        workload=inp.workload,
        facility=inp.facility,
        quote=inp.quote,
        systems=inp.systems,
        line_problems=inp.line_problems,
        catalog=catalog,
    )
    findings = fold_repeats([finding for _, check in CHECKS for finding in check(ctx)])
    # The right-fit vehicle; when there is none, its finding says why.
    recommendation, no_fit = recommend_from_context(ctx)
    findings += [no_fit] if no_fit is not None else []
    return ReviewReport(
        verdict=verdict_for(findings),
        quote=inp.quote,
        systems=inp.systems,
        sizing=sizing_of(ctx),
        findings=findings,
        blood_pressure=blood_pressure_for(
            ctx,
            findings,
            thresholds=finance_thresholds,
            thresholds_currency=thresholds_currency,
            thresholds_note=thresholds_note,
        ),
        recommendation=recommendation,
        workload=inp.workload,
        facility=inp.facility,
        catalog_version=catalog.version,
        catalog_revision=catalog.revision,
    )


def _round(value: float | None, digits: int = 2) -> float | None:
    return round(value, digits) if value is not None else None


def sizing_of(ctx: ReviewContext) -> Sizing:
    """The report's sizing block; numbers that do not apply stay null (CONTRACT.md)."""
    job = ctx.job
    serving = ctx.serving
    domain = ctx.biggest_domain
    powers = [v.system.power_kw * v.quantity for v in ctx.vehicles if v.system.power_kw is not None]
    weights = [
        v.system.weight_lb * v.quantity for v in ctx.vehicles if v.system.weight_lb is not None
    ]
    rack_kws = [plan.rack_kw for _, plan in ctx.racks if plan.rack_kw is not None]
    return Sizing(
        job_memory_gb=_round(job.total_gb) if job else None,
        domain_job_memory_gb=_round(job.unit_gb) if job else None,
        nvlink_domain_memory_gb=_round(domain.domain_memory_gb) if domain else None,
        decode_tokens_per_sec_bound=_round(serving.decode_bound) if serving else None,
        tokens_per_sec_per_user=_round(serving.tokens_per_sec_per_user) if serving else None,
        max_concurrent_users=serving.max_concurrent_users if serving else None,
        fp64_tflops=_round(ctx.fp64.best_tflops) if ctx.wants_fp64 else None,
        utilization_pct=_round(ctx.utilization.share * 100, 1) if ctx.utilization else None,
        power_kw=_round(sum(powers)) if powers else None,
        rack_power_kw=_round(max(rack_kws)) if rack_kws else None,
        racks_needed=_racks_needed(ctx),
        weight_lb=_round(sum(weights), 1) if weights else None,
        **_building(ctx),
    )


def _racks_needed(ctx: ReviewContext) -> int | None:
    """Racks for every line; None when no rack here can take one of some system (four DGX B200
    at 14.3 kW in a 2 kW room: not "1 rack", none of these racks)."""
    if not ctx.racks or any(plan.single_over_budget for _, plan in ctx.racks):
        return None
    return sum(plan.racks_needed for _, plan in ctx.racks)


MAX_DRAWN_RACKS = 48


def rack_loads(ctx: ReviewContext) -> list[RackLoad]:
    """Each rack as the quote fills it: 5 DGX B200 in 20 kW racks are five racks of 14.3 kW;
    a rack of a system no rack here can take is drawn as unusable."""
    loads: list[RackLoad] = []
    room = ctx.facility.cooling
    for vehicle, plan in ctx.racks:
        kw = vehicle.system.power_kw
        if kw is None or not plan.quantity:
            continue
        left = plan.quantity
        spans = plan.racks_per_system  # an NVL36x2 is drawn as its two racks of 66 kW
        while left > 0 and len(loads) < MAX_DRAWN_RACKS:
            count = min(left, plan.systems_per_rack)
            left -= count
            rack_kw = count * kw / spans
            liquid, air = heat_split_kw(vehicle.facility_cooling, room, rack_kw)
            load = RackLoad(
                system=vehicle.name,
                systems=count,
                kw=round(rack_kw, 2),
                limit_kw=_round(plan.budget_kw),
                liquid_kw=round(liquid, 2),
                air_kw=round(air, 2),
                usable=not plan.single_over_budget,
            )
            loads.extend([load] * min(spans, MAX_DRAWN_RACKS - len(loads)))
    return loads


def _building(ctx: ReviewContext) -> dict[str, object]:
    """Heat, the running bill, the racks drawn and the buy-or-rent curve (null when not asked)."""
    peak, typical = fleet_kw(ctx.vehicles)
    out: dict[str, object] = {}
    if peak:
        tariff = tariff_of(ctx.facility)
        kwh, cost, tonnes = energy_per_year(
            typical_kw=typical,
            pue=tariff.pue,
            usd_per_kwh=tariff.usd_per_kwh,
            kg_co2_per_kwh=tariff.kg_co2_per_kwh,
        )
        out |= {
            "heat_btu_per_hr": round(btu_per_hr(peak)),
            "typical_kw": _round(typical),
            "energy_kwh_per_year": round(kwh),
            "energy_cost_per_year": Decimal(round(cost)),
            "co2_tonnes_per_year": _round(tonnes, 1),
        }
    if ctx.racks:
        loads = rack_loads(ctx)
        no_fit = [v.name for v, plan in ctx.racks if plan.single_over_budget]
        out |= {
            "usable_rack_kw": _round(usable_rack_kw(ctx.facility)),
            "no_rack_fits": no_fit or None,
            "racks": loads or None,
            "liquid_kw": _round(sum(r.liquid_kw for r in loads)) if loads else None,
            "air_kw": _round(sum(r.air_kw for r in loads)) if loads else None,
        }
    if ctx.workload.states_time:
        out["buy_or_rent"] = comparison(ctx)[0]
    return out
