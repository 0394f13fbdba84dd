"""HTML to PDF bytes with WeasyPrint, behind the static-only fetcher.

No Django here: the render child process (`apps.reports.sandbox`) imports this module alone, so a
5,000-line quote that blows up WeasyPrint takes down a disposable child, not the worker.

What does not change between two reports is kept per thread: the font configuration (Pango's
font map, with the fonts it has opened and measured) and the report stylesheet parsed once per
distinct content. The stylesheet's bytes are still read through the fetcher on every render, so
the gate sees every URL and an edited report.css is parsed afresh, never served stale.
Before the render, `apps.reports.pdf_markup` turns the markup into what WeasyPrint reads
fastest (drawings as images, no whitespace between blocks, a trimmed user-agent stylesheet).
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from weasyprint import CSS
from weasyprint.text.fonts import FontConfiguration

from apps.reports.fetcher import StaticAssetFetcher
from apps.reports.pdf_markup import (
    ReportHTML,
    drawings_split,
    stock_ua_needed,
    whitespace_between_blocks_drop,
)
from apps.sites.collector import collector_paused

#: The one stylesheet link our report templates write (report.html, comparison.html).
STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="(asset:[\w/.-]+\.css)">')
#: Parsed stylesheets kept per thread (report.css and, at most, an edited copy or two).
PARSED_STYLESHEETS_KEPT = 4


class _RenderKit(threading.local):
    """One thread's font configuration and the stylesheets parsed with it."""

    def __init__(self) -> None:
        self.font_config = FontConfiguration()
        self.stylesheets: dict[tuple[str, bytes], CSS] = {}
        #: id() of each kept stylesheet that uses no list item, footnote or note of its own
        #: (pdf_markup.ReportHTML: the trimmed user-agent stylesheet is enough for it).
        self.plain: set[int] = set()

    def stylesheet(self, url: str, body: bytes, fetcher: StaticAssetFetcher) -> CSS:
        key = (url, body)
        css = self.stylesheets.get(key)
        if css is None:
            if len(self.stylesheets) >= PARSED_STYLESHEETS_KEPT:
                self.plain.discard(id(self.stylesheets.pop(next(iter(self.stylesheets)))))
            css = CSS(
                string=body.decode(),
                base_url=url,
                url_fetcher=fetcher,
                font_config=self.font_config,
            )
            self.stylesheets[key] = css
            if not stock_ua_needed("", {url: body}):
                self.plain.add(id(css))
        return css


_kit = _RenderKit()


def _stylesheet_split(html: str, fetcher: StaticAssetFetcher) -> tuple[str, list[CSS]]:
    """`html` without its stylesheet link, and that stylesheet parsed (or kept from before).

    Only when the document's one stylesheet is our `<link>`: with a second `<link>` or a
    `<style>`, their order would matter, so WeasyPrint reads them all as it always does. A
    stylesheet that imports another or loads a font is not kept (that file could change
    underneath it)."""
    links = STYLESHEET_LINK.findall(html)
    if len(links) != 1 or html.count("<link") != 1 or "<style" in html:
        return html, []
    url = links[0]
    response = fetcher.fetch(url)
    body = response.read()
    if b"@import" in body or b"@font-face" in body:
        return html, []
    return STYLESHEET_LINK.sub("", html, count=1), [_kit.stylesheet(url, body, fetcher)]


def pdf_from_html(
    html: str,
    *,
    static_root: Path | str,
    fetcher: StaticAssetFetcher | None = None,
    logo_root: Path | str | None = None,
) -> bytes:
    """Render `html` to PDF; the only URLs fetched are `asset:` ones under `static_root`.

    The page size is in the HTML (report.css: A4 unless `<body class="page-letter">`), so the
    same stylesheet serves a customer in Frankfurt (210 × 297 mm) and one in Chicago (8.5 × 11 in).
    """
    fetcher = fetcher or StaticAssetFetcher(static_root, logo_root=logo_root)
    # The markup as WeasyPrint reads it fastest, the PDF the same byte for byte (pdf_markup).
    html, fetcher.drawings = drawings_split(html)
    html, stylesheets = _stylesheet_split(whitespace_between_blocks_drop(html), fetcher)
    stock_ua = len(stylesheets) != 1 or id(stylesheets[0]) not in _kit.plain
    stock_ua = stock_ua or stock_ua_needed(html, {})
    # Some 54,000 boxes and styles, alive until the PDF is written: no collection scans them
    # meanwhile (apps.sites.collector).
    with collector_paused():
        document = ReportHTML(
            string=html, base_url=None, url_fetcher=fetcher, stock_ua=stock_ua
        ).render(font_config=_kit.font_config, stylesheets=stylesheets)
        # No attachments and no outbound links, whatever the HTML says: `<link rel=attachment>`
        # and `<a rel=attachment>` would embed a file, `<a href="http://…">` would send the
        # reader away.
        document.metadata.attachments = []
        for page in document.pages:
            page.links = [link for link in page.links if link[0] == "internal"]
        return document.write_pdf()
