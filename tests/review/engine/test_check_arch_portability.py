"""arch_portability: Arm systems get an info about rebuilding containers for x86."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import arch_portability
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system

DEV = {"kind": "development", "memory_gb": 10}


def test_a_spark_is_arm(catalog: CatalogSnapshot) -> None:
    finding = only(
        arch_portability.check(
            context(catalog, [quoted_system(catalog, "dgx-spark")], DEV, OFFICE_15A)
        )
    )
    assert finding.severity == "info"
    assert "arm64" in finding.detail
    assert finding.metrics == {"arm_systems": ["NVIDIA DGX Spark"], "x86_systems": []}


def test_mixed_quote_names_both(catalog: CatalogSnapshot) -> None:
    systems = [quoted_system(catalog, "dgx-spark"), quoted_system(catalog, "dgx-b200")]
    finding = only(arch_portability.check(context(catalog, systems, DEV)))
    assert "x86 (NVIDIA DGX B200)" in finding.detail


def test_all_x86_leaves_the_check_out(catalog: CatalogSnapshot) -> None:
    assert arch_portability.check(context(catalog, [quoted_system(catalog, "dgx-b200")], DEV)) == []


def test_an_amd_instinct_server_warns_that_the_software_must_run_on_rocm(
    catalog: CatalogSnapshot,
) -> None:
    # a Lenovo SR685a V3 with its 8 × MI300X board: AMD GPUs, an x86 host
    semi = quoted_system(catalog, "lenovo-sr685a-v3", gpu_key="mi300x", gpus=8, domain=8)
    finding = only(arch_portability.check(context(catalog, [semi], DEV)))
    assert finding.severity == "warning"  # a stack that may not run, not a rebuild
    assert finding.title == "Not CUDA: the software has to run on ROCm"
    assert "8 × MI300X" in finding.detail and "unified memory" not in finding.detail
    assert "TensorRT-LLM" in finding.detail and "ROCm" in (finding.lever or "")
    assert finding.metrics["stack"] == "ROCm"
