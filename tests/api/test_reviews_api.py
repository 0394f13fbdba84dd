"""The JSON API: POST /api/reviews and GET /api/reviews/{uuid}, scoping, errors, the schema."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.quotes.models import Quote
from apps.review import services
from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review, ReviewStatus
from tests.review.factories import report_make, review_make, review_published_as_is

pytestmark = pytest.mark.django_db

QUOTE_CSV = (
    b"Part Number,Description,Qty,Unit Price,Extended Price\n"
    b'DGXB-G1440+P2CMI36,"NVIDIA DGX B200 1440GB, 8x B200 SXM",1,515000.00,515000.00\n'
)
WORKLOAD = {"name": "Full fine-tune", "kind": "fine_tuning", "memory_gb": 512}
FACILITY = {"name": "Legacy room", "rack_power_kw": 2, "racks_available": 1}


@pytest.fixture
def engine(monkeypatch, catalog_db):
    """The engine's answer is canned here; the quote upload and storage are real."""
    seen = {}

    def review_run(*, intake, workload, facility, catalog):
        seen.update(intake=intake, workload=workload, facility=facility)
        return report_make()

    monkeypatch.setattr(services, "review_report", review_run)
    return seen


def _post(client: Client, **overrides: object):
    data = {
        "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV, content_type="text/csv"),
        "workload": json.dumps(WORKLOAD),
        "facility": json.dumps(FACILITY),
        "organisation": "acme",
    }
    data.update(overrides)
    data = {k: v for k, v in data.items() if v is not None}
    return client.post("/api/reviews", data)


def test_post_creates_a_review_and_answers_the_contract_report(clients, engine, demo):
    response = _post(clients["account_team"])
    assert response.status_code == 201, response.content
    body = response.json()
    report = ReviewReport.model_validate(body)  # the CONTRACT.md shape, nothing renamed
    assert report.verdict == "fail"
    assert body["quote"]["total"] == "515000.00"  # money is a decimal string
    review = Review.objects.get()
    assert response["Location"] == f"/api/reviews/{review.uuid}"
    assert (review.organisation, review.status) == (demo["acme"], ReviewStatus.PENDING)
    assert engine["workload"].memory_gb == 512
    assert engine["facility"].rack_power_kw == 2
    assert Quote.objects.get().display_name == "dgx.csv"


def test_post_accepts_preset_names(clients, engine):
    response = _post(clients["admin"], workload="full-fine-tune", facility="legacy-room")
    assert response.status_code == 201, response.content
    assert engine["facility"].name == "Legacy room"


def test_get_returns_the_stored_report(clients, demo):
    users = {u.username: u for u in User.objects.all()}
    review = review_make(organisation=demo["acme"], user=users["account"])
    assert clients["customer"].get(f"/api/reviews/{review.uuid}").status_code == 404
    review = review_published_as_is(review)  # the customer reads it once published
    for who in ("customer", "account_team", "finance", "admin"):
        response = clients[who].get(f"/api/reviews/{review.uuid}")
        assert response.status_code == 200, who
        assert response.json() == review.report


def test_other_organisations_review_is_404(clients, demo):
    users = {u.username: u for u in User.objects.all()}
    review = review_make(organisation=demo["acme"], user=users["account"])
    response = clients["other_customer"].get(f"/api/reviews/{review.uuid}")
    assert response.status_code == 404
    assert response.json() == {"error": "Not found."}
    assert (
        clients["customer"].get("/api/reviews/00000000-0000-0000-0000-000000000000").status_code
        == 404
    )


def test_anonymous_gets_401(clients, demo):
    users = {u.username: u for u in User.objects.all()}
    review = review_make(organisation=demo["acme"], user=users["account"])
    assert clients["anonymous"].get(f"/api/reviews/{review.uuid}").status_code == 401
    assert _post(clients["anonymous"]).status_code == 401


@pytest.mark.parametrize("who", ["customer", "other_customer", "finance"])
def test_only_the_account_team_and_admins_may_post(clients, engine, who):
    response = _post(clients[who])
    assert response.status_code == 403
    assert "error" in response.json()
    assert not Quote.objects.exists() and not Review.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"file": None}, "file: Field required"),
        ({"workload": "{not json"}, "workload: invalid JSON at line 1, column 2"),
        ({"workload": json.dumps({"kind": "mining"})}, "workload: field 'kind'"),
        ({"workload": json.dumps({"kind": "rag", "gpu": "B200"})}, "workload: field 'gpu'"),
        ({"facility": "/etc/passwd"}, "facility: '/etc/passwd' is not JSON"),
        ({"organisation": None}, "organisation: required"),
        ({"organisation": "initech"}, "organisation: no organisation 'initech'"),
        (
            {"workload": json.dumps({"kind": "inference", "model": "Foo-7B"})},
            "workload: field 'model': unknown model 'Foo-7B'",
        ),
    ],
)
def test_bad_input_is_400_with_one_error_line(clients, engine, overrides, message):
    response = _post(clients["account_team"], **overrides)
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not Review.objects.exists()


def test_unreadable_quote_names_the_file_row_and_column(clients, engine):
    bad = b"Part Number,Description,Qty,Unit Price\nX1,Widget,-2,10.00\n"
    response = _post(clients["account_team"], file=SimpleUploadedFile("bad.csv", bad))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error.startswith("bad.csv")
    assert "row" in error
    assert not Review.objects.exists()


def test_not_a_spreadsheet_is_400(clients, engine):
    html = SimpleUploadedFile("quote.csv", b"<html><script>alert(1)</script></html>")
    response = _post(clients["account_team"], file=html)
    assert response.status_code == 400
    assert response.json()["error"].startswith("quote.csv")


def test_post_without_csrf_token_is_403(demo, engine):
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get(username="account"))
    assert _post(client).status_code == 403
    assert not Quote.objects.exists()
    client.get("/")  # any page (base.html) hands out the token
    token = client.cookies.get("csrftoken")
    assert token is not None
    response = client.post(
        "/api/reviews",
        {
            "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV),
            "workload": json.dumps(WORKLOAD),
            "facility": json.dumps(FACILITY),
            "organisation": "acme",
        },
        headers={"X-CSRFToken": token.value},
    )
    assert response.status_code == 201, response.content


def test_openapi_schema_describes_both_operations(clients):
    """The two first operations are still there (as deprecated aliases), beside /api/v1/."""
    response = clients["finance"].get("/api/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    legacy = {p for p in schema["paths"] if not p.startswith("/api/v1/")}
    assert legacy == {"/api/reviews", "/api/reviews/{review_uuid}"}
    post = schema["paths"]["/api/reviews"]["post"]
    assert post["deprecated"] is True
    assert set(post["responses"]) == {"201", "400", "403", "413"}
    assert "ReviewReport" in schema["components"]["schemas"]


def test_docs_need_login_and_run_under_the_csp(clients):
    assert clients["anonymous"].get("/api/docs").status_code == 302
    response = clients["customer"].get("/api/docs")
    assert response.status_code == 200
    body = response.content.decode()
    nonce = response["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert body.count(f'nonce="{nonce}"') == 2  # both Swagger scripts
    # Every script and stylesheet is served from here, none from a CDN. The nonce is random
    # text and may spell "cdn" by chance, so it is taken out before looking.
    assert "cdn" not in body.replace(nonce, "").lower()
    sources = re.findall(r'(?:src|href)="([^"]+)"', body)
    assert sources and all(source.startswith("/") for source in sources), sources
    assert "/static/ninja/swagger-ui-bundle.js" in body


def test_oversized_file_is_413_and_nothing_stored(clients, engine, settings):
    settings.QUOTE_MAX_UPLOAD_BYTES = len(QUOTE_CSV) - 1  # one byte short of this quote
    response = _post(clients["account_team"])
    assert response.status_code == 413
    assert response.json()["error"].startswith("dgx.csv:")
    assert not Quote.objects.exists()
    settings.QUOTE_MAX_UPLOAD_BYTES = len(QUOTE_CSV)  # exactly the limit is accepted
    assert _post(clients["account_team"]).status_code == 201


def _tsv(csv_bytes: bytes) -> str:
    import csv as csv_module

    rows = csv_module.reader(csv_bytes.decode().splitlines())
    return "\n".join("\t".join(row) for row in rows) + "\n"


def test_a_pasted_table_is_reviewed_like_the_file(clients, demo, catalog_db):
    """`lines` carries the table as text/tab-separated-values: one DGX B200, as the CSV."""
    response = _post(clients["account_team"], file=None, lines=_tsv(QUOTE_CSV))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["quote"]["file"] == "pasted.tsv"
    # 1 × DGX B200: 8 × B200 in one NVLink domain, 515,000.00.
    assert [(s["sku"], s["quantity"], s["gpus_per_system"]) for s in body["systems"]] == [
        ("dgx-b200", 1, 8)
    ]
    assert body["quote"]["total"] == "515000.00"


def test_a_tsv_file_part_is_accepted(clients, demo, catalog_db):
    upload = SimpleUploadedFile(
        "quote.tsv", _tsv(QUOTE_CSV).encode(), content_type="text/tab-separated-values"
    )
    response = _post(clients["account_team"], file=upload)
    assert response.status_code == 201, response.content
    assert response.json()["systems"][0]["sku"] == "dgx-b200"


def test_the_building_and_the_loads_time_reach_the_engine(clients, engine):
    facility = {
        "name": "Colo cage",
        "feed_volts": 208,
        "feed_phase": "three",
        "feed_amps": 30,
        "feed_redundant": True,
        "floor_load_kg_per_m2": 1221,
        "units": "si",
    }
    workload = WORKLOAD | {"duration_weeks": 6, "busy_hours_per_day": 10}
    response = _post(
        clients["account_team"], facility=json.dumps(facility), workload=json.dumps(workload)
    )
    assert response.status_code == 201, response.content
    assert (engine["facility"].feed_volts, engine["facility"].feed_redundant) == (208, True)
    assert engine["workload"].duration_weeks == 6


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"facility": json.dumps({"feed_volts": 208})},
            "facility: a rack feed needs both feed_volts and feed_amps (feed_amps missing)",
        ),
        ({"facility": json.dumps({"feed_volts": 110, "feed_amps": 20})}, "field 'feed_volts'"),
        (
            {"workload": json.dumps(WORKLOAD | {"duration_weeks": 6, "duration_months": 2})},
            "workload: give one of duration_weeks, duration_months, not several",
        ),
        ({"workload": json.dumps(WORKLOAD | {"busy_hours_per_day": 25})}, "busy_hours_per_day"),
    ],
)
def test_bad_building_or_time_is_400(clients, engine, overrides, message):
    response = _post(clients["account_team"], **overrides)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_a_config_json_model_and_a_did_you_mean(clients, engine, demo):
    from pathlib import Path

    configs = Path(__file__).resolve().parent.parent / "fixtures" / "hf_configs"
    config = json.loads((configs / "Qwen3-30B-A3B.json").read_text(encoding="utf-8"))
    workload = {"kind": "inference", "model": config}
    response = _post(clients["account_team"], workload=json.dumps(workload))
    assert response.status_code == 201, response.content
    # 30.53 B total, 3.35 B active, counted from the config (FORMULAS.md)
    assert engine["workload"].model.params_b == pytest.approx(30.532, abs=0.001)
    near = json.dumps({"kind": "inference", "model": "Qwen3-33B"})
    response = _post(clients["account_team"], workload=near)
    assert response.status_code == 400
    assert "did you mean Qwen3-32B" in response.json()["error"]


def test_two_quote_sheets_answer_400_listing_them_then_sheet_picks_one(clients, demo, catalog_db):
    from tests.fixtures.sheets import two_quote_sheets_xlsx

    def book() -> SimpleUploadedFile:
        return SimpleUploadedFile("options.xlsx", two_quote_sheets_xlsx())

    response = _post(clients["account_team"], file=book())
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == (
        "options.xlsx: 2 sheets look like quotes ('Option A', 'Option B'); say which sheet "
        "holds the quote: post again with 'sheet' naming one"
    )
    assert [(s["name"], s["rows"], s["first_lines"][0]) for s in body["sheets"]] == [
        ("Option A", 2, "NVIDIA DGX B200 8x B200 1440GB"),
        ("Option B", 1, "Supermicro SYS-521GE-TNRT 4x NVIDIA L40S 48GB"),
    ]
    assert (Quote.objects.count(), Review.objects.count()) == (0, 0)  # a question, no record

    response = _post(clients["account_team"], file=book(), sheet="Option A")
    assert response.status_code == 201, response.content
    body = response.json()
    # Option A: the DGX B200 at 515,000 and a support line at 0
    assert [(s["sku"], s["quantity"]) for s in body["systems"]] == [("dgx-b200", 1)]
    assert body["quote"]["total"] == "515000.00"
    response = _post(clients["account_team"], file=book(), sheet="Nope")
    assert response.status_code == 400
    assert "there is no sheet 'Nope' in the workbook" in response.json()["error"]
