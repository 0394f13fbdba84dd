"""What the quote says a system contains, and the system as the review sees it.

A system's members are the rows nested under it (``apps.quotes.bom_nesting`` nests them). From its
line and its members ``read_system`` finds the catalog system, the GPUs, their NVLink domain and
the cooling; ``quoted`` turns that reading into a ``QuotedSystem``, the catalog (or an estimate,
marked so) filling what the quote does not state; ``corrected`` applies what a user said the
system is.

Child quantities are per system (Dell's configurator: 2 × XE9680, each with one 8-GPU board)
or order totals (HPE: 16 × H200 NVL for 2 servers): ``bom_quantities.quantities_decide``
reads which; when nothing tells, the reading says so and picks the reading whose GPUs fit the
chassis.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from apps.catalog.snapshot import CatalogSnapshot, GpuSpec, SystemSpec
from apps.quotes.bom_domains import rack_domain
from apps.quotes.bom_gpus import BRIDGE_RE, NVLINK_WAYS_RE, WAYS_RE, gpu_mention
from apps.quotes.bom_groups import group_count
from apps.quotes.bom_prices import parts_price_per_system
from apps.quotes.bom_quantities import QuoteFacts, quantities_decide, system_members
from apps.quotes.bom_rows import Row
from apps.quotes.bom_words import AIR_RE, LIQUID_RE, head, words_of
from apps.quotes.schemas import LineCorrection, LineProblem, QuotedSystem
from apps.words import VEHICLES

ChildQuantities = Literal["per_system", "totals", "none"]

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
#: A rack-scale system's name: "GB200 NVL72", "NVL36x2", "rack-scale", "SuperCluster".
_RACK_SCALE = re.compile(r"\bnvl(?:72|36x2)\b|\brack-scale\b|\bsupercluster\b", re.IGNORECASE)
#: A count before a name: "2x DGX Spark 4TB", "(4 x NVIDIA DGX H100", up to the next separator.
_UNITS_RE = re.compile(r"\b([2-9]|1\d)\s*[x×]\s+([^,;:()]+)", re.IGNORECASE)
#: The memory a unified-memory machine is configured with: "48GB unified memory".
_UNIFIED_GB = re.compile(r"\b(\d{1,3})\s*GB\s+(?:of\s+)?unified\b", re.IGNORECASE)


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
    units_per_line: int = 1  # systems in one quoted unit: a "2x DGX Spark" bundle is 2


# ---------------------------------------------------------------------------------------------
# What a system contains.


def _system_quantity(system: Row, rows: list[Row], facts: QuoteFacts | None = None) -> int:
    quantity = system.quantity if system.quantity is not None else 0
    if (multipliers := (facts or QuoteFacts.of(rows)).multipliers) and quantity <= 1:
        return group_count(system, rows) or multipliers[0]  # the nearest group's count
    return quantity


def _engine_key(parts: list[Row], catalog: CatalogSnapshot) -> str | None:
    """The GPU model a system's GPU lines are counted as: its host chip when it has one (a
    DGX Station's GB300, not the small RTX PRO card beside it that drives the displays),
    else the first GPU line's. Lines of another model are not counted as this one."""
    keys = [m.gpu.key for m in parts if m.gpu]
    for key in keys:
        gpu = catalog.gpu_by_key.get(key)
        if gpu is not None and gpu.is_host_chip:
            return key
    return keys[0] if keys else None


def _units_per_line(
    text: str, spec: SystemSpec | None, find: Callable[[str], SystemSpec | None]
) -> int:
    """How many of its system one quoted unit of a line is: "DGX Spark Bundle: 2x DGX Spark
    4TB with QSFP112 cable" is two DGX Spark a bundle, when the count stands before the
    system's own name; 1 otherwise ("2x GB10" counts GPUs, not machines)."""
    if spec is None:
        return 1
    for found in _UNITS_RE.finditer(text):
        if find(found.group(2)) is spec:
            return int(found.group(1))
    return 1


def _gpu_spec(key: str, catalog: CatalogSnapshot, form: str) -> GpuSpec | None:
    if key == "rtx-pro-6000":
        key = "rtx-pro-6000-server" if form == "server" else "rtx-pro-6000-ws"
    if form == "laptop" and not key.endswith("-laptop") and f"{key}-laptop" in catalog.gpu_by_key:
        key = f"{key}-laptop"  # "RTX PRO 5000 Blackwell" in a laptop is the laptop GPU
    if form == "workstation" and f"{key}-desktop" in catalog.gpu_by_key:
        key = f"{key}-desktop"  # "NVIDIA GB300" in a DGX Station is its Desktop Superchip
    return catalog.gpu_by_key.get(key)


def _family_named(text: str, catalog: CatalogSnapshot) -> SystemSpec | None:
    """The OEM chassis family a system line names ("PowerEdge XE7745"), for a line the catalog
    first reads as a GPU preset sold in that chassis ("NVIDIA RTX PRO Server: 8x RTX PRO 6000
    ... (e.g., Dell PowerEdge XE7745)") when the quote puts other GPUs in it (8 x H200 NVL):
    the server is the XE7745, not an RTX PRO Server holding H200s."""
    words = f" {' '.join(words_of(text))} "
    named = [
        spec
        for spec in catalog.system_by_key.values()
        if spec.family and f" {' '.join(words_of(spec.family))} " in words
    ]
    return max(named, key=lambda spec: len(spec.family), default=None)


def _system_form(system: Row, spec: SystemSpec | None) -> str:
    if spec is not None:
        if spec.form_factor in ("workstation", "desktop"):
            return "workstation"
        if spec.form_factor in ("laptop", "phone"):
            return spec.form_factor
        if spec.form_factor == "rack_nvl72":
            return "rack"
        return "server"
    words = set(words_of(system.text))
    if words & {"workstation", "workstations"}:
        return "workstation"
    if words & {"laptop", "notebook", "macbook"}:
        return "laptop"
    if words & {"phone", "smartphone", "iphone"}:
        return "phone"
    if _RACK_SCALE.search(system.text):
        return "rack"
    return "server"


def read_system(
    system: Row,
    rows: list[Row],
    catalog: CatalogSnapshot,
    find: Callable[[str], SystemSpec | None],
    facts: QuoteFacts | None = None,
) -> tuple[SystemReading, list[LineProblem]]:
    """What the quote says ``system`` contains, and the problems found reading it. ``find``:
    the catalog system a text names (the reader's ``BomTexts.find``)."""
    problems: list[LineProblem] = []
    facts = facts or QuoteFacts.of(rows)
    members = system_members(rows, system, facts)
    spec = (
        catalog.system_by_key.get(system.spec_key or "")
        or find(system.text)
        or find(system.part_number)
    )
    if spec is None:
        for m in members:
            if m.role == "chassis":
                # A configured system's barebone names it by part number only: "1.1
                # SYS-822GS-NB3RT | Supermicro X14 8U GPU SuperServer barebone".
                spec = (
                    catalog.system_by_key.get(m.spec_key or "")
                    or find(m.text)
                    or find(m.part_number)
                )
                if spec:
                    break
    form = _system_form(system, spec)
    units = _units_per_line(system.text, spec, find)
    quantity = _system_quantity(system, rows, facts) * units
    if system.units_per_system > 1:
        # a rack's compute trays: 72 trays × 4 GPUs are 4 racks of 18 trays, 72 GPUs each
        quantity //= system.units_per_system
        form = "rack"
    max_gpus = (
        (spec.gpu_slots or spec.gpu_count or DEFAULT_MAX_GPUS)
        if spec
        else (DEFAULT_MAX_GPUS if form != "rack" else 72)
    )
    boards = [m for m in members if m.role == "gpu_board" and m.gpu]
    cards = [m for m in members if m.role == "gpu_card" and m.gpu]
    bridges = [m for m in members if m.role == "nvlink_bridge"]
    engine = _engine_key([*boards, *cards], catalog)
    boards = [m for m in boards if m.gpu and m.gpu.key == engine]
    cards = [m for m in cards if m.gpu and m.gpu.key == engine]

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
            if count == 1 and m.gpu and m.gpu.count:
                # one line of "8x AMD Instinct MI325X 256GB OAM GPU": the 8 GPUs it names
                count = m.gpu.count
            total += count if reading == "per_system" else count // max(quantity, 1)
        return total

    readings = {"per_system": gpus_for("per_system"), "totals": gpus_for("totals")}
    decision, why = quantities_decide(system, members, rows, quantity, max_gpus, readings, facts)
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
        if not gpus and spec is not None and spec.gpu_kind == "sxm_board" and spec.max_gpus:
            # a chassis that only ever carries one GPU board, its line naming the GPU:
            # "UCS C885A M8 Rack - MI300X GPU" is one 8 × MI300X board
            gpus = spec.max_gpus
        if not gpus and spec is not None and spec.gpu_kind == "fixed" and spec.max_gpus:
            # a fixed configuration named by its GPU but not counted: "Supermicro SuperCluster
            # GB300 NVL72" is its rack's 72 GB300, as the family always carries them (a tray's
            # share when the line counts the rack's trays)
            gpus = spec.max_gpus // system.units_per_system
        named = _gpu_spec(gpu_key, catalog, form)
        if not gpus and (
            (spec is not None and spec.max_gpus == 1)
            or form in (*PERSONAL_FORMS, "workstation")
            or (named is not None and named.is_host_chip)
        ):
            # a configured laptop or workstation (or a one-GPU system, or a machine built
            # around its own chip) carries the one GPU its line names: "Dell Pro Max 16 Plus
            # ..., NVIDIA RTX PRO 5000 Blackwell 24GB laptop GPU", "Puget T140-S Workstation,
            # NVIDIA RTX PRO 4000 Blackwell 24GB", "Acer Veriton GN100, NVIDIA GB10"
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
            gpus = (spec.max_gpus or 1) // system.units_per_system or 1  # a tray's share
            domain = spec.nvlink_domain_gpus
    gpus *= system.units_per_system  # the GPUs of one tray × the trays of one rack
    if spec is not None and gpu_key and spec.gpu and spec.gpu != gpu_key and not spec.family:
        spec = _family_named(system.text, catalog) or spec
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
            ways_named = _bridge_ways_named(system.text)
            if bridges and gpus > 1:
                ways = max(b.bridge_ways or 2 for b in bridges)
                count = sum(b.quantity or 0 for b in bridges)
                per = count if child == "per_system" else count // max(quantity, 1)
                if per > 0:
                    domain = min(ways, gpu.nvlink_domain_gpus, gpus)
            elif ways_named and gpus > 1:
                domain = min(ways_named, gpu.nvlink_domain_gpus, gpus)
        elif gpu.interconnect == "pcie":
            domain = 1
        elif gpu.joins_its_board:
            if spec is not None and spec.gpu == gpu.key and spec.nvlink_domain_gpus > 1:
                domain = spec.nvlink_domain_gpus
            elif form == "rack":  # a rack of HGX servers joins each board's GPUs only
                domain = rack_domain(gpus, gpu.nvlink_domain_gpus, gpu.form_factor)
            elif gpu.form_factor == "rack_nvl72":
                # a Grace Blackwell system's trays share the NVLink switch trays: an unknown
                # NVL36x2 of 18 trays is one 72-GPU domain, a GB200 NVL4 blade one of 4
                domain = min(gpus, gpu.nvlink_domain_gpus)
            elif domain <= 1:
                domain = min(gpus, max(gpu.nvlink_domain_gpus, 1)) if gpus else 1
            if gpu.form_factor in ("desktop", "workstation", "laptop"):
                domain = 1
        domain = max(1, min(domain, gpus)) if gpus else 1
    texts = " ".join([system.text, *(m.text for m in members)])
    if (LIQUID_RE.search(texts) and not AIR_RE.search(system.text)) or (
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
        units_per_line=units,
    )
    return reading, problems


def _bridge_ways_named(text: str) -> int | None:
    """The bridges a system's own line lists in its configuration, by their ways: "…, 4x
    NVIDIA H200 NVL 141GB, 2x NVLink 2-way bridge" → 2, "(4-way NVLink)" → 4; None when it
    lists none."""
    linked = NVLINK_WAYS_RE.search(text)
    if linked is not None:  # "8x H200 NVL 141GB (4-way NVLink)"
        return int(linked.group(1) or linked.group(2))
    bridge = BRIDGE_RE.search(text)
    if bridge is None:
        return None
    ways = WAYS_RE.search(bridge.group(0)) or WAYS_RE.search(text)
    return int(ways.group(1) or ways.group(2)) if ways else 2


# ---------------------------------------------------------------------------------------------
# The system as the review sees it.


def _vehicle(form_factor: str, key: str) -> str:
    if "station" in key:
        return "station wagon"
    return VEHICLES.get(form_factor, form_factor.replace("_", " "))


def _form_factor(reading: SystemReading) -> str:
    spec = reading.spec
    if spec is not None:
        return spec.form_factor
    form = _system_form(reading.row, None)
    if reading.gpu is not None and reading.gpu.is_host_chip:
        return reading.gpu.form_factor  # a GB10 "mini workstation" is a desktop, not a tower
    if form == "workstation":
        return "workstation"
    if form in PERSONAL_FORMS:
        return form
    if form == "rack":
        return "rack_nvl72"
    if reading.gpu is not None and reading.nvlink_domain_gpus >= 8:
        return "nvl8_server"
    return "pcie_server"


def quoted(reading: SystemReading, catalog: CatalogSnapshot) -> QuotedSystem:
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
    elif (
        spec is not None
        and spec.power_max_kw is not None
        and gpu is not None
        and (own := catalog.gpu_by_key.get(spec.gpu or "")) is not None
        and own.form_factor == gpu.form_factor
        and spec.gpu_count
    ):
        # The catalog's system with other engines of the same kind in it: its maximum less
        # its own GPUs plus the quote's. A PowerEdge XE9680 of 8 × H200 (11 kW) carrying the
        # 8 × MI300X board instead: 11 − 8 × 700 W + 8 × 750 W = 11.4 kW (an estimate).
        base_max = spec.power_max_kw - spec.gpu_count * own.tdp_w_max / 1000
        base_typical = (spec.power_typical_kw or spec.power_max_kw) - (
            spec.gpu_count * own.tdp_w_typical / 1000
        )
        power = round(base_max + n * gpu.tdp_w_max / 1000, 3)
        typical = round(base_typical + n * gpu.tdp_w_typical / 1000, 3)
        sources["power_kw"] = "estimate"
    elif spec is not None and spec.power_max_kw is not None:
        power, typical = spec.power_max_kw, spec.power_typical_kw
        sources["power_kw"] = "catalog"
    elif gpu is not None and (reference := _reference_machine(gpu, catalog)) is not None:
        # A machine the catalog does not know, built around a chip it does: it draws what
        # the chip's reference machine draws (an MSI EdgeXpert's GB10 as a DGX Spark's, 240 W).
        power, typical = reference.power_max_kw, reference.power_typical_kw
        sources["power_kw"] = "estimate"
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
    name = system_name(row.text, spec)
    if spec is None:
        key = "quoted:" + re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60]
    else:
        key = spec.key
    unit_price = row.unit_price
    if unit_price is None and row.extended_price is not None and reading.quantity:
        unit_price = row.extended_price / reading.quantity
    elif unit_price is not None and reading.units_per_line > 1:
        unit_price = unit_price / reading.units_per_line  # a system's share of its bundle
    elif unit_price is not None and row.units_per_system > 1:
        # a rack bought as its trays: 18 trays at $168,000 are one rack's $3,024,000
        unit_price = unit_price * row.units_per_system
    parts = parts_price_per_system(
        reading.members, reading.quantity, reading.child_quantities == "totals"
    )
    if parts:
        unit_price = (unit_price or Decimal(0)) + parts  # itemized: the chassis and its parts
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
        gpu_interconnect=gpu.interconnect if gpu else None,
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


def _reference_machine(gpu: GpuSpec, catalog: CatalogSnapshot) -> SystemSpec | None:
    """The catalog's own machine for a host chip, with its power: the DGX Spark for the GB10,
    the DGX Station for its GB300 Desktop Superchip; None for any other engine."""
    if not gpu.is_host_chip:
        return None
    return next(
        (s for s in catalog.systems if s.gpu == gpu.key and s.power_max_kw is not None), None
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


#: A note in a catalog name: "(GIGA Computing)", "(alt: ASUS ESC8000A-E13P)".
_CATALOG_NOTE = re.compile(r"\s*\([^()]*\)")


def system_name(text: str, spec: SystemSpec | None) -> str:
    """The catalog's name for the system without its notes in parentheses, or its line's
    head: "Gigabyte (GIGA Computing) G894-SD3-AAX7" → "Gigabyte G894-SD3-AAX7" (cut at the
    first "(" it read "2 × Gigabyte")."""
    if spec is not None:
        return " ".join(_CATALOG_NOTE.sub(" ", spec.name).split()) or spec.name
    return head(text)[:80]


# ---------------------------------------------------------------------------------------------
# A user's correction of a system line.


def corrected(
    reading: SystemReading, fix: LineCorrection, catalog: CatalogSnapshot
) -> SystemReading:
    """The reading once a user's correction of one of its lines is applied: the system it is,
    the GPU it carries, how many per system."""
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
    (NVSwitch) are one domain up to the GPU's own limit (8 × H200 SXM = one 8-GPU domain), as
    are OAM GPUs on AMD's Infinity Fabric baseboard (8 × MI300X);
    bridged cards keep what their bridges make, never more than the system's GPUs."""
    gpu = reading.gpu
    count = max(reading.gpus_per_system, 1)
    if gpu is None or gpu.interconnect == "pcie":
        return 1
    if spec is not None and spec.gpu == gpu.key and spec.gpu_count == count:
        return spec.nvlink_domain_gpus
    if gpu.joins_its_board:
        return min(gpu.nvlink_domain_gpus, count)
    return min(max(reading.nvlink_domain_gpus, 1), count)
