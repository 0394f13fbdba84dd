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
    assert [(f.severity, f.metrics["system"]) for f in findings] == [
        ("warning", "dgx-station-gb300")
    ]


def test_datacenters_have_no_circuit_check(catalog: CatalogSnapshot) -> None:
    assert (
        circuit.check(context(catalog, [quoted_system(catalog, "dgx-b200")], DEV, ROW_RDHX)) == []
    )
