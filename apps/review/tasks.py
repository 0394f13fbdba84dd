"""Background work of the review layer: `db_worker` (django-tasks-db) runs it in dev and
production, the ImmediateBackend runs it inline in tests."""

from __future__ import annotations

from django.tasks import task

from apps.review.notifications import notification_email_send
from apps.review.uploads import upload_job_run


@task
def upload_review_task(upload_job_id: int) -> str:
    """Read, match and review one uploaded quote (apps.review.uploads)."""
    return upload_job_run(job_id=upload_job_id).status


@task
def notification_email_task(notification_ids: list[int]) -> int:
    """Email a batch of inbox notifications (apps.review.notifications); a mail server that
    is down is logged, not raised."""
    return notification_email_send(notification_ids=notification_ids)
