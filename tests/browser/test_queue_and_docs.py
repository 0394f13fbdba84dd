"""Real browser: the Finance queue decides through htmx under the CSP, a late second decision
shows "quote changed", and the API docs page runs under the same policy."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from apps.review.models import AuditEvent, Review, ReviewStatus
from tests.review.factories import review_make

pytestmark = pytest.mark.browser


def _flagged() -> Review:
    from apps.sites.models import Organisation

    return review_make(
        organisation=Organisation.objects.get(slug="acme"),
        user=User.objects.get(username="account"),
    )


def test_finance_approves_from_the_queue_without_a_reload(sessions):
    review = _flagged()
    finance = sessions("finance")
    page = finance.goto("/reviews/queue/")
    row = page.locator(f"#row-{review.uuid}")
    assert "Fail" in row.inner_text()
    finance.shot("finance-queue")
    page.evaluate("window.__not_reloaded = true")
    row.locator("textarea[name=reason]").fill("RDHX doors are on order; power fits then.")
    row.get_by_role("button", name="Approve").click()
    page.locator(f"#row-{review.uuid} .status.approved").wait_for()
    assert page.evaluate("window.__not_reloaded") is True  # htmx swapped the row in place
    finance.shot("finance-queue-approved")
    review.refresh_from_db()
    assert (review.status, review.version) == (ReviewStatus.APPROVED, 2)
    assert AuditEvent.objects.get(review=review).reason.startswith("RDHX doors")


def test_a_late_second_decision_shows_quote_changed(sessions):
    review = _flagged()
    first, second = sessions("finance"), sessions("admin")
    for session in (first, second):
        session.goto("/reviews/queue/")
    first.page.locator(f"#row-{review.uuid} textarea").fill("Approved first.")
    first.page.locator(f"#row-{review.uuid}").get_by_role("button", name="Approve").click()
    first.page.locator(f"#row-{review.uuid} .status.approved").wait_for()

    late = second.page.locator(f"#row-{review.uuid}")
    late.locator("textarea").fill("Rejecting a moment too late.")
    late.get_by_role("button", name="Reject").click()
    flash = second.page.locator("#flash.visible")
    flash.wait_for()
    assert "Quote changed" in flash.inner_text()
    second.shot("finance-queue-409")
    # the 409 is an expected answer, not a page error: drop the browser's network log line
    second.errors[:] = [e for e in second.errors if "409" not in e]
    review.refresh_from_db()
    assert review.status == ReviewStatus.APPROVED
    assert AuditEvent.objects.filter(review=review).count() == 1


def test_api_docs_render_under_the_csp(sessions):
    customer = sessions("customer")
    page = customer.goto("/api/docs")
    page.locator(".swagger-ui .opblock").first.wait_for()
    text = page.locator(".swagger-ui").inner_text()
    assert "/api/reviews" in text and "Rightsize API" in text
    customer.shot("api-docs")
