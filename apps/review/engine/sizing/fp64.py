"""FP64 for the science: what the quoted engines bring to a 64-bit job.

The tensor rate (DGEMM on tensor cores) is what dense linear algebra reaches; the vector rate is
what everything else gets. A DGX H200 brings 8 × 67 = 536 TFLOPS tensor (8 × 34 = 272 vector);
a DGX B300 8 × 1.25 = 10 TFLOPS either way: "not a significant source of FP64".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from apps.review.engine.sizing.vehicle import Vehicle

LOW_FP64_PER_GPU_TFLOPS = 5.0  # B300, GB300, RTX, L40S, GB10: the muscle cars


@dataclass(frozen=True, slots=True)
class Fp64Fleet:
    vector_tflops: float
    tensor_tflops: float  # the tensor rate where there is one, else the vector rate
    gpus: int
    muscle_cars: tuple[str, ...]  # GPU models with < 5 TFLOPS FP64 each

    @property
    def best_tflops(self) -> float:
        return max(self.vector_tflops, self.tensor_tflops)


def fp64_fleet(vehicles: Sequence[Vehicle]) -> Fp64Fleet:
    """Sum FP64 over every GPU on the quote (GB10 lists none: it counts as 0)."""
    vector = tensor = 0.0
    gpus = 0
    weak: list[str] = []
    for vehicle in vehicles:
        gpu = vehicle.gpu
        if gpu is None or not vehicle.gpus:
            continue
        gpus += vehicle.gpus
        vector += vehicle.gpus * (gpu.fp64_tflops or 0.0)
        tensor += vehicle.gpus * gpu.best_fp64_tflops
        if gpu.best_fp64_tflops < LOW_FP64_PER_GPU_TFLOPS and gpu.model not in weak:
            weak.append(gpu.model)
    return Fp64Fleet(vector_tflops=vector, tensor_tflops=tensor, gpus=gpus, muscle_cars=tuple(weak))
