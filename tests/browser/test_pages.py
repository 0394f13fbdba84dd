"""The main pages with `make run`'s demo reviews, as each role sees them, screenshotted for a
person to look at (tests/artifacts/screenshots/). Each page is checked for what it must say
and, through the fixture, for console errors (a CSP violation is one)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.review.models import Review
from apps.web.demo import DEMO_APPROVAL, demo_reviews_seed

pytestmark = pytest.mark.browser


@pytest.fixture
def demo_reviews(site):
    demo_reviews_seed()
    return {r.quote.display_name: r for r in Review.objects.select_related("quote")}


def test_the_back_corner_of_the_lot_as_the_account_team_sees_it(sessions, demo_reviews):
    account = sessions("account")
    account.shot("10-account-home")
    expect(account.page.locator("#recent tbody tr")).to_have_count(7)

    page = account.goto(f"/reviews/{demo_reviews['supermicro-sm-88310.csv'].uuid}/")
    expect(page.locator(".verdict-sentence")).to_contain_text("Back corner of the lot")
    expect(page.locator('#vehicles [data-vehicle="work van"]')).to_have_count(1)
    expect(page.locator("#vehicles")).to_contain_text("pass notes over PCIe")
    account.shot("11-pcie-vans-for-one-finetune")

    page = account.goto(f"/reviews/{demo_reviews['tailspin-ts-0042.csv'].uuid}/")
    expect(page.locator('#vehicles [data-vehicle="freight train"]')).to_have_count(1)
    expect(page.locator("#check-cooling")).to_contain_text("Critical")
    expect(page.locator("#chart-rack")).to_be_visible()
    account.shot("12-train-without-rails")

    page = account.goto(f"/reviews/{demo_reviews['litware-ld-7781.csv'].uuid}/")
    expect(page.locator('#vehicles [data-vehicle="compact car"]')).to_have_count(1)
    expect(page.locator("#check-throughput")).to_contain_text("Breakfast for one")
    account.shot("13-spark-for-a-department")

    revised = demo_reviews["contoso-cc-24117-rev2.csv"]
    page = account.goto(f"/reviews/{revised.uuid}/")
    expect(page.locator("#revision")).to_contain_text("Changed since quote version 1")
    expect(page.locator(".verdict-sentence")).to_contain_text("A right fit")
    account.shot("14-revised-quote")

    page = account.goto(f"/reviews/{demo_reviews['contoso-cc-24117.csv'].uuid}/")
    expect(page.locator("#superseded")).to_contain_text("see the review of version 2")
    expect(page.locator("#trail")).to_contain_text("ask for a PCIe server")


def test_finance_and_customers_see_their_own_pages(sessions, demo_reviews):
    finance = sessions("finance")
    expect(finance.page.locator(".tile").first).to_contain_text("failing, waiting")
    finance.shot("15-finance-home")

    globex = sessions("globex")
    expect(globex.page.locator("#reviews tbody tr")).to_have_count(1)  # the one published
    expect(globex.page.locator("#reviews")).not_to_contain_text("Contoso")
    globex.shot("16-globex-home")
    acme_review = f"{globex.base_url}/reviews/{demo_reviews['contoso-cc-24117.csv'].uuid}/"
    assert globex.page.request.get(acme_review).status == 404  # with globex's session cookie

    customer = sessions("customer")
    rejected = f"{customer.base_url}/reviews/{demo_reviews['fabrikam-fh-3302.csv'].uuid}/"
    assert customer.page.request.get(rejected).status == 404  # rejected, never published
    page = customer.goto(f"/reviews/{demo_reviews['supermicro-sm-88310.csv'].uuid}/")
    expect(page.locator("#check-nvlink_domain")).to_be_visible()
    assert DEMO_APPROVAL not in page.content()  # Finance's comment stays inside
    customer.shot("17-customer-pcie-vans")
