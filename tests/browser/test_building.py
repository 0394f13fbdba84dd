"""The building in a real browser: a colocation cage described by its feeds on the upload form,
the review page drawing each rack against its limit and the buy-or-rent curve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import EXAMPLES

pytestmark = pytest.mark.browser

REVIEW_URL = re.compile(r"/reviews/[0-9a-f-]{36}/$")


def test_feeds_on_the_form_and_racks_on_the_page(sessions):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    page.set_input_files(
        "input[name=file]", str(Path(EXAMPLES / "four-semis-in-a-2kw-room" / "quote.csv"))
    )
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option("select[name=w-kind]", value="fine_tuning")
    page.fill("input[name=w-memory_gb]", "512")
    page.fill("input[name=w-duration]", "6")
    page.select_option("select[name=w-duration_unit]", value="weeks")
    page.fill("input[name=f-name]", "Colo cage 12")
    page.fill("input[name=f-racks_available]", "4")
    page.locator("details.building-fields summary").first.click()
    page.select_option("select[name=f-feed_volts]", value="208")
    page.select_option("select[name=f-feed_phase]", value="three")
    page.fill("input[name=f-feed_amps]", "30")
    page.check("input[name=f-feed_redundant]")
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(REVIEW_URL)
    expect(page.locator("#chart-rack-row svg")).to_be_visible()
    expect(page.locator("#chart-buy-rent svg")).to_be_visible()
    expect(page.get_by_text("none: no rack here can take one NVIDIA DGX B200")).to_be_visible()
    # 208 V × 30 A × √3 × 0.8 = 8.6 kW, one side of the A/B pair
    expect(page.get_by_text("208 V × 30 A × √3 × 0.8 = 8.65 kW per feed").first).to_be_attached()
    account.shot("review-colo-cage-four-semis")
