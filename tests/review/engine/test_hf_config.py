"""A pasted Hugging Face config.json read offline: the counts match the published figures."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from apps.review.engine.errors import ReviewInputError
from apps.review.engine.hf_config import is_hf_config, shape_fields_from_hf_config
from apps.review.engine.schemas import ModelShape, Workload

CONFIGS = Path(__file__).resolve().parents[2] / "fixtures" / "hf_configs"
MODELS_CSV = Path(__file__).resolve().parents[3] / "fixtures" / "reference" / "models.csv"
UNCOUNTED = {"Llama-3_3-Nemotron-Super-49B-v1.json", "Nemotron-H-56B-Base-8K.json"}


def _config(name: str) -> dict:
    return json.loads((CONFIGS / name).read_text(encoding="utf-8"))


def _expected() -> list[tuple[str, float, float]]:
    with MODELS_CSV.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    out = []
    for row in rows:
        fixture = row["config_fixture"].removeprefix("configs/")
        if fixture and fixture not in UNCOUNTED and row["name"] != "DeepSeek-V3.2-Exp":
            out.append((fixture, float(row["total_params_b"]), float(row["active_params_b"])))
    return out


@pytest.mark.parametrize(("fixture", "total", "active"), _expected())
def test_counts_match_the_reference_split(fixture: str, total: float, active: float) -> None:
    # total and active within 0.1 % of fixtures/reference/models.csv (itself checked against
    # the vendors' headline figures, FORMULAS.md)
    fields = shape_fields_from_hf_config(_config(fixture))
    assert fields["params_b"] == pytest.approx(total, rel=1e-3, abs=0.01)
    assert fields["active_params_b"] == pytest.approx(active, rel=1e-3, abs=0.01)


def test_llama_3_3_70b_arithmetic() -> None:
    fields = shape_fields_from_hf_config(_config("Llama-3.3-70B-Instruct.json"))
    # per layer: attention 2 × 8,192 × 64 × 128 + 2 × 8,192 × 8 × 128 = 150,994,944;
    # FFN 3 × 8,192 × 28,672 = 704,643,072; norms 2 × 8,192.
    # 80 layers = 68,451,041,280; embed + head 2 × 128,256 × 8,192 = 2,101,346,304;
    # final norm 8,192: 70,552,395,776 → 70.552 B
    assert fields["params_b"] == pytest.approx(70.554, abs=0.002)
    assert (fields["layers"], fields["kv_heads"], fields["head_dim"]) == (80, 8, 128)
    assert fields["max_context"] == 131072 and fields["num_experts"] is None


def test_moe_mla_and_sliding_windows_are_read() -> None:
    deepseek = shape_fields_from_hf_config(_config("DeepSeek-V3.json"))
    assert (deepseek["kv_lora_rank"], deepseek["qk_rope_head_dim"]) == (512, 64)
    assert (deepseek["num_experts"], deepseek["experts_per_token"]) == (256, 8)
    assert deepseek["native_dtype"] == "fp8"
    gpt = shape_fields_from_hf_config(_config("gpt-oss-120b.json"))
    # layer_types: half sliding_attention, window 128
    assert (gpt["sliding_window"], gpt["sliding_layers_fraction"]) == (128, 0.5)
    assert gpt["native_dtype"] == "mxfp4"
    gemma = shape_fields_from_hf_config(_config("gemma-3-27b-it.json"))  # nested text_config
    assert (gemma["layers"], gemma["sliding_window"]) == (62, 1024)
    assert gemma["sliding_layers_fraction"] == pytest.approx(5 / 6)


def test_a_workload_takes_the_config_object_as_its_model() -> None:
    config = _config("Qwen3-30B-A3B.json")
    assert is_hf_config(config)
    workload = Workload.model_validate({"kind": "inference", "model": config})
    assert isinstance(workload.model, ModelShape)
    assert workload.model.from_config
    assert workload.model.params_b == pytest.approx(30.532, abs=0.001)
    assert workload.model.active_params_b == pytest.approx(3.353, abs=0.001)


@pytest.mark.parametrize("fixture", sorted(UNCOUNTED))
def test_per_layer_block_models_are_refused_by_name(fixture: str) -> None:
    with pytest.raises(ReviewInputError, match="name its preset instead"):
        shape_fields_from_hf_config(_config(fixture))


def test_a_config_without_layers_names_the_field() -> None:
    with pytest.raises(ReviewInputError, match="'num_hidden_layers'"):
        shape_fields_from_hf_config({"model_type": "llama", "hidden_size": 4096})
