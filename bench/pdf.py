"""The customer PDF: a one-line quote (one DGX B200) and a 500-line quote.

Three clocks, because a PDF is made in two ways:
- `sandboxed_s`: what the "Make the PDF" task does (`pdf_render_sandboxed`): a fresh child
  process imports WeasyPrint, loads the fonts and renders, under a 1 GiB limit. This is the
  headline figure (`pdf_1_page_s`, `pdf_500_lines_s`): the wait a user sees after the queue.
- `in_process_cold_s`: the first `report_pdf_bytes` in a process (the CLI's `--pdf`).
- `in_process_warm_s`: later renders in the same process (fonts and layout caches warm).
The peak RSS is the sandbox child's own (RUSAGE_CHILDREN after it is reaped).

    python -m bench.pdf 1|500
"""

from __future__ import annotations

import io
import resource
import statistics
import sys
import time
from typing import Any

from bench.common import DATA, django_setup, result_emit


def pdf_time(lines: int) -> dict[str, Any]:
    from pypdf import PdfReader

    from apps.catalog.snapshot import snapshot_from_fixture
    from apps.quotes.intake import quote_intake
    from apps.reports.render import report_html, report_pdf_bytes, report_static_root
    from apps.reports.sandbox import pdf_render_sandboxed
    from apps.review.engine import ReviewInput, review
    from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
    from apps.review.schemas import Facility, Workload

    catalog = snapshot_from_fixture()
    intake = quote_intake((DATA / f"quote-{lines}.csv").read_bytes(), "quote.csv", catalog)
    report = review(
        ReviewInput(
            quote=intake.summary,
            systems=intake.systems,
            workload=Workload.model_validate(WORKLOAD_PRESETS["internal-assistant"]),
            facility=Facility.model_validate(FACILITY_PRESETS["server-room"]),
            line_findings=intake.line_findings,
        ),
        catalog,
    )
    started = time.perf_counter()
    html = report_html(report)
    html_s = time.perf_counter() - started
    pdf = pdf_render_sandboxed(html, static_root=report_static_root())
    sandboxed_s = time.perf_counter() - started
    sandbox_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    started = time.perf_counter()
    report_pdf_bytes(report)
    cold_s = time.perf_counter() - started
    warm = []
    for _ in range(2):
        started = time.perf_counter()
        report_pdf_bytes(report)
        warm.append(time.perf_counter() - started)
    return {
        "sandboxed_s": round(sandboxed_s, 3),
        "html_s": round(html_s, 3),
        "in_process_cold_s": round(cold_s, 3),
        "in_process_warm_s": round(statistics.median(warm), 3),
        "sandbox_peak_rss_mb": round(sandbox_rss, 1),
        "pages": len(PdfReader(io.BytesIO(pdf)).pages),
        "pdf_bytes": len(pdf),
        "quote_lines": len(intake.summary.lines),
    }


if __name__ == "__main__":
    django_setup()
    result_emit(pdf_time(int(sys.argv[1])))
