"""The quote half of the contract (shared/CONTRACT.md "quote" and "systems"): what quote intake
hands the review. Pure pydantic, no ORM.

A quote is read into its lines (`QuoteLineOut`), a summary (`QuoteSummary`), the vehicles its
lines assemble into (`QuotedSystem`: "2 × PowerEdge XE9680, each 8 × H200 SXM") and the
problems its lines have (`LineProblem`: "2 × 515,000.00 = 1,030,000.00 but the line says
515,000.00"). Intake reports problems; the review's `quote_lines` check turns them into findings.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, PlainSerializer

# Money is a decimal string in JSON ("1234567.00").
Money = Annotated[
    Decimal,
    PlainSerializer(lambda d: f"{d.quantize(Decimal('0.01'))}", return_type=str, when_used="json"),
]


Severity = Literal["ok", "info", "warning", "critical"]
SEVERITY_ORDER: tuple[str, ...] = ("ok", "info", "warning", "critical")


class LineProblem(BaseModel):
    """Something wrong with the quote's lines, found while reading it (not a review finding:
    the `quote_lines` check words it as one)."""

    severity: Severity
    title: str
    detail: str
    metrics: dict[str, Any] = Field(default_factory=dict)
    formula: str = ""
    lever: str = ""


MatchName = Literal["exact", "alias", "fuzzy", "ambiguous", "none"]

#: What a quote line is, decided from its structure (DESIGN.md "Reading a quote").
LineRole = Literal[
    "system",
    "gpu_board",
    "gpu_card",
    "nvlink_bridge",
    "chassis",
    "component",
    "service",
    "accessory",
    "discount",
    "subtotal",
    "total",
    "tax",
    "freight",
    "note",
    "unknown",
]


class LineCorrection(BaseModel):
    """What the account team says a line is, overriding the reading: "line 4 is a service",
    "line 1 carries 8 × H200 SXM per system". Every field left None keeps the reading."""

    role: LineRole | None = None
    system: str | None = None  # catalog SystemSpec.key the line is
    gpu: str | None = None  # catalog GpuSpec.key the line carries
    gpus_per_system: int | None = Field(default=None, ge=0, le=1024)


class QuoteLineOut(BaseModel):
    line: int
    part_number: str = ""
    description: str = ""
    quantity: int | None = None
    unit_price: Money | None = None
    extended_price: Money | None = None
    sku: str | None = None
    match: MatchName = "none"
    kind: Literal["system", "chassis", "gpu_card", "bridge", "other", "unknown"] = "unknown"
    match_score: float | None = None
    source_row: int | None = None
    role: LineRole = "unknown"
    parent: int | None = None  # the line this one is a sub-line of (configurator nesting)
    corrected: bool = False  # the role or reading comes from a user's correction


class QuoteSummary(BaseModel):
    vendor: str = ""
    quote_number: str = ""
    currency: str = "USD"
    total: Money | None = None
    lines: list[QuoteLineOut] = Field(default_factory=list)
    file: str = ""
    #: How the quote was read, in words: "2 × PowerEdge XE9680, each 8 × H200 SXM 141 GB
    #: (lines 1-3); lines 4-9 services".
    reading: str = ""
    reading_confidence: Literal["high", "medium", "low"] | None = None


class QuotedSystem(BaseModel):
    """One vehicle on the quote, with the engines it carries (after assembly)."""

    sku: str
    name: str
    form_factor: str
    quantity: int = Field(ge=0)
    gpu: str | None = None  # the engine's model name, e.g. "B200"
    gpu_key: str | None = None  # catalog GpuSpec.key
    #: What joins the GPUs (the catalog's GpuSpec.interconnect): "nvlink_switch" for an HGX
    #: board, "infinity_fabric" for AMD's 8 × MI300X baseboard; None without GPUs.
    gpu_interconnect: str | None = None
    gpus_per_system: int = 0
    nvlink_domain_gpus: int = 1
    #: Memory of each engine as the line configures it, where the catalog's is a maximum: a
    #: MacBook Pro "M4 Max ... 48GB unified memory" holds 48 GB, not the chip's 128.
    gpu_memory_gb: float | None = None
    power_kw: float | None = None  # maximum draw per system (what breakers are sized for)
    power_typical_kw: float | None = None
    weight_lb: float | None = None
    rack_units: float | None = None
    cooling: str = "air"
    cpu_arch: str = "x86"
    unit_price: Money | None = None
    vehicle: str = ""  # "semi", "work van", ...
    lines: list[int] = Field(default_factory=list)  # quote lines that make up this system
    #: Where each figure came from: "quote" (the quote states it), "catalog" (the catalog's
    #: chassis), "estimate" (GPUs' TDP × count + a platform overhead, unverified).
    figure_sources: dict[str, str] = Field(default_factory=dict)
