"""fp64: is there a 64-bit engine for the science?

"HPC requires efficient 64-bit precision, not the latest and greatest performant GPU." A B300,
GB300, RTX or L40S-class system quoted for FP64 work is the muscle car: critical. The finding says
which rate it counted: the tensor rate (DGEMM on tensor cores) or the vector rate.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make, gpu_figure, num
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, Severity, WorkloadKind

CHECK = "fp64"


def check(ctx: ReviewContext) -> list[Finding]:
    if not ctx.wants_fp64:
        return []
    fleet = ctx.fp64
    need = ctx.workload.fp64_tflops
    parts = []
    figures = []
    for v in ctx.gpu_vehicles:
        gpu = v.gpu
        assert gpu is not None
        rate = "tensor" if gpu.fp64_tensor_tflops else "vector"
        parts.append(f"{v.gpus} × {num(gpu.best_fp64_tflops, 2)} TFLOPS {gpu.model} ({rate})")
        figures += [gpu_figure(v, "fp64_tflops"), gpu_figure(v, "fp64_tensor_tflops")]
    supply = f"{' + '.join(parts) or 'no GPUs'} = {num(fleet.best_tflops)} TFLOPS"
    metrics = {
        "fp64_tflops": round(fleet.best_tflops, 2),
        "fp64_vector_tflops": round(fleet.vector_tflops, 2),
        "fp64_tensor_tflops": round(fleet.tensor_tflops, 2),
        "fp64_needed_tflops": need,
        "gpus": fleet.gpus,
    }
    muscle = ", ".join(fleet.muscle_cars)
    is_hpc = ctx.workload.kind == WorkloadKind.HPC
    lever = (
        "An FP64 engine: H200 or H100 (67 TFLOPS tensor each), B200 (37) or GB200 (40); "
        "B300/GB300, RTX and L40S are not a significant source of FP64."
    )
    if need is None:
        severity: Severity = "warning" if fleet.muscle_cars else "info"
        title = "No FP64 target given"
        detail = f"An HPC load with no fp64_tflops target: the quote brings {supply}."
        if fleet.muscle_cars:
            detail += (
                f" {muscle} {'has' if len(fleet.muscle_cars) == 1 else 'have'} almost no FP64."
            )
        return [
            finding_make(
                CHECK,
                severity,
                title,
                detail,
                metrics=metrics,
                formula=supply,
                lever=lever,
                figures=figures,
            )
        ]
    formula = f"{supply} vs {num(need)} needed"
    if fleet.best_tflops < need or (is_hpc and fleet.muscle_cars):
        short = fleet.best_tflops < need
        title = (
            "Needed a cement truck, bought a muscle car" if fleet.muscle_cars else "Not enough FP64"
        )
        detail = (
            f"The science needs {num(need)} TFLOPS of sustained FP64; the quote brings {supply}."
            if short
            else f"The quote reaches {num(need)} TFLOPS only by count: {supply}."
        )
        if fleet.muscle_cars:
            detail += (
                f" {muscle} is built for low-precision AI: keynote petaflops, no place to put the "
                "64-bit load."
            )
        return [
            finding_make(
                CHECK,
                "critical",
                title,
                detail,
                metrics=metrics,
                formula=formula,
                lever=lever,
                figures=figures,
            )
        ]
    if fleet.vector_tflops < need:
        return [
            finding_make(
                CHECK,
                "info",
                "Enough FP64 only at the tensor rate",
                f"The quote brings {supply} on tensor cores but {num(fleet.vector_tflops)} TFLOPS "
                f"on the vector units, against {num(need)} needed: dense linear algebra (DGEMM) "
                "gets there, stencil and particle codes may not.",
                metrics=metrics,
                formula=formula,
                lever="Check how much of the code runs as DGEMM on tensor cores.",
                figures=figures,
            )
        ]
    return [
        finding_make(
            CHECK,
            "ok",
            "Enough FP64 for the science",
            f"The job needs {num(need)} TFLOPS of FP64; the quote brings {supply}"
            f" ({num(fleet.vector_tflops)} on the vector units).",
            metrics=metrics,
            formula=formula,
            figures=figures,
        )
    ]
