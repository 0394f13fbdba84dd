"""The quote parser: bytes and a file name in, a ``ParsedQuote`` or a ``QuoteParseError`` out.

Pure Python, no ORM: matching, the ``review_quote`` command and the upload page all call
``parse_upload`` and decide for themselves what to store.

What a caller does with an error:
- ``needs_manual`` False — the file is refused (empty, not a spreadsheet, a zip bomb, .xls,
  a negative quantity on row 7 …): status REJECTED, show ``str(error)``.
- ``needs_manual`` True — a PDF we could not read within the sandbox's limits, or without a
  table: keep the original, status NEEDS_MANUAL.
- ``internal`` True — an unexpected exception was wrapped (logged with its traceback); the
  fuzz tests assert this never happens.
PDFs and workbooks are read in a sandboxed child (``sandbox.py``): PDFs through
``pdf_worker``, XLSX/XLS/XLSB/ODS through ``sheet_worker``. A CSV is read in this process by
Python's own ``csv`` module (no native parser a file could crash; bounded by the upload size,
the row, column and field limits), with the same errors as in the child.
``detect.type_detect`` alone gives the verdict on the file type (and refuses bombs) before
anything is stored. ``ParsedQuote.encoding_fallback`` True
means the CSV was not UTF-8 and was read in a legacy code page (Windows-1252, Shift-JIS, GBK,
Big5 or EUC-KR, named by ``encoding``): show the preview before anyone trusts "Stück", "€" or
"数量".
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from apps.quotes.parsing.errors import QuoteParseError, SheetChoiceNeeded
from apps.quotes.parsing.schemas import FIELDS, ParsedLine, ParsedQuote

logger = logging.getLogger(__name__)

__all__ = [
    "FIELDS",
    "ParsedLine",
    "ParsedQuote",
    "QuoteParseError",
    "SheetChoiceNeeded",
    "parse_upload",
]


def parse_upload(
    data: bytes,
    filename: str,
    *,
    delimiter: str | None = None,
    sheet: str | None = None,
    on_lines: Callable[[list[ParsedLine]], None] | None = None,
) -> ParsedQuote:
    """Parse an uploaded vendor quote by its content (CSV, a workbook or PDF).

    ``filename`` is used for messages and to catch a file whose extension contradicts its
    content; ``delimiter`` forces the CSV delimiter after the user resolved an ambiguity, and
    ``sheet`` the workbook sheet when two looked like quotes (``SheetChoiceNeeded``, a
    ``QuoteParseError`` that lists them). Raises only ``QuoteParseError``. ``on_lines`` is
    given the lines of a workbook in batches while the sandbox child still reads
    (``sheet_reader.sheet_parse``); the quote returned holds them all, whoever got them.
    """
    from apps.quotes.parsing.detect import type_detect
    from apps.quotes.parsing.sheet_reader import sheet_parse

    name = _display_name(filename)
    try:
        kind = type_detect(data, file_name=name)  # bounded: the ZIP directory and one pass
    except QuoteParseError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, OSError, EOFError) as exc:
        raise QuoteParseError(f"could not read the file ({type(exc).__name__})", file=name) from exc
    if kind == "pdf":
        from apps.quotes.parsing.pdf_reader import pdf_parse

        return pdf_parse(data, file_name=name)
    if kind == "csv":
        # Pure Python over at most QUOTE_MAX_UPLOAD_BYTES, refused past 20,000 rows or 100
        # columns (RELIABILITY 9-12): nothing a child would protect the web process from,
        # and ~0.5 s of a 10,000-line quote's wall clock saved (bench/README.md, parsing).
        from apps.quotes.parsing.readers_local import sheet_parse_local

        return sheet_parse_local(data, kind=kind, file_name=name, delimiter=delimiter)
    # Workbooks (XLSX, XLS, XLSB, ODS) are read in the sandbox child: a 5 KB workbook can
    # claim 16,384 × 1,048,576 cells, and a native reader that believes it must not take the
    # web process down.
    return sheet_parse(
        data, kind=kind, file_name=name, delimiter=delimiter, sheet=sheet, on_lines=on_lines
    )


def _display_name(filename: str) -> str:
    """The base name only, printable and short: "../../etc/quote.csv\\x00.exe" →
    "quote.csv.exe" style names never leak paths into messages."""
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable())
    return (base or "quote")[:120]
