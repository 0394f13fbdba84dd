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
    attn_heads: int | None = None
    max_context: int | None = None
    num_experts: int | None = None
    experts_per_token: int | None = None
    kv_layers: int | None = None  # layers that keep a per-token KV cache (hybrids: fewer)
    # the parameter split (presets from fixtures/reference/models.csv); None when unknown
    attn_params_b: float | None = None
    expert_params_b: float | None = None
    dense_mlp_params_b: float | None = None
    embed_params_b: float | None = None
    lm_head_params_b: float | None = None
    native_dtype: str = ""
    from_config: bool = False

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
        attn_heads=spec.attn_heads,
        max_context=spec.max_context,
        num_experts=spec.num_experts,
        experts_per_token=spec.experts_per_token,
        kv_layers=spec.kv_layers,
        attn_params_b=spec.attn_params_b,
        expert_params_b=spec.expert_params_b,
        dense_mlp_params_b=spec.dense_mlp_params_b,
        embed_params_b=spec.embed_params_b,
        lm_head_params_b=spec.lm_head_params_b,
        native_dtype=spec.native_dtype,
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
        hidden_size=shape.hidden_size,
        attn_heads=shape.attn_heads,
        max_context=shape.max_context,
        num_experts=shape.num_experts,
        experts_per_token=shape.experts_per_token,
        native_dtype=shape.native_dtype,
        from_config=shape.from_config,
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
        raise ReviewInputError(
            f'unknown model preset "{model.strip()}"{did_you_mean(model, catalog)} '
            f"(known presets: {known})"
        )
    return model_facts_from_spec(spec)


def did_you_mean(name: str, catalog: CatalogSnapshot) -> str:
    """' — did you mean Qwen3-32B or Qwen3-8B?' for a near miss, '' when nothing is close."""
    close = catalog.model_suggestions(name)
    if not close:
        return ""
    listed = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f" — did you mean {listed}?"


def unknown_model_words(name: str, catalog: CatalogSnapshot) -> str:
    """ "unknown model 'Qwen3-33B' — did you mean Qwen3-32B?" for the CLI and the API."""
    return f"unknown model {name.strip()!r}{did_you_mean(name, catalog)}"
