"""Asking for a review's PDF and rendering it: one `ReportFile` per (review, version).

`report_request` is what the "Make the PDF" button calls: it creates or re-queues the row and
enqueues `report_render_task` after the transaction commits. `report_render` is the task's body:
it claims the row, renders in the sandboxed child, stores `reports/review-<uuid>-v<n>.pdf`
(overwriting a half-written file of a crashed run, never adding a second one) and records DONE,
or FAILED with the reason ("report too large").
"""

from __future__ import annotations

import datetime as dt
import logging
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from apps.reports.context import PageSize
from apps.reports.models import ReportFile, ReportStatus
from apps.reports.page import RENDER_ERRORS, render_problem
from apps.reports.render import (
    report_catalog,
    report_html,
    report_logo_root,
    report_static_root,
)
from apps.reports.sandbox import (
    DEFAULT_MEMORY_BYTES,
    DEFAULT_TIMEOUT_S,
    ReportRenderError,
    pdf_render_sandboxed,
)
from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review
from apps.review.publishing import review_as_published
from apps.sites.models import Organisation

logger = logging.getLogger("rightsize.reports")

# A RUNNING row older than this belongs to a worker that died: queue it again.
STALE_AFTER = dt.timedelta(minutes=10)


def report_storage_name(*, review: Review, version: int) -> str:
    """`reports/review-<uuid>-v3.pdf`: one name per review version, so a re-run overwrites."""
    return f"reports/review-{review.uuid}-v{version}.pdf"


def report_file_current(*, review: Review) -> ReportFile | None:
    """The PDF row for the review's current version, if anyone asked for it."""
    return ReportFile.objects.filter(review=review, review_version=review.version).first()


def review_report_html(*, review: Review, page_size: PageSize) -> str:
    """The stored review as report HTML: the same `ReviewReport` the page and the JSON show."""
    report = ReviewReport.model_validate(review.report)
    reseller_name, reseller_logo = report_branding(organisation=review.organisation)
    return report_html(
        report,
        generated_on=timezone.localdate(review.updated_at),
        page_size=page_size,
        organisation=review.organisation.name,
        quote_date=review.quote.quote_date,
        reseller_name=reseller_name,
        reseller_logo=reseller_logo,
        catalog=report_catalog(),
    )


def report_branding(*, organisation: Organisation) -> tuple[str, str]:
    """The reseller's name and logo on this organisation's PDFs: its own settings, else the
    reseller's organisation (the internal one) name and logo. The logo as an `asset:logos/` URL
    that only the locked fetcher serves."""
    internal = Organisation.objects.filter(is_internal=True).order_by("pk").first()
    name = organisation.reseller_name or (internal.name if internal else "")
    logo = organisation.reseller_logo or (internal.reseller_logo if internal else None)
    url = f"asset:logos/{Path(logo.name).name}" if logo and logo.name else ""
    return name, url


def report_request(*, review: Review, user: User | None, page_size: PageSize = "A4") -> ReportFile:
    """Queue the PDF of the review's current version unless it is ready or on its way.

    A DONE file in the same page size is returned as is, so is one already queued or rendering;
    a FAILED one, a different page size, or a queued or running one whose worker went quiet for
    10 minutes (killed mid-render) is queued again.
    """
    with transaction.atomic():
        report_file = _row_for_update(review=review, user=user, page_size=page_size)
        stale = (
            report_file.is_pending
            and report_file.task_id != ""
            and timezone.now() - (report_file.started_at or report_file.updated_at) > STALE_AFTER
        )
        if report_file.status == ReportStatus.DONE and report_file.page_size == page_size:
            return report_file
        if report_file.is_pending and report_file.task_id and not stale:
            return report_file
        report_file.status = ReportStatus.QUEUED
        report_file.page_size = page_size
        report_file.error = "worker stopped; queued again" if stale else ""
        report_file.requested_by = user
        report_file.started_at = report_file.finished_at = None
        report_file.task_id = ""
        report_file.save()
        file_id = report_file.pk
        transaction.on_commit(lambda: report_enqueue(report_file_id=file_id))
    return report_file


def _row_for_update(*, review: Review, user: User | None, page_size: PageSize) -> ReportFile:
    rows = ReportFile.objects.select_for_update()
    found = rows.filter(review=review, review_version=review.version).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return ReportFile.objects.create(
                review=review,
                review_version=review.version,
                page_size=page_size,
                status=ReportStatus.QUEUED,  # no task_id yet: the caller enqueues it
                requested_by=user if user and user.is_authenticated else None,
            )
    except IntegrityError:  # a second click won the race: use its row
        return rows.get(review=review, review_version=review.version)


def report_enqueue(*, report_file_id: int) -> None:
    from apps.reports.tasks import report_render_task

    result = report_render_task.enqueue(report_file_id)
    ReportFile.objects.filter(pk=report_file_id, task_id="").update(task_id=result.id)


def report_render(*, report_file_id: int) -> ReportFile:
    """The task's body: claim the queued row, render it in the child process, store it."""
    with transaction.atomic():
        report_file = (
            ReportFile.objects.select_for_update()
            .select_related("review__organisation", "review__quote")
            .get(pk=report_file_id)
        )
        if report_file.status != ReportStatus.QUEUED:
            return report_file  # a duplicate delivery: someone else has it, or it is finished
        report_file.status = ReportStatus.RUNNING
        report_file.started_at = timezone.now()
        report_file.save(update_fields=["status", "started_at", "updated_at"])
    try:
        return _render_claimed(report_file)
    except Exception as exc:
        # Anything else (storage, a bug): the job ends FAILED with the reason, never RUNNING.
        logger.exception("PDF job %s failed", report_file.pk)
        return _finish(report_file, error=f"the PDF could not be made ({type(exc).__name__})")


@contextmanager
def _logo_root_local(organisation: Organisation) -> Iterator[Path]:
    """The directory the sandbox reads `asset:logos/` from. On disk that is MEDIA_ROOT/logos;
    with S3 (no local path) the one logo this PDF uses is copied into a temporary directory."""
    internal = Organisation.objects.filter(is_internal=True).order_by("pk").first()
    logo = organisation.reseller_logo or (internal.reseller_logo if internal else None)
    if not logo or not logo.name or _on_local_disk(logo):
        yield report_logo_root()
        return
    with tempfile.TemporaryDirectory(prefix="rightsize-logo-") as tmp:
        with logo.open("rb") as source:
            (Path(tmp) / Path(logo.name).name).write_bytes(source.read())
        yield Path(tmp)


def _on_local_disk(file: FieldFile) -> bool:
    try:
        return Path(file.path).is_file()
    except NotImplementedError:  # S3 and other object stores have no local path
        return False


def _render_claimed(report_file: ReportFile) -> ReportFile:
    review = report_file.review
    if review.version != report_file.review_version:
        if review.published_version != report_file.review_version:
            return _finish(
                report_file, error="the review changed before the PDF was made; ask again"
            )
        review = review_as_published(review)  # the customer's frozen copy
    try:
        html = review_report_html(review=review, page_size=cast(PageSize, report_file.page_size))
    except Exception as exc:
        # A stored review that cannot be drawn, or any error while building the HTML: the job
        # fails with the reason, it is never left RUNNING.
        logger.exception("PDF HTML for review %s v%s failed", review.uuid, review.version)
        reason = render_problem(exc) if isinstance(exc, RENDER_ERRORS) else type(exc).__name__
        return _finish(report_file, error=f"the stored review cannot be rendered: {reason}")
    try:
        with _logo_root_local(review.organisation) as logo_root:
            pdf = pdf_render_sandboxed(
                html,
                static_root=report_static_root(),
                logo_root=logo_root,
                timeout_s=getattr(settings, "REPORT_RENDER_TIMEOUT_S", DEFAULT_TIMEOUT_S),
                memory_bytes=getattr(settings, "REPORT_RENDER_MEMORY_BYTES", DEFAULT_MEMORY_BYTES),
            )
    except ReportRenderError as exc:
        logger.warning("PDF for review %s v%s failed", review.uuid, review.version, exc_info=exc)
        return _finish(report_file, error=str(exc))
    name = report_storage_name(review=review, version=report_file.review_version)
    if default_storage.exists(name):
        default_storage.delete(name)  # a crashed run's file: same name, replaced, not duplicated
    stored = default_storage.save(name, ContentFile(pdf))
    return _finish(report_file, storage_name=stored, size_bytes=len(pdf))


def report_deadline() -> dt.timedelta:
    """How long a RUNNING job may take: the render's own limit plus two minutes of grace."""
    timeout = getattr(settings, "REPORT_RENDER_TIMEOUT_S", DEFAULT_TIMEOUT_S)
    return dt.timedelta(seconds=float(timeout)) + dt.timedelta(minutes=2)


def report_jobs_reap(*, now: dt.datetime | None = None) -> int:
    """RUNNING jobs past their deadline (a worker killed mid-render) → FAILED with the reason;
    the report page then offers "Try again". Returns how many were reaped. Run by the
    ``reap_report_jobs`` command (cron, every few minutes) and by the report page itself."""
    now = now or timezone.now()
    deadline = report_deadline()
    minutes = max(1, round(deadline.total_seconds() / 60))
    stuck = ReportFile.objects.filter(status=ReportStatus.RUNNING, started_at__lt=now - deadline)
    reaped = stuck.update(
        status=ReportStatus.FAILED,
        error=f"the worker stopped while making the PDF (no result {minutes} minutes after it "
        "started); try again",
        finished_at=now,
        updated_at=now,
    )
    if reaped:
        logger.warning("reaped %d PDF jobs stuck in RUNNING", reaped)
    return reaped


def _finish(
    report_file: ReportFile, *, error: str = "", storage_name: str = "", size_bytes: int = 0
) -> ReportFile:
    report_file.status = ReportStatus.FAILED if error else ReportStatus.DONE
    report_file.error = error
    report_file.storage_name = storage_name
    report_file.size_bytes = size_bytes or None
    report_file.finished_at = timezone.now()
    report_file.save()
    return report_file
