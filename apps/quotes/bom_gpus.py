"""The GPUs a bill of materials names, as quotes write them: which GPU a text names, how
many and whether on a board (``gpu_mention``: "8x NVIDIA HGX H200 141GB" is h200-sxm × 8 on a
board, "2x GB200 Superchip" four GPUs); the NVLink bridges and rack-scale NVLink domains a line
names; and accelerators the catalog has no spec for (``accelerator_named``: "Intel Gaudi 3").

Most lines of a quote name no GPU ("ProSupport 3yr", "64GB RDIMM"): a text without any of the
words the patterns need is answered without trying them (``_may_name_gpu``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# GPUs as quotes write them. Order matters: the longer, more specific name first.

_GPU_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"rtx\s*pro\s*6000(?:\s+blackwell)?[^,;]*?max[- ]?q", "rtx-pro-6000-maxq"),
    (r"rtx\s*pro\s*6000(?:\s+blackwell)?[^,;]*?server", "rtx-pro-6000-server"),
    (r"rtx\s*pro\s*6000(?:\s+blackwell)?[^,;]*?(?:workstation|\bws\b)", "rtx-pro-6000-ws"),
    (r"rtx\s*pro\s*6000", "rtx-pro-6000"),
    (r"rtx\s*pro\s*5000[^,;]*?(?:laptop|mobile)", "rtx-pro-5000-laptop"),
    (r"rtx\s*pro\s*5000", "rtx-pro-5000"),
    # laptop GPUs: a line that says "laptop" (or "mobile") names the laptop part; one that
    # does not is read as the laptop part when it sits in a laptop (`bom_systems._gpu_spec`)
    (r"rtx\s*pro\s*([1-4]000|500)\b[^,;]*?(?:laptop|mobile)", r"rtx-pro-\1-laptop"),
    (r"rtx\s*pro\s*4500\b", "rtx-pro-4500"),  # a desktop card only: 32 GB, 200 W
    (r"rtx\s*pro\s*([1-4]000|500)\b", r"rtx-pro-\1"),
    (r"rtx\s*5070\s*ti\b[^,;]*?(?:laptop|mobile)", "rtx-5070-ti-laptop"),
    (r"rtx\s*5070\s*ti\b", "rtx-5070-ti"),
    (r"rtx\s*(50[5-9]0)\b[^,;]*?(?:laptop|mobile)", r"rtx-\1-laptop"),
    (r"rtx\s*(50[5-9]0)\b", r"rtx-\1"),
    # non-CUDA engines: Apple silicon, Strix Halo, Copilot+ and phone SoCs
    (r"\bm4\s*max\b", "apple-m4-max"),
    (r"\bm4\s*pro\b", "apple-m4-pro"),
    (r"\bm3\s*ultra\b", "apple-m3-ultra"),
    (r"ryzen\s*ai\s*max\+?\s*(?:pro\s*)?395\b", "ryzen-ai-max-395"),
    (r"snapdragon\s*x\s*elite", "snapdragon-x-elite"),
    (r"snapdragon\s*8\s*elite", "snapdragon-8-elite"),
    (r"\ba18\s*pro\b", "apple-a18-pro"),
    (r"rtx\s*6000\s*ada", "rtx-6000-ada"),
    # a DGX Station's GB300 "Desktop Superchip", not the GB300 of an NVL72 rack tray; any
    # desk-side "...Station" built on it ("MSI XpertStation WS300, NVIDIA GB300") is one
    (
        r"\bgb300\b[^,;]*?(?:\bdesktop|station)\b|(?:\bdesktop|station)\b[^;]*?\bgb300\b",
        "gb300-desktop",
    ),
    (r"\bgb300\b", "gb300"),
    (r"\bgb200\b", "gb200"),
    (r"\bgb10\b", "gb10"),
    (r"\bgh200\b", "gh200"),
    (r"\bjetson\s*(?:agx\s*)?thor\b|\bjetson\s*t5000\b", "jetson-agx-thor"),
    (r"\brubin\b", "rubin"),  # "Vera Rubin NVL72 rack", "HGX Rubin NVL8"
    (r"\bh200\s*nvl\b", "h200-nvl"),
    (r"\bh100\s*nvl\b", "h100-nvl"),
    (r"\bh200\b", "h200-sxm"),
    (r"\bh100\b[^,;]*?\bpcie\b", "h100-pcie"),
    (r"\bh100\b", "h100-sxm"),
    (r"\bb300\b", "b300"),
    (r"\bb200\b", "b200"),
    (r"\bl40s\b", "l40s"),
    (r"\bl4\b", "l4"),
    (r"\ba100\b", "a100-sxm"),
    # AMD Instinct OAM GPUs as vendors write them: "AMD Instinct MI300X 192GB OAM Accelerator",
    # "8x AMD Instinct MI325X 256GB HBM3E", "AMD MI355X GPU", Cisco's "... - MI300X GPU"
    (r"\bmi3(00|25|50|55)x\b", r"mi3\1x"),
    # Intel's accelerator: "Intel Gaudi 3 AI Accelerator", "8x Gaudi3 OAM", "HL-325L"
    (r"\bgaudi\s*-?\s*3\b|\bhl-32[58]l\b", "gaudi3"),
)
_GPU_RES = tuple((re.compile(p, re.IGNORECASE), key) for p, key in _GPU_PATTERNS)
#: A word every pattern above needs (lower case; "l4" stands for "l40s" too): a text holding
#: none of them names no GPU, and most lines of a quote ("ProSupport 3yr", "64GB RDIMM",
#: "QSFP cable") are read without trying all the patterns. A pattern added above needs its word
#: here (tests/quotes/test_reading_gpu_words.py checks each pattern holds one).
_GPU_WORDS = (
    "rtx",
    "m4",
    "m3",
    "ryzen",
    "snapdragon",
    "a18",
    "gb300",
    "gb200",
    "gb10",
    "gh200",
    "jetson",
    "rubin",
    "h200",
    "h100",
    "b300",
    "b200",
    "l4",
    "a100",
    "mi3",
    "gaudi",
    "hl-32",
)
#: A line naming several GPUs on one carrier: an HGX or SXM board, a Grace superchip (a GH200
#: NVL2 pair, a GB200 NVL4), AMD's 8-GPU OAM universal baseboard ("AMD Instinct MI300X 8-GPU
#: Baseboard", "MI300X Platform", "UBB"). An OAM alone is one module, one GPU, as an SXM5 GPU
#: is.
#: "8 GPU por placa", "8 GPUs per board", "8 GPU per scheda": the GPUs one board carries.
PER_BOARD_RE = re.compile(
    r"\bgpus?\s+(?:per|por|par|pro|je|op|na)\s+"
    r"(?:board|baseboard|placa|plaque|carte|scheda|bord|p[lł]yt[eęa])\b",
    re.IGNORECASE,
)
_BOARD_RE = re.compile(
    r"\bhgx\b|\bsxm\d?\b|baseboard|\bgpu board\b|gpu tray|compute tray|\bubb\b|superchip|"
    r"\bmi3\d\dx\s+platform\b|" + PER_BOARD_RE.pattern,
    re.IGNORECASE,
)
_GPU_NAME = (
    r"(?:nvidia\s+|amd\s+)?(?:hgx\s+|instinct\s+)?(?:rtx\s*pro\s*\d{4}|rtx\s*6000\s*ada|"
    r"gb\d{2,3}|[hb][123]00|l40s|l4|a100|blackwell|hopper|mi3\d\dx|(?:intel\s+)?gaudi\s*-?\s*3)"
)
# A count starts a word: "8x H200", "(8x MI300X)"; the 355 of "MI355X GPU" is a model number.
_COUNT_BEFORE = re.compile(r"\b(\d{1,3})\s*[x×]\s*" + _GPU_NAME, re.IGNORECASE)
_COUNT_GPUS = re.compile(r"\b(\d{1,3})\s*[x×]\s*(?:[\w-]+\s+){0,3}?gpus?\b", re.IGNORECASE)
_COUNT_DASH = re.compile(r"\b(\d{1,3})[- ]gpus?\b", re.IGNORECASE)
_COUNT_AFTER = re.compile(_GPU_NAME + r"[^,;()]{0,30}?\s[x×]\s*(\d{1,3})\b", re.IGNORECASE)
_SUPERCHIP = re.compile(r"(\d{1,3})\s*[x×]\s*(?:nvidia\s+)?gb[23]00[^,;]*?superchip", re.I)
#: The superchip products named by their GPUs: "GB200 NVL4" (two Grace, four Blackwell),
#: "GH200 NVL2" (two Grace Hopper superchips). The NVL72 of a rack or the NVL16 of "HGX B300
#: NVL16" (16 dies, 8 GPUs) does not count a line's GPUs.
_NVL_SUPERCHIP = re.compile(r"\bg[hb][23]00\s+nvl\s?([24])\b", re.I)
#: One superchip named without a count: "NVIDIA GH200 144GB HBM3e Grace Hopper Superchip
#: Module" is one Hopper GPU, a "GB200 Grace Blackwell Superchip" two Blackwell GPUs, and the
#: GB300 "Desktop Superchip" of a DGX Station one.
_ONE_SUPERCHIP = re.compile(r"\bg([hb])[23]00\b[^,;]*?\bsuperchip", re.I)
_DESKTOP_SUPERCHIP = re.compile(r"\b(?:desktop|station)\b", re.I)
BRIDGE_RE = re.compile(r"\bnvlink\b[^,;]*\bbridge\b|\bbridge\b[^,;]*\bnvlink\b", re.I)
#: A rack-scale system's NVLink domain in its name or part number: "GB300 NVL72",
#: "SRS-GB200-NVL72-M1", "GB200 NVL36x2", "Vera Rubin NVL144", "NVL576". A rack line naming one
#: is the system, not the empty rack it stands in.
RACK_SCALE_RE = re.compile(r"nvl[\s-]?(?:36\s?x\s?2|72|144|576)(?![0-9])", re.I)
#: NVLink named by its ways without the word bridge: "4-way NVLink", "NVLink 2-way".
NVLINK_WAYS_RE = re.compile(r"\b(\d)[- ]?way\s+nvlink\b|\bnvlink\s+(\d)[- ]?way\b", re.I)
WAYS_RE = re.compile(r"\b(\d)[- ]?way\b|\b(\d)[- ]slot\b", re.IGNORECASE)


#: Accelerators a line can name that the catalog has no spec for ("Intel Gaudi 2 HL-225H",
#: "AMD Instinct MI210 64GB PCIe", Huawei Ascend, AWS Trainium): read only where no GPU pattern
#: matched, so "AMD Instinct MI300X" stays the catalog's MI300X.
_ACCELERATOR_RE = re.compile(
    r"\b(?:intel\s+)?(?:habana\s+)?gaudi\s*-?\d?\b|"
    r"\b(?:amd\s+instinct|amd|instinct)\s+mi\s?\d{2,3}[a-z]?\b|"
    r"\b(?:huawei\s+)?ascend\s*\d{3}[a-z]?\b|\b(?:aws\s+)?(?:trainium|inferentia)\s*\d?\b|"
    r"\b(?:intel\s+)?data\s+center\s+gpu\s+max(?:\s+\d{4})?\b",
    re.IGNORECASE,
)
#: A word each of the patterns above needs (lower case), as ``_GPU_WORDS`` for the GPUs.
_ACCELERATOR_WORDS = ("gaudi", "mi", "ascend", "trainium", "inferentia", "gpu max")


@dataclass
class GpuMention:
    """A GPU a line names: which, how many (None when the line gives no count), on a board."""

    key: str
    count: int | None = None
    board: bool = False


def _may_name_gpu(text: str) -> bool:
    """False when no GPU pattern can match: an ASCII text without any of ``_GPU_WORDS``
    (for ASCII, ``re.IGNORECASE`` is exactly ``str.lower``; other texts are always tried)."""
    if not text.isascii():
        return True
    folded = text.lower()
    for word in _GPU_WORDS:  # noqa: SIM110 - a third of any()'s time, on every line
        if word in folded:
            return True
    return False


def gpu_mention(text: str) -> GpuMention | None:
    """The GPU a text names and, when it says so, how many: "8x NVIDIA HGX H200 141GB" →
    h200-sxm × 8 on a board; "NVIDIA L4 x 6" → l4 × 6; "2x GB200 Superchip" → 4 GPUs."""
    if not _may_name_gpu(text):
        return None
    key = None
    for pattern, gpu_key in _GPU_RES:
        found_name = pattern.search(text)
        if found_name:
            key = found_name.expand(gpu_key)  # "rtx-pro-\1-laptop" → "rtx-pro-2000-laptop"
            break
    if key is None:
        return None
    count: int | None = None
    superchip = _SUPERCHIP.search(text)
    explicit = _COUNT_GPUS.search(text)
    nvl = _NVL_SUPERCHIP.search(text)
    if superchip and not explicit:
        # a GB200 superchip carries two GPUs, a GB200 NVL4 superchip four
        per = int(nvl.group(1)) if nvl and nvl.start() >= superchip.start() else 2
        count = per * int(superchip.group(1))
    elif nvl and not explicit and not _COUNT_BEFORE.search(text):
        count = int(nvl.group(1))
    elif (one := _ONE_SUPERCHIP.search(text)) and not explicit and not _COUNT_BEFORE.search(text):
        hopper = one.group(1).casefold() == "h"
        count = 1 if hopper or _DESKTOP_SUPERCHIP.search(text) else 2
    for regex in (_COUNT_GPUS, _COUNT_BEFORE, _COUNT_DASH, _COUNT_AFTER):
        found = regex.search(text) if count is None else None
        if found:
            count = int(found.group(1))
            break
    board = bool(_BOARD_RE.search(text))
    return GpuMention(key=key, count=count if count and count > 0 else None, board=board)


def accelerator_named(text: str) -> str | None:
    """The accelerator a text names that no GPU pattern knows, as written: "Intel Gaudi 3
    HL-325L OAM" → "Intel Gaudi 3"; None for a text naming a catalog GPU or none at all."""
    folded = text.lower()
    if not any(word in folded for word in _ACCELERATOR_WORDS) or gpu_mention(text) is not None:
        return None
    found = _ACCELERATOR_RE.search(text)
    return " ".join(found.group(0).split()) if found else None
