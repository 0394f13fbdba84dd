"""The smaller holes the attack run found, one test each; each failed before its fix."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.test import Client

from apps.quotes.models import Quote
from apps.review.models import Review, ReviewStatus
from tests.reports.conftest import review_a

__all__ = ["review_a"]

pytestmark = pytest.mark.usefixtures("catalog_db")

QUOTE_CSV = (
    b"Part Number,Description,Qty,Unit Price,Extended Price\n"
    b'DGXB-G1440+P2CMI36,"NVIDIA DGX B200 1440GB, 8x B200 SXM",1,515000.00,515000.00\n'
)


def api_post(client: Client, **overrides: object):
    data: dict[str, object] = {
        "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV, content_type="text/csv"),
        "workload": json.dumps({"kind": "fine_tuning", "memory_gb": 512}),
        "facility": json.dumps({"rack_power_kw": 20, "racks_available": 2}),
        "organisation": "acme",
    }
    data.update(overrides)
    return client.post("/api/reviews", data)


def test_the_api_refuses_the_resellers_own_organisation(clients, demo) -> None:
    # Before: 201, a review "for" Northwind itself (the upload form never offers it).
    reseller = demo["acme"].__class__.objects.get(is_internal=True)
    response = api_post(clients["account_team"], organisation=reseller.slug)
    assert response.status_code == 400
    assert response.json() == {
        "error": f"organisation: {reseller.slug!r} is the reseller itself; "
        "name the customer organisation the quote is for"
    }
    assert not Quote.objects.exists()


def test_the_api_bounds_string_lengths(clients) -> None:
    # Before: a 1 MB "workload" was parsed whole; a 100-level nesting went to pydantic.
    response = api_post(clients["account_team"], workload="x" * 70_000)
    assert response.status_code == 400
    assert response.json() == {
        "error": "workload: 70,000 characters; at most 65,536 (a JSON object or a preset name)"
    }
    response = api_post(clients["account_team"], organisation="a" * 500)
    assert response.json() == {"error": "organisation: at most 100 characters"}


def test_the_api_bounds_json_structure(clients) -> None:
    # Deep nesting inside 64 KB: json.loads' recursion limit, answered as a 400 in JSON.
    deep = "[" * 30_000 + "]" * 30_000
    response = api_post(clients["account_team"], workload="{" + f'"kind": {deep}' + "}")
    assert response.status_code == 400
    assert response.json() == {"error": "workload: the JSON nests too deeply"}


def test_api_errors_are_json_even_when_django_answers(clients) -> None:
    # Six files: Django's TooManyFilesSent, answered with its HTML 400 page before.
    files = [SimpleUploadedFile(f"q{n}.csv", QUOTE_CSV, "text/csv") for n in range(6)]
    response = clients["account_team"].post("/api/reviews", {"file": files})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"error": "bad request"}


def test_an_unexpected_api_error_is_json(clients, monkeypatch) -> None:
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("apps.api.intake.review_upload", broken)
    response = api_post(clients["account_team"])
    assert response.status_code == 500
    assert response.json() == {"error": "internal error; it has been logged"}


def test_customer_html_carries_no_internal_status(clients, review_a) -> None:
    Review.objects.filter(pk=review_a.pk).update(status=ReviewStatus.REJECTED)
    html = clients["customer"].get(f"/reviews/{review_a.uuid}/").content.decode()
    assert "rejected" not in html.lower()  # before: class="badge state state-rejected"
    assert 'class="badge state state-in-review">In review<' in html
    internal = clients["finance"].get(f"/reviews/{review_a.uuid}/").content.decode()
    assert "state-rejected" in internal


AMBIGUOUS = b"Part Number,Qty;Description,Unit Price\nA-1,2;Widget,5.00\n"


def test_the_ambiguous_delimiter_question_is_answered_on_the_upload_page(clients, demo) -> None:
    from tests.web.test_upload_views import saved_form

    client = clients["account_team"]
    form = {**saved_form(demo), "file": SimpleUploadedFile("q.csv", AMBIGUOUS, "text/csv")}
    asked = client.post("/quotes/upload/", form)
    html = asked.content.decode()
    assert "the delimiter is ambiguous" in html and "choose the CSV delimiter" in html
    assert 'name="delimiter"' in html  # before: asked, but nowhere to answer
    form["file"] = SimpleUploadedFile("q.csv", AMBIGUOUS, "text/csv")
    answered = client.post("/quotes/upload/", {**form, "delimiter": ","})
    assert answered.status_code == 302, answered.content.decode()[:3000]
    quote = Quote.objects.exclude(status="rejected").get()
    assert quote.lines.count() == 1


def test_a_database_that_is_down_is_a_503_with_a_retry_message(demo, monkeypatch) -> None:
    # Before: Django's generic 500 page.
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(username="account"))

    def down(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    monkeypatch.setattr("django.contrib.sessions.backends.db.SessionStore.load", down)
    page = client.get("/catalog/")
    assert page.status_code == 503
    assert page["Retry-After"] == "30"
    assert "try again in 30 seconds" in page.content.decode()
    api = client.get("/api/reviews/00000000-0000-0000-0000-000000000000")
    assert api.status_code == 503
    assert api.json() == {
        "error": "Rightsize cannot reach its database just now. Nothing was lost; "
        "try again in 30 seconds."
    }
