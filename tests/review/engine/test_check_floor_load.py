"""floor_load: rack weight over its footprint against the floor rating."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import floor_load
from apps.review.engine.schemas import Facility
from tests.review.engine.engine_kit import context, only, quoted_system

TRAINING = {"kind": "training", "memory_gb": 100}


@pytest.mark.parametrize(
    ("rating", "severity"),
    [(61.39, "ok"), (61.38, "warning"), (40.93, "warning"), (40.92, "critical"), (None, "info")],
)
def test_one_semi_per_rack(catalog: CatalogSnapshot, rating: float | None, severity: str) -> None:
    # (313.9 lb + 300 lb rack) ÷ 10 sq ft = 61.39 lb/sq ft; 1.5 × 40.92 = 61.38 < 61.39
    room = Facility(rack_power_kw=20, racks_available=4, floor_load_lb_per_sqft=rating)
    finding = only(
        floor_load.check(context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, room))
    )
    assert finding.severity == severity
    assert finding.metrics["floor_lb_per_sqft"] == pytest.approx(61.4, abs=0.01)


def test_an_nvl72_on_a_250_floor(catalog: CatalogSnapshot) -> None:
    # 3,000 lb (the rack is the frame, no tare) ÷ 10 sq ft = 300 lb/sq ft > 250
    room = Facility(
        rack_power_kw=150, racks_available=4, cooling="liquid", floor_load_lb_per_sqft=250
    )
    finding = only(
        floor_load.check(context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room))
    )
    assert finding.severity == "warning"
    # 300 lb/sq ft × 4.882428 = 1,464.7 kg/m²
    assert finding.formula == (
        "(1 × 3,000 lb) ÷ 10 sq ft = 300 lb/sq ft load vs 250 lb/sq ft rating; "
        "300 × 4.882 = 1,465 kg/m²"
    )
    # the 3,000 lb is the generic NVL72 figure, unverified for GB300: the warning says so
    assert finding.unverified == ["gb300-nvl72.weight_lb: ~3000 (unverified)"]


def test_only_problems_are_listed_when_some_lines_fail(catalog: CatalogSnapshot) -> None:
    room = Facility(
        rack_power_kw=150, racks_available=8, cooling="liquid", floor_load_lb_per_sqft=250
    )
    systems = [quoted_system(catalog, "dgx-b200"), quoted_system(catalog, "gb300-nvl72")]
    findings = floor_load.check(context(catalog, systems, TRAINING, room))
    assert [f.metrics["system"] for f in findings] == ["gb300-nvl72"]


def test_all_fine_is_one_ok_for_the_heaviest_rack(catalog: CatalogSnapshot) -> None:
    room = Facility(
        rack_power_kw=150, racks_available=8, cooling="liquid", floor_load_lb_per_sqft=500
    )
    systems = [quoted_system(catalog, "dgx-b200"), quoted_system(catalog, "gb300-nvl72")]
    finding = only(floor_load.check(context(catalog, systems, TRAINING, room)))
    assert finding.metrics["system"] == "gb300-nvl72"
    assert "The other kind of system on the quote passes too." in finding.detail


def test_an_nvl36x2_weighs_on_two_footprints(catalog: CatalogSnapshot) -> None:
    # one NVL36x2 is two racks: 3,000 lb ÷ 2 racks = 1,500 lb per rack ÷ 10 sq ft
    # = 150 lb/sq ft, within 250; the formula shows the ÷ 2 it used
    room = Facility(
        rack_power_kw=150, racks_available=4, cooling="liquid", floor_load_lb_per_sqft=250
    )
    system = quoted_system(catalog, "gb200-nvl36x2", gpus=72, domain=72)
    finding = only(floor_load.check(context(catalog, [system], TRAINING, room)))
    assert finding.severity == "ok"
    assert finding.metrics["floor_lb_per_sqft"] == pytest.approx(150.0)
    assert finding.formula.startswith("(1 × 3,000 lb ÷ 2 racks) ÷ 10 sq ft = 150 lb/sq ft load")
