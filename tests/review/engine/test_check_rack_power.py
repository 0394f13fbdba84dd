"""rack_power: one system over the rack budget, and racks needed against racks available."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import rack_power
from apps.review.engine.schemas import Facility
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system

TRAINING = {"kind": "training", "memory_gb": 100}


def _room(kw: float | None, racks: int | None = 4) -> Facility:
    return Facility(rack_power_kw=kw, racks_available=racks, cooling="air_rdhx")


@pytest.mark.parametrize(("budget", "severity"), [(14.3, "ok"), (14.2, "critical")])
def test_one_semi_against_the_rack_budget(
    catalog: CatalogSnapshot, budget: float, severity: str
) -> None:
    # a DGX B200 draws 14.3 kW at most
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, _room(budget))
    assert only(rack_power.check(ctx)).severity == severity


def test_four_semis_in_a_2_kw_room(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", 4)], TRAINING, _room(2, 1))
    finding = only(rack_power.check(ctx))
    assert finding.severity == "critical"
    # 4 × 14.3 kW = 57.2 kW in the one rack, 57.2 ÷ 2 = 28.6 × the qualification
    assert finding.metrics["rack_kw"] == pytest.approx(57.2)
    assert finding.metrics["overload_ratio"] == pytest.approx(28.6)
    assert "4 × 14.3 kW = 57.2 kW" in finding.formula
    assert "you want 57.2 kW" in finding.detail


@pytest.mark.parametrize(("count", "severity"), [(4, "ok"), (5, "critical")])
def test_racks_needed_against_racks_available(
    catalog: CatalogSnapshot, count: int, severity: str
) -> None:
    # floor(20 ÷ 14.3) = 1 per rack: 4 semis need 4 racks (4 available), 5 need 5
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", count)], TRAINING, _room(20))
    finding = only(rack_power.check(ctx))
    assert (finding.severity, finding.metrics["racks_needed"]) == (severity, count)


def test_two_lines_share_the_racks(catalog: CatalogSnapshot) -> None:
    # 3 DGX B200 (3 racks) + 2 DGX H200 (floor(20 ÷ 10.2) = 1 each: 2 racks) = 5 > 4
    systems = [quoted_system(catalog, "dgx-b200", 3), quoted_system(catalog, "dgx-h200", 2)]
    findings = rack_power.check(context(catalog, systems, TRAINING, _room(20)))
    assert [f.severity for f in findings] == ["critical"]
    assert findings[0].metrics == {"racks_needed": 5, "racks_available": 4}


def test_no_qualification_is_info(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, _room(None))
    assert only(rack_power.check(ctx)).severity == "info"


def test_an_unverified_power_figure_is_a_source(catalog: CatalogSnapshot) -> None:
    # the DGX B300's ~14 kW is unverified; at 13 kW it drives a critical and says so
    ctx = context(catalog, [quoted_system(catalog, "dgx-b300")], TRAINING, _room(13))
    finding = only(rack_power.check(ctx))
    assert finding.severity == "critical"
    assert finding.unverified == ["dgx-b300.power_max_kw: ~14 (unverified)"]
    assert "unverified figure" in finding.detail


def test_offices_have_no_racks(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark")], TRAINING, OFFICE_15A)
    assert rack_power.check(ctx) == []


# --- systems that fill more than one rack ---------------------------------------------------


def _liquid_hall(kw: float, racks: int = 4) -> Facility:
    return Facility(
        rack_power_kw=kw, racks_available=racks, cooling="liquid", floor_load_lb_per_sqft=250
    )


def _nvl36x2(catalog: CatalogSnapshot, quantity: int = 1):  # type: ignore[no-untyped-def]
    return quoted_system(catalog, "gb200-nvl36x2", quantity, gpus=72, domain=72)


def test_an_nvl36x2_is_two_racks_of_66_kw(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [_nvl36x2(catalog)], TRAINING, _liquid_hall(70))
    finding = only(rack_power.check(ctx))
    assert finding.severity == "ok"
    # 132 kW ÷ 2 racks = 66 kW per rack ≤ 70 kW; 1 × 2 = 2 racks
    assert finding.metrics["racks_needed"] == 2
    assert finding.metrics["racks_per_system"] == 2
    assert finding.metrics["rack_kw"] == 66
    assert finding.formula == "132 kW ÷ 2 racks = 66 kW per rack ≤ 70 kW; 1 × 2 = 2 racks"
    assert finding.title == "2 racks per system, 2 racks of 4"


def test_an_nvl36x2_rack_over_a_60_kw_budget(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [_nvl36x2(catalog)], TRAINING, _liquid_hall(60))
    finding = only(rack_power.check(ctx))
    # 66 kW per rack > 60 kW: 66 ÷ 60 = 1.1×
    assert finding.severity == "critical"
    assert "each of its 2 racks draws 66 kW" in finding.title
    assert finding.metrics["overload_ratio"] == 1.1


def test_two_nvl36x2_in_a_three_rack_room(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [_nvl36x2(catalog, 2)], TRAINING, _liquid_hall(70, racks=3))
    finding = only(rack_power.check(ctx))
    # 2 systems × 2 racks = 4 racks > 3
    assert finding.severity == "critical"
    assert finding.title == "Needs 4 racks, the room has 3"


def test_the_report_sizes_an_nvl36x2_by_its_racks(catalog: CatalogSnapshot) -> None:
    from tests.review.engine.engine_kit import run

    report = run(catalog, [_nvl36x2(catalog)], TRAINING, _liquid_hall(70))
    sizing = report.sizing
    # 132 kW in all; the densest rack 132 ÷ 2 = 66 kW; 2 racks; 3,000 lb (estimate) in all
    assert (sizing.power_kw, sizing.rack_power_kw, sizing.racks_needed) == (132.0, 66.0, 2)
    assert sizing.weight_lb == 3000.0
    # the drawing shows both racks at 66 kW
    assert [r.kw for r in sizing.racks or []] == [66.0, 66.0]


def test_blades_fill_cabinets_by_slots(catalog: CatalogSnapshot) -> None:
    blades = quoted_system(catalog, "gb200-nvl4", 64)
    ctx = context(catalog, [blades], TRAINING, _liquid_hall(400, racks=2))
    finding = only(rack_power.check(ctx))
    # floor(400 ÷ 5.4) = 74 by power, 56 blade slots per cabinet: ceil(64 ÷ 56) = 2 cabinets
    assert finding.metrics["systems_per_rack"] == 56
    assert finding.metrics["racks_needed"] == 2
    assert "56 blade slots per cabinet" in finding.formula
