"""A background upload leaves the web worker free: with the database task backend (what
`db_worker` serves in production) the upload request stores the PDF and queues the job without
parsing anything; the page polls the job; a worker then reads and reviews it."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django_tasks_db.models import DBTaskResult

from apps.quotes.models import Quote
from apps.review.models import Review, UploadJob, UploadStatus
from apps.review.uploads import upload_job_run
from tests.conftest import EXAMPLES
from tests.web.test_upload_views import saved_form

pytestmark = pytest.mark.django_db

PDF = EXAMPLES / "gigabyte-g593-sd1-pdf-lora" / "quote.pdf"
HX = {"HX-Request": "true"}


@pytest.fixture
def queued(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def test_a_pdf_upload_is_queued_without_parsing_in_the_request(
    clients, demo, catalog_db, queued, monkeypatch
):
    parsed = []
    from apps.quotes import services as quote_services

    real_parse = quote_services.parse_upload

    def counting_parse(*args, **kwargs):
        parsed.append(time.perf_counter())
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(quote_services, "parse_upload", counting_parse)
    account = clients["account_team"]
    form = {**saved_form(demo), "file": SimpleUploadedFile("quote.pdf", PDF.read_bytes())}

    response = account.post("/quotes/upload/", form)

    job = UploadJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/quotes/uploads/{job.uuid}/"
    assert parsed == []  # the request parsed nothing: the worker will
    assert job.status == UploadStatus.QUEUED and not Quote.objects.exists()
    assert DBTaskResult.objects.filter(id=job.task_id, status="READY").exists()

    page = account.get(f"/quotes/uploads/{job.uuid}/", headers=HX)
    body = page.content.decode()
    assert page.status_code == 200
    assert 'hx-trigger="every 1s"' in body and "Queued" in body

    upload_job_run(job_id=job.pk)  # what db_worker does with the queued task

    job.refresh_from_db()
    assert len(parsed) == 1
    assert job.status == UploadStatus.DONE and job.review is not None
    done = account.get(f"/quotes/uploads/{job.uuid}/", headers=HX)
    assert done["HX-Redirect"] == f"/reviews/{job.review.uuid}/"
    assert Review.objects.get() == job.review


def test_a_job_shows_its_problem_row_and_column_when_the_file_cannot_be_read(
    clients, demo, catalog_db, queued
):
    account = clients["account_team"]
    bad = b"Part Number,Description,Qty,Unit Price\nDGX-B200,DGX B200,-2,100\n"
    form = {**saved_form(demo), "file": SimpleUploadedFile("quote.csv", bad, "text/csv")}
    assert account.post("/quotes/upload/", form).status_code == 302
    job = UploadJob.objects.get()

    upload_job_run(job_id=job.pk)

    page = account.get(f"/quotes/uploads/{job.uuid}/")
    body = page.content.decode()
    job.refresh_from_db()
    assert job.status == UploadStatus.FAILED and job.error_row == 2
    assert "We could not read quote.csv" in body and "Upload the quote again" in body
    assert "hx-trigger" not in body  # finished: no more polling


def test_another_persons_upload_job_is_not_found(clients, demo, catalog_db, queued):
    form = {**saved_form(demo), "file": SimpleUploadedFile("quote.pdf", PDF.read_bytes())}
    assert clients["account_team"].post("/quotes/upload/", form).status_code == 302
    job = UploadJob.objects.get()
    assert clients["admin"].get(f"/quotes/uploads/{job.uuid}/").status_code == 404
    assert clients["customer"].get(f"/quotes/uploads/{job.uuid}/").status_code == 403


def test_a_duplicate_delivery_does_not_review_twice(clients, demo, catalog_db, queued):
    form = {**saved_form(demo), "file": SimpleUploadedFile("quote.pdf", PDF.read_bytes())}
    clients["account_team"].post("/quotes/upload/", form)
    job = UploadJob.objects.get()
    upload_job_run(job_id=job.pk)
    upload_job_run(job_id=job.pk)
    assert Review.objects.count() == 1


def test_a_workbook_with_two_quote_sheets_asks_which_once_the_worker_has_read_it(
    clients, demo, catalog_db, queued
):
    from tests.fixtures.sheets import two_quote_sheets_xlsx

    account = clients["account_team"]
    book = SimpleUploadedFile("options.xlsx", two_quote_sheets_xlsx())
    assert account.post("/quotes/upload/", {**saved_form(demo), "file": book}).status_code == 302
    job = UploadJob.objects.get()

    upload_job_run(job_id=job.pk)

    job.refresh_from_db()
    assert job.status == UploadStatus.NEEDS_SHEET
    assert [c["name"] for c in job.sheet_candidates] == ["Option A", "Option B"]
    polled = account.get(f"/quotes/uploads/{job.uuid}/", headers=HX)
    assert polled["HX-Redirect"] == f"/quotes/uploads/{job.uuid}/"  # the whole page, not a part
    page = account.get(f"/quotes/uploads/{job.uuid}/").content.decode()
    assert "Which sheet holds the quote?" in page
    assert 'type="radio" name="sheet" value="Option B"' in page
    assert 'name="original" value="' in page  # answered from the stored original
    assert not Quote.objects.exists()
