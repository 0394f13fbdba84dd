"""A workbook with two quote sheets in a real browser: the upload page asks which sheet (at
1280 and 390 px, no sideways scrolling, axe-core clean), the person picks one without choosing
the file again, and the review of that sheet opens."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from apps.review.models import Review
from tests.browser.test_upload_and_confirm import _fill_upload_form
from tests.browser.test_widths_and_axe import WIDTHS, _axe_serious
from tests.fixtures.sheets import two_quote_sheets_xlsx

pytestmark = pytest.mark.browser
REVIEW_URL = re.compile(r"/reviews/[0-9a-f-]{36}/$")


def test_the_page_asks_which_sheet_and_reviews_the_answer(sessions, tmp_path: Path) -> None:
    book = tmp_path / "options.xlsx"
    book.write_bytes(two_quote_sheets_xlsx())
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    _fill_upload_form(page, book)
    page.click("button:has-text('Upload and review')")
    page.wait_for_selector("#sheet-choice")
    assert "Two sheets of options.xlsx both look like quotes" in page.inner_text("#sheet-choice")
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        document_width = page.evaluate("document.documentElement.scrollWidth")
        if document_width > width:
            problems.append(f"sheet choice at {width} px: document {document_width} px wide")
        for violation in _axe_serious(page, "/quotes/upload/"):
            problems.append(f"sheet choice at {width} px: axe {json.dumps(violation)}")
        if width == 390:
            account.shot("sheet-choice-390px")
    assert problems == [], "\n".join(problems)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.check("input[name=sheet][value='Option B']")
    page.click("button:has-text('Upload and review')")  # no file chosen again
    page.wait_for_url(REVIEW_URL)
    review = Review.objects.get()
    assert review.quote.reading["sheet"] == "Option B"
    assert [s["quantity"] for s in review.report["systems"]] == [2]
