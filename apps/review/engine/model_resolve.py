"""Turn the workload's `model` (a preset name or an inline shape) into the facts the sizing reads.

A preset comes from the catalog (shared/reference/models.csv): "qwen3-32b" is Qwen3-32B with
32.8 B parameters, 64 layers, 8 KV heads of 128. An inline `ModelShape` may leave the attention
shape out; then the KV cache cannot be counted and the findings say so instead of guessing.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from apps.catalog.snapshot import CatalogSnapshot, ModelSpec
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import ModelShape


class ModelFacts(BaseModel):
    """One model as the sizing sees it: parameter counts and the attention shape.

    MoE models (Qwen3-235B-A22B: 235 B total, 22 B active) need memory for every parameter but
    read only the active ones per token. MLA models (DeepSeek-V3) cache a compressed latent of
    `kv_lora_rank + qk_rope_head_dim` values per layer instead of K and V per head.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    total_params_b: float
    active_params_b: float
    layers: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    hidden_size: int | None = None
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    sliding_window: int | None = None
    sliding_layers_fraction: float | None = None
    preset: bool = False

    @property
    def is_moe(self) -> bool:
        return self.active_params_b < self.total_params_b

    @property
    def uses_mla(self) -> bool:
        return bool(self.kv_lora_rank and self.qk_rope_head_dim and self.layers)

    @property
    def has_kv_shape(self) -> bool:
        """True when the KV cache can be counted (MLA ranks, or layers × KV heads × head dim)."""
        return self.uses_mla or bool(self.layers and self.kv_heads and self.head_dim)


def model_facts_from_spec(spec: ModelSpec) -> ModelFacts:
    return ModelFacts(
        name=spec.name,
        total_params_b=spec.total_params_b,
        active_params_b=spec.active_params_b,
        layers=spec.layers,
        kv_heads=spec.kv_heads,
        head_dim=spec.head_dim,
        hidden_size=spec.hidden_size,
        kv_lora_rank=spec.kv_lora_rank,
        qk_rope_head_dim=spec.qk_rope_head_dim,
        sliding_window=spec.sliding_window,
        sliding_layers_fraction=spec.sliding_layers_fraction,
        preset=True,
    )


def model_facts_from_shape(shape: ModelShape) -> ModelFacts:
    active = shape.active_params_b if shape.active_params_b is not None else shape.params_b
    if active > shape.params_b:
        raise ReviewInputError(
            f"model {shape.name!r}: active_params_b ({active:g}) is larger than params_b "
            f"({shape.params_b:g})"
        )
    return ModelFacts(
        name=shape.name,
        total_params_b=shape.params_b,
        active_params_b=active,
        layers=shape.layers,
        kv_heads=shape.kv_heads,
        head_dim=shape.head_dim,
        kv_lora_rank=shape.kv_lora_rank,
        qk_rope_head_dim=shape.qk_rope_head_dim,
        sliding_window=shape.sliding_window,
        sliding_layers_fraction=shape.sliding_layers_fraction,
    )


def model_resolve(model: str | ModelShape | None, catalog: CatalogSnapshot) -> ModelFacts | None:
    """The model facts for a workload, or None when the workload names no model (HPC, VDI).

    Raises ReviewInputError for a preset the catalog does not know ("Foo-7B").
    """
    if model is None:
        return None
    if isinstance(model, ModelShape):
        return model_facts_from_shape(model)
    spec = catalog.model_preset(model)
    if spec is None:
        known = ", ".join(m.name for m in catalog.models)
        raise ReviewInputError(f'unknown model preset "{model.strip()}" (known presets: {known})')
    return model_facts_from_spec(spec)
