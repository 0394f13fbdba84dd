"""/api/v1/: upload, list, read, PDF, Finance decisions and the catalog, with tokens; every
refusal in one JSON shape, a bad upload naming its file, row and column."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from apps.review.engine.schemas import ReviewReport
from apps.review.models import AuditEvent, Review, ReviewStatus
from tests.review.factories import MEMORY_OK, report_make, review_make, review_published_as_is

pytestmark = pytest.mark.django_db

QUOTE_CSV = (
    b"Part Number,Description,Qty,Unit Price,Extended Price\n"
    b'DGXB-G1440+P2CMI36,"NVIDIA DGX B200 1440GB, 8x B200 SXM",1,515000.00,515000.00\n'
)
WORKLOAD = json.dumps({"name": "Full fine-tune", "kind": "fine_tuning", "memory_gb": 512})
FACILITY = json.dumps({"name": "Legacy room", "rack_power_kw": 2, "racks_available": 1})


def _upload(client, **overrides):
    data = {
        "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV, content_type="text/csv"),
        "workload": WORKLOAD,
        "facility": FACILITY,
        "organisation": "acme",
    }
    data.update(overrides)
    return client.post("/api/v1/reviews", {k: v for k, v in data.items() if v is not None})


def _error(response, status):
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"code", "message", "problems"}
    return error


def test_a_token_uploads_a_quote_and_reads_the_contract_report(tokens, catalog_db):
    response = _upload(tokens["account_team"])
    assert response.status_code == 201, response.content
    body = response.json()
    ReviewReport.model_validate(body)  # the CONTRACT.md report, nothing renamed
    review = Review.objects.get()
    assert response["Location"] == f"/api/v1/reviews/{review.uuid}"
    # One DGX B200 at 515,000.00 (1 × 515,000.00).
    assert body["quote"]["total"] == "515000.00"
    assert [(s["sku"], s["quantity"]) for s in body["systems"]] == [("dgx-b200", 1)]
    meta = body["review"]
    assert (meta["uuid"], meta["organisation"], meta["version"]) == (str(review.uuid), "acme", 1)
    assert meta["status"] == review.status
    assert meta["total_usd"] == "515000.00"
    assert tokens["customer"].get(meta["url"]).status_code == 404  # not published yet
    review_published_as_is(review)
    got = tokens["customer"].get(meta["url"]).json()
    assert got == body


def test_pasted_tsv_is_accepted(tokens, catalog_db):
    tsv = "\n".join("\t".join(r.split(",")) for r in QUOTE_CSV.decode().splitlines()[:1])
    tsv += "\nDGXB-G1440+P2CMI36\tNVIDIA DGX B200 1440GB 8x B200 SXM\t1\t515000.00\t515000.00\n"
    response = _upload(tokens["admin"], file=None, lines=tsv)
    assert response.status_code == 201, response.content
    assert response.json()["quote"]["file"] == "pasted.tsv"


def test_a_bad_upload_names_the_file_row_and_column(tokens, catalog_db):
    bad = b"Part Number,Description,Qty,Unit Price\nX1,Widget,-2,10.00\n"
    error = _error(_upload(tokens["account_team"], file=SimpleUploadedFile("bad.csv", bad)), 400)
    assert error["code"] == "quote_unreadable"
    [problem] = error["problems"]
    assert (problem["file"], problem["row"], problem["column"]) == ("bad.csv", 2, "Qty")
    assert "negative" in problem["message"]
    assert error["message"].startswith("bad.csv, row 2, column 'Qty'")
    assert not Review.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"workload": json.dumps({"kind": "mining"})}, "workload.kind"),
        ({"workload": "{not json"}, "workload"),
        ({"organisation": "initech"}, "organisation"),
        ({"file": None}, "file"),
        ({"facility": None}, "facility"),
    ],
)
def test_bad_fields_are_named(tokens, catalog_db, overrides, field):
    error = _error(_upload(tokens["account_team"], **overrides), 400)
    assert [p["field"] for p in error["problems"]] == [field]


def test_only_posters_may_upload(tokens, catalog_db):
    for role in ("customer", "finance"):
        error = _error(_upload(tokens[role]), 403)
        assert error["code"] == "forbidden"
    assert not Review.objects.exists()


@pytest.fixture
def three_reviews(demo):
    """acme: a flagged one (pending, fail) and a passing one (clear, pass) made 40 days ago;
    globex: one flagged."""
    account = User.objects.get(username="account")
    flagged = review_make(organisation=demo["acme"], user=account)
    # Passes, calm Finance, USD 5,000 under the line: nothing for Finance (the one rule).
    passing = report_make([MEMORY_OK], total="5000.00", finance="calm")
    clear = review_make(organisation=demo["acme"], user=account, report=passing)
    Review.objects.filter(pk=clear.pk).update(created_at=timezone.now() - dt.timedelta(days=40))
    other = review_make(organisation=demo["globex"], user=account)
    # Published as they are: the customers' lists and PDFs read published reviews only.
    return tuple(review_published_as_is(r) for r in (flagged, clear, other))


def _uuids(response):
    assert response.status_code == 200, response.content
    return [item["uuid"] for item in response.json()["items"]]


def test_lists_are_scoped_filtered_and_paged(tokens, three_reviews):
    flagged, clear, other = (str(r.uuid) for r in three_reviews)
    assert _uuids(tokens["customer"].get("/api/v1/reviews")) == [flagged, clear]
    assert _uuids(tokens["other_customer"].get("/api/v1/reviews")) == [other]
    finance = tokens["finance"]
    assert _uuids(finance.get("/api/v1/reviews?status=pending")) == [other, flagged]
    assert _uuids(finance.get("/api/v1/reviews?verdict=pass")) == [clear]
    since = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    assert _uuids(finance.get(f"/api/v1/reviews?created_from={since}")) == [other, flagged]
    assert _uuids(finance.get(f"/api/v1/reviews?created_to={since}")) == [clear]
    assert _uuids(finance.get("/api/v1/reviews?organisation=globex")) == [other]
    first = finance.get("/api/v1/reviews?page_size=2").json()
    # 3 reviews, 2 a page → 2 pages.
    assert (first["count"], first["pages"], first["page"]) == (3, 2, 1)
    assert first["next"] == "/api/v1/reviews?page_size=2&page=2"
    second = finance.get(first["next"]).json()
    assert [i["uuid"] for i in second["items"]] == [clear] and second["next"] is None
    assert _error(finance.get("/api/v1/reviews?status=lost"), 400)["problems"][0]["field"] == (
        "status"
    )
    assert _error(finance.get("/api/v1/reviews?page=9"), 400)["problems"][0]["field"] == "page"
    assert _error(finance.get("/api/v1/reviews?page_size=101"), 400)["code"] == "invalid_request"


def test_another_organisations_review_is_404_in_the_one_shape(tokens, three_reviews):
    flagged = three_reviews[0]
    error = _error(tokens["other_customer"].get(f"/api/v1/reviews/{flagged.uuid}"), 404)
    assert error == {"code": "not_found", "message": "Not found.", "problems": []}


def _decide(client, review, version, action="approve", reason="Within budget"):
    return client.post(
        f"/api/v1/reviews/{review.uuid}/decisions",
        {"action": action, "reason": reason, "expected_version": version},
        content_type="application/json",
    )


def test_finance_decides_and_the_second_decider_gets_409(tokens, three_reviews):
    flagged = three_reviews[0]
    response = _decide(tokens["finance"], flagged, 1)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["review"]["status"], body["review"]["version"]) == ("approved", 2)
    assert body["decision"]["actor"] == "finance" and body["decision"]["reason"] == "Within budget"
    late = _error(_decide(tokens["admin"], flagged, 1, action="reject"), 409)
    assert late["code"] == "quote_changed"
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (ReviewStatus.APPROVED, 2)
    assert AuditEvent.objects.filter(review=flagged).count() == 1


def test_decision_rules_are_the_pages_rules(tokens, three_reviews):
    flagged = three_reviews[0]
    assert _error(_decide(tokens["account_team"], flagged, 1), 403)["code"] == "forbidden"
    blank = _error(_decide(tokens["finance"], flagged, 1, reason="  "), 400)
    assert blank["problems"][0]["field"] == "reason"
    assert _error(_decide(tokens["customer"], flagged, 1), 403)["code"] == "forbidden"
    unknown = _error(_decide(tokens["finance"], flagged, 1, action="sell"), 400)
    assert unknown["problems"][0]["field"] == "action"
    assert unknown["message"].startswith("action: Input should be 'approve'")
    assert _decide(tokens["finance"], three_reviews[2], 1).status_code == 201  # globex: internal


def test_decisions_are_listed_for_staff_only(tokens, three_reviews):
    flagged, _, other = three_reviews
    assert _decide(tokens["finance"], flagged, 1).status_code == 201
    assert (
        _decide(tokens["finance"], other, 1, action="reject", reason="No room").status_code == 201
    )
    everything = tokens["account_team"].get("/api/v1/decisions").json()
    assert [(d["review"], d["action"]) for d in everything["items"]] == [
        (str(other.uuid), "reject"),
        (str(flagged.uuid), "approve"),
    ]
    one = tokens["admin"].get(f"/api/v1/decisions?review={flagged.uuid}").json()
    assert [d["reason"] for d in one["items"]] == ["Within budget"]
    assert _error(tokens["customer"].get("/api/v1/decisions"), 403)["code"] == "forbidden"


def test_the_pdf_is_queued_then_downloaded(
    tokens, three_reviews, django_capture_on_commit_callbacks
):
    flagged = three_reviews[0]
    url = f"/api/v1/reviews/{flagged.uuid}/pdf"
    assert _error(tokens["customer"].get(url), 404)["code"] == "pdf_not_requested"
    with django_capture_on_commit_callbacks(execute=True):
        queued = tokens["customer"].post(url)
    assert queued.status_code == 202
    assert queued.json()["status"] == "queued"  # as it was when asked; the task ran after commit
    pdf = tokens["customer"].get(url)
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")


def test_the_catalog_lists_systems_with_their_sources(tokens, catalog_db):
    body = tokens["customer"].get("/api/v1/catalog").json()
    systems = {s["key"]: s for s in body["systems"]}
    assert systems["dgx-b200"]["gpu_count"] == 8
    assert systems["dgx-b200"]["source_urls"]
    assert "b200" in {g["key"] for g in body["gpus"]}
    assert body["models"]


def test_organisations_name_the_slugs(tokens):
    internal = tokens["account_team"].get("/api/v1/organisations").json()
    assert {o["slug"] for o in internal} >= {"acme", "globex"}
    assert "reseller" not in {o["slug"] for o in internal}
    assert tokens["customer"].get("/api/v1/organisations").json() == [
        {"slug": "acme", "name": internal[[o["slug"] for o in internal].index("acme")]["name"]}
    ]


def test_refusals_before_the_api_use_the_same_shape(tokens):
    """A control character is refused by the middleware, before ninja: still the v1 shape."""
    response = tokens["finance"].get("/api/v1/reviews?organisation=ac%01me")
    error = _error(response, 400)
    assert error["code"] == "bad_request"
    assert error["message"].startswith("organisation: contains a control character (U+0001)")


def test_two_quote_sheets_answer_400_with_the_sheets_then_sheet_picks_one(tokens, catalog_db):
    from tests.fixtures.sheets import two_quote_sheets_xlsx

    def book() -> SimpleUploadedFile:
        return SimpleUploadedFile("options.xlsx", two_quote_sheets_xlsx())

    response = _upload(tokens["account_team"], file=book())
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "sheet_choice_needed"
    assert [problem["field"] for problem in error["problems"]] == ["sheet"]
    assert [(s["name"], s["rows"]) for s in error["sheets"]] == [("Option A", 2), ("Option B", 1)]
    assert not Review.objects.exists()  # a question, no record
    response = _upload(tokens["account_team"], file=book(), sheet="Option A")
    assert response.status_code == 201, response.content
    # Option A: the DGX B200 at 515,000 and a support line at 0
    assert response.json()["quote"]["total"] == "515000.00"
