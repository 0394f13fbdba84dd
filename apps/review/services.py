"""Review services: run the checks on a stored quote, keep the result, re-run it when the
workload or facility changes, and carry a Finance approval over to a revised quote only when
no finding changed.

A review is cheap to recompute (the engine is pure), so every change produces a fresh report;
what must not be lost is Finance's decision. An approved DGX B200 quote re-run with the same
findings stays approved; the same quote re-run against a 15 kW server room, where the
rack-power check goes from ok to critical, goes back to Finance.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from pydantic import BaseModel

from apps.catalog.services import catalog_snapshot
from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake_parsed
from apps.quotes.parsing.manual import GridRow, manual_quote
from apps.quotes.schemas import LineCorrection
from apps.quotes.selectors import quote_intake_stored, vendor_line_corrections, vendor_mappings
from apps.quotes.services import (
    quote_line_correct,
    quote_line_correction_undo,
    quote_manual_record,
    quote_read,
    quote_record,
)
from apps.review.engine.schemas import SEVERITY_ORDER, Facility, ReviewReport, Workload
from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.review.pipeline import review_of_intake
from apps.review.webhooks import ReviewEvent, emit_review_event
from apps.sites.access import role_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.quotes.models import Quote, QuoteLine
    from apps.sites.models import Organisation


class ReviewChanged(Exception):
    """Someone else changed the review first (HTTP 409 "quote changed")."""


class FindingChange(BaseModel):
    """One check whose worst severity differs between two reports, for the "what changed" list.

    `before`/`after` are None when the check is absent from that report.
    """

    check: str
    title: str
    before: str | None
    after: str | None
    change: Literal["added", "removed", "worse", "better"]


def review_run(*, quote: Quote, workload: Workload, facility: Facility) -> ReviewReport:
    """Review a stored quote from its stored lines (the file is parsed once, at upload),
    matched again against today's catalog and this vendor's confirmed mappings, so a catalog
    fix or a confirmed mapping shows up in the next review without reading the original."""
    catalog = catalog_snapshot()
    intake = quote_intake_stored(quote=quote, catalog=catalog)
    return review_report(intake=intake, workload=workload, facility=facility, catalog=catalog)


def review_report(
    *, intake: QuoteIntake, workload: Workload, facility: Facility, catalog: CatalogSnapshot
) -> ReviewReport:
    """The engine's report for a quote as read: every review, re-run and revision comes
    through here."""
    return review_of_intake(intake=intake, workload=workload, facility=facility, catalog=catalog)


def review_upload(
    *,
    data: bytes,
    filename: str,
    organisation: Organisation,
    uploaded_by: User,
    workload: Workload,
    facility: Facility,
    delimiter: str | None = None,
    on_read: Callable[[], None] | None = None,
    sheet: str | None = None,
) -> Review:
    """Upload → first review, the one path the upload page, the API and the demo seed share.

    The original is stored and read first; the review is computed before anything is written;
    then the quote, its lines and the review are written in one transaction, so a crash never
    leaves a quote without its review. Raises QuoteParseError (the file; a REJECTED quote is
    kept, see apps.quotes.services) and ReviewInputError (a load the catalog cannot size:
    nothing is written)."""
    catalog = catalog_snapshot()
    read = quote_read(
        data=data,
        filename=filename,
        organisation=organisation,
        uploaded_by=uploaded_by,
        delimiter=delimiter,
        catalog=catalog,
        sheet=sheet,
    )
    if on_read is not None:  # the background upload's progress: read, now reviewing
        on_read()
    report = review_report(
        intake=read.intake, workload=workload, facility=facility, catalog=catalog
    )
    with transaction.atomic():
        quote = quote_record(read=read)
        return review_store(
            quote=quote,
            workload=workload,
            facility=facility,
            report=report,
            created_by=uploaded_by,
        )


def finding_signature(report: ReviewReport) -> frozenset[tuple[str, str]]:
    """The set of (check, severity): equal signatures mean Finance would see the same findings."""
    return frozenset((f.check, f.severity) for f in report.findings)


def status_for_new_report(
    *, status: str, old: ReviewReport | None, new: ReviewReport
) -> ReviewStatus:
    """The status after a re-run or revision.

    Unchanged findings keep the status Finance gave (approved stays approved, a rejection
    stands). Changed findings go back to Finance (PENDING), or need no approval at all (CLEAR)
    when the new report passes. A first review (old is None) is CLEAR or PENDING by verdict.
    """
    if old is not None and finding_signature(old) == finding_signature(new):
        return ReviewStatus(status)
    return ReviewStatus.CLEAR if new.verdict == "pass" else ReviewStatus.PENDING


def _review_fields(report: ReviewReport) -> dict[str, object]:
    total = report.quote.total
    return {
        "report": report.model_dump(mode="json"),
        "verdict": report.verdict,
        "finance_level": report.blood_pressure.finance.level,
        "facilities_level": report.blood_pressure.facilities.level,
        "total_usd": Decimal(total)
        if total is not None and report.quote.currency == "USD"
        else None,
    }


def _audit_status_change(
    *, review: Review, user: User, action: str, reason: str, from_status: str, to_status: str
) -> None:
    """System status changes (a re-run sending an approval back to Finance) are audited too."""
    role = role_of(user)
    AuditEvent.objects.create(
        review=review,
        actor=user,
        role=role.value if role else "",
        action=action,
        reason=reason,
        from_status=from_status,
        to_status=to_status,
        version=review.quote.version,
        file_sha256=review.quote.source_file.sha256,
    )


def review_manual(
    *,
    rows: list[GridRow],
    organisation: Organisation,
    entered_by: User,
    workload: Workload,
    facility: Facility,
    quote: Quote | None = None,
) -> Review:
    """Lines typed or pasted into the grid → the same intake as a file → the first review, in
    one transaction. `quote` is the unreadable upload the lines belong to (its original stays
    attached). Raises QuoteParseError naming the grid row and column; nothing is written."""
    catalog = catalog_snapshot()
    parsed = manual_quote(rows)
    intake = quote_intake_parsed(
        parsed,
        catalog,
        mappings=vendor_mappings(vendor=parsed.vendor),
        corrections=vendor_line_corrections(
            vendor=parsed.vendor,
            lines=[(line.part_number, line.description) for line in parsed.lines],
        ),
    )
    report = review_report(intake=intake, workload=workload, facility=facility, catalog=catalog)
    with transaction.atomic():
        stored = quote_manual_record(
            intake=intake, organisation=organisation, entered_by=entered_by, quote=quote
        )
        return review_store(
            quote=stored,
            workload=workload,
            facility=facility,
            report=report,
            created_by=entered_by,
        )


def review_create(
    *, quote: Quote, workload: Workload, facility: Facility, created_by: User
) -> Review:
    """Review a quote: CLEAR when it passes, PENDING (the Finance queue) on warn or fail."""
    report = review_run(quote=quote, workload=workload, facility=facility)
    return review_store(
        quote=quote, workload=workload, facility=facility, report=report, created_by=created_by
    )


def review_store(
    *,
    quote: Quote,
    workload: Workload,
    facility: Facility,
    report: ReviewReport,
    created_by: User,
    status: ReviewStatus | None = None,
) -> Review:
    """Keep an already computed report (the API and the demo seed compute it themselves).
    A review that goes to Finance is announced to webhooks ("review.flagged")."""
    review = Review.objects.create(
        quote=quote,
        organisation=quote.organisation,
        workload=workload.model_dump(mode="json"),
        facility=facility.model_dump(mode="json"),
        status=status or status_for_new_report(status="", old=None, new=report),
        created_by=created_by,
        **_review_fields(report),
    )
    if review.status == ReviewStatus.PENDING:
        emit_review_event(review, ReviewEvent.FLAGGED)
    return review


def review_rerun(*, review: Review, workload: Workload, facility: Facility, user: User) -> Review:
    """Edit the workload or facility: a new report on the same review, version + 1.

    Raises ReviewChanged when the review moved since `review` was loaded (Finance decided in
    the meantime): the page reloads instead of overwriting that decision.
    """
    report = review_run(quote=review.quote, workload=workload, facility=facility)
    old = ReviewReport.model_validate(review.report)
    with transaction.atomic():
        current = Review.objects.select_for_update().get(pk=review.pk)
        if current.version != review.version:
            raise ReviewChanged(f"Review {review.uuid} changed: reload it.")
        new_status = status_for_new_report(status=current.status, old=old, new=report)
        updated = Review.objects.filter(pk=review.pk, version=review.version).update(
            workload=workload.model_dump(mode="json"),
            facility=facility.model_dump(mode="json"),
            status=new_status,
            version=F("version") + 1,
            updated_at=timezone.now(),
            **_review_fields(report),
        )
        if updated != 1:
            raise ReviewChanged(f"Review {review.uuid} changed: reload it.")
        if new_status != current.status:
            _audit_status_change(
                review=current,
                user=user,
                action="rerun",
                reason=_changes_reason(review_diff(old, report)),
                from_status=current.status,
                to_status=new_status,
            )
        rerun = Review.objects.select_related("quote__source_file", "organisation").get(
            pk=review.pk
        )
        if new_status == ReviewStatus.PENDING and current.status != ReviewStatus.PENDING:
            emit_review_event(rerun, ReviewEvent.FLAGGED)  # back to Finance: announce it
    return rerun


def review_revise(*, review: Review, data: bytes, filename: str, user: User) -> Review:
    """A revised quote: a new quote version and a new review with the same workload/facility.

    Approval carries over only when the set of (check, severity) is unchanged: a vendor fixing
    a typo in the description keeps the approval; swapping 8 H200 for 4 changes the memory
    finding and goes back to Finance.
    """
    workload = Workload.model_validate(review.workload)
    facility = Facility.model_validate(review.facility)
    old = ReviewReport.model_validate(review.report)
    # Outside the transaction: a revision the parser rejects keeps its REJECTED record.
    catalog = catalog_snapshot()
    read = quote_read(
        data=data,
        filename=filename,
        organisation=review.organisation,
        uploaded_by=user,
        previous=review.quote,
        catalog=catalog,
    )
    report = review_report(
        intake=read.intake, workload=workload, facility=facility, catalog=catalog
    )
    with transaction.atomic():
        quote = quote_record(read=read)
        current = Review.objects.select_for_update().get(pk=review.pk)  # Finance may have decided
        changed = finding_signature(old) != finding_signature(report)
        if current.status == ReviewStatus.APPROVED and not changed:
            status = ReviewStatus.APPROVED
        else:
            status = status_for_new_report(status="", old=None, new=report)
        revised = review_store(
            quote=quote,
            workload=workload,
            facility=facility,
            report=report,
            created_by=user,
            status=status,
        )
        if status == ReviewStatus.APPROVED:
            _audit_status_change(
                review=revised,
                user=user,
                action="carry_over",
                reason=f"Approval carried over from quote v{review.quote.version}: "
                "no finding changed.",
                from_status=current.status,
                to_status=status,
            )
    return revised


def review_diff(old: ReviewReport, new: ReviewReport) -> list[FindingChange]:
    """Which checks changed between two reports, compared by each check's worst severity.

    Example: rack power ok → critical is "worse"; a memory finding that disappears is "removed".
    """
    titles = {f.check: f.title for f in old.findings} | {f.check: f.title for f in new.findings}
    changes: list[FindingChange] = []
    for check in sorted(titles):
        before, after = old.worst(check), new.worst(check)
        if before == after:
            continue
        if before is None:
            kind = "added"
        elif after is None:
            kind = "removed"
        elif SEVERITY_ORDER.index(after) > SEVERITY_ORDER.index(before):
            kind = "worse"
        else:
            kind = "better"
        changes.append(
            FindingChange(check=check, title=titles[check], before=before, after=after, change=kind)
        )
    return changes


def _changes_reason(changes: list[FindingChange]) -> str:
    if not changes:
        return "Findings changed."
    parts = [f"{c.check}: {c.before or 'none'} → {c.after or 'none'}" for c in changes]
    return "Findings changed: " + "; ".join(parts)


def review_line_correct(
    *,
    review: Review,
    quote_line: QuoteLine,
    correction: LineCorrection,
    remember: bool,
    user: User,
) -> Review:
    """Correct how one line of the review's quote was read and re-run the review (version + 1)
    in one transaction: a correction the catalog cannot carry out (CorrectionError) or a
    review that moved meanwhile (ReviewChanged) leaves nothing half-written."""
    with transaction.atomic():
        quote_line_correct(
            quote_line=quote_line, correction=correction, user=user, remember=remember
        )
        return _rerun_same_inputs(review=review, user=user)


def review_line_correction_undo(*, review: Review, quote_line: QuoteLine, user: User) -> Review:
    """Undo the line's newest correction and re-run the review: the numbers go back."""
    with transaction.atomic():
        quote_line_correction_undo(quote_line=quote_line, user=user)
        return _rerun_same_inputs(review=review, user=user)


def _rerun_same_inputs(*, review: Review, user: User) -> Review:
    return review_rerun(
        review=review,
        workload=Workload.model_validate(review.workload),
        facility=Facility.model_validate(review.facility),
        user=user,
    )
