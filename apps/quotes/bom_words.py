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
        "build",
        "labor",
        "labour",
        "onsite",
        "setup",
        "set-up",
        "workshop",
        "software",
        "manager",
        "garantie",
        "garantieerweiterung",
        "wartung",
        "inbetriebnahme",
        "einweisung",
        # a reseller's own work on the order: staging, imaging, tagging, racking
        "staging",
        "imaging",
        "tagging",
        "racking",
    ]
)
_SERVICE_PHRASES = (
    "keep your",
    "ai enterprise",
    "health check",
    "tech care",
    "burn-in",
    "rack and stack",
    "rack & stack",
    "rack-and-stack",
    "configuration centre",
    "configuration center",
    "asset tag",
    # Japanese, Chinese and Korean (no word breaks): maintenance, warranty, support,
    # installation; not 服务 alone, which 服务器 (server) contains.
    *("保守", "保証", "サポート", "設置", "保修", "维保", "质保", "技术支持", "安装"),
    *("保固", "維保", "維護", "技術支援", "安裝", "到府"),
    *("기술지원", "유지보수", "보증", "워런티", "설치", "서비스"),
)
#: Japanese, Chinese and Korean for a barebone or chassis (no word breaks to find a noun by).
_CJK_CHASSIS = ("ベアボーン", "筐体", "准系统", "準系統", "机箱", "機箱", "베어본", "섀시")
#: Japanese, Chinese and Korean for a server ("GPUサーバー", "GPU服务器", "GPU 서버").
_CJK_SYSTEM = ("サーバー", "サーバ", "服务器", "伺服器", "서버")
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
        "supercluster",  # Supermicro's rack-scale systems: "GB200 NVL36x2 SuperCluster"
        "cto",
        "configure-to-order",
        "dgx",
    ]
)
#: Words before "blade" that make the blade a server ("compute blade", "GPU blade").
_BLADE_SERVER_WORDS = frozenset(["compute", "gpu", "server", "accelerator", "hpc"])
_CHASSIS_WORDS = frozenset(["chassis", "barebone", "base", "enclosure"])
_BOARD_WORDS = frozenset(["baseboard", "board", "tray", "sled"])
_CARD_WORDS = frozenset(["gpu", "accelerator", "graphics", "edition", "card"])
#: Racks and what is built onto them: an "In-row coolant distribution unit" or a "Rear-door
#: heat exchanger" is the rack's part under a rack line, an accessory beside the systems.
_RACK_WORDS = frozenset(["rack", "cabinet", "coolant", "exchanger", "exchangers"])
#: A blade is a server ("EX154n Accelerator Blade", "Compute blade") unless the word before it
#: names a part: "Slingshot switch blade", "storage blade".
_BLADE_WORDS = frozenset(["blade", "blades"])
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
        "camera",
        "cameras",
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
        "ps",  # Cisco's "Nexus 2000W AC PS Port-side Intake"
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
        "mezz",  # Cisco X-Series: "UCS PCI Mezz card for X-Fabric Connectivity"
        "mezzanine",
        "mlom",  # "Cisco VIC 15231 2x100/200G mLOM for X Compute Node"
        "vic",
        "ifm",  # "UCS 9108-100G IFM for 9508 Chassis" (intelligent fabric module)
        "iom",
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
#: The label of a group banner: a configurator's numbered group ("Solution ID 1: PowerEdge
#: XE7745 - AI Inference (8x H200 NVL)", "Configuration 2: SR675 V3 node (Quantity: 1)").
#: What follows the label titles the block below it; it is no part, whatever it names.
GROUP_LABEL_RE = re.compile(
    r"^(?:solution(?:\s+id)?|configuration|config|group|bundle|section|build)\s*(?:id\s*)?"
    r"(?:#|no\.?|nr\.?)?\s*\d{1,3}$",
    re.IGNORECASE,
)
#: The words that offer a line beside the quote rather than in it ("Optional", "Alternative",
#: a German tender's "Eventualposition" / "Bedarfsposition", ordered only on call).
_OFFER_WORDS = (
    r"optional|alternative|alternate|alternativ|alternativposition|eventualposition|"
    r"bedarfsposition|optionnel|opcional|wahlweise"
)
#: A line-type column's value for a line offered beside the quote: the line is not ordered,
#: whatever it names.
OFFER_TYPE_RE = re.compile(
    rf"^(?:{_OFFER_WORDS}|option|eventual)(?:\s+(?:item|line))?$", re.IGNORECASE
)
#: A row labelled as a remark: "Line Note: configured per attached BOM, 8x H200 per server",
#: "Hinweis: Lieferzeit 6 Wochen". What it mentions is not a part.
NOTE_LABEL_RE = re.compile(
    r"^(?:line\s+|item\s+)?(?:notes?|comments?|remarks?|hinweis|bemerkung|anmerkung|remarque|"
    r"nota)\s*[:\-–]",
    re.IGNORECASE,
)
#: A head ending in "Module": a memory or TPM module is a component, but HPE sells the
#: HGX board of an XD685 as "NVIDIA HGX B200 180GB 8-GPU Air-Cooled Module".
MODULE_HEAD_RE = re.compile(r"\bmodules?\s*$", re.IGNORECASE)
#: A line offered beside the quote, not in it: "Optional - 2 additional XE9680 ...",
#: "Alternative: 4x L40S instead of H100 NVL", "[Optional] Financing: 36-month lease", and a
#: German tender's "Eventualposition:" / "Bedarfsposition:" (ordered only on call).
#: Its price is not part of the total and what it names is not ordered.
OFFER_RE = re.compile(
    rf"^[\[(*]?\s*(?:{_OFFER_WORDS}|option\s*[:\-–]|alt\.|optionale position|optionsposition)"
    r"(?:\s*(?:item|line|position))?\s*[\])]?\s*[:\-–,]",
    re.IGNORECASE,
)


def offered_or_remark(text: str) -> bool:
    """A line offered beside the quote or labelled as a remark ("Optional - Financing: ...",
    "Line Note: 8x H200 per server"): a note, whatever it names."""
    return bool(OFFER_RE.match(text) or NOTE_LABEL_RE.match(text))


#: A label row that gives the number of systems a per-system configuration is for.
#: A configurator's group header gives it as a bare label, alone in its row: Dell Premier's
#: "Quantity: 3" above a group priced for one unit, HP's "Qty = 3".
MULTIPLIER_RE = re.compile(
    r"^(?:configuration quantity|number of (?:systems|servers|units)|system quantity|"
    r"quantity of systems|anzahl (?:systeme|server))\b|"
    r"^(?:quantity|qty|units)\s*[:=]\s*\d{1,4}\s*$",
    re.IGNORECASE,
)
PER_SYSTEM_RE = re.compile(
    r"\bper (?:system|server|unit|node|workstation)\b|\bfor one (?:server|system|unit)\b|"
    r"\bje (?:system|server|einheit)\b|\bpro (?:system|server)\b|\beach (?:system|server)\b|"
    r"\bper blade\b|\bpar (?:syst[eè]me|serveur|lame|n[oœ]e?ud|unit[eé])\b|"
    r"\bpor (?:sistema|servidor|nodo|unidad)\b",
    re.IGNORECASE,
)
LIQUID_RE = re.compile(
    r"\bliquid[- ]cooled\b|\bliquid cooling\b|\bdirect liquid\b|\bdlc\b|\bneptune\b|"
    r"\bwater[- ]cool|\bdirect water\b|\bdwc\b|\bcold plates?\b|\bliquid\b",
    re.IGNORECASE,
)
AIR_RE = re.compile(r"\bair[- ]cooled\b|\bluftgek[uü]hlt\b", re.IGNORECASE)

# Part-number styles.
HPE_OPTION_SUFFIX = re.compile(r"^\S+\s+#?0D1$", re.IGNORECASE)  # "P65412-B21 #0D1"
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
)
#: A line naming several GPUs on one carrier: an HGX or SXM board, a Grace superchip (a GH200
#: NVL2 pair, a GB200 NVL4), AMD's 8-GPU OAM universal baseboard ("AMD Instinct MI300X 8-GPU
#: Baseboard", "MI300X Platform", "UBB"). An OAM alone is one module, one GPU, as an SXM5 GPU
#: is.
_BOARD_RE = re.compile(
    r"\bhgx\b|\bsxm\d?\b|baseboard|\bgpu board\b|gpu tray|compute tray|\bubb\b|superchip|"
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
#: An aside in parentheses inside the noun phrase ("Dell Integrated Rack Scalable Systems (IRSS)
#: factory rack build"): the words after it still belong to the head.
_ASIDE = re.compile(r"\s*\([^()]{1,40}\)(?=\s+[a-z])", re.IGNORECASE)
_HEAD_SPLIT = re.compile(
    r",|;|:|\(|\s[-–—]\s|\s(?:for|with|w/|incl\.?|including|includes|mit|für|auf|per|of)\s",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9+]+(?:-[a-z0-9+]+)*")
_AND_SPLIT = re.compile(r"\s(?:and|und|et|&|\+)\s")
ALNUM_RUN = re.compile(r"[0-9a-z]+")
#: India splits GST into its parts on the invoice: IGST (between states), CGST + SGST;
#: Canada adds the province's PST or QST to GST.
TAX_RE = re.compile(r"\b(?:tax|vat|mwst|gst|hst|pst|qst|ust|tva|iva|igst|cgst|sgst|utgst)\b")
TOTAL_RE = re.compile(r"\btotal\b")
PER_UNIT_RE = re.compile(r"\bper (?:unit|system)\b")
NO_NOTE_RE = re.compile(r"^[^,]*,\s*no\s", re.IGNORECASE)
ADAPTER_RE = re.compile(r"\b(?:power|ac|usb-c)\s+adapter\b", re.IGNORECASE)
SLED_RE = re.compile(r"\b(?:sled|tray)\b", re.IGNORECASE)
#: A part bought to replace one in an installed system: "spare for RMA 4471902", "FRU".
SPARE_RE = re.compile(
    r"\bspares?\b|\brma\b|\badvance(?:d)?\s+(?:replacement|exchange)\b|\bfru\b",
    re.IGNORECASE,
)
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


#: What a line is for, not what it is: "camera kit for Jetson AGX Thor (…)", "compatible
#: with DGX Spark": up to the next separator.
_FOR_CLAUSE = re.compile(r"\s(?:for|fits|compatible with)\s[^,;()]*", re.IGNORECASE)


def own_text(text: str) -> str:
    """A line's text without what it is for: "VB1940 camera kit for Jetson AGX Thor, 1m
    cable" → "VB1940 camera kit, 1m cable"; the GPU it names there is its own."""
    return _FOR_CLAUSE.sub("", text)


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
    text = _ASIDE.sub("", text)
    parts = _HEAD_SPLIT.split(text, maxsplit=1)
    head = parts[0].strip()
    # "Onsite installation and rack mounting": the first of two coordinated nouns leads, when
    # it names something; "3 Year Parts and Labor Warranty" is named by its last noun, "Rack &
    # stack" by its phrase.
    first = _AND_SPLIT.split(head, maxsplit=1)[0].strip()
    if first == head or (head_category(first) and not _service_phrase(head.casefold())):
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


def _service_phrase(folded: str) -> bool:
    return any(p in folded for p in _SERVICE_PHRASES)


def head_category(head: str) -> str:
    """What the head names, from its last noun backwards (module doc). Services and
    management controllers anywhere in the head decide first."""
    folded = head.casefold()
    words = [_stem(w) for w in words_of(head)]
    if any(w in _MANAGEMENT_WORDS for w in words):
        return "component"
    if _service_phrase(folded):
        return "service"
    if any(p in folded for p in _CJK_CHASSIS):
        return "chassis"
    if any(p in folded for p in _CJK_SYSTEM):
        return "system"
    if (words and words[0] in FREIGHT_WORDS) or any(w in FREIGHT_WORDS for w in words[-2:]):
        return "freight"
    for position in range(len(words) - 1, -1, -1):
        word = words[position]
        if word == "kit":
            if position and words[position - 1] in ("cable", "cables"):
                return "component"
            continue
        if word in ("blade", "blades"):
            # "XH3515-HMQ compute blade, 4x H100" is a server; a "switch blade" is not
            if position and words[position - 1] in _BLADE_SERVER_WORDS:
                return "system"
            continue
        if word in _SERVICE_WORDS:
            return "service"
        if word in _BLADE_WORDS:
            before = words[position - 1] if position else ""
            if before in _COMPONENT_WORDS or before in _ACCESSORY_WORDS:
                return "component" if before in _COMPONENT_WORDS else "accessory"
            return "system"
        if word in _BOARD_WORDS:
            return "board"
        if word in _CARD_WORDS:
            return "card"
        if word in _SYSTEM_WORDS:
            return "system"
        if word in _CHASSIS_WORDS:
            # "IR7000 50OU rack enclosure" is a rack, not a server's CTO chassis
            before = words[position - 1] if position else ""
            return "rack" if before in _RACK_WORDS else "chassis"
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
