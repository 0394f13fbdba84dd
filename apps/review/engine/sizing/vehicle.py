"""A quoted system joined to the catalog facts the sizing needs: its engine and its spec sheet.

A chassis with four L40S cards arrives as one `QuotedSystem` (gpu_key "l40s", 4 GPUs, NVLink
domain 1); the `Vehicle` adds the L40S's 48 GB and 864 GB/s, so a van holds 4 × 48 = 192 GB in
four 48 GB domains. Identical systems on several quote lines become one vehicle line (two lines
of 2 × DGX B200 are 4 × DGX B200 for the racks), so a long quote is sized once per kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from apps.catalog.snapshot import CatalogSnapshot, GpuSpec, SystemSpec
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import QuotedSystem
from apps.review.engine.sizing.memory import gpu_memory_gb

# Rack units assumed when the catalog gives none: a desktop on a shelf, a workstation's 5U.
ASSUMED_RACK_UNITS = {"phone": 1.0, "laptop": 2.0, "desktop": 2.0, "workstation": 5.0}
DEFAULT_RACK_UNITS = 4.0
#: The vehicles one person carries (the guide's mopeds and motorcycles): each is its own host,
#: with no fabric to a neighbour, so ten laptops are ten machines, not one pool of memory.
PERSONAL_FORM_FACTORS = frozenset({"phone", "laptop"})
#: Machines whose liquid cooling, when they have it, is a sealed loop to their own radiator and
#: fans: a liquid-cooled GB300 deskside (Supermicro ARS-511GD-NB-LCC: "liquid cold plates to a
#: front radiator with three fans") heats the room's air like any desktop, with no facility water.
CLOSED_LOOP_FORM_FACTORS = frozenset({"phone", "laptop", "desktop", "workstation"})


@dataclass(frozen=True, slots=True)
class Vehicle:
    """One line of vehicles on the quote (`quantity` identical systems) with its engine.

    The GPU counts and memories are worked out once, when the vehicle is made: the serving
    search reads them for every replica size of every catalog system."""

    system: QuotedSystem  # the first quote line's system: the facts every line shares
    gpu: GpuSpec | None
    spec: SystemSpec | None
    quantity: int  # summed over every line quoting this same system
    cost: Decimal | None = None  # Σ quantity × unit price (catalog price when the quote has none)
    cost_estimated: bool = False  # True when a catalog price stood in for a missing unit price
    gpus_per_system: int = field(init=False, repr=False, compare=False)
    #: every GPU of the line: quantity × GPUs per system
    gpus: int = field(init=False, repr=False, compare=False)
    #: one GPU's memory in decimal GB (HBM sizes are GiB: an H100's 80 GiB = 85.9 GB)
    gpu_memory_gb: float = field(init=False, repr=False, compare=False)
    #: GPUs joined by NVLink, never more than the system carries (8 × H200 NVL → 4)
    domain_gpus: int = field(init=False, repr=False, compare=False)
    #: memory of one NVLink domain: a DGX B200 is 8 × 180 GiB = 8 × 193.3 = 1,546.2 GB
    domain_memory_gb: float = field(init=False, repr=False, compare=False)
    #: the name without the catalog's parenthetical: "NVIDIA GB300 NVL72"
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        system, gpu = self.system, self.gpu
        per_system = system.gpus_per_system if gpu is not None else 0
        gpu_gb = gpu_memory_gb(gpu) if gpu is not None else 0.0
        domain = max(1, min(system.nvlink_domain_gpus, per_system)) if per_system else 0
        setattr_ = object.__setattr__  # the dataclass is frozen
        setattr_(self, "gpus_per_system", per_system)
        setattr_(self, "gpus", self.quantity * per_system)
        setattr_(self, "gpu_memory_gb", gpu_gb)
        setattr_(self, "domain_gpus", domain)
        setattr_(self, "domain_memory_gb", domain * gpu_gb)
        setattr_(self, "name", system.name.split(" (")[0].strip() or system.sku)

    @property
    def system_memory_gb(self) -> float:
        return self.gpus_per_system * self.gpu_memory_gb

    @property
    def memory_gb(self) -> float:
        """GPU memory of every system on this line."""
        return self.gpus * self.gpu_memory_gb

    @property
    def is_rack_scale(self) -> bool:
        """An NVL72 is the rack itself: one per rack, its weight already includes the frame."""
        return self.system.form_factor == "rack_nvl72"

    @property
    def racks_per_system(self) -> int:
        """Racks one system fills when it is rack-scale: 1 for an NVL72, 2 for an NVL36x2
        (one 72-GPU NVLink domain over two racks of about 66 kW each)."""
        if not self.is_rack_scale or self.spec is None:
            return 1
        return self.spec.racks_per_system

    @property
    def blades_per_cabinet(self) -> int | None:
        """Blades per cabinet for a blade system (56 EX154n in an HPE Cray EX4000), else None."""
        return self.spec.blades_per_cabinet if self.spec is not None else None

    @property
    def facility_cooling(self) -> str:
        """The cooling the building must provide: the system's own ("liquid" for an NVL72,
        which needs facility water and CDUs), except a desk machine's sealed loop, which the
        room sees as air."""
        if self.system.form_factor in CLOSED_LOOP_FORM_FACTORS:
            return "air"
        return self.system.cooling

    @property
    def is_personal(self) -> bool:
        """A phone or a laptop: one rider, its own host."""
        return self.system.form_factor in PERSONAL_FORM_FACTORS

    @property
    def is_cuda(self) -> bool:
        """NVIDIA engines; a Mac, a Strix Halo or a phone runs something else."""
        return self.gpu is None or self.gpu.is_cuda

    @property
    def is_training_grade(self) -> bool:
        """Semis and trains: NVL8 servers and NVL72 racks, built for one enormous job."""
        return self.system.form_factor in {"nvl8_server", "rack_nvl72"}

    @property
    def rack_units(self) -> float:
        if self.system.rack_units:
            return self.system.rack_units
        return ASSUMED_RACK_UNITS.get(self.system.form_factor, DEFAULT_RACK_UNITS)

    @property
    def label(self) -> str:
        gpu = f" ({self.gpus_per_system} × {self.gpu.model})" if self.gpu is not None else ""
        return f"{self.quantity} × {self.name}{gpu}"


def _same_vehicle(system: QuotedSystem) -> tuple[object, ...]:
    return (
        system.sku,
        system.gpu_key,
        system.gpus_per_system,
        system.nvlink_domain_gpus,
        system.gpu_memory_gb,
        system.power_kw,
        system.weight_lb,
        system.rack_units,
        system.cooling,
        system.cpu_arch,
        system.form_factor,
    )


def vehicles_from(systems: Sequence[QuotedSystem], catalog: CatalogSnapshot) -> list[Vehicle]:
    """Join each quoted system to its engine and spec sheet (dict lookups, no copies), one
    vehicle line per distinct system."""
    groups: dict[tuple[object, ...], list[QuotedSystem]] = {}
    for system in systems:
        groups.setdefault(_same_vehicle(system), []).append(system)
    vehicles = []
    for lines in groups.values():
        first = lines[0]
        gpu = None
        if first.gpu_key and first.gpus_per_system > 0:
            gpu = catalog.gpu_by_key.get(first.gpu_key)
            if gpu is None:
                raise ReviewInputError(
                    f"system {first.sku!r}: GPU {first.gpu_key!r} is not in the catalog"
                )
            if first.gpu_memory_gb:
                # a Mac configured with 48 GB of unified memory holds 48, not the chip's 128
                gpu = gpu.model_copy(update={"memory_gb": first.gpu_memory_gb})
        spec = catalog.system_by_key.get(first.sku)
        cost: Decimal | None = Decimal(0)
        estimated = False
        for line in lines:
            price = line.unit_price
            if price is None and spec is not None:
                price, estimated = spec.list_price_usd, True
            cost = cost + price * line.quantity if cost is not None and price is not None else None
        vehicles.append(
            Vehicle(
                system=first,
                gpu=gpu,
                spec=spec,
                quantity=sum(line.quantity for line in lines),
                cost=cost,
                cost_estimated=estimated and cost is not None,
            )
        )
    return vehicles
