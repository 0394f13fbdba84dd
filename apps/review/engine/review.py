"""The review engine: a quote, a workload and a facility in; findings, sizing, blood pressure and
a verdict out. Pure: no ORM, no HTTP, no settings (the CLI and pages pass the thresholds in).

    report = review(ReviewInput(quote=..., systems=..., workload=..., facility=...), catalog)

Sizing runs once (`checks.context.context_build`), then every check reads the same context; a
100-line quote is a few dictionary lookups and a few hundred float operations.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.blood_pressure import DEFAULT_FINANCE_THRESHOLDS, blood_pressure_for
from apps.review.engine.checks import CHECKS
from apps.review.engine.checks.context import ReviewContext, context_build
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.recommendation import recommend_from_context
from apps.review.engine.schemas import (
    Facility,
    LineProblem,
    QuotedSystem,
    QuoteSummary,
    ReviewReport,
    Sizing,
    Workload,
    verdict_for,
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
) -> ReviewReport:
    """Review one quote. Raises ReviewInputError for input it cannot review (unknown model)."""
    ctx = context_build(
        workload=inp.workload,
        facility=inp.facility,
        quote=inp.quote,
        systems=inp.systems,
        line_problems=inp.line_problems,
        catalog=catalog,
    )
    findings = [finding for _, check in CHECKS for finding in check(ctx)]
    # The right-fit vehicle; when there is none, its finding says why.
    recommendation, no_fit = recommend_from_context(ctx)
    findings += [no_fit] if no_fit is not None else []
    return ReviewReport(
        verdict=verdict_for(findings),
        quote=inp.quote,
        systems=inp.systems,
        sizing=sizing_of(ctx),
        findings=findings,
        blood_pressure=blood_pressure_for(ctx, findings, thresholds=finance_thresholds),
        recommendation=recommendation,
        workload=inp.workload,
        facility=inp.facility,
        catalog_version=catalog.version,
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
        racks_needed=sum(plan.racks_needed for _, plan in ctx.racks) if ctx.racks else None,
        weight_lb=_round(sum(weights), 1) if weights else None,
    )
