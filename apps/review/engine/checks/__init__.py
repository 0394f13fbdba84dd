"""The checks: one pure function per check id, each `check(ctx) -> list[Finding]`.

A check that does not apply returns no findings (no model → no throughput; an office → no
rack_power). A check that applies returns at least one finding, `ok` when it passed.
"""

from __future__ import annotations

from collections.abc import Callable

from apps.review.engine.checks import (
    arch_portability,
    buy_or_rent,
    circuit,
    cooling,
    energy,
    floor_load,
    fp64,
    memory_fit,
    model_limits,
    nvlink_domain,
    quote_lines,
    rack_power,
    throughput,
    transient,
    ttft,
    utilization,
)
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding

Check = Callable[[ReviewContext], list[Finding]]

# Report order: the quote, the load (memory, domain, FP64, speed, waste), then the building.
CHECKS: tuple[tuple[str, Check], ...] = (
    (quote_lines.CHECK, quote_lines.check),
    (model_limits.CONTEXT, model_limits.context_check),
    (memory_fit.CHECK, memory_fit.check),
    (nvlink_domain.CHECK, nvlink_domain.check),
    (fp64.CHECK, fp64.check),
    (model_limits.PRECISION, model_limits.precision_check),
    (throughput.CHECK, throughput.check),
    (ttft.CHECK, ttft.check),
    (utilization.CHECK, utilization.check),
    (rack_power.CHECK, rack_power.check),
    (transient.CHECK, transient.check),
    (cooling.CHECK, cooling.check),
    (floor_load.CHECK, floor_load.check),
    (circuit.CHECK, circuit.check),
    (arch_portability.CHECK, arch_portability.check),
    (energy.CHECK, energy.check),
    (buy_or_rent.CHECK, buy_or_rent.check),
)
