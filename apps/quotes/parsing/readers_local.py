"""The readers as they run inside the sandbox child: CSV or XLSX bytes → ``ParsedQuote``.

``sheet_worker.py`` (in the child), the readers' own unit tests and ``parse_upload`` for a CSV
(Python's csv module, bounded by the upload size and the row and column limits) call this
directly; ``parse_upload`` sends every workbook to the child, so the web process never
allocates for a workbook it has not bounded.
"""

from __future__ import annotations

from typing import cast

from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.schemas import DetectedType, ParsedQuote

_WRAPPED = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    OverflowError,
    RecursionError,
    ArithmeticError,
    MemoryError,
    UnicodeError,
    OSError,
    EOFError,
)


def sheet_parse_local(
    data: bytes,
    *,
    kind: str,
    file_name: str,
    delimiter: str | None = None,
    sheet: str | None = None,
    extent_checked: bool = False,
) -> ParsedQuote:
    """Parse a CSV or workbook quote in this process (``sheet``: the workbook sheet the person
    chose; ``extent_checked``: the caller checks an XLSX's extent, ``xlsx_parse``). Raises
    only ``QuoteParseError`` (``SheetChoiceNeeded`` among them)."""
    try:
        if kind == "csv":
            from apps.quotes.parsing.csv_reader import csv_parse

            return csv_parse(data, file_name=file_name, delimiter=delimiter)
        from apps.quotes.parsing.xlsx_reader import xlsx_parse

        return xlsx_parse(
            data,
            file_name=file_name,
            inspected=True,
            kind=cast(DetectedType, kind),
            sheet=sheet,
            extent_checked=extent_checked,
        )
    except QuoteParseError:
        raise
    except _WRAPPED as exc:
        # A bug or a reader library choking on a hostile file must still read as a clear
        # "we could not read this file", never a traceback on the upload page.
        raise QuoteParseError(
            f"could not read the file ({type(exc).__name__})", file=file_name
        ) from exc


def quote_parse_local(
    data: bytes, filename: str, *, delimiter: str | None = None, sheet: str | None = None
) -> ParsedQuote:
    """``parse_upload`` without the child for CSV and XLSX (PDFs still go through theirs): for
    the property tests and benchmarks that run a reader thousands of times, where a child per
    call would measure process start-up rather than the reader."""
    from apps.quotes.parsing import _display_name, parse_upload
    from apps.quotes.parsing.detect import type_detect

    name = _display_name(filename)
    try:
        kind = type_detect(data, file_name=name)
    except QuoteParseError:
        raise
    except _WRAPPED as exc:
        raise QuoteParseError(f"could not read the file ({type(exc).__name__})", file=name) from exc
    if kind == "pdf":
        return parse_upload(data, filename)
    return sheet_parse_local(data, kind=kind, file_name=name, delimiter=delimiter, sheet=sheet)
