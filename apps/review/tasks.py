"""Background work of the review layer: `db_worker` (django-tasks-db) runs it in dev and
production, the ImmediateBackend runs it inline in tests."""

from __future__ import annotations

from django.tasks import task

from apps.review.uploads import upload_job_run


@task
def upload_review_task(upload_job_id: int) -> str:
    """Read, match and review one uploaded quote (apps.review.uploads)."""
    return upload_job_run(job_id=upload_job_id).status
