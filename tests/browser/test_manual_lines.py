"""No dead ends: a scanned PDF lands on the grid, a block pasted from the PDF viewer fills it,
and the review reads the lines as it would a file — saying they were entered by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fpdf import FPDF
from playwright.sync_api import expect

from apps.quotes.models import Quote
from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review

pytestmark = pytest.mark.browser

# Six lines as copied from a PDF viewer: columns of spaces. Two Supermicro PCIe servers with
# eight L40S between them, rails, cables, support and freight.
PASTED = "\n".join(
    [
        "SYS-521GE-TNRT      Supermicro SuperServer 521GE-TNRT      2    28,000.00    56,000.00",
        "900-2G133-0080-000  NVIDIA L40S 48GB PCIe                   8     9,500.00    76,000.00",
        "MCP-290-00059-0B    Rail kit                                2        95.00       190.00",
        "CBL-PWEX-1040       Power cable C19-C20                     4        18.00        72.00",
        "SVC-3Y-NBD          3-year next business day support       2     1,400.00     2,800.00",
        "FREIGHT             Freight and insurance                   1       650.00       650.00",
    ]
)


@pytest.fixture
def scan(tmp_path: Path) -> Path:
    """A PDF with no text layer, as a scanner makes it."""
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(10, 10, 120, 80)
    path = tmp_path / "scanned-quote.pdf"
    path.write_bytes(bytes(pdf.output()))
    return path


def test_a_scan_lands_on_the_grid_and_pasted_lines_are_reviewed(sessions, scan):
    account = sessions("account")
    page = account.goto("/quotes/upload/")
    page.set_input_files("input[name=file]", str(scan))
    page.select_option("select[name=organisation]", label="Acme Research")
    page.select_option(
        "select[name=w-saved]", label="Acme Research · Internal assistant, 100 users"
    )
    page.select_option("select[name=f-saved]", label="Acme Research · Row 3 (20 kW, RDHX)")
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(re.compile(r"/quotes/[0-9a-f-]{36}/lines/$"))
    expect(page.locator("h1")).to_have_text("Enter the quote's lines")
    expect(page.locator("text=scanned-quote.pdf").first).to_be_visible()
    # The load and room chosen on the upload page are still chosen.
    expect(page.locator("select[name=w-saved] option:checked")).to_contain_text(
        "Internal assistant"
    )

    page.fill("textarea[name=pasted]", PASTED)
    page.click("text=Paste into the grid and check the rows")
    expect(page.locator("input[name=row-0-part_number]")).to_have_value("SYS-521GE-TNRT")
    expect(page.locator("input[name=row-5-description]")).to_have_value("Freight and insurance")
    expect(page.locator("text=Every row reads cleanly.")).to_be_visible()
    account.shot("manual-lines-grid")

    page.click("#lines-form button.primary")
    page.wait_for_url(re.compile(r"/reviews/[0-9a-f-]{36}/$"))
    expect(page.locator("#entered-by-hand")).to_contain_text("Lines entered by hand by account")
    expect(page.locator("#entered-by-hand")).to_contain_text("the original file is attached")
    account.shot("manual-lines-review")

    (quote,) = Quote.objects.all()
    assert (quote.status, quote.display_name, quote.source_file.detected_type) == (
        "parsed",
        "scanned-quote.pdf",
        "pdf",
    )
    assert quote.entered_by.username == "account" and quote.lines.count() == 6
    report = ReviewReport.model_validate(Review.objects.get(quote=quote).report)
    # Two vans of four L40S each: 2 × SYS-521GE-TNRT with 8 ÷ 2 = 4 cards, PCIe only.
    assert [(s.quantity, s.gpus_per_system, s.nvlink_domain_gpus) for s in report.systems] == [
        (2, 4, 1)
    ]
    # 56,000 + 76,000 + 190 + 72 + 2,800 + 650 = 135,712.00
    assert str(report.quote.total) == "135712.00"
