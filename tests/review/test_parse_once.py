"""Parse once: the upload reads the file and stores its lines; every review, re-run and preview
works from the stored lines and never reads the original again. Upload → first review is one
transaction."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.storage import default_storage

from apps.catalog.services import catalog_snapshot
from apps.quotes.intake import quote_intake
from apps.quotes.models import Quote, QuoteFile
from apps.quotes.parsing import parse_upload
from apps.quotes.selectors import quote_intake_stored, quote_parsed_stored
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.models import Review
from apps.review.services import review_rerun, review_run, review_upload
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db

EXAMPLE = EXAMPLES / "four-semis-in-a-2kw-room"
AI_HALL = Facility(name="AI hall", rack_power_kw=150, racks_available=4, cooling="liquid")


def _inputs(folder):
    workload = Workload.model_validate(json.loads((folder / "workload.json").read_text()))
    facility = Facility.model_validate(json.loads((folder / "facility.json").read_text()))
    return workload, facility


@pytest.fixture
def account(demo, catalog_db):
    return User.objects.get(username="account")


def _upload(folder, account, demo, name="quote.csv"):
    workload, facility = _inputs(folder)
    quote_file = next(p for p in sorted(folder.iterdir()) if p.stem == "quote")
    return review_upload(
        data=quote_file.read_bytes(),
        filename=quote_file.name,
        organisation=demo["acme"],
        uploaded_by=account,
        workload=workload,
        facility=facility,
    )


@pytest.mark.parametrize(
    "example",
    [
        "four-semis-in-a-2kw-room",
        "pcie-vans-for-one-finetune",
        "dell-xe9680-configurator-per-system",
        "lenovo-sr675v3-l40s-70b-finetune-xlsx",
        "gigabyte-g593-sd1-pdf-lora",
    ],
)
def test_the_stored_reading_is_the_file_read_again(example, account, demo):
    """CSV, XLSX and PDF alike: the quote rebuilt from the database equals the parse."""
    folder = EXAMPLES / example
    review = _upload(folder, account, demo)
    quote_file = next(p for p in sorted(folder.iterdir()) if p.stem == "quote")
    assert quote_parsed_stored(quote=review.quote) == parse_upload(
        quote_file.read_bytes(), quote_file.name
    )


def test_a_rerun_and_a_preview_never_read_the_original(account, demo, monkeypatch):
    review = _upload(EXAMPLE, account, demo)
    first = ReviewReport.model_validate(review.report)
    # The original disappears from storage, and any further read of a blob fails loudly.
    default_storage.delete(review.quote.source_file.blob)

    def no_reads(*args, **kwargs):
        raise AssertionError("the stored original was read")

    monkeypatch.setattr("apps.quotes.selectors.blob_read", no_reads)
    monkeypatch.setattr("apps.quotes.selectors.parse_upload", no_reads)
    workload, _ = _inputs(EXAMPLE)
    # A preview (what the review page's what-if runs) ...
    preview = review_run(quote=review.quote, workload=workload, facility=AI_HALL)
    assert preview.worst("rack_power") in {"ok", "info"}
    # ... and a saved re-run both work from the stored lines: 4 × DGX B200 still.
    rerun = review_rerun(review=review, workload=workload, facility=AI_HALL, user=account)
    report = ReviewReport.model_validate(rerun.report)
    assert sum(s.quantity * s.gpus_per_system for s in report.systems) == 32  # 4 × 8
    assert report.quote == first.quote
    assert first.worst("rack_power") == "critical" and report.worst("rack_power") != "critical"


def test_the_stored_reading_gives_the_same_review_as_the_file(account, demo):
    review = _upload(EXAMPLE, account, demo)
    workload, facility = _inputs(EXAMPLE)
    catalog = catalog_snapshot()
    from apps.review.pipeline import review_of_intake

    from_file = review_of_intake(
        intake=quote_intake((EXAMPLE / "quote.csv").read_bytes(), "quote.csv", catalog),
        workload=workload,
        facility=facility,
        catalog=catalog,
    )
    assert review_run(quote=review.quote, workload=workload, facility=facility) == from_file


def test_every_run_of_a_kept_intake_gets_its_own_copy(account, demo):
    """The intake is kept per process; each report gets its own summary, systems and line
    problems (unpickled from the kept bytes), so what one caller does to its copy never
    reaches the next review of the same quote."""
    review = _upload(EXAMPLE, account, demo)
    first = quote_intake_stored(quote=review.quote)
    second = quote_intake_stored(quote=review.quote)
    assert (first.summary, first.systems, first.line_problems) == (
        second.summary,
        second.systems,
        second.line_problems,
    )
    assert first.summary is not second.summary and first.systems[0] is not second.systems[0]
    first.systems[0].quantity += 5
    first.summary.lines.clear()
    first.line_problems.clear()
    third = quote_intake_stored(quote=review.quote)
    assert third.systems == second.systems and third.summary == second.summary
    assert third.line_problems == second.line_problems


def test_a_load_the_engine_cannot_size_writes_no_quote(account, demo):
    """The review is computed before anything is written: an unknown model leaves no quote
    without a review (the blob is kept for the orphan sweeper, RELIABILITY 26)."""
    _, facility = _inputs(EXAMPLE)
    with pytest.raises(ReviewInputError):
        review_upload(
            data=(EXAMPLE / "quote.csv").read_bytes(),
            filename="quote.csv",
            organisation=demo["acme"],
            uploaded_by=account,
            workload=Workload(kind="inference", model="Foo-7B"),
            facility=facility,
        )
    assert (Quote.objects.count(), Review.objects.count()) == (0, 0)


def test_a_crash_while_storing_the_review_leaves_no_quote(account, demo, monkeypatch):
    def crash(**kwargs):
        raise RuntimeError("killed between the quote and its review")

    monkeypatch.setattr("apps.review.services.review_store", crash)
    with pytest.raises(RuntimeError):
        _upload(EXAMPLE, account, demo)
    # One transaction: neither the quote nor its lines nor a review remain; the original's
    # blob is on disk for the sweeper, with no row pointing at it.
    assert (Quote.objects.count(), Review.objects.count(), QuoteFile.objects.count()) == (0, 0, 0)
