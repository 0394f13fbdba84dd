"""The review contract (shared/CONTRACT.md) as pydantic models.

Inputs (Workload, Facility), the quote as the checks see it (QuoteSummary, QuotedSystem) and the
report every face shows (ReviewReport). Field names are the contract's: add, never rename.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

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


class ModelShape(BaseModel):
    """A model described inline instead of by preset name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "Custom model"
    params_b: float = Field(gt=0)
    active_params_b: float | None = Field(default=None, gt=0)
    layers: int | None = Field(default=None, gt=0)
    kv_heads: int | None = Field(default=None, gt=0)
    head_dim: int | None = Field(default=None, gt=0)
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_layers_fraction: float | None = Field(default=None, ge=0, le=1)
    # read from a pasted Hugging Face config.json (apps/review/engine/hf_config.py)
    hidden_size: int | None = Field(default=None, gt=0)
    attn_heads: int | None = Field(default=None, gt=0)
    max_context: int | None = Field(default=None, gt=0)
    num_experts: int | None = Field(default=None, gt=0)
    experts_per_token: int | None = Field(default=None, gt=0)
    native_dtype: str = ""
    from_config: bool = False


class Workload(BaseModel):
    """The load: what the customer will run (CONTRACT.md "Workload")."""

    model_config = ConfigDict(extra="forbid")

    name: str = "Workload"
    kind: WorkloadKind
    model: str | ModelShape | None = None
    precision: Precision = Precision.BF16
    # the KV cache's format; null follows the weights (FP8 and FP4 checkpoints keep FP8 KV)
    kv_precision: KvPrecision | None = None
    context_tokens: int = Field(default=8192, gt=0, le=10_000_000)
    # the prompt each request arrives with (RAG: long); null = the whole context
    prompt_tokens: int | None = Field(default=None, gt=0, le=10_000_000)
    ttft_target_ms: float | None = Field(default=None, gt=0)
    concurrent_users: int = Field(default=1, ge=1, le=10_000_000)
    tokens_per_sec_per_user: float = Field(default=10.0, gt=0, le=100_000)
    memory_gb: float | None = Field(default=None, gt=0)
    fp64_tflops: float | None = Field(default=None, gt=0)

    @field_validator("model", mode="before")
    @classmethod
    def _blank_model_is_none(cls, value: Any) -> Any:
        """A blank name is no model; a Hugging Face config.json object becomes its shape."""
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, dict) and is_hf_config(value):
            return ModelShape(**shape_fields_from_hf_config(value))
        return value


class Facility(BaseModel):
    """The building: a data-center row or an office desk (CONTRACT.md "Facility")."""

    model_config = ConfigDict(extra="forbid")

    name: str = "Facility"
    site: Literal["datacenter", "office"] = "datacenter"
    rack_power_kw: float | None = Field(default=None, gt=0)
    racks_available: int | None = Field(default=None, ge=0)
    cooling: Literal["air", "air_rdhx", "liquid"] = "air"
    floor_load_lb_per_sqft: float | None = Field(default=None, gt=0)
    circuit_volts: float | None = Field(default=None, gt=0)
    circuit_amps: float | None = Field(default=None, gt=0)


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
