"""FP64 totals: the tensor rate where there is one, and the muscle cars that have none."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.sizing.fp64 import fp64_fleet
from apps.review.engine.sizing.vehicle import vehicles_from
from tests.review.engine.engine_kit import quoted_system


def test_dgx_h200_brings_536_tflops_at_the_tensor_rate(catalog: CatalogSnapshot) -> None:
    fleet = fp64_fleet(vehicles_from([quoted_system(catalog, "dgx-h200")], catalog))
    # 8 × 67 TFLOPS tensor = 536; 8 × 34 TFLOPS vector = 272
    assert fleet.tensor_tflops == pytest.approx(536)
    assert fleet.vector_tflops == pytest.approx(272)
    assert fleet.best_tflops == pytest.approx(536)
    assert fleet.muscle_cars == ()


def test_dgx_b300_is_not_a_significant_source_of_fp64(catalog: CatalogSnapshot) -> None:
    fleet = fp64_fleet(vehicles_from([quoted_system(catalog, "dgx-b300")], catalog))
    # 8 × 1.25 TFLOPS = 10 TFLOPS, against the 100 a CFD solver wants
    assert fleet.best_tflops == pytest.approx(10)
    assert fleet.muscle_cars == ("B300",)


def test_fp64_adds_up_across_lines_and_counts_missing_rates_as_zero(
    catalog: CatalogSnapshot,
) -> None:
    vehicles = vehicles_from(
        [quoted_system(catalog, "dgx-b200", 2), quoted_system(catalog, "dgx-spark")], catalog
    )
    fleet = fp64_fleet(vehicles)
    # 2 × 8 × 37 TFLOPS (B200) + 1 × 0 (GB10 publishes no FP64) = 592
    assert fleet.best_tflops == pytest.approx(592)
    assert fleet.gpus == 17
    assert fleet.muscle_cars == ("GB10",)
