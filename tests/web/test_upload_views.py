"""The upload page: the form in three parts, an upload that becomes a review, and bad files shown
row by row with nothing reviewed."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.quotes.models import Quote, QuoteStatus
from apps.review.models import Review
from apps.sites.models import SavedFacility, SavedWorkload
from tests.conftest import EXAMPLES
from tests.reports.page_reports import school_bus_report

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def engine(monkeypatch):
    """The review engine stands in with a fixed report; the upload, parse and match are real."""
    seen = {}

    def fake_run(*, intake, workload, facility, catalog):
        seen.update(intake=intake, workload=workload, facility=facility)
        return school_bus_report()

    monkeypatch.setattr("apps.review.services.review_report", fake_run)
    return seen


def quote_file(example: str = "cement-truck-for-a-school-bus") -> SimpleUploadedFile:
    data = (EXAMPLES / example / "quote.csv").read_bytes()
    return SimpleUploadedFile("quote.csv", data, content_type="text/csv")


def saved_form(demo) -> dict[str, object]:
    return {
        "organisation": demo["acme"].pk,
        "w-saved": SavedWorkload.objects.get(
            organisation=demo["acme"], name="Internal assistant, 100 users"
        ).pk,
        "f-saved": SavedFacility.objects.get(
            organisation=demo["acme"], name="Row 3 (20 kW, RDHX)"
        ).pk,
        # the described fields carry their defaults, as the browser posts them
        "w-kind": "inference",
        "w-precision": "bf16",
        "w-context_tokens": 8192,
        "w-concurrent_users": 1,
        "w-tokens_per_sec_per_user": 10,
        "f-site": "datacenter",
        "f-cooling": "air",
    }


def test_the_upload_page_asks_for_quote_load_and_room(clients, catalog_db):
    response = clients["account_team"].get("/quotes/upload/")
    body = response.content.decode()
    assert response.status_code == 200
    for part in ("The quote", "The load", "The room"):
        assert part in body
    assert "Qwen3-32B (32.8B)" in body  # a preset from the catalog
    assert "Qwen3-235B-A22B (235B, 22B active)" in body  # MoE: total and active
    assert "Acme Research · Internal assistant, 100 users" in body
    assert 'hx-encoding="multipart/form-data"' in body and 'hx-indicator="#upload-progress"' in body
    assert 'enctype="multipart/form-data"' in body and 'action="/quotes/upload/"' in body
    assert "Northwind Systems" not in body  # the reseller is not a customer to choose


@pytest.mark.parametrize(("who", "status"), [("customer", 403), ("finance", 403)])
def test_only_the_account_team_and_admin_upload(clients, who, status):
    assert clients[who].get("/quotes/upload/").status_code == status


def test_anonymous_upload_goes_to_login(client):
    response = client.get("/quotes/upload/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_upload_with_saved_workload_and_facility_becomes_a_review(
    clients, demo, catalog_db, engine
):
    response = clients["account_team"].post(
        "/quotes/upload/", {**saved_form(demo), "file": quote_file()}, headers=HX
    )
    review = Review.objects.get()
    assert response.status_code == 200 and response["HX-Redirect"] == f"/reviews/{review.uuid}/"
    assert review.organisation == demo["acme"]
    assert review.workload["concurrent_users"] == 100 and review.workload["precision"] == "fp8"
    assert review.facility["rack_power_kw"] == 20 and review.facility["cooling"] == "air_rdhx"
    quote = review.quote
    assert quote.status == QuoteStatus.PARSED and quote.display_name == "quote.csv"
    line = quote.lines.get()
    assert line.part_number == "DGXB300-G2304" and line.match == "exact"
    assert engine["workload"].model == "Qwen3-32B"


TODAYS_FACILITY_FIELDS = {
    "name",
    "site",
    "rack_power_kw",
    "racks_available",
    "cooling",
    "floor_load_lb_per_sqft",
    "circuit_volts",
    "circuit_amps",
}


def test_upload_with_a_described_workload(clients, demo, catalog_db, engine):
    data = {
        "organisation": demo["globex"].pk,
        "file": quote_file("pcie-vans-for-one-finetune"),
        "w-name": "Full fine-tune",
        "w-kind": "fine_tuning",
        "w-model": "",
        "w-precision": "bf16",
        "w-context_tokens": 8192,
        "w-concurrent_users": 1,
        "w-tokens_per_sec_per_user": 10,
        "w-memory_gb": 512,
        "f-name": "Server room",
        "f-site": "datacenter",
        "f-rack_power_kw": 15,
        "f-racks_available": 4,
        "f-cooling": "air",
        "f-floor_load_lb_per_sqft": 250,
    }
    response = clients["account_team"].post("/quotes/upload/", data)
    review = Review.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/reviews/{review.uuid}/"
    assert review.workload["kind"] == "fine_tuning" and review.workload["memory_gb"] == 512
    assert review.workload["model"] is None
    # today's fields as typed; the building's new fields (feeds, plant, bill) at their defaults
    assert {k: v for k, v in review.facility.items() if k in TODAYS_FACILITY_FIELDS} == {
        "name": "Server room",
        "site": "datacenter",
        "rack_power_kw": 15.0,
        "racks_available": 4,
        "cooling": "air",
        "floor_load_lb_per_sqft": 250.0,
        "circuit_volts": None,
        "circuit_amps": None,
    }
    assert review.quote.lines.count() == 2


def test_a_negative_quantity_is_shown_by_file_row_and_column(clients, demo, catalog_db, engine):
    upload = quote_file("bad-negative-quantity")
    response = clients["account_team"].post(
        "/quotes/upload/", {**saved_form(demo), "file": upload}, headers=HX
    )
    body = response.content.decode()
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert body.lstrip().startswith('<form id="upload-form"')
    assert "We could not read quote.csv" in body
    row = body[body.index("<tbody>") : body.index("</tbody>")]
    assert "<td>quote.csv</td>" in row and '<td class="num">2</td>' in row  # data row 2
    assert "Qty" in row and "quantity" in row and "-2" in row
    assert not Review.objects.exists()
    rejected = Quote.objects.get()  # readable file, unreadable quote: the original is kept
    assert rejected.status == QuoteStatus.REJECTED
    assert "The original is kept as it was sent" in body


def test_not_a_spreadsheet_is_refused_and_nothing_is_stored(clients, demo, catalog_db, engine):
    upload = SimpleUploadedFile("quote.csv", b"\x7fELF\x02\x01\x01" + bytes(200))
    response = clients["account_team"].post(
        "/quotes/upload/", {**saved_form(demo), "file": upload}, headers=HX
    )
    assert "We could not read quote.csv" in response.content.decode()
    assert not Quote.objects.exists() and not Review.objects.exists()


def test_an_empty_file_is_a_form_error(clients, demo, catalog_db, engine):
    upload = SimpleUploadedFile("quote.csv", b"")
    response = clients["account_team"].post("/quotes/upload/", {**saved_form(demo), "file": upload})
    assert response.status_code == 400
    assert "The submitted file is empty." in response.content.decode()
    assert not Quote.objects.exists()


def test_a_file_over_the_limit_is_a_form_error(clients, demo, catalog_db, engine, settings):
    settings.QUOTE_MAX_UPLOAD_BYTES = 100
    upload = SimpleUploadedFile("quote.csv", b"x" * 101)
    response = clients["account_team"].post("/quotes/upload/", {**saved_form(demo), "file": upload})
    body = response.content.decode()
    assert response.status_code == 400
    assert "quote.csv is 101\xa0bytes; the limit is 100\xa0bytes." in body
    assert not Quote.objects.exists()


def test_another_customers_saved_workload_is_refused(clients, demo, catalog_db, engine):
    data = {**saved_form(demo), "file": quote_file(), "organisation": demo["globex"].pk}
    response = clients["account_team"].post("/quotes/upload/", data, headers=HX)
    body = response.content.decode()
    assert "Internal assistant, 100 users belongs to Acme Research." in body
    assert not Quote.objects.exists()


def test_an_impossible_workload_is_shown_on_its_field(clients, demo, catalog_db, engine):
    data = {**saved_form(demo), "file": quote_file(), "w-saved": "", "w-concurrent_users": 0}
    response = clients["account_team"].post("/quotes/upload/", data, headers=HX)
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    assert not Quote.objects.exists()


def test_upload_through_the_real_engine_reads_like_the_field_guide(clients, demo, catalog_db):
    """No stand-ins: parse, match, assemble, check. Two Supermicro PCIe servers with 8 L40S
    are 2 × 4 GPUs, each its own NVLink domain: 48 GB, far from the 512 GB fine-tune."""
    data = {
        **saved_form(demo),
        "w-saved": SavedWorkload.objects.get(
            organisation=demo["acme"], name="Full fine-tune, 512 GB"
        ).pk,
        "f-saved": SavedFacility.objects.get(
            organisation=demo["acme"], name="Server room (15 kW, air)"
        ).pk,
        "file": quote_file("pcie-vans-for-one-finetune"),
    }
    response = clients["account_team"].post("/quotes/upload/", data)
    review = Review.objects.get()
    assert response["Location"] == f"/reviews/{review.uuid}/"
    assert review.verdict == "fail"
    body = clients["account_team"].get(response["Location"]).content.decode()
    assert "Back corner of the lot:" in body
    assert 'data-vehicle="work van"' in body and "2 × " in body
    assert "4 GPUs that pass notes over PCIe" in body


def _described(demo, **model_fields: object) -> dict[str, object]:
    return {
        "organisation": demo["globex"].pk,
        "file": quote_file("pcie-vans-for-one-finetune"),
        "w-name": "Assistant",
        "w-kind": "inference",
        "w-model": "",
        "w-precision": "bf16",
        "w-context_tokens": 8192,
        "w-concurrent_users": 10,
        "w-tokens_per_sec_per_user": 10,
        "f-name": "Server room",
        "f-site": "datacenter",
        "f-rack_power_kw": 15,
        "f-racks_available": 4,
        "f-cooling": "air",
        **model_fields,
    }


def test_a_typed_hugging_face_id_and_a_pasted_config(clients, demo, catalog_db, engine):
    client = clients["account_team"]
    response = client.post(
        "/quotes/upload/", _described(demo, **{"w-model_name": "deepseek-ai/DeepSeek-R1"})
    )
    assert response.status_code == 302
    assert Review.objects.get().workload["model"] == "DeepSeek-V3 / R1"
    config = (EXAMPLES.parent / "hf_configs" / "Llama-3.3-70B-Instruct.json").read_text()
    response = client.post("/quotes/upload/", _described(demo, **{"w-model_config": config}))
    assert response.status_code == 302
    model = Review.objects.latest("created_at").workload["model"]
    assert model["from_config"] and model["layers"] == 80


def test_a_typo_and_bad_json_are_shown_on_their_fields(clients, demo, catalog_db, engine):
    client = clients["account_team"]
    response = client.post("/quotes/upload/", _described(demo, **{"w-model_name": "Qwen3-33B"}))
    assert "did you mean Qwen3-32B" in response.content.decode()
    response = client.post("/quotes/upload/", _described(demo, **{"w-model_config": "{layers"}))
    assert "Not JSON: line 1, column 2" in response.content.decode()
    assert not Review.objects.exists()
