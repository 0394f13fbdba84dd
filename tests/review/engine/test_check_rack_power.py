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
