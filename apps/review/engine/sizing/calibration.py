"""The speed model's fitted parameters, read from fixtures/calibration.json (written by
`make calibrate`, scripts/calibrate.py, with the grid and measurements it was fitted on).

A decode step of one replica serving `b` conversations takes
    max((weights ÷ dequantisation efficiency + KV) ÷ (bandwidth × efficiency),
        FLOPs ÷ (tensor rate × efficiency at that rate))
    where weights = dense part + routed experts touched ÷ expert efficiency, and 4-bit
    weights a GPU cannot multiply natively (MXFP4/NVFP4 before Blackwell) are unpacked on the
    fly at the dequantisation efficiency;
    + layers × (per-layer overhead + per-layer collective × log2(GPUs of the replica))
    + MoE layers × routing and expert dispatch
    + MLA layers × latent attention's extra kernels (fitted on DeepSeek-R1, the grid's one MLA
      model; Kimi K2 and the other DeepSeek V3 versions inherit it)
    + a fixed per-step cost (scheduling, sampling, the launch of the step).
Prefill (time to first token) is compute: prompt × 2 × active parameters ÷ (rate × prefill
efficiency), plus the same per-layer floor once.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CALIBRATION_PATH = (
    Path(__file__).resolve().parent.parent.parent.parent.parent / "fixtures" / "calibration.json"
)


@dataclass(frozen=True, slots=True)
class Calibration:
    bandwidth_efficiency_datacenter: float = 0.60
    bandwidth_efficiency_desk: float = 0.70
    compute_efficiency: float = 0.50
    prefill_efficiency: float = 0.50
    step_overhead_us: float = 0.0
    layer_overhead_us: float = 0.0
    collective_us: dict[str, float] | None = None  # per layer, by link: NVLink, PCIe, network
    moe_layer_overhead_us: float = 0.0
    expert_read_efficiency: float = 1.0  # small per-expert GEMMs reach less of the bandwidth
    compute_efficiency_fp4: float = 0.50  # share of the FP4 tensor rate a decode GEMM reaches
    dequant_read_efficiency: float = 1.0  # 4-bit weights unpacked in the kernel (no FP4 cores)
    mla_layer_overhead_us: float = 0.0  # latent attention's extra kernels per layer (DeepSeek)
    source: str = "defaults (no calibration file)"

    def collective(self, link: str, gpus: int = 2) -> float:
        """One layer's collective on the link, in µs: a tree of log2(GPUs) steps (2 GPUs one
        step, 8 GPUs three)."""
        if gpus < 2:
            return 0.0
        return (self.collective_us or {}).get(link, 0.0) * math.log2(gpus)


@cache
def calibration() -> Calibration:
    """The committed calibration; the defaults when the file is missing."""
    if not CALIBRATION_PATH.exists():
        return Calibration()
    data = json.loads(CALIBRATION_PATH.read_text(encoding="utf-8"))
    params = data["parameters"]
    return Calibration(
        bandwidth_efficiency_datacenter=params["bandwidth_efficiency_datacenter"],
        bandwidth_efficiency_desk=params["bandwidth_efficiency_desk"],
        compute_efficiency=params["compute_efficiency"],
        prefill_efficiency=params["prefill_efficiency"],
        step_overhead_us=params["step_overhead_us"],
        layer_overhead_us=params["layer_overhead_us"],
        collective_us=dict(params["collective_us"]),
        moe_layer_overhead_us=params["moe_layer_overhead_us"],
        expert_read_efficiency=params.get("expert_read_efficiency", 1.0),
        compute_efficiency_fp4=params.get("compute_efficiency_fp4", params["compute_efficiency"]),
        dequant_read_efficiency=params.get("dequant_read_efficiency", 1.0),
        mla_layer_overhead_us=params.get("mla_layer_overhead_us", 0.0),
        source=data.get("provenance", {}).get("summary", str(CALIBRATION_PATH.name)),
    )
