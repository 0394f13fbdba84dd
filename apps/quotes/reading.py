"""Read a bill of materials the way an account manager does: what each line is, which lines
belong to which system, and what the quote says the systems contain (DESIGN.md "Reading a
quote").

A line's role comes from its structure, never from a word somewhere in its text:

- its **head**: the words before the first comma, dash, colon, parenthesis, "for" or "with"
  ("ProDeploy Plus" in "Dell ProDeploy Plus for PowerEdge XE9680" is a service, whatever server
  it names; "ThinkSystem SR675 V3" in "ThinkSystem SR675 V3 - 3yr Warranty" is the server), read
  from its last noun backwards ("... Rack Server" is a server, "... Integrated Rack" a rack);
- **what it carries**: a GPU model, a count and a board ("8x NVIDIA HGX H200 141GB SXM5",
  "HGX B300 8-GPU board", "NVIDIA L4 x 6"); NVLink bridges are found before GPU cards;
- its **part-number style**: HPE's ``0D1`` factory-integration suffix, Lenovo's ``CTO1WW``
  machine types and ``5WS`` service codes, Cisco's ``CON-`` service SKUs, Dell's ``8xx-`` service
  SKUs;
- its **price**: a negative line is a discount, a line with only an amount is a money line;
- its **position**: item numbers (1, 1.1, 1.0.1, 10/10.1, 1-1), indentation, a configuration
  column, and the system line the block sits under.

Child quantities are per system (Dell's configurator: 2 × XE9680, each with one 8-GPU board)
or order totals (HPE: 16 × H200 NVL for 2 servers). ``_quantities_decide`` reads it per system
from the arithmetic of the quantities and the quote's own banners; when nothing tells, it says
so and picks the reading whose GPUs fit the chassis.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from apps.catalog.snapshot import CatalogSnapshot, GpuSpec, SystemSpec
from apps.quotes.matching import LineMatch, match_index
from apps.quotes.parsing.schemas import ParsedLine, ParsedQuote, SkippedRow
from apps.quotes.schemas import LineCorrection, LineProblem, LineRole, QuotedSystem
from apps.words import VEHICLES

ChildQuantities = Literal["per_system", "totals", "none"]
Decision = Literal["per_system", "totals", "none", "ambiguous"]

#: Power a GPU server draws beside its GPUs when the catalog does not know the chassis: CPUs,
#: memory, NICs, fans (an estimate, marked unverified).
PLATFORM_OVERHEAD_KW = {
    "server": 2.0,
    "workstation": 0.5,
    "laptop": 0.1,
    "phone": 0.01,
    "rack": 20.0,
}
#: How many GPUs one chassis can hold when the catalog does not say.
DEFAULT_MAX_GPUS = 10
#: Forms one person carries: one engine each, never an NVLink neighbour.
PERSONAL_FORMS = ("laptop", "phone")
#: The memory a unified-memory machine is configured with: "48GB unified memory".
_UNIFIED_GB = re.compile(r"\b(\d{1,3})\s*GB\s+(?:of\s+)?unified\b", re.IGNORECASE)

# ---------------------------------------------------------------------------------------------
# Words of a line's head. Each set is a category of head noun; the head is read from its last
# word backwards and the first word in a category decides (see ``_head_category``).

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
_SERVICE_PHRASES = ("keep your", "ai enterprise", "health check", "tech care", "burn-in")
#: Management controllers, OS preloads: part of the system even when called a licence.
_MANAGEMENT_WORDS = frozenset(
    ["ilo", "idrac", "xclarity", "bmc", "windows", "ubuntu", "linux", "rhel"]
)
_FREIGHT_WORDS = frozenset(
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
_NOTE_HEADS = ("no ", "factory integrated")
#: A label row that gives the number of systems a per-system configuration is for.
_MULTIPLIER_RE = re.compile(
    r"^(?:configuration quantity|number of (?:systems|servers|units)|system quantity|"
    r"quantity of systems|anzahl (?:systeme|server))\b",
    re.IGNORECASE,
)
_PER_SYSTEM_RE = re.compile(
    r"\bper (?:system|server|unit|node|workstation)\b|\bfor one (?:server|system|unit)\b|"
    r"\bje (?:system|server|einheit)\b|\bpro (?:system|server)\b|\beach (?:system|server)\b",
    re.IGNORECASE,
)
_LIQUID_RE = re.compile(
    r"\bliquid[- ]cooled\b|\bliquid cooling\b|\bdirect liquid\b|\bdlc\b|\bneptune\b|"
    r"\bwater[- ]cool|\bdirect water\b|\bdwc\b|\bcold plates?\b|\bliquid\b",
    re.IGNORECASE,
)
_AIR_RE = re.compile(r"\bair[- ]cooled\b|\bluftgek[uü]hlt\b", re.IGNORECASE)

# Part-number styles.
_HPE_OPTION_SUFFIX = re.compile(r"^\S+\s+0D1$", re.IGNORECASE)
_LENOVO_CTO = re.compile(r"^[0-9A-Z]{4}CTO\d[A-Z]{2}$|[_-]cto$", re.IGNORECASE)
_LENOVO_FEATURE = re.compile(r"^[0-9A-Z]{4}$")
_SERVICE_PART = re.compile(
    r"^(?:CON-\S+|5[WMP]S\d\S*|H[A-Z0-9]{5}\d(?:\s+[A-Z0-9]{3})?|8\d\d-[A-Z0-9]{4}|799-\S+)$",
    re.IGNORECASE,
)
_NUMBERING = re.compile(r"^\d{1,4}(?:[.\-]\d{1,3})*$")

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
    # read as the laptop part when it sits in a laptop (`_gpu_spec`)
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
)
_BOARD_RE = re.compile(
    r"\bhgx\b|\bsxm\d?\b|baseboard|\bgpu board\b|gpu tray|compute tray", re.IGNORECASE
)
_GPU_NAME = (
    r"(?:nvidia\s+)?(?:hgx\s+)?(?:rtx\s*pro\s*\d{4}|rtx\s*6000\s*ada|gb\d{2,3}|[hb][123]00|"
    r"l40s|l4|a100|blackwell|hopper)"
)
_COUNT_BEFORE = re.compile(r"(\d{1,3})\s*[x×]\s*" + _GPU_NAME, re.IGNORECASE)
_COUNT_GPUS = re.compile(r"(\d{1,3})\s*[x×]\s*(?:[\w-]+\s+){0,3}?gpus?\b", re.IGNORECASE)
_COUNT_DASH = re.compile(r"\b(\d{1,3})[- ]gpus?\b", re.IGNORECASE)
_COUNT_AFTER = re.compile(_GPU_NAME + r"[^,;()]{0,30}?\s[x×]\s*(\d{1,3})\b", re.IGNORECASE)
_SUPERCHIP = re.compile(r"(\d{1,3})\s*[x×]\s*(?:nvidia\s+)?gb[23]00[^,;]*?superchip", re.I)
_BRIDGE_RE = re.compile(r"\bnvlink\b[^,;]*\bbridge\b|\bbridge\b[^,;]*\bnvlink\b", re.I)
_WAYS_RE = re.compile(r"\b(\d)[- ]?way\b|\b(\d)[- ]slot\b", re.IGNORECASE)
_HEAD_SPLIT = re.compile(
    r",|;|:|\(|\s[-–—]\s|\s(?:for|with|w/|incl\.?|including|includes|mit|für|auf|per)\s",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9+]+(?:-[a-z0-9+]+)*")
_AND_SPLIT = re.compile(r"\s(?:and|und|et|&|\+)\s")
_ALNUM_RUN = re.compile(r"[0-9a-z]+")
_TAX_RE = re.compile(r"\b(?:tax|vat|mwst|gst|hst|ust|tva|iva)\b")
_TOTAL_RE = re.compile(r"\btotal\b")
_PER_UNIT_RE = re.compile(r"\bper (?:unit|system)\b")
_NO_NOTE_RE = re.compile(r"^[^,]*,\s*no\s", re.IGNORECASE)
_ADAPTER_RE = re.compile(r"\b(?:power|ac|usb-c)\s+adapter\b", re.IGNORECASE)
_SLED_RE = re.compile(r"\b(?:sled|tray)\b", re.IGNORECASE)
_GPU_COUNT_WORD = re.compile(r"\b\d+\s*-?\s*gpus?\b", re.IGNORECASE)


@dataclass
class GpuMention:
    """A GPU a line names: which, how many (None when the line gives no count), on a board."""

    key: str
    count: int | None = None
    board: bool = False


@dataclass
class Row:
    """One data row of the quote as the reader sees it."""

    index: int  # position among all data rows (0-based)
    source_row: int
    line: int | None  # 1-based quote line number; None for a skipped row (banner, total)
    text: str
    part_number: str = ""
    quantity: int | None = None
    unit_price: Decimal | None = None
    extended_price: Decimal | None = None
    indent: int = 0
    number: str = ""
    group: str = ""
    skipped_kind: str = ""
    role: LineRole = "unknown"
    guessed: bool = False  # the role is a default, nothing in the line said it
    parent: int | None = None  # index of the parent row
    gpu: GpuMention | None = None
    bridge_ways: int | None = None
    head_category: str = ""
    corrected: bool = False
    spec_key: str | None = None  # the catalog system a confirmed or exact match names

    @property
    def priced(self) -> bool:
        return any(v is not None and v != 0 for v in (self.unit_price, self.extended_price))


@dataclass
class SystemReading:
    """One system line and what the quote says it contains."""

    row: Row
    quantity: int
    child_quantities: ChildQuantities
    decided_by: str
    spec: SystemSpec | None
    gpu: GpuSpec | None
    gpus_per_system: int
    nvlink_domain_gpus: int
    cooling: str
    lines: list[int]
    members: list[Row] = field(default_factory=list)


@dataclass
class BomReading:
    """How the quote was read: every row's role, the systems and the problems found."""

    rows: list[Row]
    systems: list[QuotedSystem]
    readings: list[SystemReading]
    child_quantities: ChildQuantities
    problems: list[LineProblem]
    text: str
    confidence: Literal["high", "medium", "low"]

    def role_of_line(self, line: int) -> LineRole:
        for row in self.rows:
            if row.line == line:
                return row.role
        return "unknown"


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


def _head(text: str) -> str:
    """The words before the first separator: "Dell ProDeploy Plus for PowerEdge XE9680" →
    "Dell ProDeploy Plus"."""
    text = text.replace("\n", " ").strip()
    parts = _HEAD_SPLIT.split(text, maxsplit=1)
    head = parts[0].strip()
    # "Onsite installation and rack mounting": the first of two coordinated nouns leads.
    head = _AND_SPLIT.split(head, maxsplit=1)[0].strip()
    return head or text


def _words(text: str) -> list[str]:
    return _WORD.findall(_GPU_COUNT_WORD.sub(" ", text.casefold()))


def _stem(word: str) -> str:
    """ "idrac9" → "idrac", "connectx-7" → "connectx", "vor-ort-service" → "service"."""
    if "-" in word:
        last = word.rsplit("-", 1)[-1]
        if last.isalpha() and len(last) > 2:
            return last
        word = word.split("-", 1)[0]
    return word.rstrip("0123456789") or word


def _head_category(head: str) -> str:
    """What the head names, from its last noun backwards (module doc). Services and
    management controllers anywhere in the head decide first."""
    folded = head.casefold()
    words = [_stem(w) for w in _words(head)]
    if any(w in _MANAGEMENT_WORDS for w in words):
        return "component"
    if any(p in folded for p in _SERVICE_PHRASES):
        return "service"
    if (words and words[0] in _FREIGHT_WORDS) or any(w in _FREIGHT_WORDS for w in words[-2:]):
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


def _text_category(text: str) -> str:
    """A weaker reading for a line whose head names nothing we know: a component or
    accessory noun anywhere ("APC NetShelter SX - rack - 48U")."""
    for word in (_stem(w) for w in _words(text)):
        if word in _RACK_WORDS or word in _ACCESSORY_WORDS:
            return "accessory"
        if word in _COMPONENT_WORDS or word in ("titanium", "platinum", "hot-plug"):
            return "component"
    return ""


class _Families:
    """The catalog's systems and chassis families by the names quotes use for them."""

    def __init__(self, catalog: CatalogSnapshot) -> None:
        index = match_index(catalog)
        self.catalog = catalog
        self.phrases = [
            (phrase, part.system)
            for phrase, part in index.phrases
            if part.kind in ("system", "chassis")
            and part.system in catalog.system_by_key
            and len(phrase) >= 4
        ]
        #: first word of a phrase -> the positions of the phrases starting with it
        self.by_first_word: dict[str, list[int]] = {}
        for position, (phrase, _key) in enumerate(self.phrases):
            self.by_first_word.setdefault(phrase.split(" ", 1)[0], []).append(position)
        self._found: dict[str, SystemSpec | None] = {}
        #: A long quote repeats its heads ("ProSupport Plus 3yr next business day" on 2,500
        #: lines): each text is read once per quote (pure functions of the text).
        self._heads: dict[str, str] = {}
        self._categories: dict[str, str] = {}
        self._gpus: dict[str, tuple[str, int | None, bool] | None] = {}
        #: `_first_pass` of each kind of line read so far (see there).
        self.first_passes: dict[
            tuple[str, str, bool, bool, bool, bool],
            tuple[LineRole, str, tuple[str, int | None, bool] | None, int | None, bool],
        ] = {}

    def head(self, text: str) -> str:
        """``_head(text)``, once per text."""
        head = self._heads.get(text)
        if head is None:
            head = self._heads[text] = _head(text)
        return head

    def head_category(self, head: str) -> str:
        """``_head_category(head)``, once per head."""
        category = self._categories.get(head)
        if category is None:
            category = self._categories[head] = _head_category(head)
        return category

    def gpu(self, text: str) -> GpuMention | None:
        """``gpu_mention(text)``, read once per text; a new mention each call (rows change
        theirs)."""
        if text in self._gpus:
            known = self._gpus[text]
        else:
            found = gpu_mention(text)
            known = self._gpus[text] = (
                (found.key, found.count, found.board) if found is not None else None
            )
        return None if known is None else GpuMention(key=known[0], count=known[1], board=known[2])

    def lines_read_ahead(self, lines: Sequence[ParsedLine]) -> None:
        """Read the texts of lines ahead of ``bom_read`` (their heads, the heads' categories,
        the GPUs they name): a workbook's batches arrive while the sandbox child reads on,
        and what is read then is not read again once the last batch is in."""
        for line in lines:
            _first_pass(_line_row(line, index=0, line=1, number="", group=""), self)

    def find(self, text: str) -> SystemSpec | None:
        """The family of the longest phrase inside the text, as whole words (the first of
        equally long ones). A phrase inside the text starts with one of its words, so only
        those phrases are tried, longest first as `phrases` is sorted; a text read before
        (a system's head, then the system in its reading) is answered from `_found`."""
        if text in self._found:
            return self._found[text]
        found = _ALNUM_RUN.findall(text.casefold())
        words = " " + " ".join(found) + " "
        tried = sorted({i for word in set(found) for i in self.by_first_word.get(word, ())})
        spec = None
        for position in tried:
            phrase, key = self.phrases[position]
            if f" {phrase} " in words:
                spec = self.catalog.system_by_key.get(key or "")
                break
        self._found[text] = spec
        return spec


#: One quote's texts as the reading reads them, for ``bom_read`` (``bom_texts``).
BomTexts = _Families


def bom_texts(catalog: CatalogSnapshot) -> BomTexts:
    """An empty reading of one quote's texts under ``catalog``: give it each batch of lines
    as it arrives (``lines_read_ahead``), then to ``bom_read`` with the quote; pure, so a
    text read ahead reads as it would have then."""
    return _Families(catalog)


# ---------------------------------------------------------------------------------------------
# The quote as rows.


def _rows_from(parsed: ParsedQuote) -> list[Row]:
    items: list[tuple[int, ParsedLine | SkippedRow, int | None]] = [
        (line.source_row, line, n) for n, line in enumerate(parsed.lines, 1)
    ]
    items += [(s.source_row, s, None) for s in parsed.skipped]
    items.sort(key=lambda item: item[0])
    number_col, group_col = _structure_columns(parsed)
    rows: list[Row] = []
    for index, (source_row, item, line) in enumerate(items):
        if isinstance(item, SkippedRow):
            if item.kind == "after_footer" and parsed.detected_type == "pdf":
                continue
            rows.append(
                Row(
                    index=len(rows),
                    source_row=source_row,
                    line=None,
                    text=item.text,
                    extended_price=item.amount,
                    skipped_kind=item.kind,
                )
            )
            continue
        cells = item.raw_cells
        rows.append(
            _line_row(
                item,
                index=len(rows),
                line=line,
                number=cells[number_col].strip()
                if number_col is not None and number_col < len(cells)
                else "",
                group=cells[group_col].strip()
                if group_col is not None and group_col < len(cells)
                else "",
            )
        )
        del index
    return rows


def _line_row(item: ParsedLine, *, index: int, line: int | None, number: str, group: str) -> Row:
    """The row of a quote line, before any pass has read it."""
    return Row(
        index=index,
        source_row=item.source_row,
        line=line,
        text=_line_text(item),
        part_number=item.part_number if item.description else "",
        quantity=item.quantity,
        unit_price=item.unit_price,
        extended_price=item.extended_price,
        indent=item.indent,
        number=number,
        group=group,
    )


def _line_text(line: ParsedLine) -> str:
    """What a line's row reads: its description (its part number when it has none, both
    when the part number is a long configuration string), on one line."""
    text = line.description or line.part_number
    if line.description and line.part_number and len(line.part_number) > 40:
        text = f"{line.part_number} {line.description}"
    return text.replace("\n", " ")


def _structure_columns(parsed: ParsedQuote) -> tuple[int | None, int | None]:
    """The item-number column (1, 1.1, 0001, 10.1, 1-1) and the configuration-name column,
    by their values: columns the parser did not map."""
    header = parsed.header_cells
    mapped = {h for h in parsed.column_map.values()}
    width = max((len(line.raw_cells) for line in parsed.lines), default=0)
    number_col = group_col = None
    for col in range(width):
        name = header[col] if col < len(header) else ""
        if name and name in mapped:
            continue
        values = [
            line.raw_cells[col].strip()
            for line in parsed.lines
            if col < len(line.raw_cells) and line.raw_cells[col].strip()
        ]
        if not values:
            continue
        numbered = sum(1 for v in values if _NUMBERING.match(v))
        folded = re.sub(r"[^a-z]", "", name.casefold())
        if number_col is None and numbered == len(values) and len(values) >= 2:
            # Only numbering with levels (1.1, 10.1, 1-2) says how lines nest; a plain
            # counter (1, 2, 3 or 0001) does not.
            if any(not v.isdigit() for v in values):
                number_col = col
            continue
        if group_col is None and folded in ("configname", "config", "configuration", "group"):
            group_col = col
    return number_col, group_col


# ---------------------------------------------------------------------------------------------
# Roles.


def _money_role(row: Row) -> LineRole:
    kind = {"subtotal": "subtotal", "tax": "tax", "total": "total", "charges": "freight"}
    if row.skipped_kind in kind:
        return kind[row.skipped_kind]  # type: ignore[return-value]
    folded = row.text.casefold()
    if _TAX_RE.search(folded):
        return "tax"
    if any(w in _FREIGHT_WORDS for w in _words(folded)):
        return "freight"
    if _TOTAL_RE.search(folded) and not _PER_UNIT_RE.search(folded):
        return "total"
    return "subtotal"


def _match_pass(row: Row, match: LineMatch | None) -> None:
    """What the catalog says about a line the structure left open: an exact part number or a
    mapping the user confirmed for this vendor ("GPU-ACCEL-48" is the L40S). A confirmed
    mapping decides; an exact or alias match only fills a guess."""
    if match is None or match.part is None or match.match in ("none", "ambiguous", "fuzzy"):
        return
    confirmed = match.reason == "confirmed for this vendor"
    part = match.part
    if part.kind in ("system", "chassis") and part.system:
        row.spec_key = part.system
    if not (confirmed or row.guessed):
        if part.kind == "gpu_card" and part.gpu and row.role == "gpu_card" and row.gpu is None:
            row.gpu = GpuMention(key=part.gpu)
        return
    if part.kind == "gpu_card" and part.gpu:
        row.role = "gpu_card"
        row.gpu = GpuMention(key=part.gpu, count=row.gpu.count if row.gpu else None)
    elif part.kind == "bridge" and part.bridge_gpus:
        row.role, row.bridge_ways = "nvlink_bridge", part.bridge_gpus
    elif part.kind == "system":
        row.role = "system"
    elif part.kind == "chassis":
        row.role = "chassis"
    else:
        return
    row.guessed = False


def _first_pass(row: Row, families: _Families) -> None:
    """The role a line has on its own (before its position is known)."""
    if row.line is None:
        if row.skipped_kind == "heading":
            gpu = gpu_mention(row.text)
            category = _head_category(row.text.split(":", 1)[-1]) if ":" in row.text else ""
            label = row.text.split(":", 1)[0].casefold() if ":" in row.text else ""
            if gpu is not None and gpu.count:
                row.role, row.gpu = ("gpu_board" if gpu.board else "gpu_card"), gpu
            elif (
                ":" in row.text and label and len(label) < 30 and row.text.split(":", 1)[1].strip()
            ):
                row.role = (
                    "service" if category == "service" or "warrant" in label else ("component")
                )
                row.head_category = "spec"
            else:
                row.role = "note"
        else:
            row.role = _money_role(row) if row.skipped_kind != "after_footer" else "note"
        return
    # A line's first pass reads only its text, part number and which amounts it has (and
    # its item number, for freight: not kept): once per such line and quote, the lines read
    # ahead included (`_Families.lines_read_ahead`).
    amount = row.extended_price if row.extended_price is not None else row.unit_price
    key = (
        row.text,
        row.part_number,
        amount is None,
        amount is not None and amount < 0,
        row.quantity is None,
        row.unit_price is None,
    )
    known = families.first_passes.get(key)
    if known is not None:
        row.role, row.head_category, said, row.bridge_ways, row.guessed = known
        row.gpu = None if said is None else GpuMention(key=said[0], count=said[1], board=said[2])
        return
    _line_first_pass(row, families)
    if row.head_category != "freight":
        mention = None if row.gpu is None else (row.gpu.key, row.gpu.count, row.gpu.board)
        families.first_passes[key] = (
            row.role,
            row.head_category,
            mention,
            row.bridge_ways,
            row.guessed,
        )


def _line_first_pass(row: Row, families: _Families) -> None:
    """`_first_pass` of a quote line (a row with a line number)."""
    text = row.text
    pn = row.part_number
    amount = row.extended_price if row.extended_price is not None else row.unit_price
    if amount is not None and amount < 0:
        row.role = "discount"
        return
    if not pn and row.quantity is None and row.unit_price is None:
        row.role = _money_role(row) if amount is not None else "note"
        return
    if _MULTIPLIER_RE.match(text) and not pn and row.unit_price is None:
        row.role = "note"
        row.head_category = "multiplier"
        return
    if (pn and _HPE_OPTION_SUFFIX.match(pn)) or text.casefold().startswith(_NOTE_HEADS):
        row.role = "note"
        return
    if _NO_NOTE_RE.match(text):
        row.role = "note"
        return
    head = families.head(text)
    category = families.head_category(head)
    row.head_category = category
    if _SERVICE_PART.match(pn) and category not in ("component",):
        row.role = "service"
        return
    if category == "service":
        row.role = "service"
        return
    if category == "freight" and not row.number.count("."):
        row.role = "freight"
        return
    if _BRIDGE_RE.search(text):
        row.role = "nvlink_bridge"
        ways = _WAYS_RE.search(text)
        row.bridge_ways = int(ways.group(1) or ways.group(2)) if ways else 2
        return
    gpu = families.gpu(text)
    head_gpu = families.gpu(head)
    if _ADAPTER_RE.search(head):
        row.role, row.head_category = "accessory", "peripheral"
        return
    if category == "accessory" or (category == "rack" and gpu is None):
        row.role = "accessory"
        return
    if (pn and _LENOVO_CTO.search(pn)) or category in ("system", "rack"):
        row.role = "system"
        row.gpu = gpu
        return
    if category == "board" and gpu is not None:
        if gpu.count is None and _SLED_RE.search(head):
            row.role, row.head_category = "chassis", "chassis"  # the carrier, not the GPUs
            return
        row.role, row.gpu = "gpu_board", gpu
        gpu.board = True
        return
    if category == "card" and gpu is not None:
        row.role, row.gpu = "gpu_card", gpu
        return
    if category == "chassis":
        row.role = "chassis"
        row.gpu = gpu
        return
    if category == "component":
        row.role = "component"
        return
    if head_gpu is not None:
        row.role = "gpu_board" if head_gpu.board else "gpu_card"
        row.gpu = gpu or head_gpu
        return
    if families.find(head) is not None:
        row.role = "system"
        row.gpu = gpu
        return
    if gpu is not None and gpu.count:
        row.role = "system"
        row.gpu = gpu
        return
    weak = _text_category(text)
    row.role = "component" if weak == "component" else "accessory"
    row.guessed = not weak


def _nest(rows: list[Row]) -> None:
    """Parent lines from numbering, indentation, configuration groups and blocks: a system's
    block runs from its line to the next system or top-level line that is not a part."""
    by_number: dict[str, int] = {}
    current_system: int | None = None
    current_top: int | None = None
    for row in rows:
        if (
            row.role in ("subtotal", "total", "tax")
            or row.head_category == "multiplier"
            or (row.line is None and row.role == "freight")
        ):
            current_system = None  # the totals block ends the configuration
            continue
        number = row.number
        parent: int | None = None
        if number:
            by_number.setdefault(number, row.index)
            parent_number = _parent_number(number, by_number)
            top = parent_number is None
            if not top and parent_number is not None:
                parent = by_number[parent_number]
        else:
            top = row.indent == 0 and row.line is not None and row.role == "system"
        if (
            row.role == "chassis"
            and parent is None
            and row.indent == 0
            and row.line is not None
            and (
                current_system is None
                or any(
                    r.parent == current_system and r.role not in ("note", "chassis")
                    for r in rows[current_system : row.index]
                )
            )
        ):
            row.role = "system"  # a second barebone after a finished block starts a system
        if row.role == "system" and (top or parent is None) and row.indent == 0:
            current_system = row.index
            current_top = row.index
            row.parent = None
            continue
        if parent is None and row.indent > 0 and current_top is not None:
            parent = current_top
        if (
            parent is None
            and row.group
            and current_system is not None
            and rows[current_system].group == row.group
        ):
            parent = current_system
        # A numbered top-level line is its own item and ends the system block, unless it is
        # a part of the system in a totals layout without sub-numbers.
        if (
            parent is None
            and number
            and top
            and (
                row.role in ("service", "accessory", "discount", "freight", "system")
                or (
                    current_system is not None
                    and rows[current_system].number.count(".") == 0
                    and "." in "".join(r.number for r in rows)
                )
            )
        ):
            current_top = row.index
            if row.role != "note":
                current_system = None if row.role != "system" else row.index
            row.parent = None
            continue
        if parent is None and current_system is not None:
            system = rows[current_system]
            if row.group and system.group and row.group != system.group:
                current_system = None
            elif row.role in (
                "gpu_board",
                "gpu_card",
                "nvlink_bridge",
                "chassis",
                "component",
                "note",
            ) or (
                row.role == "accessory" and row.line is not None and (not row.priced or row.guessed)
            ):
                parent = current_system
        row.parent = parent
        if row.role == "system" and row.parent is None:
            current_system = row.index


def _parent_number(number: str, seen: Mapping[str, int]) -> str | None:
    """ "1.1" → "1" (or "1.0"), "1.0.3" → "1.0", "10.1" → "10", "1-2" → "1"; None at the top."""
    separator = "." if "." in number else "-" if "-" in number else ""
    if not separator:
        return None
    parts = number.split(separator)
    while len(parts) > 1:
        parts = parts[:-1]
        candidate = separator.join(parts)
        if candidate in seen:
            return candidate
        if candidate + ".0" in seen and seen[candidate + ".0"] != seen.get(number):
            return candidate + ".0"
    return None


def _refine(rows: list[Row], families: _Families) -> None:
    """Roles that depend on position: a barebone under a system is its chassis, a system
    line nested under another is a part of it, an adapter beside the systems an accessory."""
    for row in rows:
        if row.line is None:
            continue
        parent = rows[row.parent] if row.parent is not None else None
        if row.role == "system" and parent is not None and parent.role == "system":
            row.role = (
                "chassis"
                if row.gpu is None or not row.gpu.count
                else ("gpu_board" if row.gpu.board else "gpu_card")
            )
        elif row.role == "chassis" and parent is None:
            row.role = "system"
        elif (
            row.role == "component"
            and parent is None
            and row.head_category
            in (
                "component",
                "",
            )
        ):
            row.role = "accessory" if not row.guessed else row.role
        elif row.role == "accessory" and parent is not None and parent.role == "system":
            if row.head_category in ("", "rack", "peripheral") or row.guessed:
                row.role = "component"
                # Included in the system's price or numbered under it: a part of it. A
                # separately priced line we could not name stays a guess to confirm.
                if not row.priced or row.number or row.indent:
                    row.guessed = False
        elif (
            row.role in ("gpu_card", "gpu_board")
            and parent is None
            and families.find(families.head(row.text)) is not None
            and row.head_category not in ("card", "board")
        ):
            # A top-level line with a GPU and a system name the catalog knows is the system.
            row.role = "system"


# ---------------------------------------------------------------------------------------------
# Systems.


@dataclass(frozen=True)
class _QuoteFacts:
    """What every system's reading asks of the whole quote, found once per quote rather than
    once per system: a 10,000-line quote holds 1,240 systems, and asking each time made the
    reading quadratic (7 s of the 10,000-line intake, bench/README.md)."""

    children: dict[int, list[int]]  # row index -> the indexes of the rows nested under it
    per_system_note: bool  # a note or subtotal line says its sub-lines are per system
    multiplier: bool  # a row gives the number of systems separately
    multipliers: list[int]

    @classmethod
    def of(cls, rows: list[Row]) -> _QuoteFacts:
        children: dict[int, list[int]] = {}
        for row in rows:
            if row.parent is not None:
                children.setdefault(row.parent, []).append(row.index)
        notes = [r.text for r in rows if r.role in ("subtotal", "note") and r.line is not None]
        multipliers = [r for r in rows if r.head_category == "multiplier"]
        return cls(
            children=children,
            per_system_note=any(_PER_SYSTEM_RE.search(t) for t in notes),
            multiplier=bool(multipliers),
            multipliers=[r.quantity for r in multipliers if r.quantity is not None],
        )


def _members(rows: list[Row], system: Row, facts: _QuoteFacts | None = None) -> list[Row]:
    """Every row nested under `system`, at any depth, in quote order."""
    children = (facts or _QuoteFacts.of(rows)).children
    found: list[int] = []
    stack = list(children.get(system.index, ()))
    seen = {system.index}
    while stack:
        index = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        found.append(index)
        stack.extend(children.get(index, ()))
    return [rows[i] for i in sorted(found)]


def _quantities_decide(
    system: Row,
    members: list[Row],
    rows: list[Row],
    quantity: int,
    max_gpus: int,
    gpus_by_reading: Mapping[str, int],
    facts: _QuoteFacts | None = None,
) -> tuple[Decision, str]:
    """Per system or totals, and why (module doc); "ambiguous" when nothing tells."""
    parts = [
        m
        for m in members
        if m.line is not None
        and m.quantity is not None
        and m.role in ("gpu_board", "gpu_card", "nvlink_bridge", "chassis", "component")
    ]
    if not parts:
        return ("none" if not members else "per_system"), "no sub-line quantities"
    if quantity <= 1:
        return "per_system", "one system: per system and totals agree"
    facts = facts or _QuoteFacts.of(rows)
    block = rows[system.index + 1 : max(m.index for m in members) + 1]  # rows[i].index == i
    notes = [r.text for r in block if r.role == "note" or r.line is None]
    if facts.per_system_note or any(_PER_SYSTEM_RE.search(t) for t in notes):
        return "per_system", "the quote says its sub-lines are per system"
    if facts.multiplier:
        return "per_system", "the quote gives the number of systems separately"
    odd = [m for m in parts if m.quantity and m.quantity % quantity]
    if odd:
        return "per_system", (
            f"line {odd[0].line} has {odd[0].quantity}, which does not divide over "
            f"{quantity} systems"
        )
    boards = [m for m in parts if m.role == "gpu_board"]
    if any(m.quantity == quantity for m in boards):
        return "totals", f"one GPU board per system: {quantity} boards for {quantity} systems"
    per_system_gpus = gpus_by_reading.get("per_system", 0)
    if per_system_gpus > max_gpus:
        return "totals", (
            f"{per_system_gpus} GPUs per system would not fit a chassis that takes {max_gpus}"
        )
    if any(m.quantity == quantity for m in parts):
        return "totals", f"one-per-system parts are quoted {quantity} times"
    priced = [m for m in parts if m.priced]
    if priced and system.priced and len(priced) >= len(parts) / 2:
        return "totals", "every part is priced on its own line (itemized totals layout)"
    return "ambiguous", ""


def _system_quantity(system: Row, rows: list[Row], facts: _QuoteFacts | None = None) -> int:
    quantity = system.quantity if system.quantity is not None else 0
    multipliers = (facts or _QuoteFacts.of(rows)).multipliers
    if multipliers and quantity <= 1:
        return multipliers[0]
    return quantity


def _gpu_spec(key: str, catalog: CatalogSnapshot, form: str) -> GpuSpec | None:
    if key == "rtx-pro-6000":
        key = "rtx-pro-6000-server" if form == "server" else "rtx-pro-6000-ws"
    if form == "laptop" and not key.endswith("-laptop") and f"{key}-laptop" in catalog.gpu_by_key:
        key = f"{key}-laptop"  # "RTX PRO 5000 Blackwell" in a laptop is the laptop GPU
    return catalog.gpu_by_key.get(key)


def _system_form(system: Row, spec: SystemSpec | None) -> str:
    if spec is not None:
        if spec.form_factor in ("workstation", "desktop"):
            return "workstation"
        if spec.form_factor in ("laptop", "phone"):
            return spec.form_factor
        if spec.form_factor == "rack_nvl72":
            return "rack"
        return "server"
    words = set(_words(system.text))
    if words & {"workstation", "workstations"}:
        return "workstation"
    if words & {"laptop", "notebook", "macbook"}:
        return "laptop"
    if words & {"phone", "smartphone", "iphone"}:
        return "phone"
    if "nvl72" in words or "rack-scale" in system.text.casefold():
        return "rack"
    return "server"


def _read_system(
    system: Row,
    rows: list[Row],
    catalog: CatalogSnapshot,
    families: _Families,
    facts: _QuoteFacts | None = None,
) -> tuple[SystemReading, list[LineProblem]]:
    problems: list[LineProblem] = []
    facts = facts or _QuoteFacts.of(rows)
    members = _members(rows, system, facts)
    spec = (
        catalog.system_by_key.get(system.spec_key or "")
        or families.find(system.text)
        or families.find(system.part_number)
    )
    if spec is None:
        for m in members:
            if m.role == "chassis":
                spec = families.find(m.text)
                if spec:
                    break
    form = _system_form(system, spec)
    quantity = _system_quantity(system, rows, facts)
    max_gpus = (
        (spec.gpu_slots or spec.gpu_count or DEFAULT_MAX_GPUS)
        if spec
        else (DEFAULT_MAX_GPUS if form != "rack" else 72)
    )
    boards = [m for m in members if m.role == "gpu_board" and m.gpu]
    cards = [m for m in members if m.role == "gpu_card" and m.gpu]
    bridges = [m for m in members if m.role == "nvlink_bridge"]

    def gpus_for(reading: str) -> int:
        total = 0
        for m in boards:
            per_board = m.gpu.count if m.gpu and m.gpu.count else 8
            count = m.quantity if m.quantity is not None else 1
            if m.line is None:
                count = 1
            total += per_board * (count if reading == "per_system" else count // max(quantity, 1))
        for m in cards:
            if m.line is None:
                total += m.gpu.count if m.gpu and m.gpu.count else 1
                continue
            count = m.quantity if m.quantity is not None else 1
            total += count if reading == "per_system" else count // max(quantity, 1)
        return total

    readings = {"per_system": gpus_for("per_system"), "totals": gpus_for("totals")}
    decision, why = _quantities_decide(system, members, rows, quantity, max_gpus, readings, facts)
    child: ChildQuantities
    if decision == "ambiguous":
        fits = [r for r in ("totals", "per_system") if 0 < readings[r] <= max_gpus]
        child = "per_system" if fits and fits[0] == "per_system" else "totals"
        why = "the quote does not say"
        problems.append(
            LineProblem(
                severity="warning",
                title=f"Line {system.line}: per-system or order totals cannot be told",
                detail=f"The sub-lines of line {system.line} ({quantity} systems) could be per "
                f"system ({readings['per_system']} GPUs each) or order totals "
                f"({readings['totals']} GPUs each). Read as "
                f"{'order totals' if child == 'totals' else 'per system'}, "
                f"{readings[child]} GPUs per system, the reading that fits the chassis.",
                metrics={
                    "line": system.line,
                    "systems": quantity,
                    "per_system_gpus": readings["per_system"],
                    "totals_gpus": readings["totals"],
                    "reading": child,
                },
                lever="Ask the vendor whether the sub-line quantities are per server.",
            )
        )
    else:
        child = decision
    gpu_key: str | None = None
    gpus = 0
    domain = 1
    if boards or cards:
        first = (boards or cards)[0]
        gpu_key = first.gpu.key if first.gpu else None
        gpus = readings[child] if child != "none" else readings["per_system"]
        if boards:
            domain = max((m.gpu.count if m.gpu and m.gpu.count else 8) for m in boards)
    elif system.gpu is not None:
        gpu_key = system.gpu.key
        gpus = system.gpu.count or (spec.gpu_count if spec and spec.gpu == gpu_key else 0)
        if not gpus and spec is not None and spec.gpu_count:
            gpus = spec.gpu_count
        if not gpus and ((spec is not None and spec.max_gpus == 1) or form in PERSONAL_FORMS):
            # a configured laptop (or a one-GPU system) carries the one GPU its line names:
            # "Dell Pro Max 16 Plus ..., NVIDIA RTX PRO 5000 Blackwell 24GB laptop GPU"
            gpus = 1
        if system.gpu.board or (spec is not None and spec.nvlink_domain_gpus > 1):
            domain = spec.nvlink_domain_gpus if spec and spec.nvlink_domain_gpus > 1 else gpus
    elif spec is not None and spec.gpu:
        gpu_key, gpus, domain = spec.gpu, spec.gpu_count, spec.nvlink_domain_gpus
    elif spec is not None and spec.gpu_kind == "fixed" and spec.supported_gpus:
        # A fixed configuration the quote does not spell out: the family's own GPUs.
        fixed = gpu_mention(spec.supported_gpus[0].lstrip("~"))
        if fixed is not None:
            gpu_key = fixed.key
            gpus = spec.max_gpus or 1
            domain = spec.nvlink_domain_gpus
    gpu = _gpu_spec(gpu_key, catalog, form) if gpu_key else None
    if gpu_key and gpu is None:
        problems.append(
            LineProblem(
                severity="warning",
                title=f"Line {system.line}: GPU not in the catalog",
                detail=f"Line {system.line} carries {gpu_key} GPUs, which the catalog does not "
                "know; the review cannot size them.",
                metrics={"line": system.line, "gpu": gpu_key},
                lever="Confirm which GPU the line carries.",
            )
        )
        gpus = 0
    if gpu is not None:
        if gpu.interconnect == "nvlink_bridge":
            domain = 1
            if bridges and gpus > 1:
                ways = max(b.bridge_ways or 2 for b in bridges)
                count = sum(b.quantity or 0 for b in bridges)
                per = count if child == "per_system" else count // max(quantity, 1)
                if per > 0:
                    domain = min(ways, gpu.nvlink_domain_gpus, gpus)
        elif gpu.interconnect == "pcie":
            domain = 1
        elif gpu.interconnect in ("nvlink_switch", "nvlink_c2c"):
            if spec is not None and spec.gpu == gpu.key and spec.nvlink_domain_gpus > 1:
                domain = spec.nvlink_domain_gpus
            elif form == "rack":
                domain = max(gpus, gpu.nvlink_domain_gpus)
            elif domain <= 1:
                domain = min(gpus, max(gpu.nvlink_domain_gpus, 1)) if gpus else 1
            if gpu.form_factor in ("desktop", "workstation", "laptop"):
                domain = 1
        domain = max(1, min(domain, gpus)) if gpus else 1
    texts = " ".join([system.text, *(m.text for m in members)])
    if (_LIQUID_RE.search(texts) and not _AIR_RE.search(system.text)) or (
        spec is not None and spec.cooling == "liquid"
    ):
        cooling = "liquid"
    else:
        cooling = "air"
    lines = sorted(
        {system.line or 0}
        | {
            m.line
            for m in members
            if m.line is not None and m.role not in ("service", "accessory", "discount")
        }
    )
    reading = SystemReading(
        row=system,
        quantity=quantity,
        child_quantities=child if members else "none",
        decided_by=why,
        spec=spec,
        gpu=gpu,
        gpus_per_system=gpus if gpu is not None else 0,
        nvlink_domain_gpus=domain if gpu is not None else 1,
        cooling=cooling,
        lines=[n for n in lines if n],
        members=members,
    )
    return reading, problems


def _vehicle(form_factor: str, key: str) -> str:
    if "station" in key:
        return "station wagon"
    return VEHICLES.get(form_factor, form_factor.replace("_", " "))


def _form_factor(reading: SystemReading) -> str:
    spec = reading.spec
    if spec is not None:
        return spec.form_factor
    form = _system_form(reading.row, None)
    if form == "workstation":
        return "workstation"
    if form in PERSONAL_FORMS:
        return form
    if form == "rack":
        return "rack_nvl72"
    if reading.gpu is not None and reading.nvlink_domain_gpus >= 8:
        return "nvl8_server"
    return "pcie_server"


def _quoted(reading: SystemReading, catalog: CatalogSnapshot) -> QuotedSystem:
    """The system as the review sees it: what the quote states, and the catalog (or an
    estimate) for the rest, each filled figure marked in ``figure_sources``."""
    spec, gpu, row = reading.spec, reading.gpu, reading.row
    form_factor = _form_factor(reading)
    sources: dict[str, str] = {"gpu": "quote" if gpu is not None else "none"}
    n = reading.gpus_per_system
    power = typical = None
    same_as_spec = (
        spec is not None
        and gpu is not None
        and (spec.gpu == gpu.key or (spec.gpu is None and spec.gpu_kind == "fixed"))
        and (spec.gpu_count == n or spec.max_gpus == n)
    )
    if spec is not None and spec.power_max_kw is not None and (same_as_spec or gpu is None):
        power, typical = spec.power_max_kw, spec.power_typical_kw
        sources["power_kw"] = "catalog"
    elif spec is not None and spec.base_power_kw is not None:
        # Chassis without GPUs plus every GPU at its maximum: 2.2 kW + 8 × 700 W = 7.8 kW.
        power = round(spec.base_power_kw + n * (gpu.tdp_w_max if gpu else 0) / 1000, 3)
        typical = round(spec.base_power_kw + n * (gpu.tdp_w_typical if gpu else 0) / 1000, 3)
        sources["power_kw"] = "catalog"
    elif spec is not None and spec.power_max_kw is not None:
        power, typical = spec.power_max_kw, spec.power_typical_kw
        sources["power_kw"] = "catalog"
    elif gpu is not None:
        overhead = PLATFORM_OVERHEAD_KW[_system_form(row, spec)]
        # GPUs' TDP × count + the platform overhead: 8 × 700 W + 2.0 kW = 7.6 kW (estimate).
        power = round(overhead + n * gpu.tdp_w_max / 1000, 3)
        typical = round(overhead + n * gpu.tdp_w_typical / 1000, 3)
        sources["power_kw"] = "estimate"
    memory = _configured_memory_gb(reading)
    if memory is not None:
        sources["gpu_memory_gb"] = "quote"
    weight = spec.weight_lb if spec is not None else None
    rack_units = spec.rack_units if spec is not None else None
    if weight is not None:
        sources["weight_lb"] = "catalog"
    if rack_units is not None:
        sources["rack_units"] = "catalog"
    name = _system_name(row.text, spec)
    if spec is None:
        key = "quoted:" + re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60]
    else:
        key = spec.key
    unit_price = row.unit_price
    if unit_price is None and row.extended_price is not None and reading.quantity:
        unit_price = row.extended_price / reading.quantity
    # A catalog system with the GPUs it always carries keeps its name ("NVIDIA DGX B200");
    # a chassis with the GPUs the quote puts in it says them.
    if gpu is not None and not (same_as_spec and spec is not None and spec.gpu is not None):
        name = f"{name} with {n} × {gpu.model}"
    return QuotedSystem(
        sku=key,
        name=name,
        form_factor=form_factor,
        quantity=reading.quantity,
        gpu=gpu.model if gpu else None,
        gpu_key=gpu.key if gpu else None,
        gpus_per_system=n,
        nvlink_domain_gpus=reading.nvlink_domain_gpus,
        gpu_memory_gb=memory,
        power_kw=power,
        power_typical_kw=typical,
        weight_lb=weight,
        rack_units=rack_units,
        cooling=reading.cooling,
        cpu_arch=spec.cpu_arch if spec else ("arm" if gpu and gpu.cpu_arch == "arm" else "x86"),
        unit_price=unit_price,
        vehicle=_vehicle(form_factor, key),
        lines=reading.lines,
        figure_sources=sources,
    )


def _configured_memory_gb(reading: SystemReading) -> float | None:
    """The unified memory a non-CUDA machine's line configures ("M4 Max ... 48GB unified
    memory" → 48), when it is below the chip's maximum; None for every other engine."""
    gpu = reading.gpu
    if gpu is None or gpu.is_cuda:
        return None
    for text in (reading.row.text, *(m.text for m in reading.members)):
        found = _UNIFIED_GB.search(text)
        if found and 0 < float(found.group(1)) <= gpu.memory_gb:
            return float(found.group(1))
    return None


def _system_name(text: str, spec: SystemSpec | None) -> str:
    if spec is not None:
        return spec.name.split(" (")[0]
    head = _head(text)
    return head[:80]


# ---------------------------------------------------------------------------------------------
# The whole quote.


def bom_read(
    parsed: ParsedQuote,
    catalog: CatalogSnapshot,
    *,
    matches: Sequence[LineMatch] | None = None,
    corrections: Mapping[int, LineCorrection] | None = None,
    texts: BomTexts | None = None,
) -> BomReading:
    """Read every row of a parsed quote (module doc). ``matches`` are the catalog matches
    of ``parsed.lines`` (one each); ``corrections`` (by 1-based line number) override the
    reading of their lines. ``texts``: this quote's lines read ahead (``bom_texts``)."""
    families = texts if texts is not None and texts.catalog is catalog else _Families(catalog)
    rows = _rows_from(parsed)
    for row in rows:
        _first_pass(row, families)
        if matches is not None and row.line is not None and row.line <= len(matches):
            _match_pass(row, matches[row.line - 1])
    corrections = corrections or {}
    for row in rows:
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.role is not None:
            row.role, row.corrected, row.guessed = fix.role, True, False
    totals = [r for r in rows if r.role == "total"]
    for row in totals[:-1]:  # "Net Total" above "Total inc. VAT": only the last is the total
        row.role = "subtotal"
    _nest(rows)
    _refine(rows, families)
    for row in rows:  # a correction wins over position too
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.role is not None:
            row.role, row.corrected, row.guessed = fix.role, True, False
    for row in rows:
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.gpu and row.role in ("gpu_card", "gpu_board"):
            count = row.gpu.count if row.gpu else None
            row.gpu = GpuMention(key=fix.gpu, count=count, board=row.role == "gpu_board")
            row.corrected = True
    _loose_cards_place(rows)
    problems: list[LineProblem] = []
    readings: list[SystemReading] = []
    facts = _QuoteFacts.of(rows)  # the rows are read, no longer changed, from here on
    for row in rows:
        if row.role != "system" or row.line is None:
            continue
        reading, found = _read_system(row, rows, catalog, families, facts)
        for member in (row, *reading.members):
            fix = corrections.get(member.line) if member.line is not None else None
            if fix is not None and (
                fix.system or fix.gpus_per_system is not None or (fix.gpu and member is row)
            ):
                reading = _corrected(reading, fix, catalog)
        readings.append(reading)
        problems.extend(found)
    systems = [_quoted(r, catalog) for r in readings if r.quantity > 0 and r.row.line is not None]
    kinds = {r.child_quantities for r in readings if r.child_quantities != "none"}
    if not kinds:
        child: ChildQuantities = "none"
    elif len(kinds) == 1:
        child = next(iter(kinds))
    else:
        child = "totals" if "totals" in kinds else "per_system"
    problems.extend(_loose_gpu_problems(rows, catalog))
    text, confidence = _reading_words(rows, readings, problems)
    return BomReading(
        rows=rows,
        systems=systems,
        readings=readings,
        child_quantities=child,
        problems=problems,
        text=text,
        confidence=confidence,
    )


def _corrected(
    reading: SystemReading, fix: LineCorrection, catalog: CatalogSnapshot
) -> SystemReading:
    spec = catalog.system_by_key.get(fix.system or "")
    if spec is not None:
        reading.spec = spec
        fixed = catalog.gpu_by_key.get(spec.gpu or "")
        if fixed is not None and not fix.gpu and not reading.gpus_per_system:
            # "this line is a PowerEdge XE9680": the catalog's 8 × H200 SXM come with it
            reading.gpu, reading.gpus_per_system = fixed, spec.gpu_count
    if fix.gpu and fix.gpu in catalog.gpu_by_key:
        reading.gpu = catalog.gpu(fix.gpu)
        if not reading.gpus_per_system:
            reading.gpus_per_system = 1
    if fix.gpus_per_system is not None:
        reading.gpus_per_system = fix.gpus_per_system
    if reading.gpu is not None:
        reading.nvlink_domain_gpus = _corrected_domain(reading, spec)
    reading.row.corrected = True
    return reading


def _corrected_domain(reading: SystemReading, spec: SystemSpec | None) -> int:
    """The NVLink domain after a correction: PCIe cards are 1 GPU each; SXM GPUs on a board
    (NVSwitch) are one domain up to the GPU's own limit (8 × H200 SXM = one 8-GPU domain);
    bridged cards keep what their bridges make, never more than the system's GPUs."""
    gpu = reading.gpu
    count = max(reading.gpus_per_system, 1)
    if gpu is None or gpu.interconnect == "pcie":
        return 1
    if spec is not None and spec.gpu == gpu.key and spec.gpu_count == count:
        return spec.nvlink_domain_gpus
    if gpu.interconnect in ("nvlink_switch", "nvlink_c2c"):
        return min(gpu.nvlink_domain_gpus, count)
    return min(max(reading.nvlink_domain_gpus, 1), count)


def _loose_cards_place(rows: list[Row]) -> None:
    """Cards and bridges listed beside the systems rather than under them (a flat quote, or
    the cards before the chassis) go into the systems that carry no GPUs of their own, one GPU
    model per system in quote order."""
    loose = [
        r
        for r in rows
        if r.line is not None and r.parent is None and r.role in ("gpu_card", "nvlink_bridge")
    ]
    if not loose:
        return
    empty = []
    facts = _QuoteFacts.of(rows)
    for system in (r for r in rows if r.role == "system" and r.line is not None):
        members = _members(rows, system, facts)
        carries = system.gpu is not None or any(
            m.role in ("gpu_card", "gpu_board") for m in members
        )
        if not carries:
            empty.append(system)
    if not empty:
        return
    models: list[str] = []
    for r in loose:
        if r.role == "gpu_card" and r.gpu and r.gpu.key not in models:
            models.append(r.gpu.key)
    for r in loose:
        if r.role == "gpu_card" and r.gpu:
            position = models.index(r.gpu.key)
            target = empty[position] if position < len(empty) else None
        else:
            target = empty[0]
        if target is not None:
            r.parent = target.index


def _loose_gpu_problems(rows: list[Row], catalog: CatalogSnapshot) -> list[LineProblem]:
    """GPU cards or boards that sit in no system: engines without a vehicle. A warning, not
    critical: a cards-only quote is often an upgrade for servers already in the rack."""
    loose = [
        r
        for r in rows
        if r.role in ("gpu_card", "gpu_board") and r.parent is None and r.line is not None
    ]
    pools: dict[str, list[Row]] = {}
    for r in loose:
        pools.setdefault(r.gpu.key if r.gpu else "", []).append(r)
    problems = []
    for key, pool in pools.items():
        gpu = catalog.gpu_by_key.get(key)
        count = sum((r.quantity or 0) * (r.gpu.count if r.gpu and r.gpu.count else 1) for r in pool)
        lines = [r.line for r in pool if r.line is not None]
        model = gpu.model if gpu else "GPU"
        name = gpu.name if gpu else "GPU"
        problems.append(
            LineProblem(
                severity="warning",
                title=f"{count} × {model} with no chassis",
                detail=f"{_lines_text(lines).capitalize()}: {count} × {name} cards and no "
                "server to put them in. Engines without a vehicle are left out of the review; "
                "ask which servers they go into.",
                metrics={"lines": lines, "gpus": count},
                lever="Ask which servers the cards go into, or add the chassis to the quote.",
            )
        )
    return problems


def _lines_text(lines: Sequence[int]) -> str:
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))


def _ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5] → "1–3, 5"."""
    out: list[str] = []
    ordered = sorted(set(numbers))
    start = prev = None
    for n in ordered:
        if start is None:
            start = prev = n
        elif prev is not None and n == prev + 1:
            prev = n
        else:
            out.append(f"{start}–{prev}" if start != prev else f"{start}")
            start = prev = n
    if start is not None:
        out.append(f"{start}–{prev}" if start != prev else f"{start}")
    return ", ".join(out)


_ROLE_WORDS = {
    "service": "services",
    "accessory": "accessories",
    "discount": "discounts",
    "freight": "freight",
}


def _reading_words(
    rows: list[Row], readings: list[SystemReading], problems: list[LineProblem]
) -> tuple[str, Literal["high", "medium", "low"]]:
    """ "2 × PowerEdge XE9680, each 8 × H200 SXM 141 GB (lines 1–11); lines 12–14 services"."""
    parts: list[str] = []
    for reading in readings:
        name = _system_name(reading.row.text, reading.spec)
        gpu = reading.gpu
        each = (
            f", each {reading.gpus_per_system} × {gpu.model} {gpu.memory_gb:g} GB"
            if gpu is not None and reading.gpus_per_system
            else ", no GPUs"
        )
        if reading.quantity > 1 and reading.child_quantities in ("per_system", "totals"):
            how = "per system" if reading.child_quantities == "per_system" else "order totals"
            each += f", sub-lines read as {how}"
        parts.append(f"{reading.quantity} × {name}{each} (lines {_ranges(reading.lines)})")
    if not readings:
        parts.append("no GPU system")
    for role, word in _ROLE_WORDS.items():
        lines = [r.line for r in rows if r.role == role and r.line is not None]
        if lines:
            parts.append(f"{_lines_text_short(lines)} {word}")
    text = "; ".join(parts)
    guessed = [r for r in rows if r.guessed and r.line is not None]
    unsure = any("cannot be told" in p.title for p in problems)
    if unsure or len(guessed) > 2:
        confidence: Literal["high", "medium", "low"] = "low"
    elif guessed or any(r.spec is None for r in readings):
        confidence = "medium"
    else:
        confidence = "high"
    return text, confidence


def _lines_text_short(lines: Sequence[int]) -> str:
    return ("line " if len(lines) == 1 else "lines ") + _ranges(lines)
