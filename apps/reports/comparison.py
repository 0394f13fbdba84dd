"""A saved comparison as one PDF page: the load, the room, the better buy and why, then one row
per quote (fit, money, both gauges' levels, what it gets wrong).

The same pipeline as the review PDF: a template styled by report.css, rendered by WeasyPrint in
the limited child process (`sandbox.py`) behind the static-only fetcher. The numbers are the
engine's `Comparison` (apps.review.engine.compare), in the words of apps.words.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.template.loader import render_to_string

from apps.reports.context import PageSize
from apps.reports.page import load_sentence, room_sentence
from apps.reports.render import report_logo_root, report_static_root
from apps.reports.sandbox import pdf_render_sandboxed
from apps.review.engine.compare import Comparison
from apps.review.engine.schemas import ReviewReport
from apps.words import LEVEL_LABELS, VERDICT_LABELS, money_format


@dataclass(frozen=True, slots=True)
class ComparedRow:
    number: int  # quote 1, 2… in the order given
    title: str  # "Acme Research · Northwind Q-1042 · 2026-11-03"
    rank: int
    is_best: bool
    systems: str
    verdict: str
    verdict_label: str
    total: str
    cost: str  # "USD 1,005.86 per GB of one-domain memory" or "serves none of it"
    finance: str
    facilities: str
    headline: str


@dataclass(frozen=True, slots=True)
class ComparisonPage:
    name: str
    made_by: str
    made_on: dt.date
    load: str
    room: str
    workload_name: str
    facility_name: str
    best: int  # quote number of the better buy
    why: str
    rows: list[ComparedRow]
    page_size: PageSize = "A4"
    reseller_name: str = ""


def comparison_page_build(
    *,
    comparison: Comparison,
    reports: list[ReviewReport],
    titles: list[str],
    name: str,
    made_by: str,
    made_on: dt.date,
    page_size: PageSize = "A4",
    reseller_name: str = "",
) -> ComparisonPage:
    rows = []
    for i, (line, title) in enumerate(zip(comparison.quotes, titles, strict=True)):
        cost = (
            f"{money_format(line.cost_per_served_unit, line.currency)} per "
            f"{line.unit.split(' per ', 1)[-1]}"
            if line.cost_per_served_unit is not None
            else "serves none of it"
        )
        rows.append(
            ComparedRow(
                number=i + 1,
                title=title,
                rank=line.rank,
                is_best=i == comparison.best,
                systems=line.systems or "No system on this quote matched the catalog.",
                verdict=line.verdict,
                verdict_label=VERDICT_LABELS[line.verdict],
                total=money_format(line.total, line.currency) if line.total is not None else "—",
                cost=cost,
                finance=LEVEL_LABELS[line.finance_level],
                facilities=LEVEL_LABELS[line.facilities_level],
                headline=line.headline,
            )
        )
    first = reports[0]
    return ComparisonPage(
        name=name,
        made_by=made_by,
        made_on=made_on,
        load=load_sentence(first.workload),
        room=room_sentence(first.facility),
        workload_name=first.workload.name if first.workload else "",
        facility_name=first.facility.name if first.facility else "",
        best=comparison.best + 1,
        why=comparison.why,
        rows=sorted(rows, key=lambda r: r.rank),
        page_size=page_size,
        reseller_name=reseller_name,
    )


def comparison_html(page: ComparisonPage) -> str:
    return render_to_string("reports/comparison.html", {"ctx": page})


def comparison_pdf_bytes(page: ComparisonPage) -> bytes:
    """The comparison's PDF, rendered in the sandboxed child; raises ReportRenderError."""
    return pdf_render_sandboxed(
        comparison_html(page), static_root=report_static_root(), logo_root=report_logo_root()
    )
