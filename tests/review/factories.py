"""Small builders for reviews with a hand-made report, so workflow and queue tests don't need
the parser or the engine."""

from __future__ import annotations

import hashlib
import itertools
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from apps.quotes.models import Quote, QuoteFile, QuoteStatus
from apps.review.basis import basis_of
from apps.review.engine.schemas import (
    BloodPressure,
    Facility,
    Finding,
    Pressure,
    QuoteSummary,
    ReviewReport,
    Sizing,
    Workload,
    verdict_for,
)
from apps.review.finance_rule import finance_reasons
from apps.review.models import Review, ReviewStatus
from apps.review.money import spend_of
from apps.review.services import catalog_revision
from apps.sites.models import Organisation

_counter = itertools.count(1)

WORKLOAD = Workload(name="Internal assistant", kind="inference", model="Qwen3-32B")
FACILITY = Facility(name="Server room", rack_power_kw=15, racks_available=4)

RACK_POWER_CRITICAL = Finding(
    check="rack_power",
    severity="critical",
    title="The semi does not fit the lot",
    detail="One DGX B200 draws 14.3 kW; the rack gives 2 kW.",
)
MEMORY_OK = Finding(check="memory", severity="ok", title="Memory fits", detail="32.8 GB of 1440")


def report_make(
    findings: list[Finding] | None = None,
    *,
    total: str = "515000.00",
    finance: str = "high",
    facilities: str = "crisis",
) -> ReviewReport:
    findings = [MEMORY_OK, RACK_POWER_CRITICAL] if findings is None else findings
    return ReviewReport(
        verdict=verdict_for(findings),
        quote=QuoteSummary(vendor="Northwind", quote_number="Q-1", total=Decimal(total)),
        systems=[],
        sizing=Sizing(),
        findings=findings,
        blood_pressure=BloodPressure(
            finance=Pressure(level=finance, reasons=["$515,000 is over the $100,000 line"]),
            facilities=Pressure(level=facilities, reasons=["14.3 kW in a 2 kW rack"]),
        ),
        workload=WORKLOAD,
        facility=FACILITY,
    )


def quote_make(
    *, organisation: Organisation, user: User, content: bytes | None = None, **fields: object
) -> Quote:
    """A quote whose original is really in storage (uploads/<sha256>), as the upload stores it."""
    n = next(_counter)
    data = content or f"sku,qty\nDGXB200,{n}\n".encode()
    sha = hashlib.sha256(data).hexdigest()
    blob = f"uploads/{sha}"
    if not default_storage.exists(blob):
        default_storage.save(blob, ContentFile(data))
    source, _ = QuoteFile.objects.get_or_create(
        sha256=sha,
        defaults={
            "blob": blob,
            "size": len(data),
            "detected_type": "csv",
            "content_type": "text/csv",
        },
    )
    values: dict[str, object] = {
        "display_name": f"quote-{n}.csv",
        "vendor": "Northwind",
        "quote_number": f"Q-{n}",
        "total": Decimal("515000.00"),
        "status": QuoteStatus.PARSED,
    }
    values.update(fields)
    return Quote.objects.create(
        organisation=organisation, source_file=source, uploaded_by=user, **values
    )


def review_make(
    *,
    organisation: Organisation,
    user: User,
    report: ReviewReport | None = None,
    status: ReviewStatus | None = None,
    quote: Quote | None = None,
) -> Review:
    report = report or report_make()
    quote = quote or quote_make(organisation=organisation, user=user)
    total = Decimal(report.quote.total) if report.quote.total is not None else None
    spend = spend_of(total=total, currency=report.quote.currency, organisation=organisation)
    reasons = finance_reasons(
        findings=report.findings, finance_level=report.blood_pressure.finance.level, spend=spend
    )
    flagged = bool(reasons)
    return Review.objects.create(
        quote=quote,
        organisation=organisation,
        workload=WORKLOAD.model_dump(mode="json"),
        facility=FACILITY.model_dump(mode="json"),
        report=report.model_dump(mode="json"),
        verdict=report.verdict,
        finance_level=report.blood_pressure.finance.level,
        facilities_level=report.blood_pressure.facilities.level,
        total_usd=report.quote.total,
        currency=report.quote.currency,
        total=total,
        needs_finance=flagged,
        finance_reasons=reasons,
        basis=basis_of(
            report,
            workload=WORKLOAD.model_dump(mode="json"),
            facility=FACILITY.model_dump(mode="json"),
            catalog_revision=catalog_revision(),
        ),
        status=status or (ReviewStatus.PENDING if flagged else ReviewStatus.CLEAR),
        created_by=user,
    )


def review_published_as_is(review: Review) -> Review:
    """Test setup: mark a review published at its current version, whatever its status (the
    service refuses a flagged one; these tests are about what the customer's pages show)."""
    Review.objects.filter(pk=review.pk).update(
        published_version=review.version,
        published_report=review.report,
        published_workload=review.workload,
        published_facility=review.facility,
        published_status=review.status,
        published_by=review.created_by,
    )
    review.refresh_from_db()
    return review
