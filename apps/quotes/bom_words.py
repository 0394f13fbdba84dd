"""The vocabulary of a bill of materials: what a line's text says on its own, before its place
in the quote is known (the reader, ``apps.quotes.reading``, decides each line's role from it).

- the **head** of a text, the words before its first separator (``head``), and what the head
  names (``head_category``): read from its last word backwards, the first word in a category
  decides ("... Rack Server" is a server, "... Integrated Rack" a rack); services and
  management controllers anywhere in the head decide first;
- the **GPU** a text names, how many and whether on a board (``gpu_mention``): the GPUs as
  quotes write them, the longer, more specific name first;
- the **part-number styles** of the vendors and the patterns of money lines, notes, NVLink
  bridges, cooling and per-system banners.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# Words of a line's head. Each set is a category of head noun; the head is read from its last
# word backwards and the first word in a category decides (see ``head_category``).

_SERVICE_WORDS = frozenset(
    [
        "support",
        "prosupport",
        "prodeploy",
        "deploy",
        "deployment",
        "warranty",
        "warranties",
        "care",
        "carepack",
        "applecare",
        "service",
        "services",
        "svc",
        "installation",
        "install",
        "startup",
        "renewal",
        "renewals",
        "subscription",
        "subscriptions",
        "coverage",
        "replacement",
        "maintenance",
        "engineer",
        "residency",
        "training",
        "consulting",
        "sanitization",
        "relocation",
        "premier",
        "essential",
        "essentials",
        "commissioning",
        "labeling",
        "labelling",
        "integration",
        "validation",
        "burn",
        "entitlement",
        "saas",
        "license",
        "licence",
        "licenses",
        "rma",
        "check",
        "bring",
        "labor",
        "labour",
        "onsite",
        "garantie",
        "garantieerweiterung",
        "wartung",
        "inbetriebnahme",
        "einweisung",
    ]
)
_SERVICE_PHRASES = (
    "keep your",
    "ai enterprise",
    "health check",
    "tech care",
    "burn-in",
    # Japanese and Chinese (no word breaks): maintenance, warranty, support, installation;
    # not 服务 alone, which 服务器 (server) contains.
    "保守",
    "保証",
    "サポート",
    "設置",
    "保修",
    "维保",
    "质保",
    "技术支持",
    "安装",
)
#: Japanese and Chinese for a barebone or chassis (no word breaks to find a noun by).
_CJK_CHASSIS = ("ベアボーン", "筐体", "准系统", "準系統", "机箱")
#: Management controllers, OS preloads: part of the system even when called a licence.
_MANAGEMENT_WORDS = frozenset(
    ["ilo", "idrac", "xclarity", "bmc", "windows", "ubuntu", "linux", "rhel"]
)
FREIGHT_WORDS = frozenset(
    ["shipping", "freight", "delivery", "handling", "crating", "fracht", "versand", "lieferung"]
)
_SYSTEM_WORDS = frozenset(
    [
        "server",
        "servers",
        "superserver",
        "workstation",
        "workstations",
        "system",
        "systems",
        "laptop",
        "notebook",
        "macbook",
        "node",
        "solution",
        "cto",
        "configure-to-order",
        "dgx",
    ]
)
_CHASSIS_WORDS = frozenset(["chassis", "barebone", "base", "enclosure"])
_BOARD_WORDS = frozenset(["baseboard", "board", "tray", "sled"])
_CARD_WORDS = frozenset(["gpu", "accelerator", "graphics", "edition", "card"])
_RACK_WORDS = frozenset(["rack", "cabinet"])
_ACCESSORY_WORDS = frozenset(
    [
        "cable",
        "cables",
        "cord",
        "cords",
        "transceiver",
        "transceivers",
        "optic",
        "optics",
        "dac",
        "aoc",
        "dock",
        "docks",
        "backpack",
        "bag",
        "case",
        "pdu",
        "pdus",
        "cdu",
        "panel",
        "spare",
        "spares",
        "monitor",
        "keyboard",
        "mouse",
        "hoses",
    ]
)
_COMPONENT_WORDS = frozenset(
    [
        "processor",
        "processors",
        "cpu",
        "cpus",
        "xeon",
        "epyc",
        "threadripper",
        "ryzen",
        "core",
        "memory",
        "rdimm",
        "rdimms",
        "dimm",
        "dimms",
        "ram",
        "lpcamm2",
        "ssd",
        "ssds",
        "nvme",
        "drive",
        "drives",
        "hdd",
        "storage",
        "adapter",
        "adapters",
        "nic",
        "nics",
        "supernic",
        "dpu",
        "connectx",
        "bluefield",
        "ocp",
        "psu",
        "psus",
        "supply",
        "supplies",
        "netzteil",
        "rail",
        "rails",
        "heatsink",
        "heatsinks",
        "fan",
        "fans",
        "riser",
        "risers",
        "plate",
        "plates",
        "manifold",
        "loop",
        "tpm",
        "module",
        "bezel",
        "motherboard",
        "windows",
        "ubuntu",
        "linux",
        "rhel",
        "os",
        "display",
        "oled",
        "raid",
        "boot",
        "controller",
        "enablement",
        "cooler",
        "switch",
        "shelf",
        "kit",
    ]
)
NOTE_HEADS = ("no ", "factory integrated")
#: A label row that gives the number of systems a per-system configuration is for.
MULTIPLIER_RE = re.compile(
    r"^(?:configuration quantity|number of (?:systems|servers|units)|system quantity|"
    r"quantity of systems|anzahl (?:systeme|server))\b",
    re.IGNORECASE,
)
PER_SYSTEM_RE = re.compile(
    r"\bper (?:system|server|unit|node|workstation)\b|\bfor one (?:server|system|unit)\b|"
    r"\bje (?:system|server|einheit)\b|\bpro (?:system|server)\b|\beach (?:system|server)\b",
    re.IGNORECASE,
)
LIQUID_RE = re.compile(
    r"\bliquid[- ]cooled\b|\bliquid cooling\b|\bdirect liquid\b|\bdlc\b|\bneptune\b|"
    r"\bwater[- ]cool|\bdirect water\b|\bdwc\b|\bcold plates?\b|\bliquid\b",
    re.IGNORECASE,
)
AIR_RE = re.compile(r"\bair[- ]cooled\b|\bluftgek[uü]hlt\b", re.IGNORECASE)

# Part-number styles.
HPE_OPTION_SUFFIX = re.compile(r"^\S+\s+0D1$", re.IGNORECASE)
LENOVO_CTO = re.compile(r"^[0-9A-Z]{4}CTO\d[A-Z]{2}$|[_-]cto$", re.IGNORECASE)
_LENOVO_FEATURE = re.compile(r"^[0-9A-Z]{4}$")
SERVICE_PART = re.compile(
    r"^(?:CON-\S+|5[WMP]S\d\S*|H[A-Z0-9]{5}\d(?:\s+[A-Z0-9]{3})?|8\d\d-[A-Z0-9]{4}|799-\S+)$",
    re.IGNORECASE,
)
NUMBERING = re.compile(r"^\d{1,4}(?:[.\-]\d{1,3})*$")

# ---------------------------------------------------------------------------------------------
# GPUs as quotes write them. Order matters: the longer, more specific name first.

_GPU_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"rtx\s*pro\s*6000(?:\s+blackwell)?[^,;]*?max[- ]?q", "rtx-pro-6000-maxq"),
    (r"rtx\s*pro\s*6000(?:\s+blackwell)?[^,;]*?server", "rtx-pro-6000-server"),
    (r"rtx\s*pro\s*6000(?:\s+blackwell)?[^,;]*?(?:workstation|\bws\b)", "rtx-pro-6000-ws"),
    (r"rtx\s*pro\s*6000", "rtx-pro-6000"),
    (r"rtx\s*pro\s*5000[^,;]*?laptop", "rtx-pro-5000-laptop"),
    (r"rtx\s*pro\s*5000", "rtx-pro-5000"),
    # laptop GPUs: a line that says "laptop" names the laptop part; one that does not is
    # read as the laptop part when it sits in a laptop (`bom_systems._gpu_spec`)
    (r"rtx\s*pro\s*([1-4]000|500)\b[^,;]*?laptop", r"rtx-pro-\1-laptop"),
    (r"rtx\s*pro\s*([1-4]000|500)\b", r"rtx-pro-\1"),
    (r"rtx\s*5070\s*ti\b[^,;]*?laptop", "rtx-5070-ti-laptop"),
    (r"rtx\s*5070\s*ti\b", "rtx-5070-ti"),
    (r"rtx\s*(50[5-9]0)\b[^,;]*?laptop", r"rtx-\1-laptop"),
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
    (r"\bgb300\b", "gb300"),
    (r"\bgb200\b", "gb200"),
    (r"\bgb10\b", "gb10"),
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
    "rubin",
    "h200",
    "h100",
    "b300",
    "b200",
    "l4",
    "a100",
    "mi3",
)
#: A line naming several GPUs on one carrier: an HGX or SXM board, AMD's 8-GPU OAM universal
#: baseboard ("AMD Instinct MI300X 8-GPU Baseboard", "MI300X Platform", "UBB"). An OAM alone is
#: one module, one GPU, as an SXM5 GPU is.
_BOARD_RE = re.compile(
    r"\bhgx\b|\bsxm\d?\b|baseboard|\bgpu board\b|gpu tray|compute tray|\bubb\b|"
    r"\bmi3\d\dx\s+platform\b",
    re.IGNORECASE,
)
_GPU_NAME = (
    r"(?:nvidia\s+|amd\s+)?(?:hgx\s+|instinct\s+)?(?:rtx\s*pro\s*\d{4}|rtx\s*6000\s*ada|"
    r"gb\d{2,3}|[hb][123]00|l40s|l4|a100|blackwell|hopper|mi3\d\dx)"
)
# A count starts a word: "8x H200", "(8x MI300X)"; the 355 of "MI355X GPU" is a model number.
_COUNT_BEFORE = re.compile(r"\b(\d{1,3})\s*[x×]\s*" + _GPU_NAME, re.IGNORECASE)
_COUNT_GPUS = re.compile(r"\b(\d{1,3})\s*[x×]\s*(?:[\w-]+\s+){0,3}?gpus?\b", re.IGNORECASE)
_COUNT_DASH = re.compile(r"\b(\d{1,3})[- ]gpus?\b", re.IGNORECASE)
_COUNT_AFTER = re.compile(_GPU_NAME + r"[^,;()]{0,30}?\s[x×]\s*(\d{1,3})\b", re.IGNORECASE)
_SUPERCHIP = re.compile(r"(\d{1,3})\s*[x×]\s*(?:nvidia\s+)?gb[23]00[^,;]*?superchip", re.I)
BRIDGE_RE = re.compile(r"\bnvlink\b[^,;]*\bbridge\b|\bbridge\b[^,;]*\bnvlink\b", re.I)
#: NVLink named by its ways without the word bridge: "4-way NVLink", "NVLink 2-way".
NVLINK_WAYS_RE = re.compile(r"\b(\d)[- ]?way\s+nvlink\b|\bnvlink\s+(\d)[- ]?way\b", re.I)
WAYS_RE = re.compile(r"\b(\d)[- ]?way\b|\b(\d)[- ]slot\b", re.IGNORECASE)
_HEAD_SPLIT = re.compile(
    r",|;|:|\(|\s[-–—]\s|\s(?:for|with|w/|incl\.?|including|includes|mit|für|auf|per)\s",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9+]+(?:-[a-z0-9+]+)*")
_AND_SPLIT = re.compile(r"\s(?:and|und|et|&|\+)\s")
ALNUM_RUN = re.compile(r"[0-9a-z]+")
TAX_RE = re.compile(r"\b(?:tax|vat|mwst|gst|hst|ust|tva|iva)\b")
TOTAL_RE = re.compile(r"\btotal\b")
PER_UNIT_RE = re.compile(r"\bper (?:unit|system)\b")
NO_NOTE_RE = re.compile(r"^[^,]*,\s*no\s", re.IGNORECASE)
ADAPTER_RE = re.compile(r"\b(?:power|ac|usb-c)\s+adapter\b", re.IGNORECASE)
SLED_RE = re.compile(r"\b(?:sled|tray)\b", re.IGNORECASE)
_GPU_COUNT_WORD = re.compile(r"\b\d+\s*-?\s*gpus?\b", re.IGNORECASE)


#: Accelerators a line can name that the catalog has no spec for ("Intel Gaudi 3 HL-325L OAM",
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


# ---------------------------------------------------------------------------------------------
# Reading one line.


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
    if superchip and not explicit:
        count = 2 * int(superchip.group(1))  # a GB200 superchip carries two GPUs
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


#: A maker's other name in parentheses right after its name, the head going on after it:
#: "IEIT SYSTEMS (Inspur) NF5688M7 6U HGX AI server", "Quanta Cloud Technology (QCT)
#: QuantaGrid D74H-7U" are headed by what follows, not cut at "(" to the maker's name.
_MAKER_ASIDE = re.compile(
    r"^((?:[A-Za-z][A-Za-z&.]*\s+){0,2}[A-Za-z][A-Za-z&.]*)\s*\([^()\d]{1,30}\)(?=\s+\w)"
)


def head(text: str) -> str:
    """The words before the first separator: "Dell ProDeploy Plus for PowerEdge XE9680" →
    "Dell ProDeploy Plus"."""
    text = _MAKER_ASIDE.sub(r"\1", text.replace("\n", " ").strip())
    parts = _HEAD_SPLIT.split(text, maxsplit=1)
    head = parts[0].strip()
    # "Onsite installation and rack mounting": the first of two coordinated nouns leads, when
    # it names something; "3 Year Parts and Labor Warranty" is named by its last noun.
    first = _AND_SPLIT.split(head, maxsplit=1)[0].strip()
    if first == head or head_category(first):
        head = first
    return head or text


def words_of(text: str) -> list[str]:
    """The words of a text, casefolded, its GPU counts ("8-GPU", "4 GPUs") left out."""
    return _WORD.findall(_GPU_COUNT_WORD.sub(" ", text.casefold()))


def _stem(word: str) -> str:
    """ "idrac9" → "idrac", "connectx-7" → "connectx", "vor-ort-service" → "service"."""
    if "-" in word:
        last = word.rsplit("-", 1)[-1]
        if last.isalpha() and len(last) > 2:
            return last
        word = word.split("-", 1)[0]
    return word.rstrip("0123456789") or word


def head_category(head: str) -> str:
    """What the head names, from its last noun backwards (module doc). Services and
    management controllers anywhere in the head decide first."""
    folded = head.casefold()
    words = [_stem(w) for w in words_of(head)]
    if any(w in _MANAGEMENT_WORDS for w in words):
        return "component"
    if any(p in folded for p in _SERVICE_PHRASES):
        return "service"
    if any(p in folded for p in _CJK_CHASSIS):
        return "chassis"
    if (words and words[0] in FREIGHT_WORDS) or any(w in FREIGHT_WORDS for w in words[-2:]):
        return "freight"
    for position in range(len(words) - 1, -1, -1):
        word = words[position]
        if word == "kit":
            if position and words[position - 1] in ("cable", "cables"):
                return "component"
            continue
        if word in _SERVICE_WORDS:
            return "service"
        if word in _BOARD_WORDS:
            return "board"
        if word in _CARD_WORDS:
            return "card"
        if word in _SYSTEM_WORDS:
            return "system"
        if word in _CHASSIS_WORDS:
            return "chassis"
        if word in _RACK_WORDS:
            return "rack"
        if word in _ACCESSORY_WORDS:
            return "accessory"
        if word in _COMPONENT_WORDS:
            return "component"
    return ""


def text_category(text: str) -> str:
    """A weaker reading for a line whose head names nothing we know: a component or
    accessory noun anywhere ("APC NetShelter SX - rack - 48U")."""
    for word in (_stem(w) for w in words_of(text)):
        if word in _RACK_WORDS or word in _ACCESSORY_WORDS:
            return "accessory"
        if word in _COMPONENT_WORDS or word in ("titanium", "platinum", "hot-plug"):
            return "component"
    return ""
