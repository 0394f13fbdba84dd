"""Resolving the workload's model: presets by name, inline shapes, unknown names."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.model_resolve import model_resolve
from apps.review.engine.schemas import ModelShape


def test_presets_are_case_insensitive(catalog: CatalogSnapshot) -> None:
    model = model_resolve("  qwen3-32b ", catalog)
    assert model is not None
    assert (model.name, model.total_params_b, model.layers, model.kv_heads) == (
        "Qwen3-32B",
        32.8,
        64,
        8,
    )
    assert model.preset and not model.is_moe


def test_moe_preset_keeps_total_and_active(catalog: CatalogSnapshot) -> None:
    model = model_resolve("Qwen3-30B-A3B", catalog)
    assert model is not None and model.is_moe
    assert (model.total_params_b, model.active_params_b) == (30.5, 3.3)


def test_unknown_preset_names_the_model(catalog: CatalogSnapshot) -> None:
    with pytest.raises(ReviewInputError, match='unknown model preset "Foo-7B"'):
        model_resolve("Foo-7B", catalog)


def test_inline_shape_defaults_active_to_total(catalog: CatalogSnapshot) -> None:
    model = model_resolve(ModelShape(name="Mine", params_b=12, layers=40), catalog)
    assert model is not None
    assert (model.active_params_b, model.preset, model.has_kv_shape) == (12, False, False)


def test_inline_shape_with_more_active_than_total_is_refused(catalog: CatalogSnapshot) -> None:
    with pytest.raises(ReviewInputError, match="active_params_b"):
        model_resolve(ModelShape(params_b=10, active_params_b=11), catalog)


def test_no_model_is_none(catalog: CatalogSnapshot) -> None:
    assert model_resolve(None, catalog) is None
