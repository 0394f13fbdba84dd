"""A Hugging Face `config.json`, pasted or uploaded as published, read offline into a `ModelShape`.

The config gives the shape, not the parameter count, so the count is computed from it by the
rules in fixtures/reference/FORMULAS.md (per layer: attention q/k/v/o or MLA's low-rank
projections, a SwiGLU FFN of 3 × hidden × intermediate, routed experts, shared experts and the
router; plus the embedding table and the head unless they are tied). Llama-3.3-70B's config
(80 layers, hidden 8,192, 64 heads, 8 KV heads, FFN 28,672, vocab 128,256) comes to 70.55 B,
the published figure.

Multimodal configs (Gemma 3, Mistral Small 3.1, Llama 4) nest the language model under
`text_config`; only that tower is counted (vision towers are a few hundred million parameters).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.review.engine.errors import ReviewInputError

# Keys that only a Hugging Face config carries (a ModelShape never has them).
HF_CONFIG_KEYS = frozenset(
    {"architectures", "model_type", "num_hidden_layers", "hidden_size", "text_config"}
)
GEMMA3_VOCAB = 262_208  # Gemma3TextConfig's default when the text config omits vocab_size
# Per-layer heterogeneous models (DeciLM/Nemotron-NAS, Mamba hybrids): the config alone does not
# give a count these rules can vouch for, so they are refused with a pointer to the preset.
UNCOUNTED_KEYS = ("block_configs", "hybrid_override_pattern", "layers_block_type")
TIED_BY_DEFAULT = frozenset({"gemma3", "gemma3_text", "gemma2", "gemma"})


def is_hf_config(value: Mapping[str, Any]) -> bool:
    """True when the object is a Hugging Face config.json rather than an inline ModelShape."""
    return bool(HF_CONFIG_KEYS & set(value))


def _text_config(config: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    text = config.get("text_config")
    outer_type = str(config.get("model_type", ""))
    if isinstance(text, Mapping):
        return text, str(text.get("model_type", outer_type))
    return config, outer_type


def _int(config: Mapping[str, Any], *keys: str) -> int | None:
    for key in keys:
        value = config.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float) and value > 0:
            return int(value)
    return None


def _name(config: Mapping[str, Any]) -> str:
    for key in ("_name_or_path", "name_or_path", "name"):
        value = config.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    architectures = config.get("architectures")
    if isinstance(architectures, list) and architectures:
        return f"{architectures[0]} (config.json)"
    return f"{config.get('model_type', 'Custom')} model (config.json)"


def _dtype(config: Mapping[str, Any], text: Mapping[str, Any]) -> str:
    quant = config.get("quantization_config") or text.get("quantization_config")
    if isinstance(quant, Mapping):
        method = quant.get("quant_method") or quant.get("quant_algo") or ""
        if method:
            return str(method).lower()
    for source in (config, text):
        for key in ("torch_dtype", "dtype"):
            value = source.get(key)
            if isinstance(value, str) and value:
                return value
    return ""


def shape_fields_from_hf_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ModelShape fields for a config.json; ReviewInputError naming the missing key when
    the config lacks what a count needs."""
    text, model_type = _text_config(config)
    for key in UNCOUNTED_KEYS:
        if key in text:
            raise ReviewInputError(
                f"model config.json: {model_type or 'this'} model has per-layer blocks "
                f"({key!r}) that cannot be counted from the config; name its preset instead"
            )
    layers = _int(text, "num_hidden_layers", "n_layer", "num_layers")
    hidden = _int(text, "hidden_size", "n_embd", "d_model")
    heads = _int(text, "num_attention_heads", "n_head")
    for key, value in (
        ("num_hidden_layers", layers),
        ("hidden_size", hidden),
        ("num_attention_heads", heads),
    ):
        if value is None:
            raise ReviewInputError(f"model config.json: field {key!r} is missing or not a number")
    assert layers is not None and hidden is not None and heads is not None
    kv_heads = _int(text, "num_key_value_heads") or heads
    head_dim = _int(text, "head_dim", "attention_head_dim") or hidden // heads
    vocab = _int(text, "vocab_size") or (GEMMA3_VOCAB if model_type.startswith("gemma3") else None)
    if vocab is None:
        raise ReviewInputError("model config.json: field 'vocab_size' is missing or not a number")
    tied = text.get("tie_word_embeddings", config.get("tie_word_embeddings"))
    if tied is None:
        tied = model_type in TIED_BY_DEFAULT
    intermediate = _int(text, "intermediate_size", "ffn_hidden_size") or 4 * hidden

    # attention (or MLA) per layer
    kv_lora = _int(text, "kv_lora_rank")
    rope = _int(text, "qk_rope_head_dim")
    if kv_lora and rope:
        q_lora = _int(text, "q_lora_rank")
        nope = _int(text, "qk_nope_head_dim") or 128
        v_dim = _int(text, "v_head_dim") or 128
        q_proj = (
            (hidden * q_lora + q_lora + q_lora * heads * (nope + rope))
            if q_lora
            else (hidden * heads * (nope + rope))
        )
        attn = q_proj + hidden * (kv_lora + rope) + kv_lora + kv_lora * heads * (nope + v_dim)
        attn += heads * v_dim * hidden
    else:
        attn = 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim
        if text.get("attention_bias") or text.get("qkv_bias"):
            attn += heads * head_dim + 2 * kv_heads * head_dim

    # feed-forward: dense layers, routed experts, shared experts, router
    experts = _int(text, "n_routed_experts", "num_local_experts", "num_experts")
    top_k = _int(text, "num_experts_per_tok", "experts_per_token", "moe_topk")
    expert_params = 0.0
    dense_params = 0.0
    if experts and top_k and experts > 1:
        expert_width = _int(text, "moe_intermediate_size") or intermediate
        dense_layers = _int(text, "first_k_dense_replace") or 0
        step = _int(text, "interleave_moe_layer_step", "decoder_sparse_step") or 1
        only_dense = text.get("mlp_only_layers") or []
        moe_layers = (layers - dense_layers) // step - len(only_dense)
        dense_count = layers - moe_layers
        dense_width = _int(text, "intermediate_size_mlp") or intermediate
        expert_params = moe_layers * experts * 3 * hidden * expert_width
        shared = _int(text, "n_shared_experts") or 0
        shared_width = _int(text, "shared_expert_intermediate_size")
        shared_params = moe_layers * (
            shared * 3 * hidden * expert_width if shared else 3 * hidden * (shared_width or 0)
        )
        if model_type.startswith("llama4"):
            shared_params = moe_layers * 3 * hidden * intermediate
        dense_params = dense_count * 3 * hidden * dense_width + shared_params
        dense_params += moe_layers * experts * hidden
    else:
        experts, top_k = None, None
        dense_params = layers * 3 * hidden * intermediate
    embed = vocab * hidden
    head = 0 if tied else vocab * hidden
    norms = 2 * hidden * layers + hidden
    total = layers * attn + expert_params + dense_params + embed + head + norms
    active = total - (expert_params * (1 - top_k / experts) if experts and top_k else 0.0)

    # sliding-window layers
    window = _int(text, "sliding_window")
    fraction: float | None = None
    layer_types = text.get("layer_types")
    if isinstance(layer_types, list) and layer_types:
        fraction = sum(1 for t in layer_types if t == "sliding_attention") / len(layer_types)
    elif model_type.startswith("gemma3"):
        pattern = _int(text, "sliding_window_pattern") or 6
        fraction = (pattern - 1) / pattern
    elif (
        window
        and text.get("use_sliding_window") is not False
        and model_type
        in {
            "mistral",
            "mixtral",
            "phi3",
        }
    ):
        fraction = 1.0
    if not window or not fraction:
        window, fraction = None, None

    fields: dict[str, Any] = {
        "name": _name(config),
        "params_b": round(total / 1e9, 3),
        "active_params_b": round(active / 1e9, 3),
        "layers": layers,
        "kv_heads": kv_heads,
        "head_dim": head_dim,
        "hidden_size": hidden,
        "attn_heads": heads,
        "sliding_window": window,
        "sliding_layers_fraction": fraction,
        "max_context": _int(text, "max_position_embeddings"),
        "native_dtype": _dtype(config, text),
        "num_experts": experts,
        "experts_per_token": top_k,
        "from_config": True,
    }
    if kv_lora and rope:
        fields |= {"kv_lora_rank": kv_lora, "qk_rope_head_dim": rope}
    return fields
