"""Facility edge cases a facilities engineer catches: a sealed-loop deskside is not a
facility-water system, and the Facilities gauge reads the building exactly as the checks do
(feeds, a stated air capacity, a floor rated in kg/m²)."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.blood_pressure import facilities_pressure
from apps.review.engine.checks import cooling
from apps.review.engine.schemas import Facility
from apps.review.engine.sizing.facility import facility_fit
from apps.review.engine.sizing.vehicle import vehicles_from
from tests.review.engine.engine_kit import context, only, quoted_system

DEV = {"kind": "development", "memory_gb": 10}
TRAINING = {"kind": "training", "memory_gb": 100}
# a liquid-cooled GB300 deskside: cold plates to its own front radiator and fans, 1,600 W
DESKSIDE = "supermicro-ars-511gd-nb-lcc"


def test_a_sealed_loop_deskside_is_an_air_load(catalog: CatalogSnapshot) -> None:
    assert catalog.system(DESKSIDE).cooling == "liquid"
    (vehicle,) = vehicles_from([quoted_system(catalog, DESKSIDE)], catalog)
    assert vehicle.facility_cooling == "air"
    (train,) = vehicles_from([quoted_system(catalog, "gb300-nvl72")], catalog)
    assert train.facility_cooling == "liquid"


def test_a_sealed_loop_deskside_fits_an_office_20_amp_circuit(catalog: CatalogSnapshot) -> None:
    office = Facility(site="office", circuit_volts=120, circuit_amps=20)
    ctx = context(catalog, [quoted_system(catalog, DESKSIDE)], DEV, office)
    # 1,600 W > 1,440 W of a desk outlet: the guide's walk-in for a 20 A circuit (raised), not
    # the "no facility water at a desk" crisis; 1,600 W ≤ 20 A × 120 V × 0.8 = 1,920 W fits
    pressure = facilities_pressure(ctx)
    assert pressure.level == "raised"
    assert not any("facility water" in r for r in pressure.reasons)
    (vehicle,) = ctx.vehicles
    assert facility_fit(vehicle, office).fits


def test_a_sealed_loop_deskside_in_an_air_room_is_not_a_cooling_failure(
    catalog: CatalogSnapshot,
) -> None:
    room = Facility(rack_power_kw=10, racks_available=1, cooling="air")
    ctx = context(catalog, [quoted_system(catalog, DESKSIDE)], DEV, room)
    finding = only(cooling.check(ctx))
    # 1.6 kW to the room's air ≤ 20 kW
    assert finding.severity == "ok"
    assert finding.metrics["facility_cooling"] == "air"


def test_the_gauge_reads_a_stated_air_capacity(catalog: CatalogSnapshot) -> None:
    # a DGX B200 (14.3 kW) in a room whose air removes 10 kW per rack: the cooling check warns
    # (14.3 > 10), so Facilities asks about airflow twice: high (was raised, at the 20 kW rule)
    room = Facility(rack_power_kw=20, racks_available=2, cooling="air", air_kw_per_rack=10)
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, room)
    assert only(cooling.check(ctx)).severity == "warning"
    pressure = facilities_pressure(ctx)
    assert pressure.level == "high"
    assert any("asks about airflow, then asks again" in r for r in pressure.reasons)


def test_the_gauge_reads_a_floor_rated_in_kg_per_m2(catalog: CatalogSnapshot) -> None:
    # 4 × 313.9 lb + 300 lb rack = 1,555.6 lb ÷ 10 sq ft = 155.6 lb/sq ft against
    # 500 kg/m² ÷ 4.882 = 102.4 lb/sq ft: over (the check warns; 1.5 × 102.4 = 153.6 → critical)
    room = Facility(rack_power_kw=60, racks_available=1, cooling="liquid", floor_load_kg_per_m2=500)
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", 4)], TRAINING, room)
    pressure = facilities_pressure(ctx)
    assert pressure.level == "high"
    assert any("on a floor rated 102.4" in r for r in pressure.reasons)


def test_the_gauge_reads_a_budget_given_as_feeds(catalog: CatalogSnapshot) -> None:
    # one 208 V 30 A three-phase feed: 208 × 30 × √3 × 0.8 = 8.65 kW per rack; a 14.3 kW DGX
    # B200 is over it (14.3 ÷ 8.65 = 1.65×: new power per rack, high)
    room = Facility(
        racks_available=2, cooling="air_rdhx", feed_volts=208, feed_amps=30, feed_phase="three"
    )
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, room)
    pressure = facilities_pressure(ctx)
    assert pressure.level == "high"
    assert any("against a 8.65 kW qualification" in r for r in pressure.reasons)
