"""Blood pressure: Finance from spend, waste and wrong fits; Facilities from the building."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.blood_pressure import spend_level
from apps.review.engine.schemas import Facility, Pressure
from tests.review.engine.engine_kit import OFFICE_15A, ROW_RDHX, quoted_system, run

THRESHOLDS = (10_000, 100_000, 1_000_000)
TRAINING = {"kind": "training", "memory_gb": 100}


@pytest.mark.parametrize(
    ("amount", "level"),
    [
        ("9999.99", 0),  # calm: expensed without reading the receipt
        ("10000", 1),  # raised
        ("99999.99", 1),
        ("100000", 2),  # high
        ("999999.99", 2),
        ("1000000", 3),  # crisis
    ],
)
def test_spend_levels(amount: str, level: int) -> None:
    assert spend_level(Decimal(amount), THRESHOLDS) == level


def test_no_price_is_calm() -> None:
    assert spend_level(None, THRESHOLDS) == 0


def _finance(
    catalog: CatalogSnapshot, sku: str, workload: dict, facility: Facility, **kw
) -> Pressure:
    return run(
        catalog, [quoted_system(catalog, sku)], workload, facility, **kw
    ).blood_pressure.finance


def _facilities(catalog: CatalogSnapshot, systems: list, facility: Facility) -> Pressure:
    return run(catalog, systems, TRAINING, facility).blood_pressure.facilities


def test_a_spark_is_expensed_without_reading_the_receipt(catalog: CatalogSnapshot) -> None:
    dev = {
        "kind": "development",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "tokens_per_sec_per_user": 4,
    }
    finance = _finance(catalog, "dgx-spark", dev, OFFICE_15A, total=Decimal("3999"))
    assert finance.level == "calm"
    # the running bill, level 0: 0.24 kW typical × 8,760 h × PUE 1.0 (a desk) = 2,102 kWh;
    # × $0.0895 = $188; × 0.3674 kg = 0.77 t CO2
    assert finance.reasons == [
        "Finance expensed it without reading the receipt: $3,999.",
        "The running bill: about $188 and 0.77 t CO2 a year at typical draw.",
    ]


def test_waste_pushes_finance_up_one_level(catalog: CatalogSnapshot) -> None:
    bus = {
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "kv_precision": "bf16",  # 904 served, as the utilisation tests count
        "concurrent_users": 100,
        "tokens_per_sec_per_user": 15,
    }
    finance = _finance(catalog, "dgx-b300", bus, ROW_RDHX, total=Decimal("600000"))
    # $600,000 is high; 1 − 100 ÷ 904 = 89 % idle on a training-grade system: crisis
    assert finance.level == "crisis"
    assert finance.reasons[0].startswith("About 89 % of it would sit idle: roughly $533,640")
    assert "Needed a school bus, bought a cement truck." in finance.reasons[0]


def test_a_wrong_fit_is_at_least_high(catalog: CatalogSnapshot) -> None:
    department = {
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": 100,
        "tokens_per_sec_per_user": 10,
    }
    finance = _finance(catalog, "dgx-spark", department, OFFICE_15A, total=Decimal("3999"))
    # $3,999 alone is calm; serving none of 100 users is a throughput critical → high
    assert finance.level == "high"
    assert finance.reasons[0].startswith(
        "Nothing was wasted on paper, everything was wasted in practice"
    )


def test_a_quote_without_systems_is_not_a_wrong_fit(catalog: CatalogSnapshot) -> None:
    # a $102,320 support renewal: nothing on it was bought to carry the load, so "everything
    # was wasted in practice ... the right-fit system still has to be bought" is not true of
    # it; Finance reacts to the spend alone ($102,320 ≥ $100,000: high) and says what it buys
    report = run(catalog, [], TRAINING, ROW_RDHX, total=Decimal("102320"))
    finance = report.blood_pressure.finance
    assert finance.level == "high"
    assert not any("wasted in practice" in r for r in finance.reasons)
    assert any(r.startswith("No GPU system is bought on this quote") for r in finance.reasons)


def test_a_wrong_fit_does_not_lower_a_crisis(catalog: CatalogSnapshot) -> None:
    hpc = {"kind": "hpc", "fp64_tflops": 100}
    finance = _finance(
        catalog,
        "gb300-nvl72",
        hpc,
        Facility(rack_power_kw=150, cooling="liquid"),
        total=Decimal("3900000"),
    )
    assert finance.level == "crisis"
    # spend, the wrong fit, and the running bill (which never raises the level)
    assert len(finance.reasons) == 3
    assert finance.reasons[-1].startswith("The running bill: about $144,887")


def test_a_foreign_currency_is_named(catalog: CatalogSnapshot) -> None:
    finance = _finance(
        catalog, "dgx-b200", TRAINING, ROW_RDHX, total=Decimal("515000"), currency="EUR"
    )
    assert finance.level == "high"
    assert any("quote is in EUR" in r for r in finance.reasons)


def test_office_levels(catalog: CatalogSnapshot) -> None:
    # 240 W Spark: a desk outlet → calm
    spark = _facilities(catalog, [quoted_system(catalog, "dgx-spark")], OFFICE_15A)
    assert spark.level == "calm"
    assert "didn't even notice" in spark.reasons[0]
    # 1,600 W Station > 1,440 W desk outlet → a dedicated 20 A circuit → raised, on 15 A or 20 A
    for amps in (15, 20):
        office = Facility(site="office", circuit_volts=120, circuit_amps=amps)
        station = _facilities(catalog, [quoted_system(catalog, "dgx-station-gb300")], office)
        assert station.level == "raised"
        assert "20-amp circuit get a walk-in" in station.reasons[0]
    # 3,500 W workstation: over the 1,800 W breaker, under 3 × 1,440 = 4,320 W → new power: high
    four_gpu = _facilities(catalog, [quoted_system(catalog, "ws-4x-rtx-pro-6000")], OFFICE_15A)
    assert four_gpu.level == "high"
    # 14,300 W DGX B200 = 9.9 × 1,440 W → crisis
    semi = _facilities(catalog, [quoted_system(catalog, "dgx-b200")], OFFICE_15A)
    assert semi.level == "crisis"


def test_datacenter_levels(catalog: CatalogSnapshot) -> None:
    b200 = quoted_system(catalog, "dgx-b200")
    # one semi in a 20 kW rear-door row: a normal rack with PDUs to check → raised
    assert _facilities(catalog, [b200], ROW_RDHX).level == "raised"
    # 14.3 kW in a 10 kW rack: over the qualification by 1.43 × → new power per rack: high
    assert (
        _facilities(catalog, [b200], Facility(rack_power_kw=10, racks_available=4)).level == "high"
    )
    # 14.3 kW in a 4.7 kW rack: 3.04 × → crisis
    assert (
        _facilities(catalog, [b200], Facility(rack_power_kw=4.7, racks_available=4)).level
        == "crisis"
    )


@pytest.mark.parametrize(("budget", "level"), [(4.77, "high"), (4.76, "crisis")])
def test_three_times_the_qualification_is_a_crisis(
    catalog: CatalogSnapshot, budget: float, level: str
) -> None:
    # 14.3 ÷ 4.77 = 2.998 × (high); 14.3 ÷ 4.76 = 3.004 × (crisis)
    room = Facility(rack_power_kw=budget, racks_available=4, cooling="air_rdhx")
    assert _facilities(catalog, [quoted_system(catalog, "dgx-b200")], room).level == level


def test_rear_doors_needed_is_high(catalog: CatalogSnapshot) -> None:
    # two semis per 30 kW rack on plain air: 28.6 kW > 20 kW of air
    room = Facility(rack_power_kw=30, racks_available=4, cooling="air", floor_load_lb_per_sqft=250)
    pressure = _facilities(catalog, [quoted_system(catalog, "dgx-b200", 2)], room)
    assert pressure.level == "high"
    assert "asks about airflow, then asks again" in pressure.reasons[0]


def test_floor_over_rating_and_short_of_racks_are_high(catalog: CatalogSnapshot) -> None:
    floor = Facility(
        rack_power_kw=20, racks_available=4, cooling="air_rdhx", floor_load_lb_per_sqft=60
    )
    assert _facilities(catalog, [quoted_system(catalog, "dgx-b200")], floor).level == "high"
    assert _facilities(catalog, [quoted_system(catalog, "dgx-b200", 5)], ROW_RDHX).level == "high"


def test_four_semis_and_the_train_without_rails_are_crises(catalog: CatalogSnapshot) -> None:
    legacy = Facility(rack_power_kw=2, racks_available=1, cooling="air", floor_load_lb_per_sqft=150)
    semis = _facilities(catalog, [quoted_system(catalog, "dgx-b200", 4)], legacy)
    assert semis.level == "crisis"
    assert (
        semis.reasons[0]
        == "“This room qualified for 2 kW rack and you want 57.2 kW!” (28.6× the qualification.)"
    )
    hall = Facility(rack_power_kw=150, racks_available=2, cooling="air", floor_load_lb_per_sqft=500)
    train = _facilities(catalog, [quoted_system(catalog, "gb300-nvl72")], hall)
    assert train.level == "crisis"
    assert train.reasons[0].startswith("Without rails in place, you are going nowhere")


@pytest.mark.parametrize("quantity", [1, 3, 7, 13])
def test_finance_and_the_energy_finding_print_the_same_tonnes(
    catalog: CatalogSnapshot, quantity: int
) -> None:
    from apps.words import number_format

    report = run(catalog, [quoted_system(catalog, "dgx-b200", quantity)], TRAINING, ROW_RDHX)
    (energy,) = [f for f in report.findings if f.check == "energy"]
    tonnes = number_format(energy.metrics["co2_tonnes_per_year"])
    # one rounding (to 0.01 t) before any text: the title, the formula and the gauge agree
    assert f"{tonnes} t CO2 a year" in energy.title
    assert energy.formula.endswith(f"= {tonnes} t CO2")
    assert any(f"{tonnes} t CO2 a year" in r for r in report.blood_pressure.finance.reasons)
