"""AMD Instinct MI300X, MI325X, MI350X and MI355X in the catalog: every figure with its source,
the ones no AMD page states marked unverified (`~` in fixtures/reference/gpus.csv), the
Infinity Fabric baseboard as its own interconnect, and the OEM families that take them."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import gpu_mention

# key: (memory GB as the spec sheet writes it, bandwidth TB/s, TDP W, the sources' host names)
AMD = {
    "mi300x": (192, 5.3, 750, ("docs.vultr.com", "gpu.blog", "jaredwatkins.com")),
    "mi325x": (256, 6.0, 1000, ("rocm.docs.amd.com", "docs.vultr.com")),
    "mi350x": (288, 8.0, 1000, ("rocm.docs.amd.com", "tomshardware.com", "theregister.com")),
    "mi355x": (288, 8.0, 1400, ("rocm.docs.amd.com", "tomshardware.com", "theregister.com")),
}


@pytest.mark.parametrize(("key", "figures"), AMD.items())
def test_each_amd_gpu_has_its_memory_bandwidth_power_and_sources(
    catalog: CatalogSnapshot, key: str, figures: tuple[int, float, int, tuple[str, ...]]
) -> None:
    memory, bandwidth, watts, hosts = figures
    gpu = catalog.gpu(key)
    assert (gpu.vendor, gpu.memory_gb, gpu.bandwidth_tbs, gpu.tdp_w_max) == (
        "AMD",
        memory,
        bandwidth,
        watts,
    )
    assert gpu.memory_type.upper().startswith("HBM3")
    for host in hosts:
        assert host in gpu.source_urls, (key, host)
    # memory is stated by the pages cited; every compute rate is a best-known figure
    assert gpu.is_verified("memory_gb") and gpu.is_verified("bandwidth_tbs")
    for rate in ("fp64_tflops", "fp32_tflops", "bf16_tflops", "fp8_tflops"):
        assert not gpu.is_verified(rate), (key, rate)
    assert "UNVERIFIED" in gpu.notes and "ROCm" in gpu.notes


def test_mi300x_rates_and_its_disagreeing_fp64(catalog: CatalogSnapshot) -> None:
    gpu = catalog.gpu("mi300x")
    assert (gpu.fp64_tflops, gpu.fp64_tensor_tflops, gpu.fp32_tflops) == (81.7, 163.4, 163.4)
    # dense BF16 1,307.4, FP8 twice that (2,614.9); CDNA 3 has no FP4
    assert (gpu.bf16_tflops, gpu.fp8_tflops, gpu.fp4_tflops) == (1307.4, 2614.9, None)
    assert "82.3" in gpu.notes  # gpu.blog's FP64, kept in the notes beside ours
    # 896 GB/s aggregate Infinity Fabric per GPU, from a third-party page: unverified
    assert gpu.nvlink_bw_gbs == 896 and not gpu.is_verified("nvlink_bw_gbs")
    assert gpu.is_verified("tdp_w_max")


def test_mi325x_power_is_unverified_and_its_compute_is_the_mi300x_die(
    catalog: CatalogSnapshot,
) -> None:
    mi325x, mi300x = catalog.gpu("mi325x"), catalog.gpu("mi300x")
    assert not mi325x.is_verified("tdp_w_max")  # 1,000 W from third-party pages only
    assert (mi325x.bf16_tflops, mi325x.fp8_tflops) == (mi300x.bf16_tflops, mi300x.fp8_tflops)


def test_cdna4_rates_are_half_the_sparse_maxima(catalog: CatalogSnapshot) -> None:
    # Tom's Hardware: 18.45 / 20.1 PFLOPS FP4 with sparsity -> dense 9,225 / 10,050 TFLOPS
    assert catalog.gpu("mi350x").fp4_tflops == 18450 / 2
    assert catalog.gpu("mi355x").fp4_tflops == 20100 / 2
    for key in ("mi350x", "mi355x"):
        gpu = catalog.gpu(key)
        assert not gpu.is_verified("fp4_tflops")
        # FP8 dense is half FP4 dense, BF16 half FP8 (within a rounding of the sources')
        assert gpu.fp8_tflops == pytest.approx(gpu.fp4_tflops / 2, rel=0.01)
        assert gpu.bf16_tflops == pytest.approx(gpu.fp8_tflops / 2, rel=0.01)
    assert catalog.gpu("mi355x").cooling == "liquid"  # 1,400 W, designed for liquid
    assert catalog.gpu("mi350x").cooling == "air"


@pytest.mark.parametrize("key", AMD)
def test_an_oam_baseboard_is_one_eight_gpu_infinity_fabric_domain_not_cuda(
    catalog: CatalogSnapshot, key: str
) -> None:
    gpu = catalog.gpu(key)
    assert (gpu.interconnect, gpu.nvlink_domain_gpus) == ("infinity_fabric", 8)
    assert gpu.joins_its_board and not gpu.is_cuda


@pytest.mark.parametrize(
    ("family", "gpus"),
    [
        ("supermicro-as-8125gs-tnmr2", {"mi300x", "mi325x"}),
        ("lenovo-sr685a-v3", {"mi300x", "mi325x"}),
        ("cisco-ucs-c885a-m8", {"mi300x", "mi350x"}),
        ("hpe-xd685", {"mi355x"}),
        ("dell-xe9785l", {"mi355x"}),
        ("dell-xe9680", {"mi300x"}),
    ],
)
def test_the_amd_families_supported_gpus_name_catalog_gpus(
    catalog: CatalogSnapshot, family: str, gpus: set[str]
) -> None:
    named = [gpu_mention(name.lstrip("~")) for name in catalog.system(family).supported_gpus]
    keys = {m.key for m in named if m is not None}
    assert gpus <= keys and all(k in catalog.gpu_by_key for k in gpus)
