"""The review engine alone: `review(ReviewInput(...), catalog)` on 100- and 1,000-line quotes.

The quote is read and matched once, outside the clock (that is the parser's figure); what is
timed is what a re-run from the review page pays on top: sizing, every check, the blood
pressure and the report model. Internal assistant (Qwen3-32B, 100 users at 15 tokens/s) in a
15 kW server room, the field guide's most common question.

    python -m bench.engine        # prints BENCH-RESULT {...}
"""

from __future__ import annotations

import os
import time
from typing import Any

from bench.common import DATA, django_setup, percentile, result_emit

#: (lines, most runs, seconds at most): enough runs for a steady p50, bounded in time.
PLAN = ((100, 300, 6.0), (1000, 60, 10.0))


def engine_time(lines: int, *, runs: int, budget_s: float) -> dict[str, Any]:
    from apps.catalog.snapshot import snapshot_from_fixture
    from apps.quotes.intake import quote_intake
    from apps.review.engine.review import ReviewInput, review
    from apps.review.engine.schemas import Facility, Workload
    from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS

    catalog = snapshot_from_fixture()
    intake = quote_intake((DATA / f"quote-{lines}.csv").read_bytes(), "quote.csv", catalog)
    inp = ReviewInput(
        quote=intake.summary,
        systems=intake.systems,
        workload=Workload.model_validate(WORKLOAD_PRESETS["internal-assistant"]),
        facility=Facility.model_validate(FACILITY_PRESETS["server-room"]),
        line_problems=intake.line_problems,
    )
    for _ in range(3):  # warm-up: first-call caches, lazy imports
        report = review(inp, catalog)
    times: list[float] = []
    cpu_times: list[float] = []
    deadline = time.perf_counter() + budget_s
    while len(times) < runs and time.perf_counter() < deadline:
        started, started_cpu = time.perf_counter(), time.process_time()
        review(inp, catalog)
        cpu_times.append((time.process_time() - started_cpu) * 1000)
        times.append((time.perf_counter() - started) * 1000)
    return {
        "p50_ms": round(percentile(times, 0.50), 3),
        "p95_ms": round(percentile(times, 0.95), 3),
        "p50_cpu_ms": round(percentile(cpu_times, 0.50), 3),
        "runs": len(times),
        "systems": len(intake.systems),
        "findings": len(report.findings),
        "verdict": report.verdict,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    django_setup()
    result_emit(
        {f"{lines}": engine_time(lines, runs=runs, budget_s=budget) for lines, runs, budget in PLAN}
    )


if __name__ == "__main__":
    main()
