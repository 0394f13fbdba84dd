"""A misread line corrected on the review page, in a real browser: the numbers move in place,
and Undo puts them back.

The quote is one an integrator writes with its own part numbers: "NW-NODE-8, Compute node,
configuration as per attached sheet", 2 × $290,000. No reader can tell what is inside, so the
review sees two compute nodes with no GPUs. The account team knows it is two PowerEdge XE9680 with
8 × H200 SXM each, says so on line 1, and the review re-runs: 2 × 8 = 16 H200 SXM,
2 × 11.0 kW = 22 kW. Undo: two nodes with no GPUs again.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from apps.quotes.models import QuoteLineCorrection
from apps.review.models import Review
from tests.review.factories import review_published_as_is

pytestmark = pytest.mark.browser

REVIEW_URL = re.compile(r"/reviews/[0-9a-f-]{36}/$")
INTEGRATOR_QUOTE = (
    "Vendor: Northwind Integration\n"
    "Part Number,Description,Qty,Unit Price,Extended Price\n"
    'NW-NODE-8,"Compute node, configuration as per attached sheet",2,290000,580000\n'
    "NW-RAIL,Rail kit,2,150,300\n"
)


@pytest.fixture
def quote(tmp_path: Path) -> Path:
    path = tmp_path / "northwind-integration.csv"
    path.write_text(INTEGRATOR_QUOTE)
    return path


def test_a_misread_line_is_corrected_the_numbers_move_and_undo_restores_them(sessions, quote):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    page.set_input_files("input[name=file]", str(quote))
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option(
        "select[name=w-saved]", label="Acme Research · Internal assistant, 100 users"
    )
    page.select_option("select[name=f-saved]", label="Acme Research · Row 3 (20 kW, RDHX)")
    page.click("button:has-text('Upload and review')")
    page.wait_for_url(REVIEW_URL)

    # How the quote was read: two compute nodes with no GPUs.
    reading = page.locator("#reading")
    expect(reading).to_contain_text("2 × Compute node, no GPUs")
    expect(page.locator("#reading-confidence")).to_contain_text("confidence")
    expect(page.locator("#vehicles")).not_to_contain_text("XE9680")
    expect(page.locator("#sizing-power_kw")).to_have_count(0)  # no power known for the nodes
    account.shot("40-review-with-a-misread-line")

    # Correct line 1 in place: open its form, say it is a PowerEdge XE9680, re-run.
    page.evaluate("window.rightsizeMarker = 'same page'")
    page.click("#correct-1 a.correct-open")
    form = page.locator("#correct-1 form.correct-form")
    expect(form).to_be_visible()
    form.locator("select[name=c1-role]").select_option("system")
    form.locator("select[name=c1-system]").select_option("dell-xe9680")
    form.locator("select[name=c1-gpu]").select_option("h200-sxm")
    form.locator("input[name=c1-gpus_per_system]").fill("8")
    form.locator("button[type=submit]").click()

    # The review moved: 2 XE9680 with 8 × H200 SXM each (2 × 8 = 16 GPUs), 2 × 11.0 kW =
    # 22 kW; the line says it was corrected and by whom.
    expect(page.locator("#moved")).to_be_visible()
    cards = page.locator("#vehicles .vehicle-card")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("2 × Dell PowerEdge XE9680")
    expect(cards.first).to_contain_text("8 × H200 SXM each")
    expect(page.locator("#sizing-power_kw .value")).to_have_text("22")
    expect(page.locator("#sizing-power_kw .was")).to_have_text("was —")
    expect(reading).to_contain_text("2 × Dell PowerEdge XE9680, each 8 × H200 SXM 141 GB")
    expect(page.locator("tr#line-1")).to_have_class(re.compile(r"\bcorrected\b"))
    expect(page.locator("tr#line-1 td.role")).to_contain_text("System")
    expect(page.locator("#correction-1")).to_contain_text("Corrected by account")
    assert page.evaluate("window.rightsizeMarker") == "same page"  # no reload happened
    account.shot("41-review-after-correcting-line-1")
    review = Review.objects.get()
    assert review.version == 2
    assert QuoteLineCorrection.objects.get().system == "dell-xe9680"

    # Undo: the reading and the numbers go back.
    page.click("#correction-1 button:has-text('Undo the correction of line 1')")
    expect(page.locator("#correction-1")).to_have_count(0)
    expect(page.locator("#vehicles")).not_to_contain_text("XE9680")
    expect(page.locator("#sizing-power_kw")).to_have_count(0)
    expect(reading).to_contain_text("2 × Compute node, no GPUs")
    expect(page.locator("tr#line-1")).not_to_have_class(re.compile(r"\bcorrected\b"))
    assert page.evaluate("window.rightsizeMarker") == "same page"
    account.shot("42-review-after-undo")
    review.refresh_from_db()
    assert review.version == 3


def test_the_customer_sees_the_reading_and_no_controls(sessions, quote):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    page.set_input_files("input[name=file]", str(quote))
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option(
        "select[name=w-saved]", label="Acme Research · Internal assistant, 100 users"
    )
    page.select_option("select[name=f-saved]", label="Acme Research · Row 3 (20 kW, RDHX)")
    page.click("button:has-text('Upload and review')")
    page.wait_for_url(REVIEW_URL)
    review = review_published_as_is(Review.objects.get())  # the customer's copy
    customer = sessions("customer").goto(f"/reviews/{review.uuid}/")
    expect(customer.locator("#reading")).to_contain_text("Compute node")
    expect(customer.locator(".correct, form.undo, a.correct-open")).to_have_count(0)
