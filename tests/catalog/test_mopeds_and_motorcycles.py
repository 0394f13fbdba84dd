"""The small end of the lot (issue 21): laptop GPUs with their power range, the laptop, Mac,
Copilot+ and phone families, the non-CUDA engines, and the GB10's sourced ConnectX-7 link."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot

LAPTOP_GPUS = {
    # key: (memory GB, bandwidth GB/s)
    "rtx-5090-laptop": (24, 896),
    "rtx-5080-laptop": (16, 896),
    "rtx-5070-ti-laptop": (12, 672),
    "rtx-5070-laptop": (8, 384),
    "rtx-pro-5000-laptop": (24, 896),
    "rtx-pro-4000-laptop": (16, 672),
    "rtx-pro-3000-laptop": (12, 672),
    "rtx-pro-2000-laptop": (8, 384),
    "rtx-pro-1000-laptop": (8, 256),
    "rtx-pro-500-laptop": (6, 192),
}


@pytest.mark.parametrize(("key", "figures"), LAPTOP_GPUS.items())
def test_every_laptop_gpu_has_memory_bandwidth_and_a_power_range(
    catalog: CatalogSnapshot, key: str, figures: tuple[int, int]
) -> None:
    gpu = catalog.gpu(key)
    assert (gpu.form_factor, gpu.memory_gb, round(gpu.bandwidth_tbs * 1000)) == ("laptop", *figures)
    # the laptop's GPU power range: typical is the bottom, max the top (95-150 W on a 5090)
    assert gpu.tdp_w_typical < gpu.tdp_w_max
    assert gpu.is_cuda and gpu.source_urls


def test_the_5090_laptop_range_is_sourced_and_the_guesses_are_marked(
    catalog: CatalogSnapshot,
) -> None:
    gpu = catalog.gpu("rtx-5090-laptop")
    assert (gpu.tdp_w_typical, gpu.tdp_w_max) == (95, 150)
    assert gpu.is_verified("tdp_w_max") and not gpu.is_verified("bandwidth_tbs")
    assert not catalog.gpu("rtx-pro-4000-laptop").is_verified("bandwidth_tbs")


@pytest.mark.parametrize(
    ("key", "memory", "bandwidth"),
    [
        ("apple-m4-pro", 48, 273),
        ("apple-m4-max", 128, 546),
        ("apple-m3-ultra", 512, 819),
        ("ryzen-ai-max-395", 128, 256),
    ],
)
def test_unified_memory_machines_are_not_cuda(
    catalog: CatalogSnapshot, key: str, memory: int, bandwidth: int
) -> None:
    gpu = catalog.gpu(key)
    assert (gpu.memory_gb, round(gpu.bandwidth_tbs * 1000)) == (memory, bandwidth)
    assert not gpu.is_cuda
    assert catalog.gpu("gb10").is_cuda  # "NVIDIA / MediaTek" builds the GB10: CUDA


@pytest.mark.parametrize(
    ("key", "form"),
    [
        ("dell-pro-max-14-plus", "laptop"),
        ("dell-pro-max-16-plus", "laptop"),
        ("dell-pro-max-18-plus", "laptop"),
        ("hp-zbook-fury-g1i", "laptop"),
        ("hp-zbook-power-g1i", "laptop"),
        ("hp-zbook-ultra-g1a", "laptop"),
        ("lenovo-thinkpad-p1", "laptop"),
        ("lenovo-thinkpad-p16", "laptop"),
        ("msi-titan-18-hx", "laptop"),
        ("asus-rog-laptop", "laptop"),
        ("razer-blade", "laptop"),
        ("apple-macbook-pro", "laptop"),
        ("apple-mac-studio", "desktop"),
        ("microsoft-surface-laptop-7", "laptop"),
        ("apple-iphone-16-pro", "phone"),
    ],
)
def test_the_families_resellers_quote_take_one_engine(
    catalog: CatalogSnapshot, key: str, form: str
) -> None:
    family = catalog.system(key)
    assert (family.form_factor, family.max_gpus, family.gpu) == (form, 1, None)
    assert family.supported_gpus and family.source_urls
    assert family.power_max_kw is not None


def test_a_spark_reaches_its_neighbour_at_200_gb_per_s(catalog: CatalogSnapshot) -> None:
    spark = catalog.system("dgx-spark")
    assert spark.scale_out_gbps == 200
    assert spark.scale_out_link == "ConnectX-7, 200 Gb/s"
    assert "servethehome" in spark.figure("scale_out_gbps").source
    assert catalog.system("dell-pro-max-gb10").scale_out_gbps == 200  # the OEM twins too
    assert catalog.system("dgx-b200").scale_out_gbps is None
