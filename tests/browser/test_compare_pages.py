"""The compare pages in a real browser, as the account team uses them: filter the reviews on
file by customer (htmx swaps the filters and the list), tick two of the same load, compare,
save, open the saved list. Every page at 1280 and 390 px: no sideways scrolling, axe-core
clean."""

from __future__ import annotations

import json

import pytest

from apps.review.comparisons import load_key, review_load
from apps.review.models import Review, SavedComparison
from apps.web.demo import demo_reviews_seed
from tests.browser.test_widths_and_axe import WIDTHS, _axe_serious

pytestmark = pytest.mark.browser


def _same_load_pair() -> list[Review]:
    """Two Acme reviews of one load: the demo's revised quote and its first version."""
    by_load: dict[str, list[Review]] = {}
    for review in Review.objects.filter(organisation__slug="acme").order_by("pk"):
        by_load.setdefault(load_key(review_load(review)), []).append(review)
    pair = next(reviews for reviews in by_load.values() if len(reviews) >= 2)
    return pair[:2]


def _fits_and_passes(page, label: str) -> list[str]:
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        document_width = page.evaluate("document.documentElement.scrollWidth")
        if document_width > width:
            problems.append(f"{label} at {width} px: document {document_width} px wide")
        for violation in _axe_serious(page, label):
            problems.append(f"{label} at {width} px: axe {json.dumps(violation)}")
    page.set_viewport_size({"width": 1280, "height": 900})
    return problems


def test_filter_compare_save_at_both_widths(sessions) -> None:
    demo_reviews_seed()
    first, second = _same_load_pair()
    session = sessions("account")
    page = session.goto("/reviews/compare/")
    problems = _fits_and_passes(page, "picker")

    # The customer filter swaps the list in place: Globex's reviews go, Acme's stay.
    globex = Review.objects.filter(organisation__slug="globex").first()
    assert globex is not None
    assert page.locator(f"input[value='{globex.uuid}']").count() == 1
    with page.expect_response(lambda r: "/reviews/compare/?" in r.url):
        page.select_option("select[name=organisation]", label="Acme Research")
    page.wait_for_selector(f"input[value='{globex.uuid}']", state="detached")
    assert page.locator("#picker-filters").count() == 1  # the filters came back with the list
    assert page.locator("select[name=organisation]").input_value() != ""
    assert page.locator(f"input[value='{first.uuid}']").count() == 1

    page.check(f"input[value='{first.uuid}']")
    page.check(f"input[value='{second.uuid}']")
    page.click("text=Compare the ticked reviews")
    page.wait_for_selector("#compare-why")
    problems += _fits_and_passes(page, "comparison")
    session.shot("compare-1280px")

    page.fill("#comparison-name", "Two versions of one quote")
    page.click("text=Save the comparison")
    page.wait_for_selector("#saved-comparison")
    saved = SavedComparison.objects.get()
    assert page.url.endswith(f"/reviews/comparisons/{saved.uuid}/")
    assert "Two versions of one quote" in page.inner_text("h1")
    problems += _fits_and_passes(page, "saved comparison")

    session.goto("/reviews/comparisons/")
    assert "Two versions of one quote" in page.inner_text("#saved-list")
    problems += _fits_and_passes(page, "saved list")
    page.set_viewport_size({"width": 390, "height": 900})
    session.goto(f"/reviews/comparisons/{saved.uuid}/")
    session.shot("compare-saved-390px")
    assert problems == [], "\n".join(problems)
