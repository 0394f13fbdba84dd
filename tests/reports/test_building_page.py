"""The page and the text summary say "no rack here can take one" instead of a rack count, and
show the heat and the running bill."""

from __future__ import annotations

from apps.reports import page
from apps.reports.text import report_text
from tests.review.engine.engine_kit import quoted_system, run

TRAINING = {"kind": "training", "memory_gb": 100}
TWO_KW = {"rack_power_kw": 2, "racks_available": 1, "cooling": "air"}


def test_no_rack_here_can_take_one_on_the_page(catalog):
    report = run(catalog, [quoted_system(catalog, "dgx-b200", 4)], TRAINING, TWO_KW)
    rows = {r.key: r for r in page.sizing_rows(report)}
    assert rows["racks_needed"].value == "none: no rack here can take one NVIDIA DGX B200"
    # 57.2 kW × 3,412.14 = 195,174 BTU/h
    assert (rows["heat_btu_per_hr"].value, rows["heat_btu_per_hr"].unit) == ("195,174", "BTU/h")
    assert "liquid_kw" not in rows  # an air room: no split to show
    text = report_text(report)
    assert "Racks needed: none: no rack here can take one NVIDIA DGX B200" in text
    assert "Racks needed: 1" not in text


def test_the_liquid_split_and_the_bill_on_the_page(catalog):
    hall = {"rack_power_kw": 150, "cooling": "liquid", "pue": 1.2}
    report = run(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, hall)
    rows = {r.key: r for r in page.sizing_rows(report)}
    # 142 kW × 0.8 = 113.6 kW to the loop, 28.4 kW to the air
    assert rows["liquid_kw"].value == "113.6" and rows["air_kw"].value == "28.4"
    # 120 kW typical × 8,760 h × 1.2 = 1,261,440 kWh; × $0.0895 = $112,899
    assert rows["energy_kwh_per_year"].value == "1,261,440"
    assert rows["energy_cost_per_year"].value == "112,899"
    assert rows["usable_rack_kw"].value == "150"
