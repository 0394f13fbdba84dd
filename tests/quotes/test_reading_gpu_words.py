"""The shortcuts of reading a line: the GPU words every GPU pattern needs, and the families'
phrases tried by their first word, answer exactly as trying every pattern and phrase does."""

import random
import re
from unittest.mock import patch

import pytest

from apps.quotes import bom_gpus as bom_words
from apps.quotes.bom_gpus import _GPU_PATTERNS, _GPU_WORDS, GpuMention, gpu_mention
from apps.quotes.bom_line_roles import BomTexts as _Families
from apps.quotes.matching import match_index, not_a_model


def _gpu_mention_every_pattern(text: str) -> GpuMention | None:
    """gpu_mention without the `_GPU_WORDS` shortcut."""
    with patch.object(bom_words, "_may_name_gpu", lambda text: True):
        return gpu_mention(text)


@pytest.mark.parametrize(("pattern", "key"), _GPU_PATTERNS)
def test_every_gpu_pattern_needs_one_of_the_gpu_words(pattern, key):
    assert any(word in pattern.lower() for word in _GPU_WORDS), (pattern, key)


TEXTS = [
    "8x NVIDIA HGX H200 141GB",
    "NVIDIA L4 x 6",
    "2x GB200 Superchip",
    "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
    "rtx pro 2000 laptop GPU",
    "Apple MacBook Pro M4 Max 128GB",
    "AMD Ryzen AI Max+ PRO 395",
    "Snapdragon X Elite",
    "ProSupport 3yr Next Business Day",
    "64GB RDIMM 5600MT/s",
    "QSFP112 cable 2m",
    "GPU tray, 4x B300",
    "NVIDIA L40S 48GB PCIe",
    "ſnapdragon x elite",  # a long s: re.IGNORECASE reads it as "s", str.lower does not
    "H\u0130100 SXM",
    "NVIDIA A100 80GB SXM4",
    "Vera Rubin NVL72 rack",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_gpu_mention_reads_as_every_pattern_does(text):
    assert gpu_mention(text) == _gpu_mention_every_pattern(text)


def test_gpu_mention_reads_as_every_pattern_does_on_catalog_words(catalog):
    """Catalog names, part numbers and aliases, cut and mixed: the shortcut never changes
    what a line is read as."""
    rng = random.Random(19)
    names = [
        name
        for part in catalog.parts
        for name in (part.part_number, part.description, *part.aliases)
        if name
    ] + [gpu.name for gpu in catalog.gpus]
    words = [w for name in names for w in name.split()]
    texts = names + [" ".join(rng.sample(words, rng.randint(1, 6))) for _ in range(3000)]
    for text in texts:
        assert gpu_mention(text) == _gpu_mention_every_pattern(text), text


def _find_every_phrase(families: _Families, text: str):
    words = " " + " ".join(re.findall(r"[0-9a-z]+", text.casefold())) + " "
    best = None
    for phrase, key in families.phrases:
        # a model number before plain words, then the longest (the first of equally long)
        rank = (not_a_model(phrase), -len(phrase))
        if f" {phrase} " in words and (best is None or rank < best[0]):
            best = (rank, key or "")
    return families.catalog.system_by_key.get(best[1]) if best else None


def test_families_find_as_trying_every_phrase(catalog):
    rng = random.Random(4)
    families = _Families(catalog)
    phrases = [phrase for phrase, _ in match_index(catalog).phrases]
    words = [w for phrase in phrases for w in phrase.split()]
    texts = phrases + [" ".join(rng.sample(words, rng.randint(1, 8))) for _ in range(3000)]
    for text in texts:
        expected = _find_every_phrase(families, text)
        assert families.find(text) == expected, text
        assert families.find(text) == expected, text  # the second time from `_found`


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        # one Grace Hopper superchip is one Hopper GPU
        ("NVIDIA GH200 144GB HBM3e Grace Hopper Superchip Module for HPE", 1),
        # a GB200 superchip is one Grace and two Blackwell GPUs
        ("NVIDIA GB200 Grace Blackwell Superchip", 2),
        # a DGX Station's GB300 Desktop Superchip is one GPU beside its Grace
        ("NVIDIA GB300 Grace Blackwell Ultra Desktop Superchip, 748GB coherent memory", 1),
        ("NVIDIA DGX Station GB300 Ultra Superchip, 784GB coherent memory", 1),
        # a count on the line wins: 2 × 2 = 4, and NVL2 / NVL4 name their GPUs
        ("2x GB200 Superchip", 4),
        ("HPE DL384 Gen12 NVIDIA GH200 NVL2 Superchip pair with NVLink bridge", 2),
        ("1x GB200 NVL4 Superchip", 4),
    ],
)
def test_a_superchip_counts_its_own_gpus(text: str, gpus: int) -> None:
    mention = gpu_mention(text)
    assert mention is not None and mention.board
    assert mention.count == gpus
