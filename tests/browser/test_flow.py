"""The whole story in a real browser: the account team uploads the cement truck quoted for a
school bus (the page says before submit that it will go to Finance, and why), changes the load
on the review page (the numbers move without a reload), Finance approves from the review page
with a comment, the account team finds it in its inbox and publishes, and the customer, who got
404 until then, reads the review and finds the report link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.review.models import AuditEvent, Review, ReviewStatus
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.browser

CEMENT_TRUCK = EXAMPLES / "cement-truck-for-a-school-bus" / "quote.csv"
NEGATIVE_QTY = EXAMPLES / "bad-negative-quantity" / "quote.csv"
REVIEW_URL = re.compile(r"/reviews/[0-9a-f-]{36}/$")


def test_upload_review_change_approve_and_the_customer_reads_it(sessions):
    # --- the account team uploads the quote with the customer's saved load and room ----------
    account = sessions("account")
    page = account.page
    page.click("text=Review a quote")
    page.set_input_files("input[name=file]", str(CEMENT_TRUCK))
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option(
        "select[name=w-saved]", label="Acme Research · Internal assistant, 100 users"
    )
    page.select_option("select[name=f-saved]", label="Acme Research · Row 3 (20 kW, RDHX)")
    # Before submit, the page says whether it goes to Finance and why (the one rule).
    expect(page.locator("#finance-sentence")).to_contain_text("This will go to Finance because")
    expect(page.locator("#finance-sentence")).to_contain_text("USD 100,000 line")
    account.shot("01-upload")
    page.click("button:has-text('Upload and review')")
    page.wait_for_url(REVIEW_URL)

    # --- the review page: verdict, gauges, the semi, the numbers ------------------------------
    verdict = page.locator(".verdict-sentence")
    expect(verdict).to_contain_text("Look again before anyone signs")
    expect(verdict).to_contain_text("school bus")
    expect(page.locator("svg.chart-gauge")).to_have_count(2)
    expect(page.locator('#vehicles [data-vehicle="semi"]')).to_have_count(1)
    utilization = page.locator("#sizing-utilization_pct .value")
    before = utilization.inner_text()
    account.shot("02-review")

    # --- change the load: 100 users become 20,000; the results swap in place -------------------
    page.evaluate("window.rightsizeMarker = 'same page'")
    page.fill("#id_w-concurrent_users", "20000")
    page.press("#id_w-concurrent_users", "Tab")  # leaving the field previews the change
    expect(page.locator("#preview-note")).to_be_visible()
    expect(utilization).not_to_have_text(before)
    expect(page.locator("#sizing-utilization_pct .was")).to_have_text(f"was {before}")
    account.shot("03a-review-preview")
    review = Review.objects.get()
    assert review.version == 1 and review.workload["concurrent_users"] == 100  # nothing saved
    page.click("#save-rerun")
    expect(page.locator("#preview-note")).to_have_count(0)
    expect(page.locator("#moved")).to_be_visible()
    expect(utilization).not_to_have_text(before)
    expect(page.locator("#sizing-utilization_pct .was")).to_have_text(f"was {before}")
    assert page.evaluate("window.rightsizeMarker") == "same page"  # no reload happened
    expect(page.locator(".verdict-sentence")).to_contain_text("Back corner of the lot")
    account.shot("03-review-after-change")
    review = Review.objects.get()
    assert review.version == 2 and review.workload["concurrent_users"] == 20000
    assert review.status == ReviewStatus.PENDING

    # --- Finance approves with a comment ------------------------------------------------------
    finance = sessions("finance")
    finance.goto("/reviews/queue/")
    finance.shot("04-finance-queue")
    page = finance.goto(f"/reviews/{review.uuid}/")
    page.fill("#decision-reason", "Pilot for one quarter; revisit before the full rollout.")
    page.click("#decision button:has-text('Approve')")
    page.wait_for_url(REVIEW_URL)
    expect(page.locator(".head-actions .badge")).to_have_text("Approved")
    expect(page.locator("#trail")).to_contain_text("Pilot for one quarter")
    finance.shot("05-finance-approved")
    event = AuditEvent.objects.get(action="approve")
    assert event.actor.username == "finance" and event.to_status == ReviewStatus.APPROVED

    # --- before publishing, the customer gets 404 ----------------------------------------------
    customer = sessions("customer")
    page = customer.page
    assert page.request.get(f"{customer.base_url}/reviews/{review.uuid}/").status == 404
    expect(page.locator(f"a[href='/reviews/{review.uuid}/']")).to_have_count(0)

    # --- the account team is told, and publishes ----------------------------------------------
    page = account.goto("/inbox/")
    expect(page.locator("#inbox")).to_contain_text("Approved:")
    expect(page.locator("#inbox")).to_contain_text("Pilot for one quarter")
    account.shot("05b-account-inbox")
    page.click("#inbox a:has-text('Open the review')")
    page.wait_for_url(REVIEW_URL)
    expect(page.locator("#published-note")).to_contain_text("Not published")
    page.click("#publish-button")
    page.wait_for_url(REVIEW_URL)
    expect(page.locator("#published-note")).to_contain_text("Published version 3")
    review.refresh_from_db()
    assert review.published_version == review.version == 3

    # --- the customer sees the review and the report link, not Finance's comment --------------
    page = customer.goto("/")
    customer.shot("06-customer-home")
    page.click(f"a[href='/reviews/{review.uuid}/']")
    page.wait_for_url(REVIEW_URL)
    expect(page.locator(".head-actions .badge")).to_have_text("Reviewed")
    expect(page.locator("#pdf-link")).to_have_attribute("href", f"/reports/{review.uuid}/")
    assert "Pilot for one quarter" not in page.content()
    expect(page.locator("#edit-form")).to_have_count(0)
    expect(page.locator("#finance-rule, #trail, #publish")).to_have_count(0)
    customer.shot("07-customer-review")
    page.click("#pdf-link")
    page.wait_for_url(f"**/reports/{review.uuid}/")
    customer.shot("08-customer-report")


def test_an_unreadable_quote_is_shown_row_by_row_without_leaving_the_page(sessions):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    page.set_input_files("input[name=file]", str(NEGATIVE_QTY))
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option(
        "select[name=w-saved]", label="Acme Research · Internal assistant, 100 users"
    )
    page.select_option("select[name=f-saved]", label="Acme Research · Server room (15 kW, air)")
    page.click("button:has-text('Upload and review')")
    problems = page.locator(".problems")
    expect(problems).to_contain_text("We could not read quote.csv")
    expect(problems.locator("tbody tr")).to_have_count(1)
    expect(problems.locator("tbody td").nth(1)).to_have_text("2")
    assert page.url.endswith("/quotes/upload/")
    account.shot("09-upload-problems")


def test_a_stale_page_says_quote_changed_instead_of_overwriting(sessions, site):
    """Finance decided while the account team had the page open: the next edit is refused with
    409 and the page's flash says so; nothing is re-run over the decision."""
    from django.contrib.auth.models import User
    from django.db.models import F

    from apps.sites.models import Organisation
    from tests.web.test_review_views import review_for

    review = review_for(Organisation.objects.get(slug="acme"), User.objects.get(username="account"))
    account = sessions("account")
    page = account.goto(f"/reviews/{review.uuid}/")
    Review.objects.filter(pk=review.pk).update(version=F("version") + 1)
    page.fill("#id_w-concurrent_users", "300")
    page.click("#save-rerun")
    expect(page.locator("#flash")).to_contain_text("Quote changed")
    account.expect_errors("409")  # the browser logs the refused request: that is the point
    review.refresh_from_db()
    assert review.version == 2 and review.workload["concurrent_users"] == 100
    account.shot("18-stale-page")
