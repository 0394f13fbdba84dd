"""The URL fetcher: our static files by `asset:` URL, nothing else, never a redirect."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.request import HTTPRedirectHandler, Request

import pypdf
import pytest

from apps.reports.fetcher import AssetRefused, StaticAssetFetcher, asset_path
from apps.reports.pdf import pdf_from_html

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_serves_the_report_stylesheet() -> None:
    response = StaticAssetFetcher(STATIC)("asset:css/report.css")
    assert response.content_type == "text/css"
    assert b"@page" in response.read()


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "https://example.com/x.css",
        "file:///etc/passwd",
        f"file://{STATIC}/css/report.css",  # even our own file, by file:// — only asset: is served
        "data:text/html,<script>1</script>",
        "ftp://example.com/x",
        "asset:../config/settings/base.py",
        "asset:css/../../manage.py",
        "asset:/etc/passwd",
        "asset://etc/passwd",
        "asset:css\\..\\..\\manage.py",
        "asset:js/rightsize.js",  # inside static, but not a stylesheet, font or image
        "asset:css/missing.css",
        "asset:",
        "css/report.css",
    ],
)
def test_refuses_everything_else(url: str) -> None:
    with pytest.raises(AssetRefused):
        StaticAssetFetcher(STATIC)(url)


def test_refuses_a_symlink_out_of_the_static_dir(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "css").mkdir(parents=True)
    secret = tmp_path / "secret.css"
    secret.write_text("body { color: red }")
    (static / "css" / "link.css").symlink_to(secret)
    with pytest.raises(AssetRefused, match="outside the static directory"):
        asset_path("asset:css/link.css", static_root=static.resolve())


def test_urllib_entry_points_go_through_the_same_gate() -> None:
    fetcher = StaticAssetFetcher(STATIC)
    with pytest.raises(AssetRefused):
        fetcher.open(Request("http://169.254.169.254/"))
    assert fetcher.open("asset:css/report.css").content_type == "text/css"


def test_never_follows_redirects() -> None:
    fetcher = StaticAssetFetcher(STATIC)
    assert not any(isinstance(h, HTTPRedirectHandler) for h in fetcher.handlers)


def test_raw_hostile_html_fetches_nothing_and_attaches_nothing(no_network: list[object]) -> None:
    """Even if a template bug let hostile markup through unescaped, nothing leaves the box."""
    html = (
        '<html><head><link rel="stylesheet" href="asset:css/report.css">'
        '<link rel="attachment" href="file:///etc/passwd">'
        '<link rel="attachment" href="asset:css/report.css">'
        '<link rel="stylesheet" href="http://169.254.169.254/x.css"></head>'
        '<body><img src="file:///etc/passwd"><img src="http://169.254.169.254/">'
        '<a rel="attachment" href="asset:css/report.css">a</a>'
        '<a href="http://169.254.169.254/">link</a><p>text</p></body></html>'
    )
    seen: list[str] = []

    class Spy(StaticAssetFetcher):
        def fetch(self, url: str, headers: object = None):
            seen.append(url)
            return super().fetch(url, headers)

    pdf = pdf_from_html(html, static_root=STATIC, fetcher=Spy(STATIC))
    assert pdf.startswith(b"%PDF")
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    # The attachment links are dropped (the report never embeds files), and so are links out.
    assert dict(reader.attachments) == {}
    assert all("/Annots" not in page for page in reader.pages)
    # ...the other URLs were asked for and refused, and no socket was opened.
    assert "file:///etc/passwd" in seen and "http://169.254.169.254/" in seen
    assert no_network == []
