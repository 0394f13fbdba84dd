"""Parsing and matching a 10,000-line quote, and the XLSX reader against openpyxl.

`parse_10k_*_s` is `quote_intake(data, name, catalog)`: detect the type, read the cells, find
the header, read every line, match every line to the catalog, assemble the vehicles and write
the line findings; the median of three runs after a warm-up on a 100-line file (the matcher's
index is built once per process, as in a gunicorn worker). `cpu_s` beside it is the same runs'
CPU time, which a busy shared machine does not inflate. The peak RSS is the whole child
process's, Django and the catalog included: what a worker holding that upload would reach.

    python -m bench.parsing csv|xlsx|readers
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.common import DATA, django_setup, peak_rss_mib, result_emit

RUNS = 3


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
    baseline = peak_rss_mib()
    intake = quote_intake(data, name, catalog)
    cpu: list[float] = []
    times = _timed(lambda: quote_intake(data, name, catalog), cpu=cpu)
    parse = _timed(lambda: parse_upload(data, name))
    parsed = parse_upload(data, name)
    match = _timed(lambda: quote_intake_parsed(parsed, catalog))
    return {
        "s": round(statistics.median(times), 3),
        "cpu_s": round(statistics.median(cpu), 3),
        "runs_s": [round(t, 3) for t in times],
        "parse_only_s": round(statistics.median(parse), 3),
        "match_and_assemble_s": round(statistics.median(match), 3),
        "lines": len(intake.parsed.lines),
        "systems": len(intake.systems),
        "file_bytes": len(data),
        "rss_before_mb": round(baseline, 1),
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
