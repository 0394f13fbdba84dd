"""fp64: FP64 of the quoted engines against the science, tensor or vector rate."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import fp64
from tests.review.engine.engine_kit import context, only, quoted_system


def _hpc(need: float | None) -> dict:
    return {"kind": "hpc", "fp64_tflops": need}


@pytest.mark.parametrize(
    ("need", "severity"),
    [(100, "ok"), (272, "ok"), (273, "info"), (536, "info"), (537, "critical")],
)
def test_dgx_h200_boundaries(catalog: CatalogSnapshot, need: float, severity: str) -> None:
    # vector 8 × 34 = 272 TFLOPS, tensor 8 × 67 = 536 TFLOPS
    finding = only(fp64.check(context(catalog, [quoted_system(catalog, "dgx-h200")], _hpc(need))))
    assert finding.severity == severity
    assert finding.metrics["fp64_tflops"] == 536


def test_the_muscle_car(catalog: CatalogSnapshot) -> None:
    finding = only(fp64.check(context(catalog, [quoted_system(catalog, "dgx-b300")], _hpc(100))))
    # 8 × 1.25 = 10 TFLOPS against 100
    assert (finding.severity, finding.title) == (
        "critical",
        "Needed a cement truck, bought a muscle car",
    )
    assert finding.metrics["fp64_tflops"] == 10
    assert "8 × 1.25 TFLOPS B300" in finding.formula
    assert "10 TFLOPS vs 100 needed" in finding.formula


def test_a_muscle_car_that_reaches_the_number_by_count_is_still_critical(
    catalog: CatalogSnapshot,
) -> None:
    # 10 DGX B300 = 80 × 1.25 = 100 TFLOPS: the number, from engines built for FP4
    ctx = context(catalog, [quoted_system(catalog, "dgx-b300", 10)], _hpc(100))
    assert only(fp64.check(ctx)).severity == "critical"


def test_an_unverified_fp64_figure_is_named(catalog: CatalogSnapshot) -> None:
    # GB300's ~1.25 TFLOPS is unverified in the reference; the finding says so
    finding = only(fp64.check(context(catalog, [quoted_system(catalog, "gb300-nvl72")], _hpc(100))))
    assert finding.severity == "critical"
    assert any("gb300.fp64" in u for u in finding.unverified)
    assert "unverified" in finding.detail


def test_hpc_without_a_target(catalog: CatalogSnapshot) -> None:
    h200 = only(fp64.check(context(catalog, [quoted_system(catalog, "dgx-h200")], _hpc(None))))
    b300 = only(fp64.check(context(catalog, [quoted_system(catalog, "dgx-b300")], _hpc(None))))
    assert (h200.severity, b300.severity) == ("info", "warning")


def test_fp64_does_not_apply_to_inference(catalog: CatalogSnapshot) -> None:
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-b300")], {"kind": "training", "memory_gb": 1}
    )
    assert fp64.check(ctx) == []
