"""HTML to PDF bytes with WeasyPrint, behind the static-only fetcher.

No Django here: the render child process (`apps.reports.sandbox`) imports this module alone, so a
5,000-line quote that blows up WeasyPrint takes down a disposable child, not the worker.
"""

from __future__ import annotations

from pathlib import Path

from weasyprint import HTML

from apps.reports.fetcher import StaticAssetFetcher


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
    document = HTML(string=html, base_url=None, url_fetcher=fetcher).render()
    # No attachments and no outbound links, whatever the HTML says: `<link rel=attachment>` and
    # `<a rel=attachment>` would embed a file, `<a href="http://…">` would send the reader away.
    document.metadata.attachments = []
    for page in document.pages:
        page.links = [link for link in page.links if link[0] == "internal"]
    return document.write_pdf()
