"""Review services: run the checks on a stored quote, keep the result, re-run it when the
workload or facility changes, and carry a Finance approval over to a revised quote only when
no finding changed.

A review is cheap to recompute (the engine is pure), so every change produces a fresh report;
what must not be lost is Finance's decision. An approved DGX B200 quote re-run with the same
findings stays approved; the same quote re-run against a 15 kW server room, where the
rack-power check goes from ok to critical, goes back to Finance.

What a save does to that decision (the status, the audit row) is ``apps.review.decisions``;
what changed between two reports, ``apps.review.report_changes``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.catalog.services import catalog_snapshot
from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake
from apps.quotes.parsing import parse_upload
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.manual import GridRow, manual_quote
from apps.quotes.schemas import LineCorrection
from apps.quotes.selectors import quote_intake_stored
from apps.quotes.services import (
    quote_intake_remembered,
    quote_line_correct,
    quote_line_correction_undo,
    quote_manual_record,
    quote_read,
    quote_record,
)
from apps.review.basis import Change, basis_changes, basis_of
from apps.review.decisions import (
    DECIDED,
    ReasonRequired,
    audit_record,
    previous_decision,
    save_reason,
    status_after_save,
)
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.finance_rule import finance_reasons
from apps.review.models import Review, ReviewStatus
from apps.review.money import convert, finance_lines_for, spend_of
from apps.review.notifications import notify_finance
from apps.review.pipeline import review_of_intake
from apps.review.webhooks import ReviewEvent, emit_review_event

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.quotes.models import Quote, QuoteLine
    from apps.sites.models import Organisation


class ReviewChanged(Exception):
    """Someone else changed the review first (HTTP 409 "quote changed")."""


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
    return review_of_intake(
        intake=intake,
        workload=workload,
        facility=facility,
        catalog=catalog,
        lines=finance_lines_for(intake.summary.currency),
    )


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


def finance_reasons_of(report: ReviewReport, organisation: Organisation) -> list[str]:
    """The Finance rule on a report for this organisation (its line, the dated rate)."""
    total = Decimal(report.quote.total) if report.quote.total is not None else None
    spend = spend_of(total=total, currency=report.quote.currency, organisation=organisation)
    return finance_reasons(
        findings=report.findings, finance_level=report.blood_pressure.finance.level, spend=spend
    )


def finance_preview_upload(
    *,
    data: bytes,
    filename: str,
    organisation: Organisation,
    workload: Workload,
    facility: Facility,
) -> list[str]:
    """Before submit: what the Finance rule would say of this file for this customer, load and
    room. Read and reviewed in memory, nothing stored. Raises QuoteParseError (the file) and
    ReviewInputError (a load the catalog cannot size)."""
    limit = settings.QUOTE_MAX_UPLOAD_BYTES
    if len(data) > limit:
        raise QuoteParseError(
            f"the file is {len(data):,} bytes; the limit is {limit:,}", file=filename
        )
    catalog = catalog_snapshot()
    parsed = parse_upload(data, filename)
    intake = quote_intake_remembered(parsed, catalog)
    report = review_report(intake=intake, workload=workload, facility=facility, catalog=catalog)
    return finance_reasons_of(report, organisation)


def catalog_revision(catalog: CatalogSnapshot | None = None) -> str:
    """The catalog revision a decision is bound to: the catalog's own revision number when it
    names one ("revision 7" -> "7"), else a digest of its contents (the DB catalog says only
    "db"). The one place that reads it, so a numbered revision can replace the digest."""
    catalog = catalog or catalog_snapshot()
    number = catalog.version.strip().lower().removeprefix("revision").strip()
    if number.isdigit():
        return number
    key = id(catalog)
    cached = _REVISIONS.get(key)
    if cached is None or cached[0] is not catalog:
        digest = hashlib.sha256(catalog.model_dump_json().encode()).hexdigest()[:12]
        cached = (catalog, f"{catalog.version or 'catalog'}@{digest}")
        _REVISIONS.clear()
        _REVISIONS[key] = cached
    return cached[1]


_REVISIONS: dict[int, tuple[CatalogSnapshot, str]] = {}


def _review_fields(
    report: ReviewReport, organisation: Organisation, workload: Workload, facility: Facility
) -> dict[str, object]:
    """Everything stored from a report: the money in its currency and converted, the Finance
    rule's answer and the basis a decision binds to."""
    total = Decimal(report.quote.total) if report.quote.total is not None else None
    currency = (report.quote.currency or "").upper()
    spend = spend_of(total=total, currency=currency, organisation=organisation)
    usd = convert(total, currency or "USD", "USD") if total is not None else None
    reasons = finance_reasons(
        findings=report.findings, finance_level=report.blood_pressure.finance.level, spend=spend
    )
    return {
        "report": report.model_dump(mode="json"),
        "verdict": report.verdict,
        "finance_level": report.blood_pressure.finance.level,
        "facilities_level": report.blood_pressure.facilities.level,
        "currency": currency,
        "total": total,
        "total_usd": usd.converted if usd is not None else None,
        "converted_total": spend.in_org_currency,
        "converted_currency": spend.org_currency,
        "rate": spend.rate if not spend.same_currency else (Decimal(1) if total else None),
        "rates_of": spend.rates_of,
        "needs_finance": bool(reasons),
        "finance_reasons": reasons,
        "basis": basis_of(
            report,
            workload=workload.model_dump(mode="json"),
            facility=facility.model_dump(mode="json"),
            catalog_revision=catalog_revision(),
        ),
    }


def _save_moves(
    report: ReviewReport,
    current: Review,
    *,
    organisation: Organisation,
    workload: Workload,
    facility: Facility,
    comment: str,
    resubmits: bool,
) -> tuple[dict[str, object], list[Change], ReviewStatus]:
    """What a save over the stored review `current` keeps (`_review_fields`), what it moved
    from the basis Finance decided on, and the status that leads to (`status_after_save`)."""
    fields = _review_fields(report, organisation, workload, facility)
    changes = basis_changes(current.basis, fields["basis"])  # type: ignore[arg-type]
    status = status_after_save(
        status=current.status,
        needs_finance=bool(fields["needs_finance"]),
        changes=changes,
        comment=comment,
        resubmits=resubmits,
    )
    return fields, changes, status


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
    intake = quote_intake_remembered(parsed, catalog)
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
    """Keep an already computed report (the API and the demo seed compute it themselves):
    PENDING when the Finance rule names a reason, else CLEAR. A review that goes to Finance is
    announced to webhooks ("review.flagged") and Finance is told once the transaction commits."""
    fields = _review_fields(report, quote.organisation, workload, facility)
    status = status or (ReviewStatus.PENDING if fields["needs_finance"] else ReviewStatus.CLEAR)
    review = Review.objects.create(
        quote=quote,
        organisation=quote.organisation,
        workload=workload.model_dump(mode="json"),
        facility=facility.model_dump(mode="json"),
        status=status,
        created_by=created_by,
        **fields,
    )
    if review.status == ReviewStatus.PENDING:
        emit_review_event(review, ReviewEvent.FLAGGED)
        transaction.on_commit(lambda: _after_needs_finance(review.pk))
    return review


def _after_needs_finance(review_id: int) -> None:
    """A review went to Finance: tell Finance (inbox and email). Webhooks hook in here too."""
    notify_finance(Review.objects.select_related("quote", "organisation").get(pk=review_id))


def review_rerun(
    *,
    review: Review,
    workload: Workload,
    facility: Facility,
    user: User,
    comment: str = "",
    action: str = "save",
    resubmits: bool = True,
) -> Review:
    """Save an edit of the workload or facility (or a line correction): a new report on the
    same review, version + 1, and always an audit event naming what moved (old → new).

    A decided review whose load, room, lines, money or catalog moved goes back to Finance,
    the previous decision quoted beside the change; one from "changes requested" needs the
    comment (ReasonRequired) and is then resubmitted. Raises ReviewChanged when the review
    moved since `review` was loaded (Finance decided in the meantime): the page reloads
    instead of overwriting that decision.
    """
    report = review_run(quote=review.quote, workload=workload, facility=facility)
    with transaction.atomic():
        current = (
            Review.objects.select_for_update()
            .select_related("quote__source_file", "organisation")
            .get(pk=review.pk)
        )
        if current.version != review.version:
            raise ReviewChanged(f"Review {review.uuid} changed: reload it.")
        fields, changes, new_status = _save_moves(
            report,
            current,
            organisation=current.organisation,
            workload=workload,
            facility=facility,
            comment=comment,
            resubmits=resubmits,
        )
        updated = Review.objects.filter(pk=review.pk, version=review.version).update(
            workload=workload.model_dump(mode="json"),
            facility=facility.model_dump(mode="json"),
            status=new_status,
            version=F("version") + 1,
            updated_at=timezone.now(),
            **fields,
        )
        if updated != 1:
            raise ReviewChanged(f"Review {review.uuid} changed: reload it.")
        resubmitted = current.status == ReviewStatus.CHANGES_REQUESTED and bool(comment.strip())
        audit_record(
            review=current,
            user=user,
            action="resubmit" if resubmitted else action,
            reason=save_reason(
                changes=changes,
                from_status=current.status,
                to_status=new_status,
                comment=comment,
            ),
            from_status=current.status,
            to_status=new_status,
            changes=changes,
            previous_decision=previous_decision(current) if current.status in DECIDED else "",
        )
        rerun = Review.objects.select_related("quote__source_file", "organisation").get(
            pk=review.pk
        )
        if new_status == ReviewStatus.PENDING and current.status != ReviewStatus.PENDING:
            emit_review_event(rerun, ReviewEvent.FLAGGED)  # back to Finance: announce it
            transaction.on_commit(lambda: _after_needs_finance(review.pk))
    return rerun


def review_revise(
    *, review: Review, data: bytes, filename: str, user: User, comment: str = ""
) -> Review:
    """A revised quote: a new quote version and a new review with the same workload/facility.

    The decision carries over only when findings, money (lines, quantities, prices, total,
    currency), systems and catalog revision are all unchanged: a vendor fixing a typo in a
    description keeps the approval (and the audit trail says so); 1 × DGX B300 at $600,000
    becoming 2 at $1,200,000 goes back to Finance. Revising a review Finance sent back needs
    the comment (ReasonRequired).
    """
    workload = Workload.model_validate(review.workload)
    facility = Facility.model_validate(review.facility)
    if review.status == ReviewStatus.CHANGES_REQUESTED and not comment.strip():
        raise ReasonRequired(
            "Finance asked for changes: say what you changed (the comment goes to Finance)."
        )
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
        _, changes, status = _save_moves(
            report,
            current,
            organisation=review.organisation,
            workload=workload,
            facility=facility,
            comment=comment,
            resubmits=True,
        )
        carried = status == current.status and current.status in DECIDED
        revised = review_store(
            quote=quote,
            workload=workload,
            facility=facility,
            report=report,
            created_by=user,
            status=status,
        )
        moved = "; ".join(str(c) for c in changes) if changes else "nothing moved"
        if carried:
            reason = (
                f"Decision ({ReviewStatus(status).label.lower()}) carried over from quote "
                f"v{review.quote.version}: findings, money and systems unchanged ({moved})."
            )
        else:
            reason = f"Revised from quote v{review.quote.version}: {moved}."
        if comment.strip():
            reason += f" Comment: {comment.strip()}"
        audit_record(
            review=revised,
            user=user,
            action="carry_over" if carried else "revise",
            reason=reason,
            from_status=current.status,
            to_status=status,
            changes=changes,
            previous_decision=previous_decision(current) if current.status in DECIDED else "",
        )
    return revised


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
        action="correct",
        resubmits=False,
    )
