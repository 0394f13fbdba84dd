"""The review contract (shared/CONTRACT.md) as pydantic models.

Inputs (Workload, Facility), the quote as the checks see it (QuoteSummary, QuotedSystem) and the
report every face shows (ReviewReport). Field names are the contract's: add, never rename.
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from apps.quotes.schemas import (
    SEVERITY_ORDER,
    LineProblem,
    MatchName,
    Money,
    QuotedSystem,
    QuoteLineOut,
    QuoteSummary,
    Severity,
)
from apps.review.engine.hf_config import is_hf_config, shape_fields_from_hf_config


class WorkloadKind(StrEnum):
    INFERENCE = "inference"
    RAG = "rag"
    TRAINING = "training"
    FINE_TUNING = "fine_tuning"
    LORA = "lora"
    HPC = "hpc"
    VISION = "vision"
    VDI = "vdi"
    DEVELOPMENT = "development"

    @property
    def is_inference(self) -> bool:
        """School-bus loads: many users, steady speed."""
        return self in {WorkloadKind.INFERENCE, WorkloadKind.RAG, WorkloadKind.DEVELOPMENT}

    @property
    def is_training(self) -> bool:
        """Cement-truck loads: one enormous job that wants one coupled NVLink domain."""
        return self in {WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING}


class Precision(StrEnum):
    """The weights' format. The plain widths price every parameter alike; the named formats
    carry their real bits per weight (fixtures/reference/quant_formats.md)."""

    FP4 = "fp4"
    INT4 = "int4"
    FP8 = "fp8"
    INT8 = "int8"
    BF16 = "bf16"
    FP16 = "fp16"
    FP32 = "fp32"
    FP64 = "fp64"
    NVFP4 = "nvfp4"  # E2M1 + one E4M3 scale per 16: 4.5 bits; embeddings and head in BF16
    MXFP4 = "mxfp4"  # E2M1 + one E8M0 scale per 32: 4.25 bits; gpt-oss: experts only
    AWQ = "awq"  # int4, group 128 with scale and zero: 4.156 bits
    GPTQ = "gptq"  # int4, group 128 with scale: 4.125 bits
    Q4_K_M = "q4_k_m"  # GGUF file average on Llama-3.1-8B: 4.89 bits
    Q5_K_M = "q5_k_m"  # 5.70 bits
    Q6_K = "q6_k"  # 6.56 bits
    Q8_0 = "q8_0"  # 8.50 bits

    @property
    def bytes_per_param(self) -> float:
        """Bytes per parameter, the format's average (NVFP4 4.5 bits = 0.5625 bytes)."""
        return PRECISION_BYTES[self]


PRECISION_BYTES: dict[Precision, float] = {
    Precision.FP4: 0.5,
    Precision.INT4: 0.5,
    Precision.FP8: 1.0,
    Precision.INT8: 1.0,
    Precision.BF16: 2.0,
    Precision.FP16: 2.0,
    Precision.FP32: 4.0,
    Precision.FP64: 8.0,
    Precision.NVFP4: 4.5 / 8,
    Precision.MXFP4: 4.25 / 8,
    Precision.AWQ: 4.156 / 8,
    Precision.GPTQ: 4.125 / 8,
    Precision.Q4_K_M: 4.89 / 8,
    Precision.Q5_K_M: 5.70 / 8,
    Precision.Q6_K: 6.56 / 8,
    Precision.Q8_0: 8.50 / 8,
}


#: The physical range of every number a person types, in the field's unit: the forms state it
#: next to the field, and the forms, the CLI and the API refuse anything outside it (or not
#: finite) with the field's name. ``1e308`` GB of memory is not a workload, it is a typo.
INPUT_RANGES: dict[str, tuple[float, float, str]] = {
    "params_b": (0.001, 100_000, "billion parameters"),
    "active_params_b": (0.001, 100_000, "billion parameters"),
    "layers": (1, 10_000, "layers"),
    "kv_heads": (1, 10_000, "heads"),
    "head_dim": (1, 65_536, ""),
    "kv_lora_rank": (1, 65_536, ""),
    "qk_rope_head_dim": (1, 65_536, ""),
    "sliding_window": (1, 10_000_000, "tokens"),
    "context_tokens": (1, 10_000_000, "tokens"),
    "concurrent_users": (1, 10_000_000, "users"),
    "tokens_per_sec_per_user": (0.1, 100_000, "tokens/s"),
    "memory_gb": (0.1, 1_000_000, "GB"),
    "fp64_tflops": (0.1, 10_000_000, "TFLOPS"),
    "rack_power_kw": (0.1, 1_000, "kW"),
    "racks_available": (0, 100_000, "racks"),
    "floor_load_lb_per_sqft": (1, 10_000, "lb/sq ft"),
    "circuit_volts": (1, 1_000, "V"),
    "circuit_amps": (1, 1_000, "A"),
}
#: Names and other free text a person types: bounded, so a 10 MB "name" is refused.
NAME_MAX_CHARS = 200


def input_range_text(field: str) -> str:
    """ "0.1 – 1,000,000 GB": the range stated next to a field."""
    low, high, unit = INPUT_RANGES[field]
    return f"{low:,g} – {high:,.0f} {unit}".strip()


def _most(field: str) -> float:
    return INPUT_RANGES[field][1]


_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _printable(value: Any) -> Any:
    """Names lose their control characters (PostgreSQL refuses U+0000 in JSON and text)."""
    if isinstance(value, str):
        return _CONTROL_RE.sub("", value)
    return value


def _in_range(value: Any, info: ValidationInfo) -> Any:
    """Refuse a number outside its field's range, or not finite, before pydantic's own
    constraints: "must be within 0.1 – 1,000,000 GB (got 1e+308)"."""
    field = info.field_name
    if value is None or isinstance(value, bool) or field not in INPUT_RANGES:
        return value
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return value  # not a number at all: pydantic's own type error says so
    low, high, _unit = INPUT_RANGES[field]
    if not math.isfinite(number) or not low <= number <= high:
        raise PydanticCustomError(
            "out_of_range",
            "must be within {range} (got {got})",
            {"range": input_range_text(field), "got": f"{number:g}"},
        )
    return value


class _TypedInput(BaseModel):
    """What a person types: every number named in INPUT_RANGES refused outside its range (or
    not finite) before pydantic's own constraints, and the name printable."""

    @field_validator("*", mode="before")
    @classmethod
    def _within_range(cls, value: Any, info: ValidationInfo) -> Any:
        return _in_range(value, info)

    @field_validator("name", mode="before", check_fields=False)
    @classmethod
    def _name_printable(cls, value: Any) -> Any:
        return _printable(value)


class KvPrecision(StrEnum):
    """The KV cache's format; unset, it follows the weights as serving engines do."""

    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"
    FP4 = "fp4"

    @property
    def bytes_per_value(self) -> float:
        # FP4 KV: E2M1 plus an E4M3 scale per 16 values = 0.5625 bytes (SGLang fp4_e2m1)
        return {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "fp4": 0.5625}[self.value]


class ModelShape(_TypedInput):
    """A model described inline instead of by preset name."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(default="Custom model", max_length=NAME_MAX_CHARS)
    params_b: float = Field(gt=0, le=_most("params_b"))
    active_params_b: float | None = Field(default=None, gt=0, le=_most("active_params_b"))
    layers: int | None = Field(default=None, gt=0, le=_most("layers"))
    kv_heads: int | None = Field(default=None, gt=0, le=_most("kv_heads"))
    head_dim: int | None = Field(default=None, gt=0, le=_most("head_dim"))
    kv_lora_rank: int | None = Field(default=None, gt=0, le=_most("kv_lora_rank"))
    qk_rope_head_dim: int | None = Field(default=None, gt=0, le=_most("qk_rope_head_dim"))
    sliding_window: int | None = Field(default=None, gt=0, le=_most("sliding_window"))
    sliding_layers_fraction: float | None = Field(default=None, ge=0, le=1)
    # read from a pasted Hugging Face config.json (apps/review/engine/hf_config.py)
    hidden_size: int | None = Field(default=None, gt=0)
    attn_heads: int | None = Field(default=None, gt=0)
    max_context: int | None = Field(default=None, gt=0)
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    native_dtype: str = ""
    from_config: bool = False


class Workload(_TypedInput):
    """The load: what the customer will run (CONTRACT.md "Workload")."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(default="Workload", max_length=NAME_MAX_CHARS)
    kind: WorkloadKind
    model: str | ModelShape | None = None
    precision: Precision = Precision.BF16
    # the KV cache's format; null follows the weights (FP8 and FP4 checkpoints keep FP8 KV)
    kv_precision: KvPrecision | None = None
    # the prompt each request arrives with (RAG: long); null = the whole context
    prompt_tokens: int | None = Field(default=None, gt=0, le=10_000_000)
    ttft_target_ms: float | None = Field(default=None, gt=0, le=3_600_000)
    context_tokens: int = Field(default=8192, gt=0, le=_most("context_tokens"))
    concurrent_users: int = Field(default=1, ge=1, le=_most("concurrent_users"))
    tokens_per_sec_per_user: float = Field(default=10.0, gt=0, le=_most("tokens_per_sec_per_user"))
    memory_gb: float | None = Field(default=None, gt=0, le=_most("memory_gb"))
    fp64_tflops: float | None = Field(default=None, gt=0, le=_most("fp64_tflops"))

    # The load's time (buy_or_rent): how long the project runs and how many hours a day the GPUs
    # are busy. All optional; without any of them the review is as it always was.
    duration_weeks: float | None = Field(default=None, gt=0, le=5200)
    duration_months: float | None = Field(default=None, gt=0, le=1200)
    duration_ongoing: bool = False
    busy_hours_per_day: float | None = Field(default=None, gt=0, le=24)
    rent_usd_per_gpu_hour: float | None = Field(default=None, gt=0, le=1000)

    @model_validator(mode="after")
    def _one_duration(self) -> Workload:
        given = [
            name
            for name, value in (
                ("duration_weeks", self.duration_weeks),
                ("duration_months", self.duration_months),
                ("duration_ongoing", self.duration_ongoing or None),
            )
            if value is not None
        ]
        if len(given) > 1:
            raise ValueError(f"give one of {', '.join(given)}, not several")
        return self

    @property
    def states_time(self) -> bool:
        """Whether the load says how long or how many hours: only then is buy_or_rent asked."""
        return any(
            value is not None
            for value in (
                self.duration_weeks,
                self.duration_months,
                self.duration_ongoing or None,
                self.busy_hours_per_day,
                self.rent_usd_per_gpu_hour,
            )
        )

    @field_validator("model", mode="before")
    @classmethod
    def _blank_model_is_none(cls, value: Any) -> Any:
        """A blank name is no model; a Hugging Face config.json object becomes its shape."""
        value = _printable(value)
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, str) and len(value) > NAME_MAX_CHARS:
            raise ValueError(f"a model name has at most {NAME_MAX_CHARS} characters")
        # a shape we stored ourselves ({"from_config": true, …}) is read back as that shape
        if isinstance(value, dict) and is_hf_config(value) and value.get("from_config") is not True:
            return ModelShape(**shape_fields_from_hf_config(value))
        return value


FeedVolts = Literal[120, 208, 230, 240, 400, 415]


class Facility(_TypedInput):
    """The building: a data-center row or an office desk (CONTRACT.md "Facility")."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(default="Facility", max_length=NAME_MAX_CHARS)
    site: Literal["datacenter", "office"] = "datacenter"
    rack_power_kw: float | None = Field(default=None, gt=0, le=_most("rack_power_kw"))
    racks_available: int | None = Field(default=None, ge=0, le=_most("racks_available"))
    cooling: Literal["air", "air_rdhx", "liquid"] = "air"
    floor_load_lb_per_sqft: float | None = Field(
        default=None, gt=0, le=_most("floor_load_lb_per_sqft")
    )
    circuit_volts: float | None = Field(default=None, gt=0, le=_most("circuit_volts"))
    circuit_amps: float | None = Field(default=None, gt=0, le=_most("circuit_amps"))

    # --- the building in Facilities' own words (all optional; today's fields still work) ---
    # Per-rack feeds: usable kW = feeds per side × V × A (× √3 three-phase) × continuous share.
    # With A/B feeds either side must carry the whole rack, so the usable kW is one side's.
    feed_volts: FeedVolts | None = None
    feed_phase: Literal["single", "three"] = "single"
    feed_amps: float | None = Field(default=None, gt=0, le=800)
    feeds_per_side: int = Field(default=1, ge=1, le=8)
    feed_redundant: bool = False  # A/B (N+N): one side carries the rack when the other fails
    continuous_share: float = Field(default=0.8, gt=0, le=1)  # NEC 80 %; 1.0 for 100 %-rated
    rows: int | None = Field(default=None, ge=0)
    # Cooling plant: what the room's air removes per rack, what a rear door removes, the liquid
    # loop's CDU capacity (for every liquid-cooled rack together) and its supply temperature.
    air_kw_per_rack: float | None = Field(default=None, gt=0, le=200)
    rdhx_kw_per_rack: float | None = Field(default=None, gt=0, le=200)
    cdu_kw: float | None = Field(default=None, gt=0, le=100_000)
    facility_water_c: float | None = Field(default=None, ge=2, le=70)
    floor_load_kg_per_m2: float | None = Field(default=None, gt=0)
    rack_footprint_sqft: float | None = Field(default=None, gt=0, le=100)
    rack_footprint_m2: float | None = Field(default=None, gt=0, le=10)
    electricity_usd_per_kwh: float | None = Field(default=None, ge=0, le=10)
    grid_kg_co2_per_kwh: float | None = Field(default=None, ge=0, le=2)
    pue: float | None = Field(default=None, ge=1, le=4)
    units: Literal["imperial", "si"] = "imperial"

    @model_validator(mode="after")
    def _feed_complete(self) -> Facility:
        if (self.feed_volts is None) != (self.feed_amps is None):
            missing = "feed_amps" if self.feed_amps is None else "feed_volts"
            raise ValueError(f"a rack feed needs both feed_volts and feed_amps ({missing} missing)")
        return self


Level = Literal["calm", "raised", "high", "crisis"]
LEVEL_ORDER: tuple[str, ...] = ("calm", "raised", "high", "crisis")


__all__ = [
    "SEVERITY_ORDER",
    "LineProblem",
    "MatchName",
    "Money",
    "QuoteLineOut",
    "QuoteSummary",
    "QuotedSystem",
    "Severity",
]


class Finding(BaseModel):
    check: str
    severity: Severity
    title: str
    detail: str
    metrics: dict[str, Any] = Field(default_factory=dict)
    formula: str = ""
    lever: str = ""  # what fixes it: precision, GPU, count, facility
    sources: list[str] = Field(default_factory=list)  # "dgx-b200.power_max_kw: 14.3 (verified)"
    unverified: list[str] = Field(default_factory=list)


class RackLoad(BaseModel):
    """One rack as the drawing shows it: its draw against its limit, split by where the heat
    goes; `usable` is False for a rack that cannot take even one of its systems."""

    system: str
    systems: int
    kw: float
    limit_kw: float | None = None
    liquid_kw: float = 0.0
    air_kw: float = 0.0
    usable: bool = True


class BuyOrRent(BaseModel):
    """Buying against renting the same GPUs for the busy hours, month by month."""

    months: float
    gpus: int
    busy_hours_per_day: float
    rent_usd_per_gpu_hour: float
    purchase_usd: float
    power_usd_per_month: float
    rent_usd_per_month: float
    buy_total_usd: float
    rent_total_usd: float
    break_even_months: float | None = None  # None when renting stays cheaper for ever
    cheaper: Literal["buy", "rent"]
    period: str = ""  # as the load states it: "6 weeks", "ongoing, compared over 36 months"


class Sizing(BaseModel):
    job_memory_gb: float | None = None
    # What must ride in one NVLink domain: the whole job for training; for inference one copy
    # of the weights plus one full-length conversation (the other users ride in other copies).
    domain_job_memory_gb: float | None = None
    nvlink_domain_memory_gb: float | None = None
    decode_tokens_per_sec_bound: float | None = None
    tokens_per_sec_per_user: float | None = None
    max_concurrent_users: int | None = None
    fp64_tflops: float | None = None
    utilization_pct: float | None = None
    power_kw: float | None = None
    rack_power_kw: float | None = None
    racks_needed: int | None = None  # null when no rack here can take one of the systems
    weight_lb: float | None = None
    # The building in Facilities' words (null where it does not apply)
    no_rack_fits: list[str] | None = None  # systems no rack in this room can take one of
    usable_rack_kw: float | None = None  # what one rack may draw: qualified kW or its feeds
    heat_btu_per_hr: float | None = None  # every system at maximum, 1 kW = 3,412.14 BTU/h
    liquid_kw: float | None = None  # heat into the liquid loop (liquid-cooled systems)
    air_kw: float | None = None  # heat into the room's air
    typical_kw: float | None = None
    energy_kwh_per_year: float | None = None  # typical kW × 8,760 h × PUE
    energy_cost_per_year: Money | None = None
    co2_tonnes_per_year: float | None = None
    racks: list[RackLoad] | None = None  # each rack's kW against its limit (the drawing)
    buy_or_rent: BuyOrRent | None = None  # cumulative cost, buy vs rent (the chart)


class Pressure(BaseModel):
    level: Level
    reasons: list[str] = Field(default_factory=list)


class BloodPressure(BaseModel):
    finance: Pressure
    facilities: Pressure


class Recommendation(BaseModel):
    sku: str
    name: str
    quantity: int
    nvlink_domain_gpus: int
    nvlink_domain_memory_gb: float
    power_kw: float | None = None
    why: str
    gpu: str | None = None
    vehicle: str = ""
    estimated_cost_usd: Money | None = None
    is_quoted: bool = False


class ReviewReport(BaseModel):
    """The one report the CLI, API, pages and PDF all show."""

    schema_version: int = 1
    verdict: Literal["pass", "warn", "fail"]
    quote: QuoteSummary
    systems: list[QuotedSystem]
    sizing: Sizing
    findings: list[Finding]
    blood_pressure: BloodPressure
    recommendation: Recommendation | None = None
    workload: Workload | None = None
    facility: Facility | None = None
    catalog_version: str = ""
    #: the catalog revision the figures came from (bumped on every catalog edit); None when the
    #: review ran on the bundled fixture rather than the database catalog
    catalog_revision: int | None = None

    def worst(self, check: str) -> str | None:
        severities = [f.severity for f in self.findings if f.check == check]
        return max(severities, key=SEVERITY_ORDER.index) if severities else None


def verdict_for(findings: list[Finding]) -> Literal["pass", "warn", "fail"]:
    """fail when any finding is critical, warn when any is a warning, else pass."""
    severities = {f.severity for f in findings}
    if "critical" in severities:
        return "fail"
    if "warning" in severities:
        return "warn"
    return "pass"
