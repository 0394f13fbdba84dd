"""circuit: desk machines against the office branch circuit at the 80 % rule."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import circuit
from apps.review.engine.schemas import Facility
from tests.review.engine.engine_kit import ROW_RDHX, context, only, quoted_system

DEV = {"kind": "development", "memory_gb": 10}


def _office(amps: float | None, volts: float | None = 120) -> Facility:
    return Facility(site="office", circuit_volts=volts, circuit_amps=amps)


@pytest.mark.parametrize(("amps", "severity"), [(15, "warning"), (20, "ok")])
def test_the_dgx_station(catalog: CatalogSnapshot, amps: float, severity: str) -> None:
    # 1,600 W vs 15 A × 120 V × 0.8 = 1,440 W (warning) and 20 A → 1,920 W (ok)
    ctx = context(catalog, [quoted_system(catalog, "dgx-station-gb300")], DEV, _office(amps))
    finding = only(circuit.check(ctx))
    assert finding.severity == severity
    assert finding.metrics["amps_needed"] == 20


def test_station_warning_wants_a_20_amp_circuit(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-station-gb300")], DEV, _office(15))
    finding = only(circuit.check(ctx))
    assert finding.formula == "15 A × 120 V × 0.8 = 1,440 W continuous vs 1,600 W"
    assert "dedicated 20 A, 120 V circuit (1,920 W continuous)" in finding.lever


def test_a_spark_fits_any_desk(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark")], DEV, _office(None, None))
    finding = only(circuit.check(ctx))
    # 240 W on an assumed 15 A, 120 V outlet
    assert finding.severity == "ok"
    assert "assumed" in finding.detail


def test_a_semi_in_an_office_is_over_the_breaker(catalog: CatalogSnapshot) -> None:
    # 14,300 W vs 1,800 W at the breaker; no 120 V breaker up to 50 A carries it
    ctx = context(catalog, [quoted_system(catalog, "dgx-b200")], DEV, _office(20))
    finding = only(circuit.check(ctx))
    assert finding.severity == "critical"
    assert finding.metrics["amps_needed"] is None
    assert "208-240 V" in finding.lever


def test_the_worst_machine_is_reported(catalog: CatalogSnapshot) -> None:
    systems = [quoted_system(catalog, "dgx-spark", 3), quoted_system(catalog, "dgx-station-gb300")]
    findings = circuit.check(context(catalog, systems, DEV, _office(15)))
    machines = [f for f in findings if "system" in f.metrics]
    assert [(f.severity, f.metrics["system"]) for f in machines] == [
        ("warning", "dgx-station-gb300")
    ]
    # the room: 3 × 240 W = 720 W share one 15 A circuit; the 1,600 W Station wants its own
    (room,) = [f for f in findings if "system" not in f.metrics]
    assert room.severity == "info"
    assert room.metrics["total_w"] == 2320  # 1,600 + 3 × 240
    assert (room.metrics["circuits_needed"], room.metrics["machines_over_one_circuit"]) == (1, 1)


def test_datacenters_have_no_circuit_check(catalog: CatalogSnapshot) -> None:
    assert (
        circuit.check(context(catalog, [quoted_system(catalog, "dgx-b200")], DEV, ROW_RDHX)) == []
    )


# --- the whole quote on circuits of the described kind ---------------------------------------


def test_ten_sparks_need_two_15_amp_circuits(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark", 10)], DEV, _office(15))
    machine, room = circuit.check(ctx)
    # each Spark: 240 W ≤ 1,440 W, so the per-machine verdict stays ok
    assert machine.severity == "ok"
    assert room.severity == "info"
    # 10 × 240 W = 2,400 W; 15 A × 120 V × 0.8 = 1,440 W → 6 per circuit: 6 + 4 on 2 circuits
    assert room.metrics["total_w"] == 2400
    assert room.metrics["circuits_needed"] == 2
    assert room.metrics["machines_per_circuit"] == [6, 4]
    assert room.metrics["circuits_lower_bound"] == 2  # ceil(2,400 ÷ 1,440) = 2
    assert "ceil(2,400 W ÷ 1,440 W) = 2" in room.formula
    assert "2 such circuits (6 + 4 machines" in room.detail
    # every Spark ≤ the 1,440 W desk outlet: each on its own desk runs as it is
    assert "Each on a desk outlet of its own they run as they are" in room.detail


def test_six_sparks_share_one_circuit(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark", 6)], DEV, _office(15))
    # 6 × 240 W = 1,440 W = one 15 A circuit's continuous limit: one ok finding, with the total
    finding = only(circuit.check(ctx))
    assert finding.severity == "ok"
    assert finding.metrics["total_w"] == 1440
    assert finding.metrics["circuits_needed"] == 1


def test_six_stations_keep_their_warnings_and_need_bigger_circuits(
    catalog: CatalogSnapshot,
) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-station-gb300", 6)], DEV, _office(15))
    machine, room = circuit.check(ctx)
    # each 1,600 W > 1,440 W: the machine is the real failure
    assert machine.severity == "warning"
    assert room.severity == "info"
    # 6 × 1,600 W = 9,600 W; none fits a 15 A circuit alone
    assert room.metrics["total_w"] == 9600
    assert room.metrics["circuits_needed"] == 0
    assert room.metrics["machines_over_one_circuit"] == 6
    # 1,600 W > the 1,440 W desk outlet: a room load Facilities must plan
    assert "Facilities needs to know before they arrive" in room.detail


def test_six_stations_on_20_amps_need_six_circuits(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-station-gb300", 6)], DEV, _office(20))
    machine, room = circuit.check(ctx)
    assert machine.severity == "ok"  # 1,600 W ≤ 20 A × 120 V × 0.8 = 1,920 W
    # two on one circuit: 3,200 W > 1,920 W, so one per circuit: 6 circuits
    # (ceil(9,600 ÷ 1,920) = 5 is only the floor)
    assert room.metrics["circuits_needed"] == 6
    assert room.metrics["circuits_lower_bound"] == 5


def test_mixed_machines_are_packed_largest_first(catalog: CatalogSnapshot) -> None:
    systems = [quoted_system(catalog, "dgx-spark", 3), quoted_system(catalog, "dgx-station-gb300")]
    findings = circuit.check(context(catalog, systems, DEV, _office(20)))
    room = findings[-1]
    # 1,600 + 3 × 240 = 2,320 W on 1,920 W circuits: the Station plus one Spark = 1,840 W,
    # the other two Sparks (480 W) on a second circuit
    assert room.metrics["total_w"] == 2320
    assert room.metrics["machines_per_circuit"] == [2, 2]


def test_desk_machines_over_one_circuit_keep_facilities_calm(catalog: CatalogSnapshot) -> None:
    from apps.review.engine.blood_pressure import facilities_pressure

    ten = context(catalog, [quoted_system(catalog, "dgx-spark", 10)], DEV, _office(15))
    # 10 × 240 W = 2,400 W > 1,440 W: two circuits' worth, but each Spark sits on a desk of
    # its own outlet (240 W ≤ the 1,440 W desk outlet): "Facilities didn't even notice"
    pressure = facilities_pressure(ten)
    assert pressure.level == "calm"
    assert any("2 circuits' worth at 15 A" in r for r in pressure.reasons)


def test_room_machines_over_one_circuit_raise_facilities(catalog: CatalogSnapshot) -> None:
    from apps.review.engine.blood_pressure import facilities_pressure

    systems = [quoted_system(catalog, "dgx-spark", 3), quoted_system(catalog, "dgx-station-gb300")]
    # 1,600 W Station > the 1,440 W desk outlet: a room load; with the Sparks, 2,320 W needs
    # 2 circuits of 20 A (1,920 W each): "2 separate 20 A circuits"
    pressure = facilities_pressure(context(catalog, systems, DEV, _office(20)))
    assert pressure.level == "raised"
    assert any("2 separate 20 A circuits" in r for r in pressure.reasons)
