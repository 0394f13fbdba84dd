"""buy_or_rent: the purchase plus power against renting the same GPUs for the busy hours."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import buy_or_rent
from apps.review.engine.sizing.rent import buy_or_rent as compare
from apps.review.engine.sizing.rent import period_months
from tests.review.engine.engine_kit import context, only, quoted_system, run

FINE_TUNE = {"kind": "fine_tuning", "memory_gb": 400}


def _dgx_h100(catalog: CatalogSnapshot) -> list:
    # 8 × H100, quoted at $300,000, typical 10.2 kW
    return [quoted_system(catalog, "dgx-h100", unit_price=300_000)]


def test_six_weeks_round_the_clock_renting_wins(catalog: CatalogSnapshot) -> None:
    # rent 8 × $2.50 × 24 h × 42 days = $20,160
    # buy $300,000 + power 10.2 kW × 730 h × 1.54 × $0.0895 = $1,026.28/month × 1.38 months
    #     = $301,417
    workload = FINE_TUNE | {"duration_weeks": 6, "rent_usd_per_gpu_hour": 2.5}
    finding = only(buy_or_rent.check(context(catalog, _dgx_h100(catalog), workload)))
    assert finding.severity == "warning"
    assert finding.metrics["rent_total_usd"] == pytest.approx(20_160)
    assert finding.metrics["buy_total_usd"] == pytest.approx(301_417, abs=1)
    assert finding.metrics["cheaper"] == "rent"
    assert "$20,160" in finding.title
    assert "8 GPUs × $2.50 × 24 h × 42 days = $20,160" in finding.formula
    assert "No resale value, staff cost" in finding.detail


def test_three_years_round_the_clock_buying_wins(catalog: CatalogSnapshot) -> None:
    # rent 8 × $2.50 × 730 h × 36 months = $525,600
    # buy $300,000 + $1,026.28 × 36 = $336,946
    # break-even $300,000 ÷ ($14,600 − $1,026.28) = 22.1 months
    workload = FINE_TUNE | {"duration_months": 36, "rent_usd_per_gpu_hour": 2.5}
    finding = only(buy_or_rent.check(context(catalog, _dgx_h100(catalog), workload)))
    assert finding.severity == "info"
    assert finding.metrics["rent_total_usd"] == pytest.approx(525_600)
    assert finding.metrics["buy_total_usd"] == pytest.approx(336_946, abs=1)
    assert finding.metrics["break_even_months"] == pytest.approx(22.1, abs=0.01)
    assert "breaks even after 22.1 months" in finding.detail


def test_ongoing_uses_the_catalog_median_rate(catalog: CatalogSnapshot) -> None:
    # 14 on-demand H100 SXM rates in the catalog; the median of the middle two
    # ($3.99 and $4.176) is $4.083
    finding = only(
        buy_or_rent.check(
            context(catalog, _dgx_h100(catalog), FINE_TUNE | {"duration_ongoing": True})
        )
    )
    assert finding.metrics["rent_usd_per_gpu_hour"] == pytest.approx(4.083)
    assert finding.metrics["months"] == 36
    assert "median of 14 on-demand rates" in finding.detail


def test_busy_hours_shrink_the_rent(catalog: CatalogSnapshot) -> None:
    # 8 h a day for 12 months: rent 8 × $2.50 × 8 h × 365 days = $58,400 < $300,000 + power
    workload = FINE_TUNE | {
        "duration_months": 12,
        "busy_hours_per_day": 8,
        "rent_usd_per_gpu_hour": 2.5,
    }
    finding = only(buy_or_rent.check(context(catalog, _dgx_h100(catalog), workload)))
    assert finding.metrics["rent_total_usd"] == pytest.approx(58_400)
    assert finding.severity == "warning"


def test_a_workload_without_time_is_reviewed_as_today(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, _dgx_h100(catalog), FINE_TUNE)
    assert buy_or_rent.check(ctx) == []
    report = run(catalog, _dgx_h100(catalog), FINE_TUNE)
    assert report.sizing.buy_or_rent is None
    assert "buy_or_rent" not in {f.check for f in report.findings}


def test_no_rate_for_the_gpu_is_info(catalog: CatalogSnapshot) -> None:
    # no public on-demand rate for a GB300
    systems = [quoted_system(catalog, "gb300-nvl72")]
    finding = only(buy_or_rent.check(context(catalog, systems, FINE_TUNE | {"duration_weeks": 6})))
    assert finding.severity == "info"
    assert "no rental rate for GB300" in finding.detail


def test_rent_beating_a_purchase_by_more_than_half_raises_finance(
    catalog: CatalogSnapshot,
) -> None:
    # $20,160 rent < half of $301,417: Finance one level up, with the reason
    workload = FINE_TUNE | {"duration_weeks": 6, "rent_usd_per_gpu_hour": 2.5}
    plain = run(catalog, _dgx_h100(catalog), FINE_TUNE)
    short = run(catalog, _dgx_h100(catalog), workload)
    levels = ("calm", "raised", "high", "crisis")
    assert levels.index(short.blood_pressure.finance.level) == min(
        3, levels.index(plain.blood_pressure.finance.level) + 1
    )
    assert any("rental" in r for r in short.blood_pressure.finance.reasons)


def test_the_pure_comparison() -> None:
    # 6 weeks = 42 ÷ 30.42 = 1.38 months
    assert period_months(weeks=6) == pytest.approx(1.3808, abs=1e-4)
    result = compare(
        gpus=8,
        purchase_usd=300_000,
        typical_kw=0,
        busy_hours_per_day=24,
        months=36,
        rent_usd_per_gpu_hour=2.5,
        usd_per_kwh=0.0895,
        pue=1.54,
    )
    # no power: break-even $300,000 ÷ $14,600 = 20.55 months
    assert result.break_even_months == pytest.approx(20.55, abs=0.01)
    assert result.cheaper == "buy"
    assert Decimal(str(result.rent_usd_per_month)) == Decimal("14600.0")
