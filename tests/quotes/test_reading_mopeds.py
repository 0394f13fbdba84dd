"""Reading the mopeds and motorcycles (issue 21): a configured laptop carries the one GPU its
line names, through the same path as a configured server whose GPU is read from the line; a
Mac's chip and configured unified memory; a phone's fixed SoC."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_gpus import gpu_mention
from apps.quotes.intake import QuoteIntake, quote_intake

HEADER = "Item,Part Number,Description,Qty,Unit Price,Extended Price\n"


def read(catalog: CatalogSnapshot, body: str) -> QuoteIntake:
    return quote_intake((HEADER + body).encode(), "quote.csv", catalog)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("NVIDIA GeForce RTX 5090 Laptop GPU 24GB GDDR7", "rtx-5090-laptop"),
        ("GeForce RTX 5070 Ti Laptop GPU, 12GB", "rtx-5070-ti-laptop"),
        ("NVIDIA RTX PRO 2000 Blackwell Generation Laptop GPU, 8GB GDDR7", "rtx-pro-2000-laptop"),
        ("NVIDIA RTX PRO 500 Blackwell Laptop GPU", "rtx-pro-500-laptop"),
        ("Apple M4 Max chip with 16-core CPU and 40-core GPU", "apple-m4-max"),
        ("AMD Ryzen AI Max+ PRO 395 with Radeon 8060S", "ryzen-ai-max-395"),
        ("NVIDIA Vera Rubin NVL72 rack", "rubin"),
    ],
)
def test_the_engines_of_the_small_vehicles_are_named(text: str, key: str) -> None:
    mention = gpu_mention(text)
    assert mention is not None and mention.key == key
    assert mention.count is None  # "40-core GPU" is Apple's GPU cores, not 40 GPUs


@pytest.mark.parametrize(
    ("line", "family", "gpu", "memory"),
    [
        # the configured GPU on the laptop's own line; the line says no count: one
        (
            '1,20QR,"ThinkPad P16 Gen 3, NVIDIA RTX PRO 2000 Blackwell 8GB, 32GB",5,3100,15500',
            "lenovo-thinkpad-p16",
            "rtx-pro-2000-laptop",  # "RTX PRO 2000 Blackwell" in a laptop is the laptop part
            None,
        ),
        (
            '1,B3KL1UA,"HP ZBook Ultra G1a, AMD Ryzen AI Max+ PRO 395, 128GB unified memory",'
            "2,4200,8400",
            "hp-zbook-ultra-g1a",
            "ryzen-ai-max-395",
            128.0,
        ),
        (
            '1,MX2K3LL/A,"Apple MacBook Pro 16-inch, M4 Max chip with 16-core CPU and 40-core '
            'GPU, 48GB unified memory",6,3899,23394',
            "apple-macbook-pro",
            "apple-m4-max",
            48.0,  # the configured 48 GB, not the chip's 128 GB maximum
        ),
        (
            '1,MYMJ3LL/A,"Apple iPhone 16 Pro 256GB, Black Titanium",3,1099,3297',
            "apple-iphone-16-pro",
            "apple-a18-pro",  # the family's fixed SoC: the line need not name it
            None,
        ),
    ],
)
def test_a_configured_personal_machine_carries_one_engine(
    catalog: CatalogSnapshot, line: str, family: str, gpu: str, memory: float | None
) -> None:
    (system,) = read(catalog, line + "\n").systems
    assert (system.sku, system.gpu_key, system.gpus_per_system) == (family, gpu, 1)
    assert system.nvlink_domain_gpus == 1  # each its own host, never an NVLink neighbour
    assert system.gpu_memory_gb == memory


def test_a_server_line_without_a_count_still_says_nothing_about_its_gpus(
    catalog: CatalogSnapshot,
) -> None:
    # the one-GPU rule is for laptops and one-GPU systems; a 10-slot chassis is not guessed at
    line = '1,SYS-421GE-TNRT,"Supermicro SYS-421GE-TNRT with L40S",1,1,1\n'
    (system,) = read(catalog, line).systems
    read_as = (system.form_factor, system.gpu_key, system.gpus_per_system)
    assert read_as == ("pcie_server", "l40s", 0)
