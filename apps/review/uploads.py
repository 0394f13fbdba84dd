"""Uploads read in the background: the web request checks and stores the original, then a
worker (``db_worker``, any number of them on any host sharing the database queue) reads,
matches and reviews it while the page polls the job's progress.

``upload_job_start`` is the request's part: the refusals that need only the first bytes (too
large, not a CSV/XLSX/PDF) answer at once with nothing stored; otherwise the original goes to
storage (``uploads/<sha256>``), an ``UploadJob`` row is written and ``upload_review_task``
enqueued. ``upload_job_run`` is the task's body. Under the ImmediateBackend (tests) the task
runs inside ``enqueue``, so the job is finished when ``upload_job_start`` returns.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import transaction

from apps.quotes.parsing.errors import QuoteParseError, SheetChoiceNeeded
from apps.quotes.services import quote_refusal_check
from apps.quotes.storage import blob_read, blob_store
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, Workload
from apps.review.models import UploadJob, UploadStatus
from apps.review.services import review_upload

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.sites.models import Organisation

logger = logging.getLogger("rightsize.uploads")


def upload_job_start(
    *,
    data: bytes,
    filename: str,
    organisation: Organisation,
    uploaded_by: User,
    workload: Workload,
    facility: Facility,
    delimiter: str | None = None,
    sheet: str | None = None,
    inputs: dict[str, str] | None = None,
) -> UploadJob:
    """Check, store, queue. Raises QuoteParseError for a file refused on its first bytes."""
    quote_refusal_check(data=data, filename=filename)
    _sha256, blob = blob_store(data)
    job = UploadJob.objects.create(
        organisation=organisation,
        uploaded_by=uploaded_by,
        filename=filename[:255],
        blob=blob,
        delimiter=delimiter or "",
        sheet=sheet or "",
        workload=workload.model_dump(mode="json"),
        facility=facility.model_dump(mode="json"),
        inputs=inputs or {},
    )
    upload_job_enqueue(job=job)
    job.refresh_from_db()
    return job


def upload_job_enqueue(*, job: UploadJob) -> None:
    from apps.review.tasks import upload_review_task

    result = upload_review_task.enqueue(job.pk)
    UploadJob.objects.filter(pk=job.pk, task_id="").update(task_id=result.id)


def _progress(job: UploadJob, status: UploadStatus) -> None:
    job.status = status
    job.save(update_fields=["status", "updated_at"])


def upload_job_run(*, job_id: int) -> UploadJob:
    """The task's body: read the stored original, review it, record the review or the problem."""
    with transaction.atomic():
        job = UploadJob.objects.select_for_update().get(pk=job_id)
        if job.status != UploadStatus.QUEUED:
            return job  # a duplicate delivery: another worker has it, or it is finished
        _progress(job, UploadStatus.READING)
    try:
        review = review_upload(
            data=blob_read(job.blob),
            filename=job.filename,
            organisation=job.organisation,
            uploaded_by=job.uploaded_by,
            workload=Workload.model_validate(job.workload),
            facility=Facility.model_validate(job.facility),
            delimiter=job.delimiter or None,
            sheet=job.sheet or None,
            on_read=lambda: _progress(job, UploadStatus.REVIEWING),
        )
    except SheetChoiceNeeded as error:  # a question for the person, not a failure
        job.sheet_candidates = [
            {
                "name": c.name,
                "rows": c.rows,
                "header": list(c.header),
                "first_lines": list(c.first_lines),
            }
            for c in error.candidates
        ]
        job.error_file = error.file
        job.error_message = error.message
        job.status = UploadStatus.NEEDS_SHEET
        job.save()
        return job
    except QuoteParseError as error:
        kept = error.quote
        job.quote = kept if kept is not None else None  # type: ignore[assignment]
        return _failed(job, str(error.message), file=error.file, row=error.row, column=error.column)
    except ReviewInputError as error:
        return _failed(job, str(error), file=job.filename)
    except Exception as exc:
        logger.exception("upload job %s failed", job.pk)
        return _failed(
            job, f"the quote could not be read ({type(exc).__name__})", file=job.filename
        )
    job.review = review
    job.status = UploadStatus.DONE
    job.save(update_fields=["review", "status", "updated_at"])
    return job


def _failed(
    job: UploadJob, message: str, *, file: str, row: int | None = None, column: str | None = None
) -> UploadJob:
    job.status = UploadStatus.FAILED
    job.error_message = message
    job.error_file = file or job.filename
    job.error_row = row
    job.error_column = column or ""
    job.save()
    return job


def upload_job_problem(job: UploadJob) -> QuoteParseError | None:
    """The job's problem as the upload page shows problems (file, row, column, message)."""
    if job.status != UploadStatus.FAILED:
        return None
    error = QuoteParseError(
        job.error_message,
        file=job.error_file,
        row=job.error_row,
        column=job.error_column or None,
    )
    error.quote = job.quote
    return error


def upload_blobs_pending(names: list[str]) -> set[str]:
    """Blobs a queued or running upload still needs: the orphan sweep keeps them, however long
    the workers were down."""
    pending = [UploadStatus.QUEUED, UploadStatus.READING, UploadStatus.REVIEWING]
    rows = UploadJob.objects.filter(blob__in=names, status__in=pending)
    return set(rows.values_list("blob", flat=True))
