"""The rack row and the buy-or-rent chart: each rack against its limit, the cumulative costs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from apps.reports.charts.buy_rent import buy_rent_svg
from apps.reports.charts.racks import rack_row_svg
from apps.reports.drawings import charts
from apps.review.engine.schemas import BuyOrRent, RackLoad
from apps.review.engine.sizing.rent import buy_or_rent
from tests.reports.test_charts import by_class, one, parse

NVL72 = RackLoad(
    system="NVIDIA GB300 NVL72", systems=1, kw=142, limit_kw=150, liquid_kw=113.6, air_kw=28.4
)
UNUSABLE = RackLoad(system="NVIDIA DGX B200", systems=4, kw=57.2, limit_kw=2, usable=False)


def _h100(months: float) -> BuyOrRent:
    # 8 × H100 at $2.50, 24 h a day; $300,000 + $1,026.28 of power a month
    return buy_or_rent(
        gpus=8,
        purchase_usd=300_000,
        typical_kw=10.2,
        busy_hours_per_day=24,
        months=months,
        rent_usd_per_gpu_hour=2.5,
        usd_per_kwh=0.0895,
        pue=1.54,
    )


def test_a_rack_that_cannot_be_used_is_crossed_out() -> None:
    root = parse(rack_row_svg([UNUSABLE]))
    assert len(by_class(root, "rack-unusable")) == 1
    assert "1 cannot be used" in one(root, "figures").text
    assert "57.2 kW of 2 kW (cannot be used)" in root.find("{http://www.w3.org/2000/svg}title").text


def test_the_liquid_and_air_split_is_drawn_to_scale() -> None:
    # the tallest figure is the 150 kW limit: 120 px; liquid 113.6 kW → 90.9 px, air 28.4 → 22.7
    root = parse(rack_row_svg([NVL72]))
    assert float(one(root, "rack-liquid").get("height")) == pytest.approx(90.9, abs=0.05)
    assert float(one(root, "rack-air").get("height")) == pytest.approx(22.7, abs=0.05)
    assert not by_class(root, "rack-unusable")
    assert "blue: liquid, amber: air" in one(root, "figures").text


def test_hostile_names_are_escaped() -> None:
    rack = UNUSABLE.model_copy(update={"system": '<img src="x">'})
    assert "<img" not in rack_row_svg([rack])


def test_six_weeks_ends_long_before_the_break_even() -> None:
    # break-even $300,000 ÷ ($14,600 − $1,026.28) = 22.1 months; drawn to 22.1 × 1.25 = 27.6
    svg = buy_rent_svg(_h100(42 / (365 / 12)))
    root = parse(svg)
    assert one(root, "break-even-label").text == "break-even 22.1 months"
    assert "renting is cheaper" in one(root, "figures").text
    assert "rent $20k" in one(root, "figures").text


def test_three_years_marks_the_break_even_inside_the_period() -> None:
    root = parse(buy_rent_svg(_h100(36)))
    assert "buying is cheaper" in one(root, "figures").text
    assert one(root, "break-even") is not None
    title = root.find("{http://www.w3.org/2000/svg}title").text
    assert title == (
        "Buy or rent over 36 months: buy $337k, rent $526k; break-even after 22.1 months"
    )


def test_the_report_carries_both_charts(catalog) -> None:
    from tests.review.engine.engine_kit import quoted_system, run

    report = run(
        catalog,
        [quoted_system(catalog, "dgx-b200", 4)],
        {"kind": "training", "memory_gb": 100, "duration_weeks": 6},
        {"rack_power_kw": 2, "racks_available": 1},
    )
    keys = [c.key for c in charts(report)]
    assert "rack-row" in keys and "buy-rent" in keys
    assert report.sizing.buy_or_rent is not None
    assert report.sizing.buy_or_rent.period == "6 weeks"
    assert "6 weeks: buy $2.1M" in next(c.svg for c in charts(report) if c.key == "buy-rent")
    assert isinstance(
        ET.fromstring(next(c.svg for c in charts(report) if c.key == "rack-row")), ET.Element
    )
