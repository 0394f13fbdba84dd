"""Facility arithmetic: power per GPU and per system, racks, cooling, floors, circuits."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.schemas import Facility
from apps.review.engine.sizing.facility import (
    assembled_power_kw,
    circuit_continuous_w,
    circuit_severity,
    cooling_severity,
    facility_fit,
    floor_severity,
    gpus_power_kw,
    rack_plan,
    vehicle_rack_plan,
)
from apps.review.engine.sizing.vehicle import vehicles_from
from tests.review.engine.engine_kit import ROW_RDHX, quoted_system


def test_eight_600_watt_gpus_are_4_8_kw_before_the_server() -> None:
    # 8 × 600 W = 4,800 W = 4.8 kW
    assert gpus_power_kw(8, 600) == pytest.approx(4.8)
    # a van: 2.2 kW chassis + 4 × 350 W L40S = 3.6 kW
    assert assembled_power_kw(base_kw=2.2, gpus=4, watts_each=350) == pytest.approx(3.6)


def test_dgx_b200_catalog_figures(catalog: CatalogSnapshot) -> None:
    b200 = catalog.system("dgx-b200")
    # the field guide: 313.9 lb and 14.3 kW, 8 GPUs in one NVLink domain
    assert (b200.power_max_kw, b200.weight_lb, b200.nvlink_domain_gpus) == (14.3, 313.9, 8)
    assert b200.is_verified("power_max_kw")


def test_gb300_nvl72_draws_120_to_142_kw_and_needs_liquid(catalog: CatalogSnapshot) -> None:
    nvl72 = catalog.system("gb300-nvl72")
    # a range: typical 120 kW, facilities checks use the top (breakers): 142 kW
    assert (nvl72.power_typical_kw, nvl72.power_max_kw) == (120.0, 142.0)
    assert nvl72.cooling == "liquid"


def test_four_semis_in_a_2_kw_room(catalog: CatalogSnapshot) -> None:
    plan = rack_plan(
        quantity=4,
        power_kw=14.3,
        rack_units=10,
        weight_lb=313.9,
        rack_scale=False,
        rack_power_kw=2,
        racks_available=1,
    )
    # floor(2 ÷ 14.3) = 0: a single system is over budget; the quote puts all four in the one
    # rack (4 × 10U ≤ 42U): 4 × 14.3 = 57.2 kW against 2 kW = 28.6×
    assert plan.single_over_budget
    assert plan.systems_per_rack == 4
    assert plan.rack_kw == pytest.approx(57.2)
    assert plan.overload_ratio == pytest.approx(28.6)
    # (4 × 313.9 + 300 lb rack) ÷ 10 sq ft = 155.56 lb/sq ft
    assert plan.floor_lb_per_sqft == pytest.approx(155.56)


@pytest.mark.parametrize(
    ("budget", "per_rack", "racks"),
    [(14.2, 4, 1), (14.3, 1, 3), (28.5, 1, 3), (28.6, 2, 2), (57.2, 4, 1), (100, 4, 1)],
)
def test_systems_per_rack_by_power_and_space(budget: float, per_rack: int, racks: int) -> None:
    # 3 × DGX B200 (14.3 kW, 10U): floor(budget ÷ 14.3) by power, floor(42 ÷ 10) = 4 by space.
    # Under 14.3 kW no layout is legal; the plan shows what the quote implies: all three in a rack.
    plan = rack_plan(
        quantity=3,
        power_kw=14.3,
        rack_units=10,
        weight_lb=313.9,
        rack_scale=False,
        rack_power_kw=budget,
        racks_available=None,
    )
    assert plan.systems_per_rack == per_rack
    assert plan.racks_needed == racks
    assert plan.single_over_budget == (budget < 14.3)


def test_racks_needed_against_racks_available() -> None:
    # 10 DGX B200 at one per 20 kW rack need 10 racks; the room has 4
    plan = rack_plan(
        quantity=10,
        power_kw=14.3,
        rack_units=10,
        weight_lb=313.9,
        rack_scale=False,
        rack_power_kw=20,
        racks_available=4,
    )
    assert (plan.racks_needed, plan.short_of_racks) == (10, True)


def test_an_nvl72_is_its_own_rack(catalog: CatalogSnapshot) -> None:
    vehicle = vehicles_from([quoted_system(catalog, "gb300-nvl72")], catalog)[0]
    plan = vehicle_rack_plan(vehicle, Facility(rack_power_kw=150, racks_available=4))
    # one per rack, no extra frame: 3,000 lb ÷ 10 sq ft = 300 lb/sq ft
    assert (plan.systems_per_rack, plan.rack_kw, plan.rack_weight_lb) == (1, 142.0, 3000.0)
    assert plan.floor_lb_per_sqft == pytest.approx(300.0)


@pytest.mark.parametrize(
    ("system", "room", "rack_kw", "severity"),
    [
        ("air", "air", 20.0, "ok"),
        ("air", "air", 20.1, "warning"),  # beyond plain air: rear doors
        ("air", "air", 41.0, "warning"),
        ("air", "air", 41.1, "critical"),  # beyond perfectly contained air
        ("air_or_liquid", "air_rdhx", 60.0, "ok"),
        ("air_or_liquid", "air_rdhx", 60.1, "warning"),
        ("air", "air_rdhx", 75.1, "critical"),  # beyond the biggest rear doors
        ("liquid", "air", 1.0, "critical"),  # liquid-only in an air room
        ("liquid", "air_rdhx", 142.0, "critical"),
        ("liquid", "liquid", 142.0, "ok"),
        ("air", "liquid", 57.2, "ok"),
    ],
)
def test_cooling_limits(system: str, room: str, rack_kw: float, severity: str) -> None:
    assert cooling_severity(system, room, rack_kw) == severity


@pytest.mark.parametrize(
    ("load", "severity"),
    [(250.0, "ok"), (250.1, "warning"), (375.0, "warning"), (375.1, "critical")],
)
def test_floor_against_a_250_rating(load: float, severity: str) -> None:
    # over the rating: a warning; over 1.5 × 250 = 375: critical
    assert floor_severity(load, 250) == severity


def test_office_circuits_at_the_80_percent_rule() -> None:
    # 15 A × 120 V × 0.8 = 1,440 W; 20 A × 120 V × 0.8 = 1,920 W
    assert circuit_continuous_w(120, 15) == pytest.approx(1440)
    assert circuit_continuous_w(120, 20) == pytest.approx(1920)


@pytest.mark.parametrize(
    ("watts", "amps", "severity"),
    [
        (1440, 15, "ok"),
        (1441, 15, "warning"),
        (1600, 15, "warning"),  # the DGX Station on a 15 A circuit
        (1800, 15, "warning"),  # 15 A × 120 V: the breaker itself
        (1801, 15, "critical"),
        (1600, 20, "ok"),  # the DGX Station on its 20 A circuit
        (1920, 20, "ok"),
        (1921, 20, "warning"),
    ],
)
def test_circuit_boundaries(watts: float, amps: float, severity: str) -> None:
    assert circuit_severity(watts, 120, amps) == severity


def test_facility_fit_for_the_recommendation(catalog: CatalogSnapshot) -> None:
    b200, nvl72 = vehicles_from(
        [quoted_system(catalog, "dgx-b200"), quoted_system(catalog, "gb300-nvl72")], catalog
    )
    assert facility_fit(b200, ROW_RDHX).fits
    air_hall = Facility(rack_power_kw=30, racks_available=2, cooling="air")
    fit = facility_fit(nvl72, air_hall)
    assert not fit.fits
    assert any("142.0 kW" in p for p in fit.problems)
    assert any("cooling" in p for p in fit.problems)
    # five DGX B200 need five 20 kW racks; the row has four
    assert not facility_fit(b200, ROW_RDHX, quantity=5).fits
    office = Facility(site="office", circuit_volts=120, circuit_amps=15)
    assert not facility_fit(b200, office).fits  # 14,300 W is over a 1,800 W breaker
