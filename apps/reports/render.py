"""The review as HTML and as PDF: typed context -> template -> WeasyPrint behind our fetcher.

`report_pdf_bytes(report)` renders in this process (the CLI's `--pdf OUT.pdf` and the tests);
the background task renders the same HTML in a limited child process (`sandbox.py`).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from apps.catalog.snapshot import CatalogSnapshot, snapshot_from_fixture
from apps.reports.context import PageSize, ReportContext, report_context_build
from apps.reports.pdf import pdf_from_html
from apps.review.engine.schemas import ReviewReport


def report_static_root() -> Path:
    """Where `asset:` URLs are served from: the project's `static/` directory."""
    configured = getattr(settings, "REPORT_STATIC_ROOT", None)
    return Path(configured) if configured else Path(settings.BASE_DIR) / "static"


def report_html_from_context(context: ReportContext) -> str:
    return render_to_string("reports/report.html", {"ctx": context})


def report_logo_root() -> Path:
    """Where `asset:logos/<file>` is read from: the uploaded logos under MEDIA_ROOT."""
    return Path(settings.MEDIA_ROOT) / "logos"


def report_catalog() -> CatalogSnapshot:
    """The catalog the citations come from: the database's, else the bundled fixture."""
    from django.db import DatabaseError

    from apps.catalog.services import catalog_snapshot

    try:
        return catalog_snapshot()
    except DatabaseError:
        return snapshot_from_fixture()


def report_html(
    report: ReviewReport,
    *,
    generated_on: dt.date | None = None,
    page_size: PageSize = "A4",
    organisation: str = "",
    quote_date: str = "",
    reseller_name: str = "",
    reseller_logo: str = "",
    catalog: CatalogSnapshot | None = None,
) -> str:
    """The report's HTML; every piece of quote text in it is escaped by the template. The
    citations come from `catalog` (the services pass the database's), else the bundled one."""
    context = report_context_build(
        report=report,
        generated_on=generated_on or timezone.localdate(),
        page_size=page_size,
        organisation=organisation,
        quote_date=quote_date,
        catalog=catalog or snapshot_from_fixture(),
        reseller_name=reseller_name,
        reseller_logo=reseller_logo,
    )
    return report_html_from_context(context)


def report_pdf_bytes(
    report: ReviewReport,
    *,
    page_size: PageSize = "A4",
    generated_on: dt.date | None = None,
    organisation: str = "",
    quote_date: str = "",
    reseller_name: str = "",
    reseller_logo: str = "",
) -> bytes:
    """The customer PDF for `report`, rendered here and now (starts with `%PDF`)."""
    html = report_html(
        report,
        generated_on=generated_on,
        page_size=page_size,
        organisation=organisation,
        quote_date=quote_date,
        reseller_name=reseller_name,
        reseller_logo=reseller_logo,
    )
    return pdf_from_html(html, static_root=report_static_root(), logo_root=report_logo_root())
