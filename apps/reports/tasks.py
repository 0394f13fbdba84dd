"""The background render: `db_worker` (django-tasks-db) runs it in dev and production, the
ImmediateBackend runs it inline in tests."""

from __future__ import annotations

from django.tasks import task

from apps.reports.models import ReportStatus
from apps.reports.sandbox import ReportRenderError
from apps.reports.services import report_render


@task
def report_render_task(report_file_id: int) -> str:
    """Render one queued PDF. A failed render raises, so the task itself ends FAILED too
    ("report too large"), and the worker moves on to the next one."""
    report_file = report_render(report_file_id=report_file_id)
    if report_file.status == ReportStatus.FAILED:
        raise ReportRenderError(report_file.error)
    return report_file.status
