"""NUL and other control characters never reach the database. Run it on
PostgreSQL (``DATABASE_URL=postgres://…``), which refuses U+0000 in text and JSON: before the
fix each of these was a 500 there."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.quotes.models import Quote, QuoteLine
from apps.review.models import AuditEvent, Review, ReviewStatus
from tests.fixtures import hostile
from tests.reports.conftest import review_a

__all__ = ["review_a"]

pytestmark = pytest.mark.usefixtures("catalog_db")

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.mark.parametrize("query", ["q=%00", "q=dgx%00b200", "q=%07", "q%00=x"])
def test_a_control_character_in_a_query_string_is_refused(clients, query: str) -> None:
    response = clients["customer"].get(f"/catalog/?{query}")
    assert response.status_code == 400
    assert "contains a control character (U+00" in response.content.decode()


def test_tabs_and_newlines_are_fine(clients) -> None:
    assert clients["customer"].get("/catalog/?q=dgx%09b200").status_code == 200


def test_a_nul_in_a_finance_reason_is_refused_and_nothing_changes(clients, review_a) -> None:
    Review.objects.filter(pk=review_a.pk).update(status=ReviewStatus.PENDING)
    events = AuditEvent.objects.count()
    response = clients["finance"].post(
        reverse("review:reject", args=[review_a.uuid]),
        {"version": review_a.version, "reason": "too\x00expensive"},
    )
    assert response.status_code == 400
    assert "reason: contains a control character (U+0000)" in response.content.decode()
    review_a.refresh_from_db()
    assert review_a.status == ReviewStatus.PENDING
    assert AuditEvent.objects.count() == events


def test_a_nul_in_the_api_organisation_is_refused_in_json(clients) -> None:
    response = clients["account_team"].post(
        "/api/reviews",
        {
            "file": SimpleUploadedFile("q.csv", b"Part Number,Qty\nA,1\n", "text/csv"),
            "workload": "internal-assistant",
            "facility": "server-room",
            "organisation": "acme\x00",
        },
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "organisation: contains a control character (U+0000); remove it and try again"
    }
    assert not Quote.objects.exists()


def test_a_nul_inside_the_api_workload_json_is_stripped_from_the_name(clients) -> None:
    quote = (hostile.HEADER, ["DGXB-G1440+P2CMI36", "DGX B200", 1, 515000, 515000])
    data = "\n".join(",".join(str(cell) for cell in row) for row in quote).encode()
    response = clients["account_team"].post(
        "/api/reviews",
        {
            "file": SimpleUploadedFile("q.csv", data, "text/csv"),
            "workload": json.dumps(
                {"name": "Fine\u0000tune", "kind": "fine_tuning", "memory_gb": 512}
            ),
            "facility": json.dumps({"name": "Room\u0007", "rack_power_kw": 20}),
            "organisation": "acme",
        },
    )
    assert response.status_code == 201, response.content
    review = Review.objects.get()
    assert review.workload["name"] == "Finetune"
    assert review.facility["name"] == "Room"


def test_an_xlsx_cell_holding_nul_is_stored_without_it(clients, demo) -> None:
    from tests.web.test_upload_views import saved_form

    form = {
        **saved_form(demo),
        "file": SimpleUploadedFile("nul.xlsx", hostile.xlsx_nul_cell(), XLSX),
    }
    response = clients["account_team"].post("/quotes/upload/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    line = QuoteLine.objects.order_by("line").first()
    assert line is not None and line.description == "Widget"
