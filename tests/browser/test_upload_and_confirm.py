"""Two htmx moments in a real browser: the upload shows its progress while the server reads
the quote, and a fuzzy line confirmed inline turns "no vehicle" into a vehicle on the same page.

The upload POST is held by a Playwright route until the test has seen the indicator, then let
through: the indicator is observed deterministically, however fast the server answers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from apps.catalog.models import Part
from apps.quotes.models import VendorPartMapping
from apps.review.models import Review

pytestmark = pytest.mark.browser

REVIEW_URL = re.compile(r"/reviews/[0-9a-f-]{36}/$")
HEADER = "Part Number,Description,Qty,Unit Price,Extended Price\n"
# One chassis whose part number is one character from both the 521GE and the 421GE (so the
# match is "ambiguous") and the eight L40S boards that go in it (an exact match).
VAN_WITH_A_TYPO = (
    "Vendor: Acme Resellers\n"
    + HEADER
    + "SYS-621GE-TNRT,Compute node,1,28000,28000\n"
    + "900-2G133-0080-000,L40S,8,9500,76000\n"
)


def _fill_upload_form(page: Page, quote: Path) -> None:
    page.set_input_files("input[name=file]", str(quote))
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option(
        "select[name=w-saved]", label="Acme Research · Internal assistant, 100 users"
    )
    page.select_option("select[name=f-saved]", label="Acme Research · Row 3 (20 kW, RDHX)")


@pytest.fixture
def van_quote(tmp_path: Path) -> Path:
    path = tmp_path / "acme-resellers-621ge.csv"
    path.write_text(VAN_WITH_A_TYPO)
    return path


def test_the_upload_shows_its_progress_until_the_review_page_opens(sessions, van_quote):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    indicator = page.locator("#upload-progress")
    button = page.locator("#upload-form button[type=submit]")
    expect(indicator).to_be_hidden()  # display: none until htmx marks a request running

    held: list[Route] = []

    def hold_the_post(route: Route) -> None:
        if route.request.method == "POST":
            held.append(route)  # answered below, once the indicator has been seen
        else:
            route.continue_()

    page.route("**/quotes/upload/", hold_the_post)
    _fill_upload_form(page, van_quote)
    page.click("button:has-text('Upload and review')")

    # The request is in flight (held): the indicator shows and the button cannot be clicked twice.
    expect(indicator).to_be_visible()
    expect(indicator).to_contain_text("Uploading, reading every row")
    expect(indicator.locator("progress.upload-progress")).to_have_attribute("max", "100")
    expect(button).to_be_disabled()
    assert page.url.endswith("/quotes/upload/")
    assert len(held) == 1 and "multipart/form-data" in held[0].request.headers["content-type"]
    account.shot("20-upload-in-progress")

    held[0].continue_()
    page.wait_for_url(REVIEW_URL)
    review = Review.objects.get()
    assert page.url.endswith(f"/reviews/{review.uuid}/")
    expect(page.locator("#quote-lines tbody tr#line-1")).to_contain_text("SYS-621GE-TNRT")
    page.unroute("**/quotes/upload/")
    account.shot("21-upload-landed-on-review")


def test_confirming_an_ambiguous_line_inline_puts_the_vehicle_on_the_page(sessions, van_quote):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    _fill_upload_form(page, van_quote)
    page.click("button:has-text('Upload and review')")
    page.wait_for_url(REVIEW_URL)

    # Before: the chassis line is ambiguous. The reader still sees a compute node carrying the
    # eight L40S the quote states (a system of unknown chassis), but not which chassis it is.
    chassis_row = page.locator("tr#line-1")
    expect(chassis_row).to_have_class(re.compile(r"\bmatch-ambiguous\b"))
    expect(page.locator("#vehicles .vehicle-card")).not_to_contain_text("SYS-521GE-TNRT")
    confirm = page.locator("form.confirm")
    expect(confirm).to_have_count(1)
    account.shot("22-review-with-an-ambiguous-line")

    page.evaluate("window.rightsizeMarker = 'same page'")
    chassis = Part.objects.get(part_number="SYS-521GE-TNRT")
    confirm.locator("select[name=part]").select_option(value=str(chassis.pk))
    confirm.locator("button:has-text('Confirm match')").click()

    # After, swapped in without a reload: the line is the 521GE chassis, the form is gone, the
    # checks re-ran (the "moved" card) and the chassis with its eight L40S is now a vehicle.
    expect(page.locator("#moved")).to_be_visible()
    expect(chassis_row).not_to_have_class(re.compile(r"\bmatch-ambiguous\b"))
    expect(chassis_row.locator("td.match")).to_contain_text("supermicro-sys-521ge-tnrt")
    expect(page.locator("form.confirm")).to_have_count(0)
    cards = page.locator("#vehicles .vehicle-card")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("SYS-521GE-TNRT")
    # An L40S has no NVLink, so one domain is one 48 GB card, in the catalog's chassis now.
    expect(page.locator("#sizing-nvlink_domain_memory_gb .value")).to_have_text("48")
    assert page.evaluate("window.rightsizeMarker") == "same page"  # no reload happened
    account.shot("23-review-after-confirming-the-match")

    review = Review.objects.get()
    assert review.version == 2
    line = review.quote.lines.get(line=1)
    assert (line.match, line.part) == ("alias", chassis)
    assert VendorPartMapping.objects.get().part == chassis
