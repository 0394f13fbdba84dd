"""The report's HTML as WeasyPrint reads it fastest, drawn the same: what `pdf_from_html` does
to the markup before the render. No Django here (the render child imports it).

Three things, each leaving the PDF byte for byte what it was (tests/reports/test_pdf_markup.py):

- The inline drawings (charts/, drawings.py) become `<img src="asset:drawings/<sha>.svg">`,
  served from memory by the fetcher: WeasyPrint's HTML tokenizer and its cascade no longer walk
  every `<rect>` and `<path>`, and a drawing used twice (55 vehicles of 33 kinds on a 500-line
  quote) is parsed once.
- The whitespace between two block-level tags goes: the template's indentation, which
  WeasyPrint would tokenize, box and then throw away.
- The user-agent stylesheet without what our reports never have: `::marker` for every element
  (only an `li` is a list item) and the footnote and note pseudo-elements, which gave every
  element six pseudo-element styles to compute; and without its text alignment for the twelve
  margin boxes our pages leave empty, a style WeasyPrint computed for each on every page. A
  document whose style could use any of that (`stock_ua_needed`) gets WeasyPrint's own.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from xml.etree import ElementTree

from weasyprint import CSS, HTML
from weasyprint.html import UA, UA_COUNTER_STYLE

from apps.reports.fetcher import DRAWINGS, nothing_fetcher

#: An inline drawing as our templates write it: never nested, never quote text (the template
#: escapes every `<` a customer writes, so `<svg` in the HTML is always ours).
INLINE_SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S)
SVG_ROOT = "{http://www.w3.org/2000/svg}svg"

#: Tags that are block-level in our report stylesheet and the UA's: whitespace between two of
#: them is collapsed away by WeasyPrint anyway. Inline ones (`span`, `strong`, `img`) are not here.
BLOCK_TAGS = (
    "html|head|body|meta|title|link|section|header|article|figure|figcaption|div|p|h1|h2|h3|"
    "ul|ol|li|table|thead|tbody|tr|th|td|pre"
)
BETWEEN_BLOCKS = re.compile(rf"(</?(?:{BLOCK_TAGS})\b[^>]*>)\s+(?=</?(?:{BLOCK_TAGS})\b)")


def drawings_split(html: str) -> tuple[str, dict[str, bytes]]:
    """`html` with each inline drawing replaced by an `<img>` of it, and those drawings by URL.

    A drawing that is not a well-formed SVG document on its own (an HTML entity, no xmlns)
    stays inline, where WeasyPrint reads it as before."""
    drawings: dict[str, bytes] = {}

    def swap(match: re.Match[str]) -> str:
        svg = match.group(0)
        body = svg.encode()
        if not _stands_alone(body):
            return svg
        url = f"{DRAWINGS}{hashlib.sha256(body).hexdigest()}.svg"
        drawings[url] = body
        return f'<img src="{url}" alt="">'

    return INLINE_SVG.sub(swap, html), drawings


@functools.lru_cache(maxsize=512)
def _stands_alone(svg: bytes) -> bool:
    try:
        return ElementTree.fromstring(svg).tag == SVG_ROOT
    except ElementTree.ParseError:
        return False


def whitespace_between_blocks_drop(html: str) -> str:
    """`html` without the whitespace between two block-level tags (none inside a `<pre>`: its
    text is never between two tags)."""
    return BETWEEN_BLOCKS.sub(r"\1", html)


#: What the trimmed UA stylesheet leaves out (see the module doc), exactly as WeasyPrint 70
#: writes it; if a WeasyPrint upgrade words them otherwise, the stock stylesheet is used.
UA_MARKER = "\n::marker {"
UA_NOTES = re.compile(r"^::(?:footnote|note)-(?:call|marker|callback) \{[^\n]*\}$", re.M)
#: The page's margin boxes our stylesheet never fills: the UA aligns the text of all sixteen, and
#: WeasyPrint computes a style for each one the UA names, on every page, empty or not.
UA_EMPTY_MARGIN_BOXES = re.compile(
    r"^  @(?:(?:top|bottom)-(?:left|right)-corner|(?:top|bottom)-center"
    r"|(?:left|right)-(?:top|middle|bottom)) +\{[^\n]*\}$",
    re.M,
)
#: A document that has list items other than `li`, footnotes or notes, or fills one of those
#: margin boxes, gets the stock stylesheet.
NEEDS_STOCK_UA = (
    "list-item",
    "footnote",
    "note-",
    "::marker",
    "-corner",
    "-center",
    "@left-",
    "@right-",
)


def _report_ua_parse() -> CSS | None:
    if (
        UA.count(UA_MARKER) != 1
        or len(UA_NOTES.findall(UA)) != 5
        or len(UA_EMPTY_MARGIN_BOXES.findall(UA)) != 12
    ):
        return None
    trimmed = UA_NOTES.sub("", UA.replace(UA_MARKER, "\nli::marker {"))
    trimmed = UA_EMPTY_MARGIN_BOXES.sub("", trimmed)
    return CSS(string=trimmed, counter_style=UA_COUNTER_STYLE, url_fetcher=nothing_fetcher())


#: Parsed when this module is imported, as WeasyPrint parses its own when `weasyprint.html` is.
_REPORT_UA = _report_ua_parse()


def _report_ua() -> CSS | None:
    return _REPORT_UA


#: A style attribute's value: with one `<style>` or `<link>` of our own (pdf._stylesheet_split),
#: the only CSS in the HTML itself. Quote text cannot write one: the template escapes its quotes.
STYLE_ATTRIBUTE = re.compile(r"""\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", re.I)


class ReportHTML(HTML):
    """An HTML document read with the trimmed UA stylesheet (`stock_ua=False`) or WeasyPrint's."""

    def __init__(self, *, stock_ua: bool, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._stock_ua = stock_ua

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        trimmed = None if self._stock_ua or forms else _report_ua()
        return [trimmed] if trimmed else super()._ua_stylesheets(forms)


def stock_ua_needed(html: str, stylesheets: Mapping[str, bytes]) -> bool:
    """Whether `html`'s style attributes or its stylesheets could use what the trimmed UA
    stylesheet leaves out. (The words of the report, "hardware-corner.net" say, are no style.)"""
    texts = [
        *(match.group(1) for match in STYLE_ATTRIBUTE.finditer(html)),
        *(body.decode(errors="replace") for body in stylesheets.values()),
    ]
    return any(word in text for text in texts for word in NEEDS_STOCK_UA)
