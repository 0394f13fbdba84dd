"""The review contract (shared/CONTRACT.md) as pydantic models.

Inputs (Workload, Facility), the quote as the checks see it (QuoteSummary, QuotedSystem) and the
report every face shows (ReviewReport). Field names are the contract's: add, never rename.
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
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
    FP4 = "fp4"
    INT4 = "int4"
    FP8 = "fp8"
    INT8 = "int8"
    BF16 = "bf16"
    FP16 = "fp16"
    FP32 = "fp32"
    FP64 = "fp64"

    @property
    def bytes_per_param(self) -> float:
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


class ModelShape(BaseModel):
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

    @field_validator(
        "params_b",
        "active_params_b",
        "layers",
        "kv_heads",
        "head_dim",
        "kv_lora_rank",
        "qk_rope_head_dim",
        "sliding_window",
        mode="before",
    )
    @classmethod
    def _within_range(cls, value: Any, info: ValidationInfo) -> Any:
        return _in_range(value, info)

    @field_validator("name", mode="before")
    @classmethod
    def _name_printable(cls, value: Any) -> Any:
        return _printable(value)


class Workload(BaseModel):
    """The load: what the customer will run (CONTRACT.md "Workload")."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(default="Workload", max_length=NAME_MAX_CHARS)
    kind: WorkloadKind
    model: str | ModelShape | None = None
    precision: Precision = Precision.BF16
    context_tokens: int = Field(default=8192, gt=0, le=_most("context_tokens"))
    concurrent_users: int = Field(default=1, ge=1, le=_most("concurrent_users"))
    tokens_per_sec_per_user: float = Field(default=10.0, gt=0, le=_most("tokens_per_sec_per_user"))
    memory_gb: float | None = Field(default=None, gt=0, le=_most("memory_gb"))
    fp64_tflops: float | None = Field(default=None, gt=0, le=_most("fp64_tflops"))

    @field_validator(
        "context_tokens",
        "concurrent_users",
        "tokens_per_sec_per_user",
        "memory_gb",
        "fp64_tflops",
        mode="before",
    )
    @classmethod
    def _within_range(cls, value: Any, info: ValidationInfo) -> Any:
        return _in_range(value, info)

    @field_validator("name", mode="before")
    @classmethod
    def _name_printable(cls, value: Any) -> Any:
        return _printable(value)

    @field_validator("model", mode="before")
    @classmethod
    def _blank_model_is_none(cls, value: Any) -> Any:
        value = _printable(value)
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, str) and len(value) > NAME_MAX_CHARS:
            raise ValueError(f"a model name has at most {NAME_MAX_CHARS} characters")
        return value


class Facility(BaseModel):
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

    @field_validator(
        "rack_power_kw",
        "racks_available",
        "floor_load_lb_per_sqft",
        "circuit_volts",
        "circuit_amps",
        mode="before",
    )
    @classmethod
    def _within_range(cls, value: Any, info: ValidationInfo) -> Any:
        return _in_range(value, info)

    @field_validator("name", mode="before")
    @classmethod
    def _name_printable(cls, value: Any) -> Any:
        return _printable(value)


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
    racks_needed: int | None = None
    weight_lb: float | None = None


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
