"""Finance's day on the pages: the queue says why and links to the review, decisions from the
review page, the decision history, the inbox, publishing and what a customer sees."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core import mail

from apps.review.engine.schemas import Facility, Workload
from apps.review.models import AuditEvent, Notification, Review, ReviewStatus
from apps.review.services import review_rerun
from tests.review.factories import MEMORY_OK, report_make, review_make
from tests.web.test_review_views import CSV, rerun_data
from tests.web.test_upload_views import saved_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def flagged(demo, people) -> Review:
    """Rack power critical, Finance high, USD 515,000 over Acme's USD 100,000 line."""
    return review_make(organisation=demo["acme"], user=people["account"])


def detail(review: Review) -> str:
    return f"/reviews/{review.uuid}/"


def test_the_queue_row_links_to_the_review_and_says_why(clients, flagged):
    body = clients["finance"].get("/reviews/queue/").content.decode()
    assert f'href="/reviews/{flagged.uuid}/" class="review-link"' in body
    assert "<li>Critical: Rack power.</li>" in body
    assert "<li>Finance blood pressure is High.</li>" in body
    # 515,000 > 100,000: the money reason, in the quote's currency.
    assert "<li>USD 515,000.00 is over Acme Research&#x27;s USD 100,000 line.</li>" in body


def test_a_euro_review_shows_its_own_money_and_the_rate(clients, demo, people):
    report = report_make(total="629289.71")
    report = report.model_copy(
        update={"quote": report.quote.model_copy(update={"currency": "EUR"})}
    )
    review = review_make(organisation=demo["acme"], user=people["account"], report=report)
    Review.objects.filter(pk=review.pk).update(
        currency="EUR",
        total=Decimal("629289.71"),
        converted_total=Decimal("731045.86"),  # 629,289.71 × 1.1617
        converted_currency="USD",
        rate=Decimal("1.1617"),
        rates_of=dt.date(2026, 11, 28),
        total_usd=Decimal("731045.86"),
    )
    page = clients["finance"].get(detail(review)).content.decode()
    assert "EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28" in page
    queue = clients["finance"].get("/reviews/queue/").content.decode()
    assert "EUR 629,289.71" in queue and "≈ USD 731,045.86" in queue
    assert "$629" not in queue


def test_finance_approves_from_the_review_page_and_the_account_team_is_told(
    clients, flagged, people, django_capture_on_commit_callbacks
):
    page = clients["finance"].get(detail(flagged)).content.decode()
    assert 'id="decision"' in page and f'formaction="/reviews/{flagged.uuid}/approve/"' in page
    assert "Why Finance sees it" in page
    with django_capture_on_commit_callbacks(execute=True):  # the email task, after commit
        response = clients["finance"].post(
            f"/reviews/{flagged.uuid}/approve/",
            {"version": flagged.version, "reason": "Budgeted for Q1", "next": detail(flagged)},
        )
    assert response.status_code == 302 and response["Location"] == detail(flagged)
    flagged.refresh_from_db()
    assert flagged.status == ReviewStatus.APPROVED
    note = Notification.objects.get(user=people["account"], kind="decided")
    assert note.subject == f"Approved: {flagged.quote}"
    assert "Budgeted for Q1" in note.body and detail(flagged) in note.body
    assert [m.to for m in mail.outbox] == [["account@example.com"]]
    assert mail.outbox[0].subject == note.subject
    inbox = clients["account_team"].get("/inbox/").content.decode()
    assert note.subject in inbox and "New" in inbox
    note.refresh_from_db()
    assert note.read_at is not None  # opened: read
    history = clients["finance"].get(detail(flagged)).content.decode()
    assert 'id="decision-history"' in history and "Budgeted for Q1" in history


def test_a_second_decider_is_told_the_quote_changed(clients, flagged):
    data = {"version": flagged.version, "reason": "ok", "next": detail(flagged)}
    assert clients["finance"].post(f"/reviews/{flagged.uuid}/approve/", data).status_code == 302
    late = clients["admin"].post(f"/reviews/{flagged.uuid}/reject/", data)
    assert late.status_code == 409


def test_a_save_on_a_changes_requested_review_asks_for_the_comment(
    clients, flagged, people, catalog_db
):
    Review.objects.filter(pk=flagged.pk).update(status=ReviewStatus.CHANGES_REQUESTED)
    page = clients["account_team"].get(detail(flagged)).content.decode()
    assert 'name="comment" id="edit-comment"' in page
    form = rerun_data(flagged)
    response = clients["account_team"].post(f"/reviews/{flagged.uuid}/rerun/", form)
    assert response.status_code == 400
    assert "Finance asked for changes: say what you changed" in response.content.decode()
    flagged.refresh_from_db()
    assert flagged.status == ReviewStatus.CHANGES_REQUESTED and flagged.version == 1


def test_publishing_needs_finance_approval_and_shows_the_customer_a_frozen_copy(
    clients, flagged, people, monkeypatch
):
    customer = clients["customer"]
    assert customer.get(detail(flagged)).status_code == 404  # not published: 404
    page = clients["account_team"].get(detail(flagged)).content.decode()
    assert "Finance must approve it before the customer sees it" in page
    refused = clients["account_team"].post(
        f"/reviews/{flagged.uuid}/publish/", {"version": flagged.version}
    )
    assert refused.status_code == 409
    clients["finance"].post(
        f"/reviews/{flagged.uuid}/approve/", {"version": 1, "reason": "Fine", "next": "/"}
    )
    published = clients["account_team"].post(f"/reviews/{flagged.uuid}/publish/", {"version": 2})
    assert published.status_code == 302
    seen = customer.get(detail(flagged))
    assert seen.status_code == 200
    body = seen.content.decode()
    assert "Fine" not in body and "Why Finance sees it" not in body
    assert "Customer: Reviewed" in body or "Reviewed" in body

    # A later save (a cheaper quote read from the same file) is not the customer's yet.
    cheaper = report_make([MEMORY_OK], total="5000.00", finance="calm", facilities="calm")
    monkeypatch.setattr("apps.review.services.review_report", lambda **_: cheaper)
    flagged.refresh_from_db()
    review_rerun(
        review=flagged,
        workload=Workload.model_validate(flagged.workload),
        facility=Facility.model_validate(flagged.facility),
        user=people["account"],
    )
    flagged.refresh_from_db()
    assert flagged.version == 3 and flagged.published_version == 2
    # 5,000 with no finding: no longer needs Finance, so CLEAR, but the approval it had is
    # named in the history as set aside.
    assert flagged.status == ReviewStatus.CLEAR
    saved = AuditEvent.objects.get(review=flagged, action="save")
    assert saved.previous_decision.endswith(": Fine")
    frozen = customer.get(detail(flagged)).content.decode()
    assert "USD 515,000.00" in frozen and "USD 5,000.00" not in frozen
    internal = clients["account_team"].get(detail(flagged)).content.decode()
    assert "the customer still sees that version until you publish again" in internal
    assert AuditEvent.objects.filter(review=flagged, action="publish").count() == 1


def test_a_revision_is_unpublished_until_published_again(clients, demo, people):
    from tests.review.factories import quote_make

    clear_report = report_make([MEMORY_OK], total="5000.00", finance="calm", facilities="calm")
    v1 = review_make(organisation=demo["acme"], user=people["account"], report=clear_report)
    clients["account_team"].post(f"/reviews/{v1.uuid}/publish/", {"version": 1})
    v2_quote = quote_make(
        organisation=demo["acme"], user=people["account"], previous=v1.quote, version=2
    )
    v2 = review_make(
        organisation=demo["acme"], user=people["account"], report=clear_report, quote=v2_quote
    )
    customer = clients["customer"]
    assert customer.get(detail(v1)).status_code == 200
    assert customer.get(detail(v2)).status_code == 404
    clients["account_team"].post(f"/reviews/{v2.uuid}/publish/", {"version": 1})
    assert customer.get(detail(v2)).status_code == 200
    assert customer.get(detail(v1)).status_code == 404  # the older version was withdrawn


def test_the_upload_page_says_why_it_will_go_to_finance(clients, demo, catalog_db):
    data = saved_form(demo)
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("b300.csv", CSV, content_type="text/csv")
    response = clients["account_team"].post(
        "/quotes/upload/finance/", {**data, "file": upload}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="finance-preview"')
    # 1 × DGX B300 at $600,000: over the $100,000 line.
    assert "This will go to Finance because" in body
    assert "USD 600,000.00 is over Acme Research&#x27;s USD 100,000 line." in body
    assert Review.objects.count() == 0  # a preview stores nothing
    empty = clients["account_team"].post("/quotes/upload/finance/", {})
    assert "Choose the file, the customer, the load and the room" in empty.content.decode()


def test_a_review_back_with_finance_shows_the_decision_set_aside(
    clients, flagged, people, monkeypatch
):
    from apps.review.workflow import review_decide

    approved = review_decide(
        review_id=flagged.pk,
        expected_version=1,
        action="approve",
        reason="Budgeted for Q1",
        actor=people["finance"],
    )
    longer = Workload.model_validate(approved.workload).model_copy(
        update={"context_tokens": 131_072}
    )
    same_findings = report_make()  # only the load moves
    monkeypatch.setattr("apps.review.services.review_report", lambda **_: same_findings)
    saved = review_rerun(
        review=approved,
        workload=longer,
        facility=Facility.model_validate(approved.facility),
        user=people["account"],
    )
    assert saved.status == ReviewStatus.PENDING
    page = clients["finance"].get(detail(saved)).content.decode()
    assert 'id="set-aside"' in page
    assert "The previous decision, set aside: Approved by finance on " in page
    assert "Budgeted for Q1" in page
    assert "load context_tokens: " in page and "→ 131072" in page


def test_an_approve_from_a_queue_row_reads_the_review_once_with_what_it_tells(
    clients, flagged, people, django_assert_max_num_queries
):
    """The view finds the review by uuid (its id only), review_decide locks it with its quote's
    file, organisation and maker in one query and writes what the update set without reading
    the row back; the row is read once more for the answer."""
    account_team = User.objects.filter(membership__role="account_team").count()
    headers = {"HX-Request": "true", "HX-Target": f"row-{flagged.uuid}"}
    data = {"version": flagged.version, "reason": "Within budget"}
    # session, user, membership, find, lock, superseded?, update, audit, webhook endpoints,
    # account team, one inbox row each, the email task, the row: and the transaction's
    # SAVEPOINT/RELEASE pair the test database wraps it in
    budget = 12 + account_team + 2
    with django_assert_max_num_queries(budget):
        response = clients["finance"].post(
            f"/reviews/{flagged.uuid}/approve/", data, headers=headers
        )
    assert response.status_code == 200
    assert 'class="status approved"' in response.content.decode()
    flagged.refresh_from_db()
    assert (flagged.status, flagged.version) == (ReviewStatus.APPROVED, 2)
    event = AuditEvent.objects.get(review=flagged)
    assert (event.action, event.from_status, event.to_status) == ("approve", "pending", "approved")
