"""arch_portability: Arm (Grace, GB10) against x86 between development and production.

"Spark uses an Arm-based CPU, so moving workloads from Spark to an x86-based server may require
rebuilding containers, validating architecture-specific dependencies, and tuning performance."
Applies when the quote has an Arm system; always info: it is engineering effort, not a mistake.
"""

from __future__ import annotations

from apps.review.engine.checks._common import finding_make
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding

CHECK = "arch_portability"


def check(ctx: ReviewContext) -> list[Finding]:
    arm = [v.name for v in ctx.vehicles if v.system.cpu_arch == "arm"]
    if not arm:
        return []
    x86 = [v.name for v in ctx.vehicles if v.system.cpu_arch == "x86"]
    names = ", ".join(dict.fromkeys(arm))
    detail = (
        f"{names} runs an Arm CPU: containers built on it are arm64. Moving the workload to an "
        "x86 server may require rebuilding containers, validating architecture-specific "
        "dependencies and tuning. The CUDA ecosystem is the commonality; production deployment "
        "still takes real engineering."
    )
    if x86:
        detail += f" This quote mixes it with x86 ({', '.join(dict.fromkeys(x86))})."
    return [
        finding_make(
            CHECK,
            "info",
            "Arm here, x86 elsewhere: rebuild the containers",
            detail,
            metrics={"arm_systems": arm, "x86_systems": x86},
            lever="Build multi-arch images (arm64 and amd64) in CI and test on the production "
            "architecture.",
        )
    ]
