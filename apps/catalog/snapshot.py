"""The catalog as a frozen, ORM-free snapshot: what the checks read.

The bundled fixture (`fixtures/catalog.json`) has exactly this shape, the database is loaded from
it, and `catalog_snapshot()` reads it back. The checks never see the ORM: a DGX B200 is a
`SystemSpec` with one 8-GPU NVLink domain whatever store it came from.
"""

from __future__ import annotations

import difflib
import re
from decimal import Decimal
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

FormFactorName = Literal[
    "phone", "laptop", "desktop", "workstation", "pcie_server", "nvl8_server", "rack_nvl72"
]
CoolingName = Literal["air", "liquid", "air_or_liquid"]
PartKindName = Literal["system", "chassis", "gpu_card", "bridge", "other"]

#: The interconnects that make a board's GPUs one domain (`GpuSpec.joins_its_board`).
BOARD_FABRICS = frozenset({"nvlink_switch", "nvlink_c2c", "infinity_fabric", "roce_mesh"})

FIXTURE_PATH = Path(__file__).resolve().parent.parent.parent / "fixtures" / "catalog.json"


class Figure(BaseModel):
    """Where one figure came from: the raw text of the source table, verified or not."""

    model_config = ConfigDict(frozen=True)

    raw: str
    verified: bool = True
    source: str = ""


class Sourced(BaseModel):
    model_config = ConfigDict(frozen=True)

    source_urls: str = ""
    notes: str = ""
    figures: dict[str, Figure] = Field(default_factory=dict)

    def figure(self, field: str) -> Figure | None:
        """The provenance of `field`; the row's sources when the figure has none of its own."""
        fig = self.figures.get(field)
        if fig is None:
            return None
        if not fig.source:
            return fig.model_copy(update={"source": self.source_urls})
        return fig

    def is_verified(self, field: str) -> bool:
        fig = self.figures.get(field)
        return fig is None or fig.verified


class GpuSpec(Sourced):
    """An engine: one GPU's memory, bandwidth and rates (dense, without sparsity)."""

    key: str
    name: str
    vendor: str = "NVIDIA"
    model: str
    form_factor: FormFactorName
    memory_gb: float
    memory_type: str = ""
    bandwidth_tbs: float
    fp64_tflops: float | None = None
    fp64_tensor_tflops: float | None = None
    fp32_tflops: float | None = None
    bf16_tflops: float | None = None
    fp8_tflops: float | None = None
    fp4_tflops: float | None = None
    interconnect: Literal[
        "pcie", "nvlink_bridge", "nvlink_switch", "nvlink_c2c", "infinity_fabric", "roce_mesh"
    ]
    nvlink_domain_gpus: int = 1
    nvlink_bw_gbs: float | None = None
    tdp_w_max: float
    tdp_w_typical: float
    cooling: CoolingName = "air"
    cpu_arch: Literal["x86", "arm", ""] = ""

    @property
    def is_cuda(self) -> bool:
        """NVIDIA's engines run CUDA; Apple silicon, AMD's Strix Halo and the phone and
        Copilot+ SoCs do not (Metal, ROCm, NPUs): their containers and stack differ."""
        return self.vendor.startswith("NVIDIA")  # "NVIDIA / MediaTek" builds the GB10

    @property
    def joins_its_board(self) -> bool:
        """Every GPU of its board (or superchip rack) in one domain: NVSwitch on an HGX board,
        NVLink-C2C, or AMD's Infinity Fabric mesh, where each of 8 MI300X on the OAM
        baseboard links to the other seven. PCIe cards and bridged pairs do not."""
        return self.interconnect in BOARD_FABRICS

    @property
    def is_host_chip(self) -> bool:
        """The engine is the machine's own chip, sharing its package and memory with the host
        CPU (a GB10 or DGX Station superchip, Apple silicon, a Jetson or phone SoC): never
        sold as a card, so a priced line naming it sells the whole machine, one engine each.
        A rack superchip (GB200 NVL72) has a CPU too, but comes in trays of several."""
        personal = ("desktop", "workstation", "laptop", "phone")
        return bool(self.cpu_arch) and self.form_factor in personal

    @property
    def best_fp64_tflops(self) -> float:
        """The FP64 rate an HPC code can reach: the tensor rate when there is one."""
        return max(self.fp64_tensor_tflops or 0.0, self.fp64_tflops or 0.0)


class SystemSpec(Sourced):
    """A vehicle: a system that carries engines (or a chassis that takes GPU cards)."""

    key: str
    name: str
    vendor: str
    form_factor: FormFactorName
    gpu: str | None = None  # GpuSpec.key; None for a chassis that takes cards
    gpu_count: int = 0
    nvlink_domain_gpus: int = 1
    power_max_kw: float | None = None
    power_typical_kw: float | None = None
    power_peak_kw: float | None = None  # transient peak above the maximum, where stated
    weight_lb: float | None = None
    rack_units: float | None = None
    cooling: CoolingName = "air"
    cpu_arch: Literal["x86", "arm"] = "x86"
    cpu_memory_gb: float | None = None
    gpu_slots: int | None = None
    max_gpu_watts: float | None = None
    base_power_kw: float | None = None  # chassis without GPUs: CPUs, fans, drives
    list_price_usd: Decimal | None = None
    price_source: str = ""
    circuit_note: str = ""
    #: OEM chassis families (fixtures/reference/oem_systems_*.csv): the family a quote names
    #: ("PowerEdge XE9680"), how it takes GPUs ("sxm_board", "pcie_cards", "fixed"), the GPUs
    #: it takes as the sources name them ("~" = support best-known, not sourced), and its
    #: power supplies.
    family: str = ""
    gpu_kind: str = ""
    supported_gpus: tuple[str, ...] = ()
    max_gpus: int | None = None
    psu_count: int | None = None
    psu_watts: float | None = None
    psu_redundancy: str = ""

    @property
    def is_chassis(self) -> bool:
        return self.gpu is None

    @property
    def scale_out_gbps(self) -> float | None:
        """The network port a host reaches its neighbours with, where the catalog sources
        one (a DGX Spark's ConnectX-7: 200 Gb/s); kept in `figures` with its source."""
        figure = self.figures.get("scale_out_gbps")
        found = re.match(r"~?\s*(\d+(?:\.\d+)?)", figure.raw) if figure is not None else None
        return float(found.group(1)) if found else None

    def _figure_count(self, field: str) -> int | None:
        """A whole-number figure kept only in `figures` (with its source): "2", "~56"."""
        figure = self.figures.get(field)
        found = re.match(r"~?\s*(\d+)", figure.raw) if figure is not None else None
        return int(found.group(1)) if found and int(found.group(1)) > 0 else None

    @property
    def racks_per_system(self) -> int:
        """Racks one system fills: a GB200 NVL72 is one rack; a GB200 NVL36x2 is one 72-GPU
        NVLink domain cabled across two racks of 36 (fixtures/reference/rack_layout.csv)."""
        return self._figure_count("racks_per_system") or 1

    @property
    def blades_per_cabinet(self) -> int | None:
        """Blades one cabinet holds, for a system sold as a blade with no rack-unit height:
        an HPE Cray EX4000 cabinet takes 56 EX154n (GB200 NVL4) blades. None for rack-mount
        servers, which are placed by rack units."""
        return self._figure_count("blades_per_cabinet")

    @property
    def scale_out_link(self) -> str | None:
        """The port as the catalog writes it: "ConnectX-7, 200 Gb/s"."""
        figure = self.figures.get("scale_out_gbps")
        if figure is None or self.scale_out_gbps is None:
            return None
        name = re.sub(r"^~?\s*\d+(?:\.\d+)?\s*(?:Gb/s)?\s*", "", figure.raw).strip(" ,()")
        speed = f"{self.scale_out_gbps:g} Gb/s"
        return f"{name}, {speed}" if name else speed


class PartSpec(BaseModel):
    """A vendor part number and the aliases that map a quote line to the catalog."""

    model_config = ConfigDict(frozen=True)

    vendor: str
    part_number: str
    kind: PartKindName
    description: str = ""
    system: str | None = None
    gpu: str | None = None
    bridge_gpus: int | None = None
    aliases: tuple[str, ...] = ()


class ModelSpec(BaseModel):
    """An open-weights model preset (shared/reference/models.csv)."""

    model_config = ConfigDict(frozen=True)

    name: str
    hf_repo: str = ""
    total_params_b: float
    active_params_b: float
    layers: int
    hidden_size: int | None = None
    attn_heads: int | None = None
    kv_heads: int
    head_dim: int
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    max_context: int | None = None
    vocab: int | None = None
    native_dtype: str = ""
    sliding_window: int | None = None
    sliding_layers_fraction: float | None = None
    source: str = ""
    # fixtures/reference/models.csv (staging research): spellings, MoE shape, parameter split
    aliases: tuple[str, ...] = ()
    num_experts: int | None = None
    experts_per_token: int | None = None
    kv_layers: int | None = None
    attn_params_b: float | None = None
    expert_params_b: float | None = None  # routed experts only; a token reads k/E of them
    dense_mlp_params_b: float | None = None  # dense FFNs, shared experts, routers
    embed_params_b: float | None = None
    lm_head_params_b: float | None = None
    decode_read_params_b: float | None = None
    license: str = ""
    release_date: str = ""

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every way a user may write this model: its name, its repo id and its aliases."""
        return (self.name, self.hf_repo, *self.aliases)


# Suffixes that name a variant of a family, not another model: "-Instruct", "-FP8", "-2507".
_VARIANT_SUFFIX = re.compile(
    r"[-_.](instruct|it|chat|hf|base|pt|thinking|reasoning|fp8|fp4|nvfp4|mxfp4|int4|int8|w4a16|"
    r"w8a8|awq|gptq|gguf|dynamic|bf16|fp16|\d{4}|v0\.\d|quantized)$"
)


def model_key(spelling: str) -> str:
    """The family key of a spelling: "Qwen/Qwen3-30B-A3B-Instruct-2507" → "qwen3-30b-a3b",
    "meta-llama/Meta-Llama-3.1-8B-Instruct" → "llama-3.1-8b" (org prefix, "Meta-", variant
    suffixes and separators folded)."""
    key = spelling.strip().casefold().replace(" ", "-").replace("_", "-")
    key = key.rsplit("/", 1)[-1]
    key = key.removeprefix("meta-")
    while (stripped := _VARIANT_SUFFIX.sub("", key)) != key:
        key = stripped
    return key


RentalTermName = Literal["on_demand", "spot", "committed_1y", "committed_3y"]


class RentalRateSpec(BaseModel):
    """What renting one GPU costs for an hour at one provider (fixtures/reference/gpu_rental.csv):
    "B200, Lambda, on demand, $6.69/GPU-hour, US, 2026-09-20, unverified"."""

    model_config = ConfigDict(frozen=True)

    gpu: str  # GpuSpec.key
    provider: str
    offering: str = ""
    term: RentalTermName = "on_demand"
    usd_per_gpu_hour: Decimal
    region: str = ""
    as_of: str = ""  # the date the price was read, ISO
    verified: bool = False
    source_url: str = ""
    notes: str = ""


class CatalogSnapshot(BaseModel):
    """Everything the checks need to know about the lot, frozen at the start of a review."""

    model_config = ConfigDict(frozen=True)

    version: str = ""
    #: the database catalog's revision (apps.catalog.revision); None for the bundled fixture
    revision: int | None = None
    vendors: tuple[str, ...] = ()
    gpus: tuple[GpuSpec, ...] = ()
    systems: tuple[SystemSpec, ...] = ()
    parts: tuple[PartSpec, ...] = ()
    models: tuple[ModelSpec, ...] = ()
    rental_rates: tuple[RentalRateSpec, ...] = ()

    @cached_property
    def gpu_by_key(self) -> dict[str, GpuSpec]:
        return {g.key: g for g in self.gpus}

    @cached_property
    def system_by_key(self) -> dict[str, SystemSpec]:
        return {s.key: s for s in self.systems}

    @cached_property
    def model_by_name(self) -> dict[str, ModelSpec]:
        return {m.name.casefold(): m for m in self.models}

    def rental_rates_for(
        self, gpu_key: str, term: RentalTermName = "on_demand"
    ) -> tuple[RentalRateSpec, ...]:
        """The published rates for one GPU and term, cheapest first."""
        rates = (r for r in self.rental_rates if r.gpu == gpu_key and r.term == term)
        return tuple(sorted(rates, key=lambda r: r.usd_per_gpu_hour))

    def gpu(self, key: str) -> GpuSpec:
        return self.gpu_by_key[key]

    def system(self, key: str) -> SystemSpec:
        return self.system_by_key[key]

    @cached_property
    def model_by_spelling(self) -> dict[str, ModelSpec]:
        """Every exact spelling (casefolded), then every family key; first preset wins."""
        index: dict[str, ModelSpec] = {}
        for model in self.models:
            for spelling in model.spellings:
                if spelling:
                    index.setdefault(spelling.strip().casefold(), model)
        for model in self.models:
            for spelling in model.spellings:
                if spelling:
                    index.setdefault(model_key(spelling), model)
        return index

    def model_preset(self, name: str) -> ModelSpec | None:
        """A preset by name, alias or Hugging Face repo id, case-insensitive: "qwen3-32b",
        "deepseek-ai/DeepSeek-R1", "meta-llama/Llama-3.3-70B-Instruct" and
        "Qwen/Qwen3-30B-A3B-Instruct-2507" all find their family."""
        spelling = name.strip().casefold()
        if not spelling:
            return None
        index = self.model_by_spelling
        found = index.get(spelling) or index.get(model_key(spelling))
        if found is None and "/" in spelling:
            found = index.get(spelling.rsplit("/", 1)[-1])
        return found

    def model_suggestions(self, name: str, *, limit: int = 3) -> list[str]:
        """The closest preset names for a spelling that matches none ("did you mean …")."""
        key = model_key(name)
        index = self.model_by_spelling
        close = difflib.get_close_matches(key, list(index), n=limit * 4, cutoff=0.6)
        names = list(dict.fromkeys(index[k].name for k in close))
        return names[:limit]


def snapshot_from_fixture(path: Path = FIXTURE_PATH) -> CatalogSnapshot:
    """Read the bundled catalog straight from its JSON file (no database)."""
    return CatalogSnapshot.model_validate_json(path.read_text(encoding="utf-8"))
