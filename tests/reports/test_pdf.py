"""What `pdf_from_html` keeps between renders (the font configuration, the parsed stylesheet)
never outlives what it was made from: an edited stylesheet is what the next PDF shows."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf

from apps.reports import pdf as pdf_module
from apps.reports.fetcher import StaticAssetFetcher
from apps.reports.pdf import pdf_from_html

HTML = (
    '<html><head><link rel="stylesheet" href="asset:css/report.css"></head>'
    "<body><h1>Quote review</h1><p>One DGX B200.</p></body></html>"
)


def page_size(pdf: bytes) -> tuple[int, int]:
    box = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return round(box.width), round(box.height)


def test_an_edited_stylesheet_is_parsed_again_not_served_from_before(tmp_path: Path) -> None:
    css = tmp_path / "css" / "report.css"
    css.parent.mkdir()
    css.write_text("@page { size: A4 }")
    assert page_size(pdf_from_html(HTML, static_root=tmp_path)) == (595, 842)
    css.write_text("@page { size: A5 }")  # same path, same length, new content
    assert page_size(pdf_from_html(HTML, static_root=tmp_path)) == (420, 595)
    css.write_text("@page { size: A4 }")
    assert page_size(pdf_from_html(HTML, static_root=tmp_path)) == (595, 842)


def test_the_kept_stylesheet_is_still_fetched_through_the_gate(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "report.css").write_text("@page { size: A4 }")
    seen: list[str] = []

    class Spy(StaticAssetFetcher):
        def fetch(self, url: str, headers: object = None):
            seen.append(url)
            return super().fetch(url, headers)

    for _ in range(2):
        pdf_from_html(HTML, static_root=tmp_path, fetcher=Spy(tmp_path))
    assert seen == ["asset:css/report.css", "asset:css/report.css"]


def test_a_second_stylesheet_or_an_import_is_left_to_weasyprint(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "report.css").write_text("@import 'asset:css/page.css';")
    (tmp_path / "css" / "page.css").write_text("@page { size: A5 }")
    fetcher = StaticAssetFetcher(tmp_path)
    assert pdf_module._stylesheet_split(HTML, fetcher) == (HTML, [])
    assert page_size(pdf_from_html(HTML, static_root=tmp_path)) == (420, 595)
    (tmp_path / "css" / "page.css").write_text("@page { size: A4 }")
    assert page_size(pdf_from_html(HTML, static_root=tmp_path)) == (595, 842)
    styled = HTML.replace("</head>", "<style>p { color: red }</style></head>")
    assert pdf_module._stylesheet_split(styled, fetcher) == (styled, [])


def test_the_collector_is_paused_while_the_pdf_is_laid_out_and_runs_again_after(
    tmp_path: Path,
    monkeypatch,
) -> None:
    import gc

    from weasyprint.document import Document

    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "report.css").write_text("@page { size: A4 }")
    seen: list[bool] = []
    real = Document.write_pdf

    def write_pdf(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Document, "write_pdf", write_pdf)
    enabled = gc.isenabled()
    gc.enable()
    try:
        assert pdf_from_html(HTML, static_root=tmp_path).startswith(b"%PDF")
        assert seen == [False]
        assert gc.isenabled()
    finally:
        (gc.enable if enabled else gc.disable)()
