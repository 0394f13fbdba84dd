"""Stuck PDF jobs: a worker killed mid-render leaves the job RUNNING; the
reaper returns it to FAILED with the reason and the page offers "Try again". An error while
building the report's HTML fails the job instead of stranding it.

Before: nothing reaped, so the job said "Rendering…" forever, and an exception in
``review_report_html`` escaped ``report_render`` with the row still RUNNING."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.reports import services
from apps.reports.models import ReportFile, ReportStatus
from apps.reports.services import report_deadline, report_jobs_reap, report_render

pytestmark = pytest.mark.django_db


def running(review, *, started_ago: dt.timedelta) -> ReportFile:
    """A job whose worker claimed it ``started_ago`` and then died (no finish)."""
    return ReportFile.objects.create(
        review=review,
        review_version=review.version,
        status=ReportStatus.RUNNING,
        started_at=timezone.now() - started_ago,
        task_id="task-of-a-dead-worker",
    )


def test_a_job_past_its_deadline_is_failed_with_the_reason(review_a) -> None:
    # Deadline: the 60 s render limit + 2 min of grace = 3 min; this one started 10 min ago.
    assert report_deadline() == dt.timedelta(minutes=3)
    job = running(review_a, started_ago=dt.timedelta(minutes=10))
    assert report_jobs_reap() == 1
    job.refresh_from_db()
    assert job.status == ReportStatus.FAILED
    assert job.error == (
        "the worker stopped while making the PDF (no result 3 minutes after it started); try again"
    )
    assert job.finished_at is not None


def test_a_job_within_its_deadline_is_left_running(review_a) -> None:
    job = running(review_a, started_ago=dt.timedelta(minutes=1))
    assert report_jobs_reap() == 0
    job.refresh_from_db()
    assert job.status == ReportStatus.RUNNING


def test_the_report_page_reaps_and_offers_a_retry(clients, review_a) -> None:
    running(review_a, started_ago=dt.timedelta(minutes=30))
    html = clients["customer"].get(f"/reports/{review_a.uuid}/").content.decode()
    assert "The PDF could not be made: the worker stopped while making the PDF" in html
    assert "Try again" in html
    assert "hx-trigger" not in html  # no longer polling


def test_the_command_reaps(review_a) -> None:
    running(review_a, started_ago=dt.timedelta(hours=1))
    out = StringIO()
    call_command("reap_report_jobs", stdout=out)
    assert out.getvalue().strip() == "1 stuck PDF job failed"


def test_an_error_while_building_the_html_fails_the_job(review_a, monkeypatch) -> None:
    def broken(**kwargs):
        raise RuntimeError("template blew up")

    monkeypatch.setattr(services, "review_report_html", broken)
    job = ReportFile.objects.create(
        review=review_a, review_version=review_a.version, status=ReportStatus.QUEUED
    )
    job = report_render(report_file_id=job.pk)
    job.refresh_from_db()
    assert job.status == ReportStatus.FAILED
    assert job.error == "the stored review cannot be rendered: RuntimeError"


def test_an_error_while_storing_fails_the_job(review_a, monkeypatch, settings) -> None:
    monkeypatch.setattr(services, "pdf_render_sandboxed", lambda html, **kwargs: b"%PDF-1.7")

    def full_disk(name, content):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(services.default_storage, "save", full_disk)
    job = ReportFile.objects.create(
        review=review_a, review_version=review_a.version, status=ReportStatus.QUEUED
    )
    job = report_render(report_file_id=job.pk)
    assert job.status == ReportStatus.FAILED
    assert job.error == "the PDF could not be made (OSError)"
