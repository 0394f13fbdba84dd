"""How the cost grows: the engine, the matcher and the recommendation against bigger catalogs
and longer quotes, each curve with its growth exponent k (time ∝ n^k).

The synthetic catalogs: the bundled catalog's systems in key order; a catalog of n systems is
the first n of them with their parts, and past the bundled count, copies of every system and
its parts under new keys, names, part numbers and aliases (" S17" appended), so that an alias
copied from "DGX B200" never makes "DGX B200" ambiguous. Every catalog holds the 30-system one,
and the quotes are made (bench/quotes.py's mix) from the 30-system catalog's parts, so the
same lines are matched against each size.

- matcher: `lines_match` on the quote's (part number, description) pairs, the index built
  beforehand (once per catalog, as in a worker; its build time is reported beside);
- recommendation: `recommend_from_context` on the review's context;
- engine: the whole `review(...)` (sizing, checks, blood pressure, recommendation).

Each point is the median of as many calls as fit in ~0.3 s (at least 3, after a warm-up), in
CPU time (time.process_time: a shared machine does not stretch it). k is the least-squares
slope of log(time) on log(n).

    python -m bench.growth        # prints BENCH-RESULT {...}
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.common import django_setup, result_emit

SYSTEMS = (30, 300, 3000)
LINES = (10, 100, 1000, 10_000)
FIXED_LINES = 100
POINT_S = 0.3


def growth_exponent(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(t) on log(n): 1.0 is linear, 2.0 quadratic.

    Example: (10, 1 ms), (100, 10 ms), (1000, 100 ms) → k = 1.0."""
    pairs = [(math.log(n), math.log(t)) for n, t in points if n > 0 and t > 0]
    if len(pairs) < 2:
        return None
    mean_x = sum(x for x, _ in pairs) / len(pairs)
    mean_y = sum(y for _, y in pairs) / len(pairs)
    var = sum((x - mean_x) ** 2 for x, _ in pairs)
    if var == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in pairs) / var


def cpu_ms(call: Callable[[], object], *, budget_s: float = POINT_S, least: int = 3) -> float:
    """Median CPU milliseconds per call, after one warm-up call."""
    call()
    times: list[float] = []
    stop = time.perf_counter() + budget_s
    while len(times) < least or time.perf_counter() < stop:
        started = time.process_time()
        call()
        times.append((time.process_time() - started) * 1000)
        if len(times) >= 200:
            break
    return statistics.median(times)


def catalog_of(systems: int) -> Any:
    """A catalog of `systems` systems (module doc): the bundled one cut down or copied up."""
    from apps.catalog.snapshot import snapshot_from_fixture

    bundled = snapshot_from_fixture()
    ordered = sorted(bundled.systems, key=lambda s: s.key)
    parts_of: dict[str, list[Any]] = {}
    for part in bundled.parts:
        if part.system:
            parts_of.setdefault(part.system, []).append(part)
    free_parts = [p for p in bundled.parts if not p.system]  # GPU cards and bridges
    chosen = list(ordered[:systems])
    parts = [p for s in chosen for p in parts_of.get(s.key, [])]
    copy = 0
    while len(chosen) < systems:
        for spec in ordered:
            if len(chosen) >= systems:
                break
            copy += 1
            tag = f"S{copy}"
            key = f"{spec.key}-{tag.lower()}"
            chosen.append(spec.model_copy(update={"key": key, "name": f"{spec.name} {tag}"}))
            parts += [
                part.model_copy(
                    update={
                        "system": key,
                        "part_number": f"{part.part_number}-{tag}",
                        "aliases": tuple(f"{a} {tag}" for a in part.aliases),
                        "description": f"{part.description} {tag}" if part.description else "",
                    }
                )
                for part in parts_of.get(spec.key, [])
            ]
    return bundled.model_copy(
        update={"systems": tuple(chosen), "parts": tuple([*parts, *free_parts])}
    )


def _parsed(lines: int, catalog: Any) -> Any:
    from apps.quotes.parsing.readers_local import quote_parse_local
    from bench.quotes import quote_csv, quote_rows

    return quote_parse_local(quote_csv(quote_rows(lines, catalog)), "quote.csv")


def _review_input(parsed: Any, catalog: Any) -> Any:
    from apps.quotes.intake import quote_intake_parsed
    from apps.review.engine.review import ReviewInput
    from apps.review.engine.schemas import Facility, Workload
    from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS

    intake = quote_intake_parsed(parsed, catalog)
    return ReviewInput(
        quote=intake.summary,
        systems=intake.systems,
        workload=Workload.model_validate(WORKLOAD_PRESETS["internal-assistant"]),
        facility=Facility.model_validate(FACILITY_PRESETS["server-room"]),
        line_problems=intake.line_problems,
    )


def _measure(parsed: Any, catalog: Any) -> dict[str, float]:
    from apps.quotes.matching import _INDEX_CACHE, lines_match, match_index
    from apps.review.engine.checks.context import context_build
    from apps.review.engine.recommendation import recommend_from_context
    from apps.review.engine.review import review

    pairs = [(line.part_number, line.description) for line in parsed.lines]
    _INDEX_CACHE.clear()
    started = time.process_time()
    match_index(catalog)
    index_ms = (time.process_time() - started) * 1000
    inp = _review_input(parsed, catalog)
    ctx = context_build(
        workload=inp.workload,
        facility=inp.facility,
        quote=inp.quote,
        systems=inp.systems,
        line_problems=inp.line_problems,
        catalog=catalog,
    )
    return {
        "matcher_ms": round(cpu_ms(lambda: lines_match(pairs, catalog)), 3),
        "recommendation_ms": round(cpu_ms(lambda: recommend_from_context(ctx)), 3),
        "engine_ms": round(cpu_ms(lambda: review(inp, catalog)), 3),
        "index_build_ms": round(index_ms, 2),
    }


def growth_run() -> dict[str, Any]:
    catalogs = {n: catalog_of(n) for n in SYSTEMS}
    source = catalogs[SYSTEMS[0]]
    fixed = _parsed(FIXED_LINES, source)
    by_systems = {n: _measure(fixed, catalogs[n]) for n in SYSTEMS}
    from apps.catalog.snapshot import snapshot_from_fixture

    bundled = snapshot_from_fixture()
    by_lines = {n: _measure(_parsed(n, source), bundled) for n in LINES}
    curves: dict[str, Any] = {}
    for name in ("matcher", "recommendation", "engine"):
        key = f"{name}_ms"
        for axis, points in (("systems", by_systems), ("lines", by_lines)):
            series = [(n, point[key]) for n, point in points.items()]
            k = growth_exponent(series)
            curves[f"{name}_vs_{axis}"] = {
                "points_ms": {str(n): t for n, t in series},
                "k": round(k, 2) if k is not None else None,
            }
    return {
        "curves": curves,
        "index_build_ms": {str(n): p["index_build_ms"] for n, p in by_systems.items()},
        "systems": list(SYSTEMS),
        "lines": list(LINES),
        "fixed_lines": FIXED_LINES,
        "bundled_systems": len(bundled.systems),
        "clock": "CPU time (time.process_time), median per call",
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


if __name__ == "__main__":
    django_setup()
    result_emit(growth_run())
