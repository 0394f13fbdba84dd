"""Buy or rent: the purchase plus its power bill against renting the same GPUs for the busy hours.

The field guide's last lesson: "Ever debate buying a new car for a three-day vacation? Maybe a
rental is a better idea." Eight H100s rented at $2.50 per GPU-hour, 24 hours a day for six weeks:
8 × 2.50 × 24 × 42 = $20,160, against a $300,000 purchase before its first kilowatt-hour.

Buying costs the price on day one plus power each month (typical kW × busy hours × PUE × price);
renting costs GPUs × rate × busy hours each month. Break-even is the month the lines cross:
purchase ÷ (rent per month − power per month). Nothing else is counted: no resale value, no staff,
no financing, no support renewal; the finding says so.
"""

from __future__ import annotations

from apps.review.engine.schemas import BuyOrRent

DAYS_PER_MONTH = 365.0 / 12  # 30.42
DAYS_PER_WEEK = 7.0
DEFAULT_BUSY_HOURS = 24.0  # a purchase runs round the clock unless the load says otherwise
ONGOING_MONTHS = 36.0  # "ongoing" is compared over three years, the usual depreciation


def period_months(
    *, weeks: float | None = None, months: float | None = None, ongoing: bool = False
) -> float:
    """The project's length in months: 6 weeks = 42 days ÷ 30.42 = 1.38 months; ongoing = 36."""
    if weeks is not None:
        return weeks * DAYS_PER_WEEK / DAYS_PER_MONTH
    if months is not None:
        return months
    return ONGOING_MONTHS


def buy_or_rent(
    *,
    gpus: int,
    purchase_usd: float,
    typical_kw: float,
    busy_hours_per_day: float,
    months: float,
    rent_usd_per_gpu_hour: float,
    usd_per_kwh: float,
    pue: float,
) -> BuyOrRent:
    """Both totals over `months` and the break-even month.

    8 H100 at $2.50 for 6 weeks × 24 h: rent 8 × 2.50 × 24 × 42 = $20,160; buy $300,000 + power.
    """
    hours_per_month = busy_hours_per_day * DAYS_PER_MONTH
    power_month = typical_kw * hours_per_month * pue * usd_per_kwh
    rent_month = gpus * rent_usd_per_gpu_hour * hours_per_month
    buy_total = purchase_usd + power_month * months
    rent_total = rent_month * months
    saving_month = rent_month - power_month
    break_even = purchase_usd / saving_month if saving_month > 0 else None
    return BuyOrRent(
        months=round(months, 3),
        gpus=gpus,
        busy_hours_per_day=busy_hours_per_day,
        rent_usd_per_gpu_hour=rent_usd_per_gpu_hour,
        purchase_usd=round(purchase_usd, 2),
        power_usd_per_month=round(power_month, 2),
        rent_usd_per_month=round(rent_month, 2),
        buy_total_usd=round(buy_total, 2),
        rent_total_usd=round(rent_total, 2),
        break_even_months=round(break_even, 2) if break_even is not None else None,
        cheaper="rent" if rent_total < buy_total else "buy",
    )
