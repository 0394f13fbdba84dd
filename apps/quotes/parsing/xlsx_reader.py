"""XLSX quotes: inspect the ZIP, then read cells with python-calamine.

Zip bombs and XML bombs are refused by ``archive.archive_inspect`` before any workbook library
sees the bytes; only then does calamine (Rust, fast, small) read the cells.

Which sheet: the first visible sheet with a recognisable header (a cover sheet with the vendor's
logo and terms is skipped), then hidden ones. The ``<dimension>`` element is never trusted: a
sheet declaring ``A1:XFD1048576`` with 10 real rows gives 10 lines.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date

import openpyxl.xml
import python_calamine

from apps.quotes.parsing.archive import archive_inspect
from apps.quotes.parsing.cells import Cell, NumberedRow, cell_text
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.headers import header_map, is_header
from apps.quotes.parsing.metadata import date_normalize, metadata_read
from apps.quotes.parsing.schemas import DetectedType, ParsedQuote
from apps.quotes.parsing.table import (
    HEADER_SCAN_ROWS,
    MAX_COLUMNS,
    MAX_DATA_ROWS,
    TableOptions,
    quote_from_rows,
)

# openpyxl is not used to read uploads, but other code (exports, tests) writes and may read
# workbooks with it: make sure it parses XML through defusedxml, as RELIABILITY.md item 6 asks.
if openpyxl.xml.DEFUSEDXML is not True:  # not an assert: it must hold under python -O too
    raise ImportError("install defusedxml: openpyxl must not parse workbook XML unprotected")


def defusedxml_check() -> bool:
    """True when openpyxl parses XML through defusedxml (a startup check can call this)."""
    return bool(openpyxl.xml.DEFUSEDXML)


def _sheet_rows(sheet: python_calamine.CalamineSheet, *, file_name: str) -> Iterator[NumberedRow]:
    """Numbered sheet rows; stops early past the row limit, refuses over-wide rows."""
    filled = 0
    limit = MAX_DATA_ROWS + HEADER_SCAN_ROWS + 1
    for index, row in enumerate(sheet.iter_rows()):
        cells: list[Cell] = [v if isinstance(v, str | int | float | date) else str(v) for v in row]
        while cells and (cells[-1] is None or cells[-1] == ""):
            cells.pop()
        if not cells:
            continue
        if len(cells) > MAX_COLUMNS:
            raise QuoteParseError(
                f"too many columns: {len(cells)}, the limit is {MAX_COLUMNS}",
                file=file_name,
                row=index + 1,
            )
        filled += 1
        if filled > limit:
            raise QuoteParseError(
                f"too many rows: more than {MAX_DATA_ROWS:,} data rows in sheet "
                f"{sheet.name!r}, the row limit is {MAX_DATA_ROWS:,}",
                file=file_name,
                row=index + 1,
            )
        yield index + 1, cells


#: Never swallowed, even around calamine (whose Rust panics are BaseExceptions).
_FATAL = (KeyboardInterrupt, SystemExit, GeneratorExit)


def _has_header(rows: list[NumberedRow]) -> bool:
    for _row, cells in rows[:HEADER_SCAN_ROWS]:
        if is_header(header_map([cell_text(cell) for cell in cells])):
            return True
    return False


def xlsx_parse(
    data: bytes, *, file_name: str, inspected: bool = False, kind: DetectedType = "xlsx"
) -> ParsedQuote:
    """Parse a workbook quote (XLSX, XLS, XLSB or ODS: calamine reads them all) from the sheet
    whose header looks like a quote table.

    ``inspected`` says ``archive_inspect`` already passed (``type_detect`` runs it; an XLS is
    no ZIP and has nothing to inspect)."""
    if not inspected and kind != "xls":
        archive_inspect(data, file_name=file_name)
    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        metadata = [
            meta
            for meta in workbook.sheets_metadata
            if meta.typ == python_calamine.SheetTypeEnum.WorkSheet
        ]
    except python_calamine.PasswordError:
        raise QuoteParseError(
            "the workbook is password-protected; remove the password and upload it again",
            file=file_name,
        ) from None
    except _FATAL:
        raise
    except BaseException as exc:
        raise QuoteParseError(
            f"not a valid {kind.upper()}: the workbook could not be opened ({type(exc).__name__})",
            file=file_name,
        ) from None
    ordered = [m for m in metadata if m.visible == python_calamine.SheetVisibleEnum.Visible]
    ordered += [m for m in metadata if m not in ordered]
    damaged: list[str] = []
    for meta in ordered:
        try:
            rows = list(_sheet_rows(workbook.get_sheet_by_name(meta.name), file_name=file_name))
        except (QuoteParseError, *_FATAL):
            raise
        except BaseException:
            damaged.append(meta.name)
            continue
        if not _has_header(rows):
            continue
        opts = TableOptions(
            file_name=file_name,
            detected_type=kind,
            sheet=meta.name,
            warnings=[f"read sheet {meta.name!r}"] if meta is not ordered[0] else [],
        )
        parsed = quote_from_rows(rows, opts)
        _metadata_from_other_sheets(parsed, workbook, [m.name for m in ordered if m is not meta])
        return parsed
    if damaged and len(damaged) == len(ordered):
        raise QuoteParseError(
            f"not a valid {kind.upper()}: sheet {damaged[0]!r} could not be read", file=file_name
        )
    if not ordered:
        raise QuoteParseError(
            f"not a valid {kind.upper()}: the workbook has no worksheets", file=file_name
        )
    raise QuoteParseError(
        "no header row found in any sheet: expected columns such as 'Part Number', "
        "'Description', 'Qty', 'Unit Price'",
        file=file_name,
    )


#: Rows of a summary sheet read for the title block ("Quote Summary": quote number, date).
SUMMARY_SHEET_ROWS = 30


def _metadata_from_other_sheets(
    parsed: ParsedQuote, workbook: python_calamine.CalamineWorkbook, names: list[str]
) -> None:
    """Fill the quote number, date, vendor and currency the line-item sheet does not state
    from the workbook's other sheets (HPE QuoteBuilder keeps the quote number on "Quote
    Summary"). What the line-item sheet states wins."""
    for name in names:
        if parsed.quote_number and parsed.quote_date and parsed.vendor:
            return
        try:
            sheet = workbook.get_sheet_by_name(name)
            rows = [
                [
                    cell_text(cell if isinstance(cell, str | int | float | date) else str(cell))
                    for cell in row
                ]
                for _n, row in zip(range(SUMMARY_SHEET_ROWS), sheet.iter_rows(), strict=False)
            ]
        except (QuoteParseError, *_FATAL):
            raise
        except BaseException:
            continue
        meta = metadata_read(rows)
        if not parsed.quote_number and meta.get("quote_number"):
            parsed.quote_number = meta["quote_number"]
        if not parsed.quote_date and meta.get("quote_date"):
            parsed.quote_date = date_normalize(meta["quote_date"])
        if not parsed.vendor and meta.get("vendor"):
            parsed.vendor = meta["vendor"]
