"""Model names as users write them: presets, aliases, Hugging Face repo ids, variant suffixes."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot, model_key


@pytest.mark.parametrize(
    ("spelling", "preset"),
    [
        ("DeepSeek-V3", "DeepSeek-V3 / R1"),
        ("deepseek-ai/DeepSeek-R1", "DeepSeek-V3 / R1"),
        ("meta-llama/Llama-3.3-70B-Instruct", "Llama-3.3-70B"),
        ("Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen3-30B-A3B"),
        ("  qwen3-32b ", "Qwen3-32B"),
        ("Qwen/Qwen3-32B-AWQ", "Qwen3-32B"),  # a quantised variant keeps its family
        ("nvidia/Llama-3.3-70B-Instruct-FP8", "Llama-3.3-70B"),
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "Llama-3.1-8B"),
        ("mistralai/Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x7B"),
        ("google/gemma-3-27b-it", "Gemma-3-27B"),
        ("gpt-oss:120b", "gpt-oss-120b"),  # an Ollama tag
        ("moonshotai/Kimi-K2-Instruct-0905", "Kimi-K2"),
        ("zai-org/GLM-4.5-Air-FP8", "GLM-4.5-Air"),
    ],
)
def test_spellings_resolve_to_their_family(
    catalog: CatalogSnapshot, spelling: str, preset: str
) -> None:
    found = catalog.model_preset(spelling)
    assert found is not None and found.name == preset


def test_the_family_key_strips_org_instruct_fp8_and_dates() -> None:
    assert model_key("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8") == "qwen3-235b-a22b"
    assert model_key("meta-llama/Meta-Llama-3.1-405B-Instruct") == "llama-3.1-405b"
    assert model_key("deepseek-ai/DeepSeek-V3-0324") == "deepseek-v3"


def test_a_near_miss_gets_did_you_mean(catalog: CatalogSnapshot) -> None:
    assert catalog.model_preset("Qwen3-33B") is None
    assert catalog.model_suggestions("Qwen3-33B")[0] == "Qwen3-32B"
    assert catalog.model_suggestions("Lama-3.3-70B")[0] == "Llama-3.3-70B"
    assert catalog.model_suggestions("Foo-7B") == []


def test_the_new_presets_carry_their_split_and_source(catalog: CatalogSnapshot) -> None:
    # 40 presets: the 15 shared ones plus 25 families from fixtures/reference/models.csv (the
    # Nemotron-Ultra row has no shape and is left out)
    assert len(catalog.models) == 40
    names = {m.name for m in catalog.models}
    assert {"Kimi-K2", "GLM-4.5", "Phi-4", "Mixtral-8x22B", "Qwen3-Next-80B-A3B"} <= names
    gpt = catalog.model_preset("gpt-oss-120b")
    assert gpt is not None and (gpt.num_experts, gpt.experts_per_token) == (128, 4)
    # shared's figures stand where it has the preset: 117 B total (local computed 116.83)
    assert gpt.total_params_b == 117
    assert gpt.expert_params_b is not None and gpt.expert_params_b > 100
    assert all(m.source for m in catalog.models)
    # the field guide's Qwen3-32B stays 32.8 B
    qwen = catalog.model_preset("Qwen3-32B")
    assert qwen is not None and qwen.total_params_b == 32.8
