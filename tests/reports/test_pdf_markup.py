"""What `pdf_from_html` does to the report's markup before WeasyPrint reads it (drawings as
images served from memory, no whitespace between blocks, the trimmed user-agent stylesheet)
changes no byte of the PDF, and opens no new door in the fetcher."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from weasyprint import HTML

from apps.reports import pdf as pdf_module
from apps.reports.fetcher import DRAWINGS, AssetRefused, StaticAssetFetcher, nothing_fetcher
from apps.reports.pdf import pdf_from_html
from apps.reports.pdf_markup import (
    ReportHTML,
    _report_ua,
    drawings_split,
    stock_ua_needed,
    whitespace_between_blocks_drop,
)
from apps.reports.render import report_html
from tests.reports.page_reports import four_semis_report

STATIC = Path(__file__).resolve().parents[2] / "static"
DAY = dt.date(2025, 3, 14)
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="4"/></svg>'


def stock_pdf(html: str) -> bytes:
    """The report as WeasyPrint renders it untouched, behind the same fetcher."""
    return HTML(string=html, base_url=None, url_fetcher=StaticAssetFetcher(STATIC)).write_pdf()


def test_the_report_pdf_is_the_stock_render_byte_for_byte() -> None:
    html = report_html(four_semis_report(), generated_on=DAY, organisation="Acme Corp")
    assert html.count("<svg") >= 5
    assert pdf_from_html(html, static_root=STATIC) == stock_pdf(html)


def test_drawings_become_images_served_from_memory() -> None:
    html, drawings = drawings_split(f"<p>A</p><div>{SVG}</div><div>{SVG}</div>")
    (url,) = drawings  # one drawing used twice is one image
    assert url.startswith(DRAWINGS) and url.endswith(".svg")
    assert html == f'<p>A</p><div><img src="{url}" alt=""></div><div><img src="{url}" alt=""></div>'
    fetcher = StaticAssetFetcher(STATIC)
    fetcher.drawings = drawings
    response = fetcher(url)
    assert response.content_type == "image/svg+xml" and response.read() == SVG.encode()


def test_a_drawing_that_is_not_a_document_of_its_own_stays_inline() -> None:
    for svg in ('<svg width="1"><rect/></svg>', SVG.replace("<rect", "&nbsp;<rect")):
        assert drawings_split(f"<div>{svg}</div>") == (f"<div>{svg}</div>", {})


@pytest.mark.parametrize("url", [f"{DRAWINGS}{'0' * 64}.svg", f"{DRAWINGS}../css/report.css"])
def test_a_drawing_url_is_only_ever_one_of_this_renders_drawings(url: str) -> None:
    fetcher = StaticAssetFetcher(STATIC)
    fetcher.drawings = drawings_split(SVG)[1]
    with pytest.raises(AssetRefused, match="not one of this report's"):
        fetcher(url)


def test_whitespace_goes_only_between_two_blocks() -> None:
    html = (
        "<section>\n  <h2>Sizing</h2>\n  <p>a <span>b</span> <strong>c</strong></p>\n"
        "  <pre>  x\n  y  </pre>\n</section>"
    )
    assert whitespace_between_blocks_drop(html) == (
        "<section><h2>Sizing</h2><p>a <span>b</span> <strong>c</strong></p>"
        "<pre>  x\n  y  </pre></section>"
    )


def test_the_trimmed_ua_stylesheet_only_for_documents_without_list_items_notes_footnotes() -> None:
    assert _report_ua() is not None  # WeasyPrint's UA stylesheet still reads as this expects
    assert not stock_ua_needed("<ul><li>a</li></ul>", {"asset:css/report.css": b"li { x: y }"})
    for text in (
        "display: list-item",
        "float: footnote",
        "li::marker { }",
        "@page { @top-center { content: 'x' } }",
        "@page { @bottom-right-corner { content: 'x' } }",
        "@page { @left-middle { content: 'x' } }",
    ):
        assert stock_ua_needed("", {"asset:css/a.css": text.encode()})
    assert stock_ua_needed('<p style="display: list-item">a</p>', {})
    # The report's words are not its style: a citation of hardware-corner.net, a footnote.
    assert not stock_ua_needed("<p>hardware-corner.net, see the footnote</p>", {})
    trimmed = ReportHTML(string="<p>a</p>", stock_ua=False)._ua_stylesheets()
    stock = ReportHTML(string="<p>a</p>", stock_ua=True)._ua_stylesheets()
    assert trimmed != stock and len(trimmed) == len(stock) == 1


def test_a_list_keeps_its_markers_with_the_trimmed_stylesheet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    html = (
        '<html><head><link rel="stylesheet" href="asset:css/report.css"></head><body>'
        "<ol><li>one</li><li>two</li></ol><ul><li>three</li></ul></body></html>"
    )
    seen: list[bool] = []

    class Spy(ReportHTML):
        def __init__(self, *, stock_ua: bool, **kwargs: object) -> None:
            seen.append(stock_ua)
            super().__init__(stock_ua=stock_ua, **kwargs)

    monkeypatch.setattr(pdf_module, "ReportHTML", Spy)
    assert pdf_from_html(html, static_root=STATIC) == stock_pdf(html)
    assert seen == [False]


@pytest.mark.parametrize(
    "url", ["asset:css/report.css", "https://example.com/", "file:///etc/passwd"]
)
def test_the_ua_stylesheets_fetcher_serves_nothing(url: str) -> None:
    with pytest.raises(Exception):  # noqa: B017 - WeasyPrint's own refusal, whatever its type
        nothing_fetcher().fetch(url)
