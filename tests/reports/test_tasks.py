"""The background render (ImmediateBackend in tests): stored once per version, limits enforced."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.storage import default_storage
from django.tasks import TaskResultStatus
from django.utils import timezone

from apps.reports.models import ReportFile, ReportStatus
from apps.reports.sandbox import ReportTooLarge, pdf_render_sandboxed
from apps.reports.services import report_request, report_storage_name
from apps.reports.tasks import report_render_task

pytestmark = pytest.mark.django_db


def request_and_run(review, captured, page_size="A4"):
    with captured(execute=True):
        report_file = report_request(review=review, user=None, page_size=page_size)
    report_file.refresh_from_db()
    return report_file


def test_request_renders_and_stores_the_pdf(
    review_a,
    django_capture_on_commit_callbacks,
) -> None:
    report_file = request_and_run(review_a, django_capture_on_commit_callbacks)
    assert report_file.status == ReportStatus.DONE, report_file.error
    assert report_file.storage_name == f"reports/review-{review_a.uuid}-v1.pdf"
    assert report_file.task_id  # the enqueued task's id, kept for the status page
    assert report_file.started_at <= report_file.finished_at
    with default_storage.open(report_file.storage_name, "rb") as handle:
        pdf = handle.read()
    assert pdf.startswith(b"%PDF")
    assert report_file.size_bytes == len(pdf)


def test_second_request_reuses_the_file(
    review_a,
    django_capture_on_commit_callbacks,
) -> None:
    first = request_and_run(review_a, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = report_request(review=review_a, user=None)
    assert callbacks == []  # nothing enqueued: it is already DONE
    assert again.pk == first.pk
    assert ReportFile.objects.count() == 1


def test_rerun_of_the_same_version_overwrites_one_file(
    review_a,
    django_capture_on_commit_callbacks,
) -> None:
    """A worker killed mid-render left a file; the re-run replaces it under the same name."""
    name = report_storage_name(review=review_a, version=1)
    default_storage.save(name, __import__("io").BytesIO(b"half a PDF"))
    first = request_and_run(review_a, django_capture_on_commit_callbacks)
    second = request_and_run(review_a, django_capture_on_commit_callbacks, page_size="Letter")
    assert first.pk == second.pk
    assert second.storage_name == name
    _, files = default_storage.listdir("reports")
    assert [f for f in files if str(review_a.uuid) in f] == [name.removeprefix("reports/")]
    with default_storage.open(name, "rb") as handle:
        assert handle.read(4) == b"%PDF"


def test_stale_running_render_is_queued_again(
    review_a,
    django_capture_on_commit_callbacks,
) -> None:
    stuck = ReportFile.objects.create(
        review=review_a,
        review_version=1,
        status=ReportStatus.RUNNING,
        task_id="dead-worker",
        started_at=timezone.now() - dt.timedelta(minutes=11),
    )
    report_file = request_and_run(review_a, django_capture_on_commit_callbacks)
    assert report_file.pk == stuck.pk
    assert report_file.status == ReportStatus.DONE


def test_fresh_running_render_is_left_alone(
    review_a,
    django_capture_on_commit_callbacks,
) -> None:
    ReportFile.objects.create(
        review=review_a,
        review_version=1,
        status=ReportStatus.RUNNING,
        task_id="busy-worker",
        started_at=timezone.now() - dt.timedelta(minutes=2),
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report_file = report_request(review=review_a, user=None)
    assert callbacks == []
    assert report_file.status == ReportStatus.RUNNING


def test_too_slow_ends_failed_report_too_large_and_the_next_one_runs(
    review_a,
    settings,
    django_capture_on_commit_callbacks,
) -> None:
    settings.REPORT_RENDER_TIMEOUT_S = 0.05  # nothing renders in 50 ms: the child is killed
    report_file = request_and_run(review_a, django_capture_on_commit_callbacks)
    assert report_file.status == ReportStatus.FAILED
    assert report_file.error == "report too large"
    assert report_file.storage_name == ""
    assert not default_storage.exists(report_storage_name(review=review_a, version=1))
    # The task itself ends FAILED too.
    ReportFile.objects.filter(pk=report_file.pk).update(status=ReportStatus.QUEUED)
    result = report_render_task.enqueue(report_file.pk)
    assert result.status == TaskResultStatus.FAILED
    assert result.errors[0].exception_class_path.endswith("ReportRenderError")
    assert "report too large" in result.errors[0].traceback
    # The worker goes on: with the limit back, the next request renders.
    settings.REPORT_RENDER_TIMEOUT_S = 60
    report_file = request_and_run(review_a, django_capture_on_commit_callbacks)
    assert report_file.status == ReportStatus.DONE


def test_too_much_memory_is_report_too_large(settings) -> None:
    # 32 MiB is less than WeasyPrint holds once imported (~70 MiB): the render cannot allocate.
    with pytest.raises(ReportTooLarge, match="report too large"):
        pdf_render_sandboxed(
            "<p>x</p>" * 1000, static_root=settings.BASE_DIR / "static", memory_bytes=32 << 20
        )


def test_sandboxed_render_is_a_pdf(settings) -> None:
    pdf = pdf_render_sandboxed(
        '<link rel="stylesheet" href="asset:css/report.css"><p>hello</p>',
        static_root=settings.BASE_DIR / "static",
    )
    assert pdf.startswith(b"%PDF")


def test_review_changed_before_render_fails_with_a_reason(
    review_a,
) -> None:
    report_file = ReportFile.objects.create(review=review_a, review_version=1)
    review_a.version = 2
    review_a.published_version = None  # v1 is nobody's: not the current one, not published
    review_a.save(update_fields=["version", "published_version"])
    result = report_render_task.enqueue(report_file.pk)
    report_file.refresh_from_db()
    assert result.status == TaskResultStatus.FAILED
    assert report_file.status == ReportStatus.FAILED
    assert report_file.error.startswith("the review changed")


def test_duplicate_delivery_does_nothing(review_a) -> None:
    report_file = ReportFile.objects.create(
        review=review_a,
        review_version=1,
        status=ReportStatus.DONE,
        storage_name="reports/x.pdf",
    )
    result = report_render_task.enqueue(report_file.pk)
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert result.return_value == "done"
