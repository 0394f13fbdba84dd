"""CSRF on every state-changing POST (RELIABILITY 18): with `enforce_csrf_checks=True` and no
X-CSRFToken the answer is 403 and nothing changes; the same request with the header (as
base.html's hx-headers sends it) is 2xx.

One line per POST in CASES. The engine is canned (its own tests live with it); what is tested
is the CSRF gate in front of each view.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from apps.quotes.models import Quote, QuoteLine, QuoteLineCorrection, VendorLineCorrection
from apps.quotes.schemas import LineCorrection
from apps.quotes.services import quote_line_correct
from apps.review import services
from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.sites.models import ApiToken
from apps.sites.tokens import api_token_create
from tests.review.factories import report_make, review_make, review_published_as_is

pytestmark = pytest.mark.django_db

QUOTE_CSV = (
    b"Part Number,Description,Qty,Unit Price,Extended Price\n"
    b'DGXB-G1440+P2CMI36,"NVIDIA DGX B200 1440GB, 8x B200 SXM",1,515000.00,515000.00\n'
)
WORKLOAD_FIELDS = {
    "w-name": "Full fine-tune",
    "w-kind": "fine_tuning",
    "w-model": "",
    "w-precision": "bf16",
    "w-context_tokens": "8192",
    "w-concurrent_users": "1",
    "w-tokens_per_sec_per_user": "10",
    "w-memory_gb": "512",
}
FACILITY_FIELDS = {
    "f-name": "Legacy room",
    "f-site": "datacenter",
    "f-rack_power_kw": "2",
    "f-cooling": "air",
}


@dataclass
class World:
    review: Review
    line: QuoteLine


def state(w: World) -> tuple[Any, ...]:
    """Everything a POST here could change."""
    review = Review.objects.get(pk=w.review.pk)
    return (
        review.status,
        review.version,
        review.workload,
        AuditEvent.objects.count(),
        Review.objects.count(),
        Quote.objects.count(),
        QuoteLine.objects.count(),
        _report_files(),
        QuoteLineCorrection.objects.count(),
        VendorLineCorrection.objects.filter(removed_at__isnull=True).count(),
        ApiToken.objects.count(),
        ApiToken.objects.filter(revoked_at__isnull=True).count(),
    )


def _report_files() -> int:
    from apps.reports.models import ReportFile

    return ReportFile.objects.count()


def _part_pk() -> int:
    from apps.catalog.models import Part

    return Part.objects.get(part_number="DGXB-G1440+P2CMI36").pk


def decision(w: World) -> dict[str, Any]:
    return {"version": w.review.version, "reason": "CSRF test"}


def a_correction(w: World) -> None:
    quote_line_correct(
        quote_line=w.line,
        correction=LineCorrection(role="service"),
        user=User.objects.get(username="account"),
        remember=True,
    )


def line_url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(name, kwargs={"uuid": w.review.uuid, "line": w.line.line})


def to_published(w: World) -> None:
    """The customer asks for the PDF of a review published to them."""
    review_published_as_is(w.review)


def to_approved(w: World) -> None:
    Review.objects.filter(pk=w.review.pk).update(status=ReviewStatus.APPROVED)


def to_changes_requested(w: World) -> None:
    Review.objects.filter(pk=w.review.pk).update(status=ReviewStatus.CHANGES_REQUESTED)


@dataclass(frozen=True)
class Case:
    role: str
    url: Callable[[World], str]
    data: Callable[[World], dict[str, Any]]
    ok: int
    setup: Callable[[World], None] = lambda w: None
    changes_state: bool = True  # False: a POST that only computes (the what-if preview)
    json_body: bool = False  # True: the data is sent as application/json


def a_token(w: World) -> None:
    api_token_create(user=User.objects.get(username="finance"), name="CSRF test")


def uuid_url(name: str, kwarg: str = "review_uuid") -> Callable[[World], str]:
    return lambda w: reverse(name, kwargs={kwarg: w.review.uuid})


CASES: dict[str, Case] = {
    "approve": Case("finance", uuid_url("review:approve"), decision, 200),
    "reject": Case("finance", uuid_url("review:reject"), decision, 200),
    "request_changes": Case("admin", uuid_url("review:request_changes"), decision, 200),
    "resubmit": Case(
        "account_team", uuid_url("review:resubmit"), decision, 200, to_changes_requested
    ),
    "rerun": Case(
        "account_team",
        uuid_url("review:rerun", "uuid"),
        lambda w: {"version": w.review.version, **WORKLOAD_FIELDS, **FACILITY_FIELDS},
        200,
    ),
    "preview": Case(
        "account_team",
        uuid_url("review:preview", "uuid"),
        lambda w: {**WORKLOAD_FIELDS, **FACILITY_FIELDS},
        200,
        changes_state=False,
    ),
    "revise": Case(
        "account_team",
        uuid_url("review:revise", "uuid"),
        lambda w: {"file": SimpleUploadedFile("v2.csv", QUOTE_CSV.replace(b",1,", b",2,"))},
        200,
    ),
    "upload": Case(
        "account_team",
        lambda w: reverse("quotes:upload"),
        lambda w: {
            "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV),
            "organisation": w.review.organisation_id,
            **WORKLOAD_FIELDS,
            **FACILITY_FIELDS,
        },
        200,
    ),
    "line_confirm": Case(
        "account_team",
        lambda w: reverse("quotes:line_confirm", kwargs={"pk": w.line.pk}),
        lambda w: {"review": str(w.review.uuid), "part": _part_pk()},
        200,
    ),
    "lines_submit": Case(
        "account_team",
        lambda w: reverse("quotes:lines_submit"),
        lambda w: {
            "row-TOTAL_FORMS": "1",
            "row-INITIAL_FORMS": "0",
            "row-0-part_number": "DGXB-G1440+P2CMI36",
            "row-0-description": "NVIDIA DGX B200",
            "row-0-quantity": "1",
            "organisation": w.review.organisation_id,
            **WORKLOAD_FIELDS,
            **FACILITY_FIELDS,
        },
        200,
    ),
    "lines_check": Case(
        "account_team",
        lambda w: reverse("quotes:lines_check"),
        lambda w: {"row-TOTAL_FORMS": "0", "row-INITIAL_FORMS": "0", "pasted": "A-1\tCable\t2"},
        200,
        changes_state=False,
    ),
    "line_correct": Case(
        "account_team",
        line_url("review:line_correct"),
        lambda w: {"c1-role": "service", "version": w.review.version},
        200,
    ),
    "line_undo": Case(
        "account_team",
        line_url("review:line_undo"),
        lambda w: {"version": w.review.version},
        200,
        setup=a_correction,
    ),
    "vendor_correction_remove": Case(
        "admin",
        lambda w: reverse(
            "quotes:vendor_correction_remove", kwargs={"pk": VendorLineCorrection.objects.get().pk}
        ),
        lambda w: {},
        200,
        setup=a_correction,
    ),
    "report_request": Case(
        "customer",
        uuid_url("reports:request"),
        lambda w: {"page_size": "A4"},
        200,
        setup=to_published,
    ),
    "publish": Case("account_team", uuid_url("review:publish"), decision, 302, setup=to_approved),
    # Nothing picked: the form's 400 with the token, 403 without (main had no case for it).
    "comparison_save": Case(
        "account_team",
        lambda w: reverse("review:comparison_save"),
        lambda w: {},
        400,
        changes_state=False,
    ),
    "finance_preview": Case(
        "account_team",
        lambda w: reverse("quotes:finance_preview"),
        lambda w: {
            "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV),
            "organisation": w.review.organisation_id,
            **WORKLOAD_FIELDS,
            **FACILITY_FIELDS,
        },
        200,
        changes_state=False,
    ),
    "api_v1_review_create": Case(
        "account_team",
        lambda w: "/api/v1/reviews",
        lambda w: {
            "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV),
            "workload": json.dumps({"kind": "fine_tuning", "memory_gb": 512}),
            "facility": "legacy-room",
            "organisation": "acme",
        },
        201,
    ),
    "api_v1_pdf_request": Case(
        "customer", uuid_url("api:v1_review_pdf_request"), lambda w: {}, 202, setup=to_published
    ),
    "api_v1_decide": Case(
        "finance",
        uuid_url("api:v1_review_decide"),
        lambda w: {"action": "approve", "reason": "CSRF test", "expected_version": 1},
        201,
        json_body=True,
    ),
    "token_create": Case(
        "finance", lambda w: reverse("settings:token_create"), lambda w: {"name": "x"}, 201
    ),
    "token_revoke": Case(
        "finance",
        lambda w: reverse("settings:token_revoke", kwargs={"pk": ApiToken.objects.get().pk}),
        lambda w: {},
        302,
        setup=a_token,
    ),
    "api_review_create": Case(
        "account_team",
        lambda w: "/api/reviews",
        lambda w: {
            "file": SimpleUploadedFile("dgx.csv", QUOTE_CSV),
            "workload": json.dumps({"kind": "fine_tuning", "memory_gb": 512}),
            "facility": "legacy-room",
            "organisation": "acme",
        },
        201,
    ),
}
USERNAMES = {
    "finance": "finance",
    "admin": "admin",
    "account_team": "account",
    "customer": "customer",
}


@pytest.fixture
def world(demo, catalog_db, monkeypatch) -> World:
    monkeypatch.setattr(services, "review_report", lambda **kw: report_make())
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    line = QuoteLine.objects.create(
        quote=review.quote, line=1, source_row=2, part_number="DGX B200 SYS", description="?"
    )
    return World(review=review, line=line)


def _csrf_client(role: str) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get(username=USERNAMES[role]))
    client.get(reverse("home"))  # base.html puts the token in the cookie (and in hx-headers)
    return client, client.cookies["csrftoken"].value


@pytest.mark.parametrize("name", sorted(CASES))
def test_post_without_token_is_403_and_changes_nothing(name, world):
    case = CASES[name]
    case.setup(world)
    client, _token = _csrf_client(case.role)
    before = state(world)
    response = _post(client, case, world, {"HX-Request": "true"})
    assert response.status_code == 403
    assert state(world) == before


@pytest.mark.parametrize("name", sorted(CASES))
def test_post_with_token_is_2xx(name, world):
    case = CASES[name]
    case.setup(world)
    client, token = _csrf_client(case.role)
    before = state(world)
    response = _post(
        client,
        case,
        world,
        {"HX-Request": "true", "HX-Target": f"row-{world.review.uuid}", "X-CSRFToken": token},
    )
    assert response.status_code == case.ok, response.content[:500]
    if case.changes_state:
        assert state(world) != before  # the same request, with the token, changes something
    else:
        assert state(world) == before  # a preview computes and stores nothing


def _post(client: Client, case: Case, world: World, headers: dict[str, str]) -> Any:
    if case.json_body:
        return client.post(
            case.url(world), case.data(world), content_type="application/json", headers=headers
        )
    return client.post(case.url(world), case.data(world), headers=headers)


def test_every_state_changing_url_has_a_case():
    """The POST-only URLs of the access matrix (apart from logout) each have a CSRF case."""
    from tests.security.test_access_matrix import MATRIX

    posts = {name for name, entry in MATRIX.items() if entry.method == "POST"}
    covered = {
        "review:approve",
        "review:reject",
        "review:request_changes",
        "review:resubmit",
        "review:rerun",
        "review:preview",
        "review:revise",
        "reports:request",
        "review:publish",
        "quotes:finance_preview",
        "review:comparison_save",
        "api:review_create",
        "api:v1_review_create",
        "api:v1_review_pdf_request",
        "api:v1_review_decide",
        "settings:token_create",
        "settings:token_revoke",
        "quotes:line_confirm",
        "quotes:lines_submit",
        "quotes:lines_check",
        "review:line_correct",
        "review:line_undo",
        "quotes:vendor_correction_remove",
    }
    exempt = {"logout": "Django's LogoutView: CSRF-checked by the middleware like every POST"}
    missing = posts - covered - set(exempt)
    assert missing == set(), "add a CSRF case for these POSTs"
    assert covered <= posts


def test_htmx_error_handler_names_403_and_409():
    """static/js/rightsize.js shows a visible message for both answers."""
    from django.conf import settings

    script = (settings.BASE_DIR / "static" / "js" / "rightsize.js").read_text()
    assert "htmx:responseError" in script
    assert "403:" in script and "409:" in script and "Quote changed" in script
