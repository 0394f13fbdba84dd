"""cooling: liquid-only systems need liquid; dense air racks need rear doors, then liquid."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import cooling
from apps.review.engine.schemas import Facility
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system

TRAINING = {"kind": "training", "memory_gb": 100}


def test_the_train_without_rails(catalog: CatalogSnapshot) -> None:
    room = Facility(rack_power_kw=30, racks_available=2, cooling="air")
    finding = only(
        cooling.check(context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room))
    )
    assert finding.severity == "critical"
    assert "Without rails in place, you are going nowhere" in finding.detail


def test_the_train_on_rails(catalog: CatalogSnapshot) -> None:
    room = Facility(rack_power_kw=150, racks_available=4, cooling="liquid")
    finding = only(
        cooling.check(context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room))
    )
    assert finding.severity == "ok"


@pytest.mark.parametrize(
    ("count", "rack_kw", "severity"),
    [(1, 14.3, "ok"), (2, 28.6, "warning"), (4, 57.2, "critical")],
)
def test_semis_in_an_air_room(
    catalog: CatalogSnapshot, count: int, rack_kw: float, severity: str
) -> None:
    # 60 kW racks on plain air: 1 × 14.3 ≤ 20 kW; 2 × 14.3 = 28.6 > 20 needs rear doors;
    # 4 × 14.3 = 57.2 > 41 kW, beyond even contained air
    room = Facility(rack_power_kw=60, racks_available=4, cooling="air")
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", count)], TRAINING, room)
    finding = only(cooling.check(ctx))
    assert finding.severity == severity
    assert finding.metrics["rack_kw"] == pytest.approx(rack_kw)


def test_rear_doors_take_four_semis(catalog: CatalogSnapshot) -> None:
    # 57.2 kW ≤ 60 kW of rear-door heat exchangers
    room = Facility(rack_power_kw=60, racks_available=4, cooling="air_rdhx")
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", 4)], TRAINING, room)
    assert only(cooling.check(ctx)).severity == "ok"


def test_offices_have_no_cooling_check(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark")], TRAINING, OFFICE_15A)
    assert cooling.check(ctx) == []
