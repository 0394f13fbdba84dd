"""The customer PDF: a one-line quote (one DGX B200, the smallest report) and a 500-line quote.

`pdf_1_page_s` and `pdf_500_lines_s` are `report_pdf_bytes(report)` in this process (HTML from
the template, then WeasyPrint): the render itself, what the CLI's `--pdf` and the task's child
both spend. For the one-line quote, the median of three renders (the first one included); for
500 lines, one render. The smallest report is not one page but five (cover, blood pressure,
vehicles, findings, sizing with its charts); the figure is for that whole report.

Also measured, without a goal: the task's own path, `pdf_render_sandboxed` (a fresh child
process imports WeasyPrint, loads the fonts and renders under a 1 GiB limit: `sandboxed_s`),
and that child's peak resident memory (`sandbox_peak_rss_mb`, RUSAGE_CHILDREN once it is
reaped), which is `pdf_500_lines_rss_mb`: the process that renders PDFs in production.

    python -m bench.pdf 1|500
"""

from __future__ import annotations

import io
import os
import resource
import statistics
import sys
import time
from typing import Any

from bench.common import DATA, django_setup, peak_rss_mib, result_emit


def pdf_time(lines: int, runs: int) -> dict[str, Any]:
    from pypdf import PdfReader

    from apps.catalog.snapshot import snapshot_from_fixture
    from apps.quotes.intake import quote_intake
    from apps.reports.render import report_html, report_pdf_bytes, report_static_root
    from apps.reports.sandbox import pdf_render_sandboxed
    from apps.review.engine.review import ReviewInput, review
    from apps.review.engine.schemas import Facility, Workload
    from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS

    catalog = snapshot_from_fixture()
    intake = quote_intake((DATA / f"quote-{lines}.csv").read_bytes(), "quote.csv", catalog)
    report = review(
        ReviewInput(
            quote=intake.summary,
            systems=intake.systems,
            workload=Workload.model_validate(WORKLOAD_PRESETS["internal-assistant"]),
            facility=Facility.model_validate(FACILITY_PRESETS["server-room"]),
            line_problems=intake.line_problems,
        ),
        catalog,
    )
    started = time.perf_counter()
    html = report_html(report)
    html_s = time.perf_counter() - started
    pdf = pdf_render_sandboxed(html, static_root=report_static_root())
    sandboxed_s = time.perf_counter() - started
    sandbox_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    wall, cpu = [], []
    for _ in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        report_pdf_bytes(report)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    return {
        "s": round(statistics.median(wall), 3),
        "cpu_s": round(statistics.median(cpu), 3),
        "runs_s": [round(t, 3) for t in wall],
        "sandboxed_s": round(sandboxed_s, 3),
        "html_s": round(html_s, 3),
        "sandbox_peak_rss_mb": round(sandbox_rss, 1),
        "pages": len(PdfReader(io.BytesIO(pdf)).pages),
        "pdf_bytes": len(pdf),
        "quote_lines": len(intake.summary.lines),
        "in_process_peak_rss_mb": round(peak_rss_mib(), 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


if __name__ == "__main__":
    django_setup()
    lines = int(sys.argv[1])
    result_emit(pdf_time(lines, runs=3 if lines < 100 else 1))
