"""The building in Facilities' own language: feeds and phases, heat, liquid loops, floors, the bill.

Every number below has its arithmetic beside it.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import cooling, energy, floor_load, rack_power, transient
from apps.review.engine.schemas import Facility
from apps.review.engine.sizing.facility import (
    btu_per_hr,
    feed_kw,
    feeds_rack_kw,
    kg_per_m2,
    lb_per_sqft,
    usable_rack_kw,
)
from tests.review.engine.engine_kit import context, only, quoted_system, run

TRAINING = {"kind": "training", "memory_gb": 100}
TWO_KW_ROOM = Facility(rack_power_kw=2, racks_available=1, cooling="air")
COLO_CAGE = Facility(
    name="Colocation cage",
    rack_power_kw=None,
    racks_available=4,
    feed_volts=208,
    feed_phase="three",
    feed_amps=30,
    feed_redundant=True,
    cooling="air",
)


def test_the_2_kw_room_says_no_rack_can_take_a_dgx_b200(catalog: CatalogSnapshot) -> None:
    # 4 × DGX B200 at 14.3 kW each in a room qualified for 2 kW racks: one system alone is
    # 14.3 ÷ 2 = 7.15 × a rack, so no count of these racks works ("Racks needed: 1" was wrong)
    report = run(catalog, [quoted_system(catalog, "dgx-b200", 4)], TRAINING, TWO_KW_ROOM)
    assert report.sizing.racks_needed is None
    assert report.sizing.no_rack_fits == ["NVIDIA DGX B200"]
    finding = next(f for f in report.findings if f.check == "rack_power")
    assert finding.severity == "critical"
    assert finding.title.startswith("No rack here can take one NVIDIA DGX B200")
    assert finding.metrics["racks_needed"] is None
    assert report.sizing.racks is not None
    assert [r.usable for r in report.sizing.racks] == [False]


def test_three_phase_feed_208_v_30_a() -> None:
    # 208 V × 30 A × √3 × 0.8 = 8,646 W ≈ 8.6 kW per three-phase feed
    assert feed_kw(volts=208, amps=30, three_phase=True, continuous_share=0.8) == pytest.approx(
        8.646, abs=0.001
    )
    # single-phase: 208 × 30 × 0.8 = 4,992 W
    assert feed_kw(volts=208, amps=30, three_phase=False, continuous_share=0.8) == pytest.approx(
        4.992
    )
    # IEC 400 V 16 A three-phase at 100 %: 400 × 16 × √3 = 11.09 kW
    assert feed_kw(volts=400, amps=16, three_phase=True, continuous_share=1.0) == pytest.approx(
        11.085, abs=0.001
    )


def test_ab_feeds_give_one_side_not_both() -> None:
    # A/B 208 V 30 A three-phase: either side carries the rack alone, so 8.6 kW, not 17.3 kW
    assert feeds_rack_kw(COLO_CAGE) == pytest.approx(8.646, abs=0.001)
    # two feeds per side: 2 × 8.646 = 17.29 kW
    two = COLO_CAGE.model_copy(update={"feeds_per_side": 2})
    assert feeds_rack_kw(two) == pytest.approx(17.29, abs=0.01)
    # a 15 kW qualification on 8.6 kW feeds: the smaller counts
    both = COLO_CAGE.model_copy(update={"rack_power_kw": 15})
    assert usable_rack_kw(both) == pytest.approx(8.646, abs=0.001)


def test_a_dgx_h100_does_not_fit_an_ab_208_v_30_a_cage(catalog: CatalogSnapshot) -> None:
    # DGX H100 10.2 kW > 8.6 kW one side: its N+N power supplies must run on one feed
    ctx = context(catalog, [quoted_system(catalog, "dgx-h100")], TRAINING, COLO_CAGE)
    finding = only(rack_power.check(ctx))
    assert finding.severity == "critical"
    assert "208 V × 30 A × √3 × 0.8 = 8.65 kW per feed" in finding.formula
    assert "either side must carry the whole rack" in finding.detail
    assert finding.metrics["rack_budget_kw"] == pytest.approx(8.65)


def test_heat_in_btu_per_hour() -> None:
    # 14.3 kW × 3,412.14 = 48,793.6 ≈ 48,794 BTU/h
    assert round(btu_per_hr(14.3)) == 48_794


def test_floor_units() -> None:
    # 250 lb/sq ft × 4.882428 = 1,220.6 ≈ 1,221 kg/m²
    assert round(kg_per_m2(250)) == 1_221
    assert lb_per_sqft(1220.607) == pytest.approx(250, abs=0.01)


def test_floor_load_is_worded_as_load_against_rating(catalog: CatalogSnapshot) -> None:
    # (1 × 313.9 lb + 300 lb rack) ÷ 10 sq ft = 61.4 lb/sq ft load against a 250 rating
    room = Facility(rack_power_kw=20, floor_load_lb_per_sqft=250, cooling="air_rdhx")
    finding = only(
        floor_load.check(context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, room))
    )
    assert finding.severity == "ok"
    assert finding.title == (
        "Floor load 61.4 lb/sq ft (300 kg/m²) within a 250 lb/sq ft (1,221 kg/m²) rating"
    )
    assert "The floor holds" not in finding.title


def test_floor_rating_in_si(catalog: CatalogSnapshot) -> None:
    # a 1,221 kg/m² rating is 250 lb/sq ft; an NVL72 (3,000 lb) over a 0.72 m² footprint
    # (7.75 sq ft): 3,000 ÷ 7.75 = 387 lb/sq ft = 1,890 kg/m² > 1.5 × rating? 387 > 375: critical
    room = Facility(
        rack_power_kw=150,
        cooling="liquid",
        floor_load_kg_per_m2=1221,
        rack_footprint_m2=0.72,
        units="si",
    )
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room)
    finding = only(floor_load.check(ctx))
    assert finding.metrics["floor_lb_per_sqft"] == pytest.approx(387.1, abs=0.1)
    assert finding.metrics["floor_kg_per_m2"] == pytest.approx(1890.1, abs=0.5)
    assert finding.severity == "critical"
    assert finding.title.startswith("Floor load 1,890 kg/m² (387.1 lb/sq ft) over a 1,221 kg/m²")


def test_liquid_share_against_the_cdus(catalog: CatalogSnapshot) -> None:
    # GB300 NVL72 at 142 kW: 80 % to liquid = 113.6 kW against a 100 kW CDU: critical
    room = Facility(rack_power_kw=150, cooling="liquid", cdu_kw=100, facility_water_c=32)
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room)
    cdu = [f for f in cooling.check(ctx) if "liquid_kw" in f.metrics]
    assert [f.severity for f in cdu] == ["critical"]
    assert cdu[0].metrics["liquid_kw"] == pytest.approx(113.6)
    assert "Facility water at 32 °C" in cdu[0].detail
    # 250 kW of CDU carries it
    ok_room = room.model_copy(update={"cdu_kw": 250})
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, ok_room)
    assert [f.severity for f in cooling.check(ctx) if "liquid_kw" in f.metrics] == ["ok"]


def test_air_share_of_a_liquid_rack_against_the_room(catalog: CatalogSnapshot) -> None:
    # 142 kW × 0.20 = 28.4 kW still to air, over a room that removes 20 kW per rack: warning
    room = Facility(rack_power_kw=150, cooling="liquid", air_kw_per_rack=20)
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room)
    air = [f for f in cooling.check(ctx) if "air_kw" in f.metrics]
    assert [f.severity for f in air] == ["warning"]
    assert air[0].metrics["air_kw"] == pytest.approx(28.4)
    # the split on the report: 113.6 kW liquid, 28.4 kW air
    report = run(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room)
    assert (report.sizing.liquid_kw, report.sizing.air_kw) == (113.6, 28.4)


@pytest.mark.parametrize(("door_kw", "severity"), [(35, "ok"), (20, "warning")])
def test_rear_door_rating(catalog: CatalogSnapshot, door_kw: float, severity: str) -> None:
    # DGX B200 14.3 kW × 2 in a 40 kW rack = 28.6 kW against a 35 kW door (ok) or a 20 kW door
    # (over the door, under the 75 kW ceiling: warning)
    room = Facility(rack_power_kw=40, cooling="air_rdhx", rdhx_kw_per_rack=door_kw)
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200", 2)], TRAINING, room)
    assert only(cooling.check(ctx)).severity == severity


def test_yearly_energy_money_and_co2(catalog: CatalogSnapshot) -> None:
    # DGX H100 typical 10.2 kW × 8,760 h × PUE 1.54 = 137,602 kWh;
    # × $0.0895 = $12,315; × 0.3674 kg = 50.6 t CO2
    ctx = context(catalog, [quoted_system(catalog, "dgx-h100")], TRAINING)
    finding = only(energy.check(ctx))
    assert finding.severity == "info"
    assert finding.metrics["energy_kwh_per_year"] == 137_602
    assert finding.metrics["energy_usd_per_year"] == 12_315
    assert finding.metrics["co2_tonnes_per_year"] == pytest.approx(50.56)
    # 10.2 kW × 3,412.14 = 34,804 BTU/h
    assert finding.metrics["heat_btu_per_hr"] == 34_804
    assert "PUE 1.54 (Uptime Institute 2025" in finding.detail


def test_the_room_price_replaces_the_default(catalog: CatalogSnapshot) -> None:
    # 10.2 kW × 8,760 × 1.2 = 107,222 kWh × €0.19 ≈ $20,372 (the price is taken as given)
    room = Facility(rack_power_kw=20, pue=1.2, electricity_usd_per_kwh=0.19)
    report = run(catalog, [quoted_system(catalog, "dgx-h100")], TRAINING, room)
    assert report.sizing.energy_kwh_per_year == 107_222
    assert report.sizing.energy_cost_per_year == Decimal(20_372)


def test_an_old_facility_json_still_works() -> None:
    old = {
        "name": "HQ server room",
        "site": "datacenter",
        "rack_power_kw": 15,
        "racks_available": 4,
        "cooling": "air",
        "floor_load_lb_per_sqft": 250,
        "circuit_volts": 120,
        "circuit_amps": 15,
    }
    facility = Facility.model_validate(old)
    assert usable_rack_kw(facility) == 15
    assert facility.units == "imperial"


def test_a_feed_needs_volts_and_amps() -> None:
    with pytest.raises(ValueError, match="feed_amps missing"):
        Facility(feed_volts=208)


def test_transient_spikes_of_an_nvl72(catalog: CatalogSnapshot) -> None:
    # GB300 NVL72 spikes to ~1.4 × 120 kW = 168 kW (an estimate) against a 150 kW rack: 18 kW
    # short, info because the peak is not a vendor figure
    room = Facility(rack_power_kw=150, cooling="liquid")
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room)
    finding = only(transient.check(ctx))
    assert finding.severity == "info"
    assert finding.metrics["headroom_kw"] == pytest.approx(-18)
    assert finding.formula == "1 × 168 kW = 168 kW > 150 kW"
    assert "an estimate" in finding.detail
    # 200 kW qualified: 168 ≤ 200, 32 kW of headroom
    roomy = Facility(rack_power_kw=200, cooling="liquid")
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, roomy)
    assert only(transient.check(ctx)).metrics["headroom_kw"] == pytest.approx(32)


def test_transients_go_against_the_feeds_full_rating(catalog: CatalogSnapshot) -> None:
    # four 415 V 63 A three-phase feeds: 4 × 415 × 63 × √3 = 181.1 kW full rating (the spikes
    # are not continuous), 181.1 × 0.8 = 144.9 kW continuous ≥ the 142 kW maximum
    room = Facility(
        feed_volts=415, feed_phase="three", feed_amps=63, feeds_per_side=4, cooling="liquid"
    )
    assert usable_rack_kw(room) == pytest.approx(144.9, abs=0.05)
    ctx = context(catalog, [quoted_system(catalog, "gb300-nvl72")], TRAINING, room)
    finding = only(transient.check(ctx))
    assert finding.severity == "ok"
    assert finding.metrics["limit_kw"] == pytest.approx(181.13, abs=0.01)
    assert "the feeds' full rating of 181.1 kW" in finding.title
    assert only(rack_power.check(ctx)).severity == "ok"


def test_no_stated_peak_no_transient_finding(catalog: CatalogSnapshot) -> None:
    # the DGX B200's catalog gives no peak above its 14.3 kW maximum
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, TWO_KW_ROOM)
    assert transient.check(ctx) == []


def test_a_230_v_office_circuit(catalog: CatalogSnapshot) -> None:
    # DGX Station 1,600 W on 230 V 16 A: 230 × 16 × 0.8 = 2,944 W continuous: fits
    from apps.review.engine.checks import circuit

    office = Facility(site="office", circuit_volts=230, circuit_amps=16)
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-station-gb300", power_kw=1.6)], TRAINING, office
    )
    finding = only(circuit.check(ctx))
    assert finding.severity == "ok"
    assert finding.formula == "16 A × 230 V × 0.8 = 2,944 W continuous vs 1,600 W"
    # 3,000 W at 230 V wants the next IEC size: 20 A (3,680 W)
    assert circuit.amps_needed(3000, 230) == 20
    assert circuit.amps_needed(1600, 120) == 20


def test_the_right_fit_for_a_cage_fits_its_feeds(catalog: CatalogSnapshot) -> None:
    # a DGX H100 (10.2 kW) is over the cage's 8.6 kW A/B feeds; the right fit is one that runs
    # on one side: 4 × H200 NVL at 4.5 kW, 1 per 8.65 kW rack
    report = run(
        catalog,
        [quoted_system(catalog, "dgx-h100")],
        {"kind": "fine_tuning", "memory_gb": 500},
        COLO_CAGE,
    )
    assert report.recommendation is not None
    assert report.recommendation.sku == "pcie-4x-h200-nvl"
    assert "1 per 8.65 kW rack" in report.recommendation.why
    # a full fine-tune wants an 8-GPU NVSwitch semi; none fits the cage, so the bridged
    # 4 × 141 GiB = 605.6 GB domain (545 GB usable ≥ 500 GB) is offered and says so
    assert "No 8-GPU NVSwitch system fits this facility" in report.recommendation.why
