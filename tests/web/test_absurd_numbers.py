"""Every number a person types has a physical range: the form, the API and
the CLI refuse ``1e308`` GB naming the field, and a stored review that cannot be rendered shows
an error panel (never a 500) while its PDF job fails with the reason.

Before: ``1e308`` as memory or FP64 was accepted everywhere; the review page was then a 500 for
every role, for good, and its PDF said "Rendering…" forever."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.quotes.models import Quote
from apps.reports.models import ReportFile, ReportStatus
from apps.reports.services import report_render
from apps.review.engine.schemas import INPUT_RANGES
from apps.review.models import Review
from tests.conftest import EXAMPLES
from tests.web.test_upload_views import saved_form

pytestmark = pytest.mark.django_db

QUOTE = (EXAMPLES / "cement-truck-for-a-school-bus" / "quote.csv").read_bytes()


def described(**fields: object) -> dict[str, object]:
    data: dict[str, object] = {
        "w-kind": "hpc",
        "w-precision": "fp64",
        "w-context_tokens": 8192,
        "w-concurrent_users": 1,
        "w-tokens_per_sec_per_user": 10,
        "f-site": "datacenter",
        "f-cooling": "air",
        "f-rack_power_kw": 20,
        "f-racks_available": 2,
    }
    data.update(fields)
    return data


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("w-memory_gb", "1e308", "Ensure this value is less than or equal to 1000000."),
        ("w-fp64_tflops", "1e308", "Ensure this value is less than or equal to 10000000."),
        ("w-memory_gb", "inf", "Enter a number."),
        ("w-concurrent_users", "100000000000", "less than or equal to 10000000"),
        ("w-context_tokens", "99999999999999999999", "less than or equal to 10000000"),
        ("f-rack_power_kw", "1e308", "less than or equal to 1000"),
        ("f-circuit_amps", "1e9", "less than or equal to 1000"),
        ("f-floor_load_lb_per_sqft", "1e12", "less than or equal to 10000"),
    ],
)
def test_the_upload_form_refuses_absurd_numbers_on_their_field(
    clients, demo, catalog_db, field: str, value: str, message: str
) -> None:
    form = {**saved_form(demo), **described(**{field: value})}
    del form["w-saved"], form["f-saved"]
    form["file"] = SimpleUploadedFile("quote.csv", QUOTE, "text/csv")
    response = clients["account_team"].post("/quotes/upload/", form)
    assert response.status_code == 400
    errors = response.context[f"{'workload' if field[0] == 'w' else 'facility'}_form"].errors
    assert message in " ".join(errors[field[2:]])
    assert not Quote.objects.exists()


def test_the_form_states_each_range_next_to_its_field(clients, catalog_db) -> None:
    html = clients["account_team"].get("/quotes/upload/").content.decode()
    assert "From 0.1 – 1,000,000 GB." in html  # memory
    assert "From 0.1 – 10,000,000 TFLOPS." in html  # FP64
    assert "From 1 – 1,000 A." in html  # circuit amps
    assert len(INPUT_RANGES) >= 10


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"workload": {"kind": "hpc", "memory_gb": 1e308}},
            "workload: field 'memory_gb': must be within 0.1 – 1,000,000 GB (got 1e+308)",
        ),
        (
            {"workload": {"kind": "hpc", "fp64_tflops": "NaN"}},
            "workload: field 'fp64_tflops': must be within 0.1 – 10,000,000 TFLOPS (got nan)",
        ),
        (
            {"facility": {"circuit_amps": 1e9, "circuit_volts": 120, "site": "office"}},
            "facility: field 'circuit_amps': must be within 1 – 1,000 A (got 1e+09)",
        ),
    ],
)
def test_the_api_refuses_absurd_numbers_naming_the_field(
    clients, catalog_db, spec: dict, message: str
) -> None:
    data = {
        "file": SimpleUploadedFile("quote.csv", QUOTE, "text/csv"),
        "workload": json.dumps(spec.get("workload", {"kind": "hpc", "memory_gb": 80})),
        "facility": json.dumps(spec.get("facility", {"rack_power_kw": 20})),
        "organisation": "acme",
    }
    response = clients["account_team"].post("/api/reviews", data)
    assert response.status_code == 400
    assert response.json() == {"error": message}
    assert not Quote.objects.exists()


@pytest.fixture
def unrenderable(review_a) -> Review:
    """A review stored before the bounds existed: 1e308 GB of memory in its load."""
    review_a.workload = {**review_a.workload, "memory_gb": 1e308}
    review_a.report["workload"]["memory_gb"] = 1e308
    review_a.published_report = review_a.report  # the customer's copy is as unrenderable
    review_a.save()
    return review_a


@pytest.mark.parametrize("role", ["account_team", "finance", "customer"])
def test_a_review_that_cannot_render_shows_an_error_panel(clients, unrenderable, role) -> None:
    response = clients[role].get(f"/reviews/{unrenderable.uuid}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="review-unrenderable"' in html
    assert "This review cannot be shown" in html
    assert "memory_gb" in html  # what is wrong, so someone can re-run it with real numbers


def test_its_pdf_job_fails_with_the_reason(unrenderable) -> None:
    row = ReportFile.objects.create(
        review=unrenderable, review_version=unrenderable.version, status=ReportStatus.QUEUED
    )
    row = report_render(report_file_id=row.pk)
    assert row.status == ReportStatus.FAILED
    assert row.error.startswith("the stored review cannot be rendered")
    assert "memory_gb" in row.error
