"""Rack plans by how a system lands in racks: a rack-scale train (one rack, or two for an
NVL36x2), blades in a cabinet, 8-GPU semis packed by kW and by rack units."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.schemas import Facility
from apps.review.engine.sizing.facility import facility_fit, rack_plan, vehicle_rack_plan
from apps.review.engine.sizing.vehicle import vehicles_from
from tests.review.engine.engine_kit import quoted_system


def _hall(kw: float, racks: int = 8, cooling: str = "liquid") -> Facility:
    return Facility(
        site="datacenter",
        rack_power_kw=kw,
        racks_available=racks,
        cooling=cooling,  # type: ignore[arg-type]
        floor_load_lb_per_sqft=400,
    )


def _plan(catalog: CatalogSnapshot, sku: str, quantity: int, facility: Facility, **kw: object):
    (vehicle,) = vehicles_from([quoted_system(catalog, sku, quantity, **kw)], catalog)
    return vehicle, vehicle_rack_plan(vehicle, facility)


def test_the_catalog_knows_nvl36x2_spans_two_racks(catalog: CatalogSnapshot) -> None:
    nvl36x2 = catalog.system("gb200-nvl36x2")
    # NVIDIA's 36x2 layout: two racks of 36 GPUs, one 72-GPU domain; 2 × 66 kW = 132 kW
    assert (nvl36x2.racks_per_system, nvl36x2.power_max_kw) == (2, 132.0)
    assert nvl36x2.is_verified("racks_per_system")
    # its weight is a labelled estimate (none found)
    assert not nvl36x2.is_verified("weight_lb")
    assert catalog.system("gb200-nvl72").racks_per_system == 1


def test_one_nvl36x2_is_two_racks_of_66_kw(catalog: CatalogSnapshot) -> None:
    vehicle, plan = _plan(catalog, "gb200-nvl36x2", 1, _hall(70), gpus=72, domain=72)
    assert vehicle.is_rack_scale
    # 132 kW ÷ 2 racks = 66 kW per rack ≤ 70 kW; 1 system × 2 racks = 2 racks
    assert plan.rack_kw == pytest.approx(66.0)
    assert plan.racks_needed == 2
    assert not plan.single_over_budget
    # ~3,000 lb ÷ 2 racks = 1,500 lb per rack (no empty-rack tare: the train is its rack);
    # 1,500 lb ÷ 10 sq ft = 150 lb/sq ft
    assert plan.rack_weight_lb == pytest.approx(1500.0)
    assert plan.floor_lb_per_sqft == pytest.approx(150.0)


def test_three_nvl36x2_need_six_racks(catalog: CatalogSnapshot) -> None:
    _, plan = _plan(catalog, "gb200-nvl36x2", 3, _hall(70, racks=4), gpus=72, domain=72)
    # 3 systems × 2 racks = 6 racks > 4 available
    assert plan.racks_needed == 6
    assert plan.short_of_racks


def test_a_70_kw_room_takes_the_nvl36x2_not_the_nvl72(catalog: CatalogSnapshot) -> None:
    hall = _hall(70)
    (nvl36x2,) = vehicles_from(
        [quoted_system(catalog, "gb200-nvl36x2", gpus=72, domain=72)], catalog
    )
    (nvl72,) = vehicles_from([quoted_system(catalog, "gb200-nvl72")], catalog)
    # 66 kW per rack ≤ 70 kW; the NVL72's one rack is 132 kW > 70 kW
    assert facility_fit(nvl36x2, hall).fits
    nvl72_fit = facility_fit(nvl72, hall)
    assert not nvl72_fit.fits
    assert "132.0 kW, over 70.0 kW" in nvl72_fit.problems[0]


def test_an_nvl36x2_rack_over_budget_says_per_rack(catalog: CatalogSnapshot) -> None:
    (vehicle,) = vehicles_from(
        [quoted_system(catalog, "gb200-nvl36x2", gpus=72, domain=72)], catalog
    )
    fit = facility_fit(vehicle, _hall(60))
    # 66 kW per rack > 60 kW
    assert "each rack of one system draws 66.0 kW, over 60.0 kW" in fit.problems


def test_one_nvl72_is_one_rack(catalog: CatalogSnapshot) -> None:
    _, plan = _plan(catalog, "gb300-nvl72", 2, _hall(150))
    # 142 kW ≤ 150 kW per rack; 2 systems × 1 rack = 2 racks; 3,000 lb / 10 sq ft = 300
    assert (plan.racks_needed, plan.rack_kw, plan.racks_per_system) == (2, 142.0, 1)
    assert plan.floor_lb_per_sqft == pytest.approx(300.0)


def test_nvl4_blades_fill_an_ex4000_cabinet_by_slots(catalog: CatalogSnapshot) -> None:
    # 64 blades in cabinets qualified for 400 kW: by power floor(400 ÷ 5.4) = 74,
    # by slots 56 per cabinet → 56 per cabinet; ceil(64 ÷ 56) = 2 cabinets;
    # the densest cabinet: 56 × 5.4 = 302.4 kW
    _, plan = _plan(catalog, "gb200-nvl4", 64, _hall(400))
    assert plan.per_cabinet == 56
    assert (plan.per_rack_by_power, plan.per_rack_by_space) == (74, 56)
    assert plan.racks_needed == 2
    assert plan.rack_kw == pytest.approx(302.4)


def test_nvl4_blades_in_a_150_kw_cabinet_are_limited_by_power(catalog: CatalogSnapshot) -> None:
    # floor(150 ÷ 5.4) = floor(27.8) = 27 blades per cabinet; ceil(64 ÷ 27) = 3 cabinets;
    # 27 × 5.4 = 145.8 kW
    _, plan = _plan(catalog, "gb200-nvl4", 64, _hall(150))
    assert plan.systems_per_rack == 27
    assert plan.racks_needed == 3
    assert plan.rack_kw == pytest.approx(145.8)


def test_a_blade_has_no_made_up_weight(catalog: CatalogSnapshot) -> None:
    # the catalog used to guess 300 lb ("an 8-GPU server"); 56 × 300 lb is not a cabinet
    assert catalog.system("gb200-nvl4").weight_lb is None
    assert catalog.system("hpe-cray-ex154n").blades_per_cabinet == 56


def test_semis_pack_by_rack_kw(catalog: CatalogSnapshot) -> None:
    # DGX B200: 14.3 kW, 10U. A 60 kW rack: floor(60 ÷ 14.3) = 4 by power, floor(42 ÷ 10) = 4
    # by space → 4 per rack (the guide's "four are going in the rack"); 10 → ceil(10 ÷ 4) = 3
    _, plan = _plan(catalog, "dgx-b200", 10, _hall(60, cooling="air_rdhx"))
    assert (plan.per_rack_by_power, plan.per_rack_by_space, plan.racks_needed) == (4, 4, 3)
    assert plan.rack_kw == pytest.approx(57.2)  # 4 × 14.3


def test_semis_pack_by_rack_units(catalog: CatalogSnapshot) -> None:
    plan = rack_plan(
        quantity=16,
        power_kw=10.2,
        rack_units=8,
        weight_lb=287.6,
        rack_scale=False,
        rack_power_kw=100,
        racks_available=8,
    )
    # 8U DGX H100 in 100 kW racks: floor(100 ÷ 10.2) = 9 by power, floor(42 ÷ 8) = 5 by
    # space → 5 per rack; ceil(16 ÷ 5) = 4 racks; 5 × 10.2 = 51 kW
    assert (plan.systems_per_rack, plan.racks_needed) == (5, 4)
    assert plan.rack_kw == pytest.approx(51.0)
