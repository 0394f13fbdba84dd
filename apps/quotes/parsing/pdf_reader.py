"""PDF quotes: the table is read by pdfplumber inside the sandbox, then ``table`` does the rest.

Rows come back numbered ``page * 1000 + row`` (row within the page, 1-based) so an error says
"row 2003" for page 2, row 3, and each line also carries its ``page``. Columns printed without
rules, wrapped descriptions and the page furniture are sorted out first (``pdf_layout``). A
PDF that breaks the sandbox's limits, is damaged, or in which we find no table, is not refused
outright: the error says ``needs_manual=True`` and the upload keeps the original for someone
to key in the lines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.pdf_layout import ROWS_PER_PAGE, page_rows_read
from apps.quotes.parsing.sandbox import SandboxLimitError, SandboxLimits, sandbox_run
from apps.quotes.parsing.schemas import ParsedQuote
from apps.quotes.parsing.table import TableOptions, quote_from_rows

WORKER = Path(__file__).with_name("pdf_worker.py")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _printable(cell: object) -> str:
    """A PDF's text without control characters (PostgreSQL refuses U+0000)."""
    return _CONTROL_RE.sub("", str(cell))


def pdf_parse(data: bytes, *, file_name: str, limits: SandboxLimits | None = None) -> ParsedQuote:
    """Parse a PDF quote's ruled table in the sandbox child."""
    try:
        output = sandbox_run(WORKER, data, limits=limits)
    except SandboxLimitError as exc:
        raise QuoteParseError(
            f"the PDF could not be read safely: the reader {exc}; enter the lines by hand",
            file=file_name,
            needs_manual=True,
        ) from None
    try:
        result = json.loads(output)
    except ValueError:
        raise QuoteParseError(
            "the PDF reader returned nothing usable; enter the lines by hand",
            file=file_name,
            needs_manual=True,
        ) from None
    if "error" in result:
        # Broken, truncated or hostile: the original is kept and a person enters the lines
        # (RELIABILITY.md item 13: the upload becomes NEEDS_MANUAL).
        raise QuoteParseError(
            f"{result['error']}; enter the lines by hand", file=file_name, needs_manual=True
        )
    rows = [
        (number, [_printable(c) for c in cells])
        for number, cells in page_rows_read(result.get("pages", []))
    ]
    if not rows:
        raise QuoteParseError(
            "the PDF has no text (a scan?); enter the lines by hand",
            file=file_name,
            needs_manual=True,
        )
    opts = TableOptions(file_name=file_name, detected_type="pdf")
    try:
        quote = quote_from_rows(rows, opts)
    except QuoteParseError as exc:
        if exc.message.startswith("no header row found"):
            exc.needs_manual = True
        raise
    for line in quote.lines:
        line.page = line.source_row // ROWS_PER_PAGE
    return quote
