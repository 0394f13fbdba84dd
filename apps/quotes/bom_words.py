"""The vocabulary of a bill of materials: what a line's text says on its own, before its place
in the quote is known (the reader, ``apps.quotes.reading``, decides each line's role from it).

- the **head** of a text, the words before its first separator (``head``), and what the head
  names (``head_category``): read from its last word backwards, the first word in a category
  decides ("... Rack Server" is a server, "... Integrated Rack" a rack); services and
  management controllers anywhere in the head decide first;
- the **part-number styles** of the vendors and the patterns of money lines, notes, cooling
  and per-system banners.

The GPU a text names, and its NVLink bridges, are read in ``apps.quotes.bom_gpus``.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from functools import lru_cache

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
#: A group's banner in one cell, its number then its title: "Solution ID: 1 - PowerEdge
#: XE9780 (HGX B300)", "Configuration #2: Inference nodes" ("Bundle 1-year support" is none).
GROUP_BANNER_RE = re.compile(
    r"^(?:solution(?:\s+id)?|configuration|config|group|bundle|section|build)\s*(?:id\s*)?"
    r"(?:#|no\.?|nr\.?)?\s*:?\s*\d{1,3}(?:\s*:|\s+[-–—])\s+\S",
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
TAX_RE = re.compile(
    r"\b(?:tax|vat|mwst|gst|hst|pst|qst|ust|tva|iva|igst|cgst|sgst|utgst|btw|icms|ipi|cofins)\b"
)
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


# ---------------------------------------------------------------------------------------------
# Reading one line.


#: What a line is for, not what it is: "camera kit for Jetson AGX Thor (…)", "compatible
#: with DGX Spark": up to the next separator.
_FOR_CLAUSE = re.compile(r"\s(?:for|fits|compatible with)\s[^,;()]*", re.IGNORECASE)


def own_text(text: str) -> str:
    """A line's text without what it is for: "VB1940 camera kit for Jetson AGX Thor, 1m
    cable" → "VB1940 camera kit, 1m cable"; the GPU it names there is its own."""
    return _FOR_CLAUSE.sub("", text)


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


@lru_cache(maxsize=4096)
def head_category(head: str) -> str:
    """What the head names, from its last noun backwards (module doc). Services and
    management controllers anywhere in the head decide first. Cached: a 10,000-line quote
    asks it ~12,000 times of a few hundred distinct heads."""
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
