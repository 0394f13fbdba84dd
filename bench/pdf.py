"""The customer PDF: a one-line quote (four HGX B300 on one line) and a 500-line quote.

`pdf_1_page_s` and `pdf_500_lines_s` are `report_pdf_bytes(report)` in this process (HTML from
the template, then WeasyPrint): the render itself, what the CLI's `--pdf` and the task's child
both spend. For the one-line quote, the median of three renders (the first one included); for
500 lines, one render. The smallest report is not one page but eight (the summary, findings,
sizing and charts, vehicles, the load and the building, the right fit, sources, the lines);
the figure is for that whole report.

Also measured, without a goal: the task's own path, `pdf_render_sandboxed` (a fresh child
process imports WeasyPrint, loads the fonts and renders under a 1 GiB limit: `sandboxed_s`),
and that child's peak resident memory (`sandbox_peak_rss_mb`, RUSAGE_CHILDREN once it is
reaped), which is `pdf_500_lines_rss_mb`: the process that renders PDFs in production.

The peer, in the same run and on the same HTML: Chromium's print-to-PDF (Playwright
`page.pdf`, Debian's /usr/bin/chromium launched as tests/browser/conftest.py does), the
stylesheet inlined since Chromium cannot read our `asset:` URLs. `chromium_s` is the median of
the same number of `set_content` + `page.pdf` calls on a warm browser (its start-up is
reported apart); `weasyprint_vs_chromium` = our render ÷ Chromium's (below 1: we are faster).
Chromium ignores the @page margin boxes (running header, "Page n of m"), so its pages are not
quite ours; the ratio is for the order of magnitude.

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
    peer = chromium_time(html, runs)
    ours = statistics.median(wall)
    return {
        **peer,
        "weasyprint_vs_chromium": round(ours / peer["chromium_s"], 2)
        if peer.get("chromium_s")
        else None,
        "s": round(ours, 3),
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


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def chromium_time(html: str, runs: int) -> dict[str, Any]:
    """Chromium's print-to-PDF of the same HTML (module doc), or why it was not measured."""
    from pathlib import Path

    from apps.reports.render import report_static_root

    if not Path(CHROMIUM).exists():
        return {"chromium_skipped": f"{CHROMIUM} is not installed (make browser-deps)"}
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"chromium_skipped": "playwright is not installed"}
    css = (report_static_root() / "css" / "report.css").read_text()
    link = '<link rel="stylesheet" href="asset:css/report.css">'
    inlined = html.replace(link, f"<style>{css}</style>")
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        launch_s = time.perf_counter() - started
        wall: list[float] = []
        pdf = b""
        for _ in range(max(runs, 1)):
            started = time.perf_counter()
            page.set_content(inlined, wait_until="load")
            pdf = page.pdf(format="A4", print_background=True)
            wall.append(time.perf_counter() - started)
        browser.close()
    from pypdf import PdfReader

    return {
        "chromium_s": round(statistics.median(wall), 3),
        "chromium_runs_s": [round(t, 3) for t in wall],
        "chromium_launch_s": round(launch_s, 2),
        "chromium_pages": len(PdfReader(io.BytesIO(pdf)).pages),
    }


if __name__ == "__main__":
    django_setup()
    lines = int(sys.argv[1])
    result_emit(pdf_time(lines, runs=3 if lines < 100 else 1))
