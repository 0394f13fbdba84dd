"""Parsing and matching a 10,000-line quote, and the XLSX reader against openpyxl.

`parse_10k_*_s` is `quote_intake(data, name, catalog)`: detect the type, read the cells, find
the header, read every line, match every line to the catalog, assemble the vehicles and write
the line findings; the median of three runs after a warm-up on a 100-line file (the matcher's
index is built once per process, as in a gunicorn worker). `cpu_s` beside it is the same runs'
CPU time, which a busy shared machine does not inflate. Memory is measured first, on one
intake alone: `peak_above_baseline_mb` is the peak resident set during it minus the resident
set just before (Python, Django, the catalog and the file's bytes), the goal's figure;
`tracemalloc_peak_mb` is the Python allocations' peak for the same work (measured last, on its
own run). The sandbox child that reads a workbook's cells is a process of its own, not counted
here; it was started by the previous read (`sandbox_lines_warm`), as a worker's is, and its
lines are matched as it sends them. A CSV is read in this process.
`peak_rss_mb` is the whole child's peak by the end, every run included.

    python -m bench.parsing csv|xlsx|readers
"""

from __future__ import annotations

import gc
import io
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from bench.common import DATA, django_setup, peak_rss_mib, result_emit

RUNS = 3


def rss_now_mib() -> float:
    """This process's resident set now (/proc/self/statm: pages)."""
    pages = int(open("/proc/self/statm").read().split()[1])  # noqa: SIM115 - tiny procfs read
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _timed(
    work: Callable[[], object], runs: int = RUNS, cpu: list[float] | None = None
) -> list[float]:
    """Wall-clock seconds per run; the CPU seconds of each run go to `cpu` when given."""
    times = []
    for _ in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        work()
        times.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.process_time() - cpu_started)
    return times


def intake_time(kind: str) -> dict[str, Any]:
    from apps.catalog.snapshot import snapshot_from_fixture
    from apps.quotes.intake import quote_intake, quote_intake_parsed
    from apps.quotes.parsing import parse_upload

    catalog = snapshot_from_fixture()
    name = f"quote.{kind}"
    quote_intake((DATA / f"quote-100.{kind}").read_bytes(), name, catalog)  # warm-up
    data = (DATA / f"quote-10000.{kind}").read_bytes()
    # Memory first, one intake on its own: the resident set before it (the process, Django,
    # the catalog and the file's bytes) and the peak during it; nothing else is alive then.
    gc.collect()
    baseline = rss_now_mib()
    intake = quote_intake(data, name, catalog)
    above = peak_rss_mib() - baseline
    lines, systems = len(intake.parsed.lines), len(intake.systems)
    del intake
    gc.collect()
    cpu: list[float] = []
    times = _timed(lambda: quote_intake(data, name, catalog), cpu=cpu)
    parse = _timed(lambda: parse_upload(data, name))
    parsed = parse_upload(data, name)
    match = _timed(lambda: quote_intake_parsed(parsed, catalog))
    gc.collect()
    tracemalloc.start()
    quote_intake(data, name, catalog)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "s": round(statistics.median(times), 3),
        "cpu_s": round(statistics.median(cpu), 3),
        "runs_s": [round(t, 3) for t in times],
        "parse_only_s": round(statistics.median(parse), 3),
        "match_and_assemble_s": round(statistics.median(match), 3),
        "lines": lines,
        "systems": systems,
        "file_bytes": len(data),
        "rss_before_mb": round(baseline, 1),
        "peak_above_baseline_mb": round(above, 1),
        "tracemalloc_peak_mb": round(traced_peak / 2**20, 1),
        "peak_rss_mb": round(peak_rss_mib(), 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def readers_time() -> dict[str, Any]:
    """Reading every cell of the 10,000-line workbook: python-calamine (what the parser uses)
    against openpyxl in read-only mode. Best of three each: the readers, not the machine."""
    import openpyxl
    import python_calamine

    data = (DATA / "quote-10000.xlsx").read_bytes()

    def calamine_read() -> int:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        return len(list(workbook.get_sheet_by_index(0).iter_rows()))

    def openpyxl_read() -> int:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            return len(list(workbook.worksheets[0].iter_rows(values_only=True)))
        finally:
            workbook.close()

    rows = (calamine_read(), openpyxl_read())
    calamine = min(_timed(calamine_read))
    openpyxl_s = min(_timed(openpyxl_read))
    return {
        "calamine_s": round(calamine, 4),
        "openpyxl_read_only_s": round(openpyxl_s, 4),
        "speedup": round(openpyxl_s / calamine, 1),
        "rows": rows,
    }


def main(mode: str) -> None:
    django_setup()
    if mode == "readers":
        result_emit(readers_time())
    else:
        result_emit(intake_time(mode))


if __name__ == "__main__":
    main(sys.argv[1])
