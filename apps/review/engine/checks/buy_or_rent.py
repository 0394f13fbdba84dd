"""buy_or_rent: would renting the same GPUs for the busy hours cost less over the project?

"Ever debate buying a new car for a three-day vacation? Maybe a rental is a better idea… Don't
buy what you don't need." Asked only when the load says how long it runs or how many hours a
day (a workload without those fields is reviewed as it always was). The rent side uses the
load's own rate, else the median on-demand rate per GPU-hour in the catalog for that GPU; the
buy side the quote's price plus power at typical kW × busy hours × PUE × the room's price.
Warning when renting is cheaper for the stated period; info otherwise. Neither side counts
resale value, staff, financing or support: the finding says so.
"""

from __future__ import annotations

from decimal import Decimal
from statistics import median

from apps.review.engine.checks._common import finding_make, num, usd
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.checks.energy import fleet_kw, tariff_of
from apps.review.engine.schemas import BuyOrRent, Finding
from apps.review.engine.sizing.rent import DEFAULT_BUSY_HOURS, buy_or_rent, period_months

CHECK = "buy_or_rent"
NOT_COUNTED = (
    "No resale value, staff cost, financing or support contract is counted on either side."
)
RENT_BEATS_BY = 0.5  # Finance counts a purchase that renting beats by more than half


def rent_rate(ctx: ReviewContext, gpu_key: str) -> tuple[float, str] | None:
    """($/GPU-hour, where it came from) for one GPU: the load's own rate, else the median of the
    catalog's on-demand rates (B200: 9 published rates, $5.94-$16.00, median $6.79)."""
    if ctx.workload.rent_usd_per_gpu_hour is not None:
        return ctx.workload.rent_usd_per_gpu_hour, "the rate given with the load"
    rates = ctx.catalog.rental_rates_for(gpu_key)
    if not rates:
        return None
    prices = [float(r.usd_per_gpu_hour) for r in rates]
    verified = sum(r.verified for r in rates)
    dates = sorted(r.as_of for r in rates if r.as_of[:2] == "20")
    when = f", {dates[0]} to {dates[-1]}" if dates else ""
    return median(prices), (
        f"the median of {len(prices)} on-demand rates in the catalog (${min(prices):,.2f}-"
        f"${max(prices):,.2f}{when}; {verified} verified, the rest market figures)"
    )


def comparison(ctx: ReviewContext) -> tuple[BuyOrRent | None, str, list[str]]:
    """The comparison, the source of the rate, and what is missing when there is none."""
    workload = ctx.workload
    gpus = ctx.gpu_vehicles
    missing: list[str] = []
    if not gpus:
        return None, "", ["no GPUs on the quote"]
    total_gpus = 0
    rent_hourly = 0.0
    sources: list[str] = []
    for vehicle in gpus:
        gpu = vehicle.gpu
        assert gpu is not None  # gpu_vehicles only
        found = rent_rate(ctx, gpu.key)
        if found is None:
            missing.append(f"no rental rate for {gpu.model} in the catalog")
            continue
        rate, source = found
        total_gpus += vehicle.gpus
        rent_hourly += vehicle.gpus * rate
        sources.append(f"{gpu.model} at ${rate:,.2f}/GPU-hour, {source}")
    amount = ctx.spend.amount
    if amount is None:
        missing.append("no price on the quote")
    if missing or not total_gpus or amount is None:
        return None, "", missing
    tariff = tariff_of(ctx.facility)
    _, typical = fleet_kw(ctx.vehicles)
    result = buy_or_rent(
        gpus=total_gpus,
        purchase_usd=float(amount),
        typical_kw=typical,
        busy_hours_per_day=workload.busy_hours_per_day or DEFAULT_BUSY_HOURS,
        months=period_months(
            weeks=workload.duration_weeks,
            months=workload.duration_months,
            ongoing=workload.duration_ongoing,
        ),
        rent_usd_per_gpu_hour=rent_hourly / total_gpus,
        usd_per_kwh=tariff.usd_per_kwh,
        pue=tariff.pue,
    )
    result = result.model_copy(update={"period": _period(ctx, result.months)})
    return result, "; ".join(sources), []


def _period(ctx: ReviewContext, months: float) -> str:
    workload = ctx.workload
    if workload.duration_weeks is not None:
        return f"{num(workload.duration_weeks)} weeks"
    if workload.duration_months is not None:
        return f"{num(workload.duration_months)} months"
    return f"ongoing, compared over {num(months)} months"


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.workload.states_time:
        return []
    result, source, missing = comparison(ctx)
    if result is None:
        return [
            finding_make(
                CHECK,
                "info",
                "Buy or rent not compared",
                f"Buy or rent was not compared: {'; '.join(missing)}.",
                lever="Give a rental rate per GPU-hour with the load (rent_usd_per_gpu_hour).",
            )
        ]
    period = _period(ctx, result.months)
    hours = result.busy_hours_per_day
    assumed_hours = "" if ctx.workload.busy_hours_per_day else " (24 h assumed)"
    days = round(result.months * 365 / 12, 1)
    rent_formula = (
        f"rent {result.gpus} GPUs × ${result.rent_usd_per_gpu_hour:,.2f} × {num(hours)} h × "
        f"{num(days)} days = {usd(Decimal(str(result.rent_total_usd)))}"
    )
    buy_formula = (
        f"buy {usd(Decimal(str(result.purchase_usd)))} + "
        f"{usd(Decimal(str(result.power_usd_per_month)))}/month power × {num(result.months)} "
        f"months = {usd(Decimal(str(result.buy_total_usd)))}"
    )
    if result.break_even_months is not None:
        even = (
            f"Buying breaks even after {num(result.break_even_months)} months of use "
            f"({usd(Decimal(str(result.purchase_usd)))} ÷ "
            f"({usd(Decimal(str(result.rent_usd_per_month)))} − "
            f"{usd(Decimal(str(result.power_usd_per_month)))} a month))."
        )
    else:
        even = "Renting stays cheaper however long it runs: the power bill alone exceeds the rent."
    metrics = result.model_dump()
    rent_total = usd(Decimal(str(result.rent_total_usd)))
    buy_total = usd(Decimal(str(result.buy_total_usd)))
    if result.cheaper == "rent":
        return [
            finding_make(
                CHECK,
                "warning",
                f"Renting the same GPUs costs {rent_total}, buying {buy_total} for {period}",
                f"Ever debate buying a new car for a three-day vacation? For {period} at "
                f"{num(hours)} busy hours a day{assumed_hours}, renting {result.gpus} GPUs costs "
                f"{rent_total} against {buy_total} to buy and power them ({source}). {even} "
                f"{NOT_COUNTED}",
                metrics=metrics,
                formula=f"{rent_formula}; {buy_formula}",
                lever="Rent for the project, or buy only if the load will outlive the break-even.",
            )
        ]
    return [
        finding_make(
            CHECK,
            "info",
            f"Buying beats renting over {period}: {buy_total} against {rent_total}",
            f"For {period} at {num(hours)} busy hours a day{assumed_hours}, buying and powering "
            f"the systems costs {buy_total}; renting {result.gpus} GPUs would cost {rent_total} "
            f"({source}). {even} {NOT_COUNTED}",
            metrics=metrics,
            formula=f"{rent_formula}; {buy_formula}",
        )
    ]
