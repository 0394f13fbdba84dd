"""utilization: demand ÷ capacity for inference-type loads, and what the idle part costs.

"Needed a school bus, bought a cement truck": a training-grade system (NVL8, NVL72) mostly idle
under an inference load delivers at a terrible cost per token. Nothing is broken; the funding
that could have gone elsewhere is simply gone. A development box is meant to idle between runs,
so a desk-class vehicle under a development load is never waste.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, num, pct, plural, usd
from apps.review.engine.checks.context import WASTE_IDLE_SHARE, ReviewContext
from apps.review.engine.schemas import Finding, WorkloadKind

CHECK = "utilization"


def check(ctx: ReviewContext) -> list[Finding]:
    use = ctx.utilization
    if use is None:
        return []
    asked = ctx.workload.tokens_per_sec_per_user
    demand_tps = use.demand_users * asked
    capacity_tps = use.capacity_users * asked
    metrics = {
        "utilization_pct": round(use.share * 100, 1),
        "idle_pct": round(use.idle_share * 100, 1),
        "idle_usd": str(use.idle_usd) if use.idle_usd is not None else None,
        "demand_tokens_per_sec": round(demand_tps, 1),
        "capacity_tokens_per_sec": round(capacity_tps, 1),
        "training_grade": use.training_grade,
    }
    formula = (
        f"{plural(use.demand_users, 'user')} × {num(asked)} tok/s = {num(demand_tps)} tok/s ÷ "
        f"{plural(use.capacity_users, 'user')} × {num(asked)} tok/s = {num(capacity_tps)} tok/s "
        f"= {pct(use.share)}"
    )
    link = _split_link(ctx)
    if link:
        metrics["link"] = link
    link_note = f" Each copy of the model is split over {link}." if link else ""
    if use.capacity_users == 0 or use.share >= 1.0:
        return [
            finding_make(
                CHECK,
                "ok",
                "No idle capacity",
                "Every seat is taken: the quote is fully used by this load (the throughput check "
                f"says whether everyone gets a seat).{link_note}",
                metrics=metrics,
                formula=formula,
            )
        ]
    idle_text = (
        f"{plural(use.demand_users, 'user')} at {num(asked)} tokens/s "
        f"use{'s' if use.demand_users == 1 else ''} {pct(use.share)} of what the quote serves at "
        f"that speed ({plural(use.capacity_users, 'user')}), so about {pct(use.idle_share)} sits "
        "idle"
    )
    money = f": roughly {usd(use.idle_usd)} of the spend producing nothing" if use.idle_usd else ""
    mostly_idle = use.idle_share >= WASTE_IDLE_SHARE
    if mostly_idle and use.training_grade:
        return [
            finding_make(
                CHECK,
                "warning",
                "Needed a school bus, bought a cement truck",
                f"{idle_text}{money}. A training-grade system doing lighter inference delivers at "
                "a terrible cost per token, because most of it sits idle. Nothing is broken, the "
                "system screams and users are happy, but funding that could have gone to "
                "something else is simply gone.",
                metrics=metrics,
                formula=formula,
                lever=(
                    "Right-size the vehicle for the load: a PCIe server (the work van) or fewer "
                    "engines; buy the semi when the cement-truck job arrives."
                ),
            )
        ]
    if ctx.workload.kind == WorkloadKind.DEVELOPMENT:
        return [
            finding_make(
                CHECK,
                "ok",
                "Sized for development",
                f"{idle_text}, as a development box should between runs.{link_note}",
                metrics=metrics,
                formula=formula,
            )
        ]
    if mostly_idle:
        return [
            finding_make(
                CHECK,
                "info",
                "Room to grow",
                f"{idle_text}{money}. Fine if the load is expected to grow; otherwise a smaller "
                f"vehicle would do.{link_note}",
                metrics=metrics,
                formula=formula,
                lever="Fewer engines or a smaller vehicle, unless growth is planned.",
            )
        ]
    return [
        finding_make(
            CHECK,
            "ok",
            f"Busy enough: {pct(use.share)} used",
            f"{idle_text}.{link_note}",
            metrics=metrics,
            formula=formula,
        )
    ]


def _split_link(ctx: ReviewContext) -> str:
    """The link the serving plan splits a copy over (the same words the NVLink and throughput
    findings use), or "" when a copy sits on one GPU or one NVLink domain."""
    serving = ctx.serving
    if serving is None or serving.primary is None:
        return ""
    plan = serving.primary[1]
    return plan.link_text if plan.link in ("PCIe", "network") else ""
