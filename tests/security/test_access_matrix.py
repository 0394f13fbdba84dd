"""Every named URL × every role → the expected status (RELIABILITY 20, 21).

One line per URL name. Statuses are listed in ROLES order:
    anonymous, customer (org A, acme), other_customer (org B, globex), account_team, finance, admin
The objects in the URLs belong to org A, so org B's customer must get 404 wherever org A's
customer gets in. `test_every_named_url_is_in_the_matrix` fails when a URL is added without a
line here (or a line outlives its URL). The admin site's generated URLs are covered as a family
by `test_admin_site_is_staff_only`.

To add a URL: one line in MATRIX, e.g.
    "review:approve": post(review, (302, 403, 403, 403, 302, 302), data=decision),
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from apps.quotes.models import QuoteLine, VendorLineCorrection
from apps.review.comparisons import comparison_save
from apps.review.models import Review, SavedComparison, UploadJob
from apps.review.publishing import review_publish
from tests.review.factories import MEMORY_OK, report_make, review_make

ROLES = ("anonymous", "customer", "other_customer", "account_team", "finance", "admin")


@dataclass
class World:
    """Org A's objects the URLs point at."""

    review: Review
    line: QuoteLine
    remembered: VendorLineCorrection
    published: Review
    comparison: SavedComparison
    upload: UploadJob


@dataclass(frozen=True)
class Entry:
    method: str
    expect: tuple[int, ...]
    kwargs: Callable[[World], dict[str, Any]] = lambda w: {}
    data: Callable[[World], dict[str, Any]] = lambda w: {}
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = None  # None: a form post; "application/json" for JSON bodies


def get(
    kwargs: Callable[[World], dict[str, Any]] | None, expect: tuple[int, ...], **kw: Any
) -> Entry:
    return Entry("GET", expect, kwargs or (lambda w: {}), **kw)


def post(
    kwargs: Callable[[World], dict[str, Any]] | None, expect: tuple[int, ...], **kw: Any
) -> Entry:
    return Entry("POST", expect, kwargs or (lambda w: {}), **kw)


def review(w: World) -> dict[str, Any]:
    return {"review_uuid": w.review.uuid}


def upload_job(w: World) -> dict[str, Any]:
    return {"job_uuid": w.upload.uuid}


def review_as_uuid(w: World) -> dict[str, Any]:
    return {"uuid": w.review.uuid}


def quote(w: World) -> dict[str, Any]:
    return {"quote_uuid": w.review.quote.uuid}


def export_xlsx(w: World) -> dict[str, Any]:
    return {"uuid": w.review.uuid, "fmt": "xlsx"}


def line(w: World) -> dict[str, Any]:
    return {"pk": w.line.pk}


def review_line(w: World) -> dict[str, Any]:
    return {"uuid": w.review.uuid, "line": w.line.line}


def remembered(w: World) -> dict[str, Any]:
    return {"pk": w.remembered.pk}


def system(w: World) -> dict[str, Any]:
    return {"key": "dgx-b200"}


def no_part(w: World) -> dict[str, Any]:
    """Authorised editors get as far as looking up part 0 (404); a real part would re-run."""
    return {"review": str(w.review.uuid), "part": "0"}


def published(w: World) -> dict[str, Any]:
    return {"review_uuid": w.published.uuid}


def published_as_uuid(w: World) -> dict[str, Any]:
    return {"uuid": w.published.uuid}


def republish(w: World) -> dict[str, Any]:
    return {"version": w.published.version}


def saved(w: World) -> dict[str, Any]:
    return {"uuid": w.comparison.uuid}


def decision(w: World) -> dict[str, Any]:
    return {"version": w.review.version, "reason": "Access-matrix decision"}


def api_decision(w: World) -> dict[str, Any]:
    return {"action": "approve", "reason": "Access-matrix decision", "expected_version": 1}


def no_token(w: World) -> dict[str, Any]:
    return {"pk": 999_999}


JSON = "application/json"


#                      anonymous, customer A, customer B, account team, finance, admin
MATRIX: dict[str, Entry] = {
    "home": get(None, (302, 200, 200, 200, 200, 200)),
    "login": get(None, (200, 302, 302, 302, 302, 302)),
    # The load balancer's probes: no login, the same answer for everyone.
    "healthz": get(None, (200, 200, 200, 200, 200, 200)),
    "readyz": get(None, (200, 200, 200, 200, 200, 200)),
    "logout": post(None, (302, 302, 302, 302, 302, 302)),
    "catalog:index": get(None, (302, 200, 200, 200, 200, 200)),
    "catalog:system": get(system, (302, 200, 200, 200, 200, 200)),
    "quotes:upload": get(None, (302, 403, 403, 200, 403, 200)),
    # An upload's progress is its uploader's alone: the account team's job is 404 to the admin.
    "quotes:upload_status": get(upload_job, (302, 403, 403, 200, 403, 404)),
    # An empty preview form answers with its hint (200) for the editors.
    "quotes:finance_preview": post(None, (302, 403, 403, 200, 403, 200)),
    "quotes:original": get(quote, (302, 403, 403, 200, 200, 200)),
    "quotes:line_confirm": post(line, (302, 403, 403, 404, 403, 404), data=no_part),
    "quotes:lines_new": get(None, (302, 403, 403, 200, 403, 200)),
    # A parsed quote takes no hand-typed lines: 404 for the editors, like any unknown quote.
    "quotes:lines_for": get(quote, (302, 403, 403, 404, 403, 404)),
    "quotes:lines_check": post(None, (302, 403, 403, 200, 403, 200)),
    "quotes:lines_submit": post(None, (302, 403, 403, 400, 403, 400)),
    "quotes:vendor_corrections": get(None, (302, 403, 403, 200, 403, 200)),
    "quotes:vendor_correction_remove": post(remembered, (302, 403, 403, 302, 403, 302)),
    "review_list": get(None, (302, 200, 200, 200, 200, 200)),
    # The world's review is not published: its customer gets 404 like any stranger (the
    # published one is in PUBLISHED_MATRIX below).
    "review:detail": get(review_as_uuid, (302, 404, 404, 200, 200, 200)),
    "review:rerun": post(review_as_uuid, (302, 403, 403, 400, 403, 400)),
    "review:preview": post(review_as_uuid, (302, 403, 403, 400, 403, 400)),
    "review:revise": post(review_as_uuid, (302, 403, 403, 400, 403, 400)),
    # An empty correction is the form again (400); undo with nothing to undo is 409.
    "review:line_correct": post(review_line, (302, 403, 403, 400, 403, 400)),
    "review:line_undo": post(review_line, (302, 403, 403, 409, 403, 409)),
    "review:queue": get(None, (302, 403, 403, 403, 200, 200)),
    "review:approve": post(review, (302, 403, 403, 403, 302, 302), data=decision),
    "review:reject": post(review, (302, 403, 403, 403, 302, 302), data=decision),
    "review:request_changes": post(review, (302, 403, 403, 403, 302, 302), data=decision),
    "review:resubmit": post(review, (302, 403, 403, 409, 403, 409), data=decision),
    # A flagged review waiting for Finance cannot be published yet: 409 for the publishers.
    "review:publish": post(review, (302, 403, 403, 409, 403, 409), data=decision),
    "inbox": get(None, (302, 200, 200, 200, 200, 200)),
    "review:export": get(export_xlsx, (302, 403, 403, 200, 200, 200)),
    "review:compare": get(None, (302, 403, 403, 200, 200, 200)),  # internal roles
    # Saving with nothing picked is the form's 400; saved comparisons: internal roles only.
    "review:comparison_save": post(None, (302, 403, 403, 400, 400, 400)),
    "review:comparisons": get(None, (302, 403, 403, 200, 200, 200)),
    "review:comparison": get(saved, (302, 403, 403, 200, 200, 200)),
    "review:comparison_pdf": get(saved, (302, 403, 403, 200, 200, 200)),
    "reports:status": get(review, (302, 404, 404, 200, 200, 200)),
    "reports:request": post(review, (302, 404, 404, 302, 302, 302)),
    "reports:download": get(review, (302, 404, 404, 404, 404, 404)),
    "api:openapi-json": get(None, (302, 200, 200, 200, 200, 200)),
    "api:openapi-view": get(None, (302, 200, 200, 200, 200, 200)),
    "api:api-root": get(None, (404, 404, 404, 404, 404, 404)),
    "api:review_create": post(None, (401, 403, 403, 400, 403, 400)),
    "api:review_get": get(review, (401, 404, 404, 200, 200, 200)),
    # API v1: the same scoping; the PDF was never asked for (404), asking queues it (202).
    "api:v1_review_create": post(None, (401, 403, 403, 400, 403, 400)),
    "api:v1_review_list": get(None, (401, 200, 200, 200, 200, 200)),
    "api:v1_review_get": get(review, (401, 404, 404, 200, 200, 200)),
    "api:v1_review_pdf": get(review, (401, 404, 404, 404, 404, 404)),
    "api:v1_review_pdf_request": post(review, (401, 404, 404, 202, 202, 202)),
    "api:v1_decision_list": get(None, (401, 403, 403, 200, 200, 200)),
    "api:v1_review_decide": post(
        review, (401, 403, 403, 403, 201, 201), data=api_decision, content_type=JSON
    ),
    "api:v1_catalog": get(None, (401, 200, 200, 200, 200, 200)),
    "api:v1_organisations": get(None, (401, 200, 200, 200, 200, 200)),
    "settings:tokens": get(None, (302, 403, 403, 200, 200, 200)),
    "settings:token_create": post(None, (302, 403, 403, 201, 201, 201)),
    "settings:token_revoke": post(no_token, (302, 403, 403, 302, 302, 302)),
}

#: The URLs a customer may reach, on a review published to org A: its customer gets in, org B's
#: customer still gets 404; the publishers may publish it again (the same version, a no-op).
PUBLISHED_MATRIX: dict[str, Entry] = {
    "review:detail": get(published_as_uuid, (302, 200, 404, 200, 200, 200)),
    "reports:status": get(published, (302, 200, 404, 200, 200, 200)),
    "reports:request": post(published, (302, 302, 404, 302, 302, 302)),
    "reports:download": get(published, (302, 404, 404, 404, 404, 404)),
    "api:review_get": get(published, (401, 200, 404, 200, 200, 200)),
    "review:publish": post(published, (302, 403, 403, 302, 403, 302), data=republish),
    "api:v1_review_get": get(published, (401, 200, 404, 200, 200, 200)),
    "api:v1_review_pdf_request": post(published, (401, 202, 404, 202, 202, 202)),
}

#: With a Bearer token instead of the session, every API URL answers what the token owner's
#: session gets — except the browser docs and schema, which are for a logged-in browser (302).
TOKEN_DIFFERENT: dict[str, tuple[int, ...]] = {
    "api:openapi-json": (302, 302, 302, 302, 302, 302),
    "api:openapi-view": (302, 302, 302, 302, 302, 302),
}
TOKEN_URLS = sorted(n for n in MATRIX if n.startswith("api:"))


NEEDS_CATALOG = {"catalog:system", "api:v1_catalog"}


def _named_urls() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], namespace: tuple[str, ...]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = (*namespace, pattern.namespace) if pattern.namespace else namespace
                walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(":".join((*namespace, pattern.name)))

    walk(get_resolver().url_patterns, ())
    return names


def test_every_named_url_is_in_the_matrix():
    names = {n for n in _named_urls() if not n.startswith("admin:")}
    assert sorted(names - set(MATRIX)) == [], "add these URLs to MATRIX"
    assert sorted(set(MATRIX) - names) == [], "these MATRIX lines name no URL"


def test_every_entry_lists_every_role():
    assert {name: len(e.expect) for name, e in MATRIX.items() if len(e.expect) != len(ROLES)} == {}


@pytest.fixture
def world(demo) -> World:
    account = User.objects.get(username="account")
    flagged = review_make(organisation=demo["acme"], user=account)
    quote_line = QuoteLine.objects.create(
        quote=flagged.quote, line=1, source_row=2, part_number="MYSTERY-1", description="?"
    )
    kept = VendorLineCorrection.objects.create(
        vendor="northwind", text="mystery 1", role="service", created_by=account
    )
    clear = review_make(
        organisation=demo["acme"],
        user=account,
        report=report_make([MEMORY_OK], total="5000.00", finance="calm", facilities="calm"),
    )
    review_publish(review_id=clear.pk, expected_version=clear.version, user=account)
    clear.refresh_from_db()
    other = review_make(organisation=demo["acme"], user=account)
    kept_comparison = comparison_save(name="Two quotes", reviews=[flagged, other], user=account)
    queued = UploadJob.objects.create(
        organisation=demo["acme"],
        uploaded_by=account,
        filename="quote.csv",
        blob="uploads/0",
        workload={},
        facility={},
    )
    return World(
        review=flagged,
        line=quote_line,
        remembered=kept,
        published=clear,
        comparison=kept_comparison,
        upload=queued,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_access(name, role, world, clients, request):
    entry = MATRIX[name]
    if name in NEEDS_CATALOG:
        request.getfixturevalue("catalog_db")
    url = reverse(name, kwargs=entry.kwargs(world))
    response = _send(clients[role], entry, url, world)
    expected = entry.expect[ROLES.index(role)]
    assert response.status_code == expected, f"{role} {entry.method} {url}"
    if response.status_code == 302 and role == "anonymous" and name not in {"logout"}:
        assert response["Location"].startswith("/login/")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(PUBLISHED_MATRIX))
def test_access_to_a_published_review(name, role, world, clients):
    entry = PUBLISHED_MATRIX[name]
    url = reverse(name, kwargs=entry.kwargs(world))
    client = clients[role]
    get_it = entry.method == "GET"
    response = client.get(url) if get_it else client.post(url, entry.data(world))
    response.close()
    assert response.status_code == entry.expect[ROLES.index(role)], f"{role} {url}"


def test_published_matrix_names_real_urls():
    assert set(PUBLISHED_MATRIX) <= set(MATRIX)
    assert {n: len(e.expect) for n, e in PUBLISHED_MATRIX.items() if len(e.expect) != 6} == {}


def _send(client: Any, entry: Entry, url: str, world: World, headers: dict[str, str] | None = None):
    headers = entry.headers | (headers or {})
    if entry.method == "GET":
        response = client.get(url, headers=headers)
    elif entry.content_type == JSON:
        response = client.post(url, entry.data(world), content_type=JSON, headers=headers)
    else:
        response = client.post(url, entry.data(world), headers=headers)
    response.close()  # streaming downloads hold their file open until closed
    return response


USERNAMES = {
    "customer": "customer",
    "other_customer": "globex",
    "account_team": "account",
    "finance": "finance",
    "admin": "admin",
}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", TOKEN_URLS)
def test_access_with_a_token(name, role, world, demo, request):
    """The matrix again with `Authorization: Bearer <token>` and no session: a token reaches
    exactly its owner's organisation and role (anonymous: no token at all)."""
    from django.test import Client

    from apps.sites.tokens import api_token_create

    entry = MATRIX[name]
    if name in NEEDS_CATALOG:
        request.getfixturevalue("catalog_db")
    headers = {}
    if role != "anonymous":
        owner = User.objects.get(username=USERNAMES[role])
        headers = {"Authorization": f"Bearer {api_token_create(user=owner, name='m').secret}"}
    client = Client(enforce_csrf_checks=True)  # a token needs no CSRF token
    url = reverse(name, kwargs=entry.kwargs(world))
    response = _send(client, entry, url, world, headers)
    expected = TOKEN_DIFFERENT.get(name, entry.expect)[ROLES.index(role)]
    assert response.status_code == expected, f"{role} token {entry.method} {url}"


ADMIN_PROBES = [
    "admin:review_exchangerate_changelist",
    "admin:review_notification_changelist",
    "admin:index",
    "admin:review_auditevent_changelist",
    "admin:review_review_changelist",
    "admin:auth_user_changelist",
    "admin:sites_membership_add",
    "admin:sites_apitoken_changelist",
    "admin:webhooks_webhookendpoint_changelist",
    "admin:webhooks_webhookendpoint_add",
    "admin:webhooks_webhookdelivery_changelist",
]


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", ADMIN_PROBES)
def test_admin_site_is_staff_only(name, role, clients):
    response = clients[role].get(reverse(name))
    if role == "admin":
        assert response.status_code == 200
    else:  # anonymous and every non-staff role: back to the admin login, nothing shown
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.django_db
def test_customer_pages_show_no_internal_flags_or_finance_notes(world, clients):
    """RELIABILITY 21: a finance comment never reaches a customer's page."""
    from apps.review.workflow import review_decide

    finance = User.objects.get(username="finance")
    review_decide(
        review_id=world.review.pk,
        expected_version=1,
        action="approve",
        reason="FINANCE-ONLY: margin is thin, approve anyway",
        actor=finance,
    )
    review_publish(
        review_id=world.review.pk,
        expected_version=2,
        user=User.objects.get(username="account"),
    )
    detail = reverse("review:detail", kwargs={"uuid": world.review.uuid})
    for url in (detail, reverse("home"), reverse("review_list"), reverse("inbox")):
        response = clients["customer"].get(url)
        assert response.status_code == 200
        body = response.content.decode()
        assert "FINANCE-ONLY" not in body
        assert "margin is thin" not in body
        assert "Why Finance sees it" not in body  # the rule's reasons are internal
        assert "Decision history" not in body
        assert reverse("quotes:original", args=[world.review.quote.uuid]) not in body
    staff_body = (
        clients["finance"]
        .get(reverse("review:detail", kwargs={"uuid": world.review.uuid}))
        .content.decode()
    )
    assert "FINANCE-ONLY" in staff_body  # the same note is there for internal roles
