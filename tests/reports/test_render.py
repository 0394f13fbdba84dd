"""The report as HTML and as PDF: content, escaping, page sizes, and what the pages look like.

The PNGs land in tests/artifacts/ (git-ignored) so a person can look at them.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
from django.utils.html import escape
from PIL import Image

from apps.reports import fetcher as fetcher_module
from apps.reports import page
from apps.reports.render import report_html, report_pdf_bytes
from tests.reports.page_reports import (
    HOSTILE_IMG,
    HOSTILE_LINK,
    HOSTILE_URL,
    four_semis_report,
    hostile_report,
)

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DAY = dt.date(2025, 3, 14)
A4_POINTS = (595, 842)  # 210 × 297 mm at 72 pt/in, rounded
LETTER_POINTS = (612, 792)  # 8.5 × 11 in × 72 pt/in


class UrlCollector(HTMLParser):
    """Every URL-bearing attribute in the HTML, and every tag."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in {"src", "href", "xlink:href", "data", "srcset"} and value:
                self.urls.append(value)


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture(scope="module")
def a4_pdf() -> bytes:
    return report_pdf_bytes(
        four_semis_report(), generated_on=DAY, organisation="Acme Corp", quote_date="2025-03-01"
    )


# --- HTML -----------------------------------------------------------------------------------


def test_html_carries_the_review() -> None:
    html = report_html(four_semis_report(), generated_on=DAY)
    assert "INVALID_TEMPLATE_VARIABLE" not in html
    assert escape(page.verdict_sentence(four_semis_report())) in html
    assert "57.2 kW in one rack; the room is qualified for 2 kW.</p>" in html
    assert '<body class="page-a4">' in html
    assert '<span class="quote-number">Q-2024-0042</span>' in html
    assert '<td class="report-date">14 March 2025</td>' in html
    for text in (
        "Finance: High",  # the gauges' titles
        "Facilities: Crisis",
        "57.2 kW per rack in a room qualified for 2 kW.",
        "systems × power_max_kw = 4 × 14.3 kW = 57.2 kW &gt; 2 kW",
        "What fixes it",
        "Power per rack",
        'class="chart chart-demand"',
        'class="chart chart-rack"',
        'data-vehicle="semi"',
        '<span class="unverified">unverified</span>',
    ):
        assert text in html, text
    assert "style=" not in html and "<style" not in html and "<script" not in html


def test_html_letter_body_class() -> None:
    assert '<body class="page-letter">' in report_html(four_semis_report(), page_size="Letter")


def test_hostile_quote_text_is_escaped_and_the_only_url_is_our_stylesheet() -> None:
    html = report_html(hostile_report(), generated_on=DAY)
    assert HOSTILE_IMG not in html and HOSTILE_LINK not in html
    assert "&lt;img src=&quot;file:///etc/passwd&quot;&gt;" in html
    assert (
        "&lt;link rel=attachment href=&quot;http://169.254.169.254/latest/meta-data/&quot;&gt;"
        in html
    )
    parsed = UrlCollector()
    parsed.feed(html)
    assert parsed.urls == ["asset:css/report.css"]
    assert "img" not in parsed.tags
    assert parsed.tags.count("link") == 1
    assert HOSTILE_URL in html  # shown as text, never as a URL attribute


# --- PDF ------------------------------------------------------------------------------------


def test_pdf_starts_with_magic_and_carries_findings_and_both_checks(a4_pdf: bytes) -> None:
    assert a4_pdf.startswith(b"%PDF")
    text = pdf_text(a4_pdf)
    flat = re.sub(r"\s+", " ", text)
    for expected in (
        page.verdict_sentence(four_semis_report()),
        "Rack power: 57.2 kW in one rack; the room is qualified for 2 kW",
        "Floor load: 1,255.6 lb in one rack footprint",
        "Memory fit: The 1,000 GB job fits in one 1,440 GB NVLink domain",
        "Blood-pressure check",
        "Finance",
        "High",
        "Facilities",
        "Crisis",
        "USD 2,060,000.00 on one quote: Finance clears its throat.",
        "57.2 kW per rack in a room qualified for 2 kW.",
        "1,255.6 lb in one rack footprint.",
        "systems × power_max_kw = 4 × 14.3 kW = 57.2 kW > 2 kW",
        "One semi holds the 1,000 GB job in one NVLink domain",
        "DGXB-G1440+P2CMI36",
        # the figure in words, not its catalog key (dgx-b200.weight_lb); uppercase in print
        "NVIDIA DGX B200, weight 313.9 lb UNVERIFIED",
        "Rightsize · Acme Systems quote Q-2024-0042",  # the running header: the title
        "14 March 2025",
    ):
        assert expected in flat, expected
    pages = len(pypdf.PdfReader(io.BytesIO(a4_pdf)).pages)
    assert f"Page 1 of {pages}" in flat
    assert f"Page {pages} of {pages}" in flat


def test_pdf_page_sizes(a4_pdf: bytes) -> None:
    a4 = pypdf.PdfReader(io.BytesIO(a4_pdf)).pages[0].mediabox
    assert (round(a4.width), round(a4.height)) == A4_POINTS
    letter_pdf = report_pdf_bytes(four_semis_report(), page_size="Letter", generated_on=DAY)
    pages = pypdf.PdfReader(io.BytesIO(letter_pdf)).pages
    assert {(round(p.mediabox.width), round(p.mediabox.height)) for p in pages} == {LETTER_POINTS}


def test_hostile_pdf_fetches_only_assets_attaches_nothing_connects_nowhere(
    monkeypatch: pytest.MonkeyPatch, no_network: list[object]
) -> None:
    fetched: list[str] = []
    real_fetch = fetcher_module.StaticAssetFetcher.fetch

    def spy(self: fetcher_module.StaticAssetFetcher, url: str, headers: object = None):
        fetched.append(url)
        return real_fetch(self, url, headers)

    monkeypatch.setattr(fetcher_module.StaticAssetFetcher, "fetch", spy)
    pdf = report_pdf_bytes(hostile_report(), generated_on=DAY)
    assert pdf.startswith(b"%PDF")
    assert fetched and all(url.startswith("asset:") for url in fetched), fetched
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert dict(reader.attachments) == {}
    assert all("/Annots" not in page for page in reader.pages)
    assert no_network == []
    flat = re.sub(r"\s+", " ", pdf_text(pdf))
    assert 'src="file:///etc/passwd"' in flat  # printed as text, for the reader to see


def test_pages_render_to_png_and_look_like_a_report(a4_pdf: bytes) -> None:
    """pdftoppm (poppler-utils) draws each page; we check the pictures are pages with ink."""
    ARTIFACTS.mkdir(exist_ok=True)
    pdf_path = ARTIFACTS / "report-a4.pdf"
    pdf_path.write_bytes(a4_pdf)
    for old in ARTIFACTS.glob("report-a4-*.png"):
        old.unlink()
    subprocess.run(
        ["/usr/bin/pdftoppm", "-r", "60", "-png", str(pdf_path), str(ARTIFACTS / "report-a4")],
        check=True,
        timeout=60,
    )
    pngs = sorted(ARTIFACTS.glob("report-a4-*.png"))
    assert len(pngs) == len(pypdf.PdfReader(io.BytesIO(a4_pdf)).pages)
    for png in pngs:
        with Image.open(png) as image:
            width, height = image.size
            # A4 is 1 : √2 ≈ 1 : 1.414.
            assert height / width == pytest.approx(297 / 210, abs=0.01)
            dark = sum(image.convert("L").histogram()[:128])
            assert dark > 500, f"{png.name} is nearly blank"
    with Image.open(pngs[0]) as first:
        data = first.convert("RGB").tobytes()
        # The verdict box of a failing quote has a dark red bar (#b71c1c), so does the gauge.
        pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
        reds = sum(1 for r, g, b in pixels if r > 150 and g < 60 and b < 60)
        assert reds > 200
