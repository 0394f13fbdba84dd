"""What one GPU reaches of its spec sheet (apps/review/engine/sizing/calibration.py): its
dense TFLOPS at a precision, falling back to the nearest rate it has (GB10 lists only FP4, so
FP8 runs at half of it), the calibrated share of its bandwidth a decode step reaches (a desk
machine's differs from a data-center GPU's), and what unpacking 4-bit weights without FP4
tensor cores costs (gpt-oss MXFP4 on Hopper).

Pure: no ORM, no Django.
"""

from __future__ import annotations

from apps.catalog.snapshot import GpuSpec
from apps.review.engine.schemas import Precision
from apps.review.engine.sizing.calibration import calibration
from apps.review.engine.sizing.quant import FOUR_BIT_COMPUTE, native_support

#: The desk vehicles: a Spark or a workstation serves one developer, not a department.
DESK_FORM_FACTORS = frozenset({"phone", "laptop", "desktop", "workstation"})
BANDWIDTH_EFFICIENCY_DESK = calibration().bandwidth_efficiency_desk
BANDWIDTH_EFFICIENCY_DATACENTER = calibration().bandwidth_efficiency_datacenter
COMPUTE_EFFICIENCY = calibration().compute_efficiency


_RATE_FALLBACKS: dict[str, tuple[tuple[str, float], ...]] = {
    # (field, multiplier): an engine without FP8 runs FP8 weights at its BF16 rate, and so on.
    "fp4": (("fp4_tflops", 1.0), ("fp8_tflops", 1.0), ("bf16_tflops", 1.0)),
    "fp8": (("fp8_tflops", 1.0), ("bf16_tflops", 1.0), ("fp4_tflops", 0.5)),
    "bf16": (("bf16_tflops", 1.0), ("fp8_tflops", 0.5), ("fp4_tflops", 0.25), ("fp32_tflops", 1.0)),
    "fp32": (("fp32_tflops", 1.0),),
}
_RATE_FAMILY = {
    Precision.FP4: "fp4",
    Precision.INT4: "fp4",
    Precision.FP8: "fp8",
    Precision.INT8: "fp8",
    Precision.BF16: "bf16",
    Precision.FP16: "bf16",
    Precision.FP32: "fp32",
    Precision.NVFP4: "fp4",
    Precision.MXFP4: "fp4",
    # weight-only int4 and GGUF formats dequantise and multiply at the BF16 rate
    Precision.AWQ: "bf16",
    Precision.GPTQ: "bf16",
    Precision.Q4_K_M: "bf16",
    Precision.Q5_K_M: "bf16",
    Precision.Q6_K: "bf16",
    Precision.Q8_0: "bf16",
}


def compute_tflops(gpu: GpuSpec, precision: Precision) -> tuple[float | None, str]:
    """Dense TFLOPS of one GPU at the precision, and the catalog field it came from.

    GB10 lists only FP4 (~500, unverified): FP8 is taken as half of it, 250.
    """
    if precision == Precision.FP64:
        rate = gpu.best_fp64_tflops
        return (rate or None), "fp64_tensor_tflops" if gpu.fp64_tensor_tflops else "fp64_tflops"
    for field, multiplier in _RATE_FALLBACKS[_RATE_FAMILY[precision]]:
        value = getattr(gpu, field)
        if value:
            return value * multiplier, field
    return None, ""


def bandwidth_efficiency(gpu: GpuSpec) -> float:
    """The calibrated share of the spec-sheet bandwidth a decode step reaches."""
    if gpu.form_factor in DESK_FORM_FACTORS:
        return calibration().bandwidth_efficiency_desk
    return calibration().bandwidth_efficiency_datacenter


def unpacking_efficiency(gpu: GpuSpec, precision: Precision) -> float:
    """The share of the bandwidth 4-bit weights reach when the GPU has no FP4 tensor cores and
    unpacks them in the kernel (gpt-oss MXFP4 on Hopper); 1 when the format is native."""
    if precision in FOUR_BIT_COMPUTE and not native_support(gpu, precision)[0]:
        return calibration().dequant_read_efficiency
    return 1.0
