"""A Tokyo reseller's name in the PDF: DejaVu Sans has no CJK glyphs, so "株式会社東京GPUシステムズ"
printed as a row of boxes on the report's title and every page's running head. The stylesheet
falls back to WenQuanYi Micro Hei (Debian's fonts-wqy-microhei, installed by `make browser-deps`
and the Dockerfile), and the PDF embeds it for those characters."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf

from apps.reports.pdf import pdf_from_html

STATIC = Path(__file__).resolve().parents[2] / "static"
CJK_FAMILY = "WenQuanYi Micro Hei"
HTML = (
    '<html><head><link rel="stylesheet" href="asset:css/report.css"></head>'
    "<body><h1>株式会社東京GPUシステムズ quote TGS-2026-0441</h1></body></html>"
)


def _embedded_fonts(pdf: bytes) -> set[str]:
    fonts = set()
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    return fonts


def test_the_report_falls_back_to_a_cjk_font():
    css = (STATIC / "css" / "report.css").read_text(encoding="utf-8")
    stack = re.search(r"^html \{ font: [^;]*;", css, re.M)
    assert stack and f'"DejaVu Sans", "{CJK_FAMILY}"' in stack.group(0)


def test_a_japanese_vendor_name_is_drawn_in_a_font_that_has_it():
    fonts = _embedded_fonts(pdf_from_html(HTML, static_root=STATIC))
    # Before: only DejaVu-Sans(-Bold) embedded, the kana and kanji drawn as .notdef boxes.
    assert any("WenQuanYi-Micro-Hei" in name for name in fonts), (
        f"no CJK font embedded ({sorted(fonts)}): install fonts-wqy-microhei (make browser-deps)"
    )
