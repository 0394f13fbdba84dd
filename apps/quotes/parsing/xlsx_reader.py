"""XLSX quotes: inspect the ZIP, then read cells with python-calamine.

Zip bombs and XML bombs are refused by ``archive.archive_inspect`` before any workbook library
sees the bytes; only then does calamine (Rust, fast, small) read the cells.

Which sheet: the first visible sheet with a recognisable header (a cover sheet with the vendor's
logo and terms is skipped), then hidden ones. The ``<dimension>`` element is never trusted: a
sheet declaring ``A1:XFD1048576`` with 10 real rows gives 10 lines.

A workbook's actual extent is checked before its lines are used (``extent.sheet_extent_check``:
one value at ``XFD1048576`` would make calamine allocate ~550 GB): the web process checks it
while the sandbox child opens the workbook (``sheet_reader.sheet_parse``), a read in one process
(tests, benchmarks) checks it first. Text cells lose their control characters (``_x0000_`` is
Excel's escape for NUL, which PostgreSQL refuses). Hidden columns are not read, hidden rows
are named, formulas a program saved without their values are computed when simple
(``sheet_xml``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from datetime import date

import python_calamine

from apps.quotes.parsing.archive import archive_inspect
from apps.quotes.parsing.cells import Cell, NumberedRow, cell_text
from apps.quotes.parsing.dates import date_normalize, day_first
from apps.quotes.parsing.errors import QuoteParseError, SheetCandidate, SheetChoiceNeeded
from apps.quotes.parsing.extent import sheet_extent_check
from apps.quotes.parsing.headers import header_map, is_header
from apps.quotes.parsing.metadata import metadata_read
from apps.quotes.parsing.schemas import DetectedType, ParsedQuote
from apps.quotes.parsing.sheet_xml import sheet_xml_apply
from apps.quotes.parsing.table import (
    HEADER_SCAN_ROWS,
    MAX_COLUMNS,
    MAX_DATA_ROWS,
    TableOptions,
    quote_from_rows,
)
from apps.quotes.parsing.xlsx_configs import (
    SHEET_ROW_STRIDE,
    configurations_merge,
    sheets_named_by,
)


def defusedxml_check() -> bool:
    """True when openpyxl parses XML through defusedxml (RELIABILITY.md item 6).

    openpyxl is not used to read uploads, but other code (exports, tests) writes and may read
    workbooks with it. The quotes app calls this at start-up and refuses to start without
    defusedxml; it is not imported here, so the sandbox child does not pay 150 ms for it."""
    import openpyxl.xml

    return openpyxl.xml.DEFUSEDXML is True


_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _clean(cell: object) -> Cell:
    # A printable text holds no control character (they are all unprintable): most cells
    # skip the search.
    if isinstance(cell, str) and not cell.isprintable() and _CONTROL_RE.search(cell):
        return _CONTROL_RE.sub("", cell)
    return cell  # type: ignore[return-value]  # calamine's cell types, as before


def _sheet_rows(sheet: python_calamine.CalamineSheet, *, file_name: str) -> Iterator[NumberedRow]:
    """Numbered sheet rows; stops early past the row limit, refuses over-wide rows."""
    filled = 0
    limit = MAX_DATA_ROWS + HEADER_SCAN_ROWS + 1
    for index, row in enumerate(sheet.iter_rows()):
        cells: list[Cell] = [
            _clean(v) if isinstance(v, str | int | float | date) else str(v) for v in row
        ]
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


def _header_at(rows: list[NumberedRow]) -> int | None:
    """The index in `rows` of the first row that reads as a quote header, if any."""
    for index, (_row, cells) in enumerate(rows[:HEADER_SCAN_ROWS]):
        if is_header(header_map([cell_text(cell) for cell in cells])):
            return index
    return None


#: A quote table counts things or prices them; "Description | Notes" is not one.
_COUNTED = frozenset({"quantity", "unit_price", "extended_price"})
FIRST_LINES_SHOWN = 3


def sheet_candidate(name: str, rows: list[NumberedRow]) -> SheetCandidate | None:
    """The sheet as a candidate quote table: a header with a quantity or a price column and
    at least one line under it that names a part or describes one; else None."""
    at = _header_at(rows)
    if at is None:
        return None
    header = [cell_text(cell) for cell in rows[at][1]]
    mapping = header_map(header)
    if not _COUNTED & mapping.keys():
        return None
    named = [mapping[k] for k in ("description", "part_number") if k in mapping]
    below = rows[at + 1 :]
    lines: list[str] = []
    for _row, cells in below:
        texts = [cell_text(cells[i]) for i in named if i < len(cells)]
        text = next((t for t in texts if t), "")
        if text:
            lines.append(text if len(text) <= 60 else text[:59] + "…")
            if len(lines) == FIRST_LINES_SHOWN:  # all the candidate shows; the rows are counted
                break
    if not lines:
        return None
    return SheetCandidate(
        name=name,
        rows=len(below),
        header=tuple(t for t in header if t),
        first_lines=tuple(lines[:FIRST_LINES_SHOWN]),
    )


def _sheet_named(names: list[str], wanted: str, *, file_name: str) -> str:
    """The sheet the person named: exactly, else the one equal to it ignoring case and the
    spaces around it; a name that is not there is refused with the names that are."""
    if wanted in names:
        return wanted
    folded = [n for n in names if n.strip().casefold() == wanted.strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    listed = ", ".join(repr(n) for n in names)
    raise QuoteParseError(
        f"there is no sheet {wanted!r} in the workbook; its sheets are {listed}", file=file_name
    )


def xlsx_parse(
    data: bytes,
    *,
    file_name: str,
    inspected: bool = False,
    kind: DetectedType = "xlsx",
    sheet: str | None = None,
    extent_checked: bool = False,
) -> ParsedQuote:
    """Parse a workbook quote (XLSX, XLS, XLSB or ODS: calamine reads them all) from the sheet
    whose header looks like a quote table.

    Every sheet is considered. When two visible sheets or more both look like quote tables
    (``sheet_candidate``), the person is asked: ``SheetChoiceNeeded`` lists them, and ``sheet``
    names the one to read (the answer). Otherwise the one quote table is read, else the first
    sheet with a header, and the quote says which when it is not the first sheet.

    ``inspected`` says ``archive_inspect`` already passed (``type_detect`` runs it; an XLS is
    no ZIP and has nothing to inspect); ``extent_checked``, that the caller checks the sheets'
    extent itself (``sheet_reader.sheet_parse`` does, while this runs in the child)."""
    if not inspected and kind != "xls":
        archive_inspect(data, file_name=file_name)
    # XLS, XLSB and ODS are bounded by the sandbox child's limits alone.
    if kind == "xlsx" and not extent_checked:
        sheet_extent_check(data, file_name=file_name)
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
    if sheet is not None:
        chosen = _sheet_named([m.name for m in ordered], sheet, file_name=file_name)
        ordered = [m for m in ordered if m.name == chosen] + [
            m for m in ordered if m.name != chosen
        ]
    damaged: list[str] = []
    read: list[tuple[python_calamine.SheetMetadata, list[NumberedRow]]] = []
    starts: dict[str, tuple[int, int] | None] = {}  # loading a sheet twice costs 30 ms in 10k rows
    for meta in ordered:
        try:
            loaded = workbook.get_sheet_by_name(meta.name)
            starts[meta.name] = loaded.start
            rows = list(_sheet_rows(loaded, file_name=file_name))
        except (QuoteParseError, *_FATAL):
            raise
        except BaseException:
            damaged.append(meta.name)
            continue
        read.append((meta, rows))
    if sheet is not None and ordered[0].name in damaged:
        raise QuoteParseError(f"sheet {ordered[0].name!r} could not be read", file=file_name)
    if sheet is None:
        visible = [
            (meta.name, rows)
            for meta, rows in read
            if meta.visible == python_calamine.SheetVisibleEnum.Visible
        ]
        candidates = [c for c in (sheet_candidate(n, r) for n, r in visible) if c is not None]
        if len(candidates) >= 2:
            merged = _configurations_read(data, workbook, read, candidates, kind, file_name)
            if merged is not None:
                return merged
            raise SheetChoiceNeeded(candidates, file=file_name)
        if candidates:  # the one quote table, ahead of a notes sheet with a header
            read.sort(key=lambda pair: pair[0].name != candidates[0].name)
    for meta, rows in read:
        if _header_at(rows) is None:
            if sheet is not None and meta.name == ordered[0].name:
                raise QuoteParseError(
                    f"sheet {meta.name!r} has no header row: expected columns such as "
                    "'Part Number', 'Description', 'Qty', 'Unit Price'",
                    file=file_name,
                )
            continue
        if sheet is not None:
            said = [f"read sheet {meta.name!r}, as chosen"]
        else:
            said = [f"read sheet {meta.name!r}"] if meta is not ordered[0] else []
        parsed = _sheet_parse(data, workbook, meta.name, rows, kind, file_name, said, starts=starts)
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


def _sheet_parse(
    data: bytes,
    workbook: python_calamine.CalamineWorkbook,
    name: str,
    rows: list[NumberedRow],
    kind: DetectedType,
    file_name: str,
    said: list[str],
    row_offset: int = 0,
    starts: Mapping[str, tuple[int, int] | None] | None = None,
) -> ParsedQuote:
    """One sheet's quote table (its hidden columns and unsaved formulas seen to), its rows
    numbered from ``row_offset`` on (a configuration sheet after the first, ``xlsx_configs``)."""
    if kind == "xlsx":
        if starts is not None and name in starts:
            start = starts[name]
        else:
            start = workbook.get_sheet_by_name(name).start
        first_column = start[1] + 1 if start else 1
        header_row = rows[_header_at(rows) or 0][0]
        rows, noted = sheet_xml_apply(data, name, rows, first_column, header_row)
        said = [*said, *noted]
    if row_offset:
        rows = [(number + row_offset, cells) for number, cells in rows]
    opts = TableOptions(file_name=file_name, detected_type=kind, sheet=name, warnings=said)
    return quote_from_rows(rows, opts)


def _configurations_read(
    data: bytes,
    workbook: python_calamine.CalamineWorkbook,
    read: list[tuple[python_calamine.SheetMetadata, list[NumberedRow]]],
    candidates: list[SheetCandidate],
    kind: DetectedType,
    file_name: str,
) -> ParsedQuote | None:
    """The candidate sheets read as one quote when another sheet names each of them as a
    configuration (``xlsx_configs``); None when none does (the person chooses)."""
    names = [c.name for c in candidates]
    by_name = {meta.name: rows for meta, rows in read}
    summary = next(
        (
            (meta.name, rows)
            for meta, rows in read
            if meta.name not in names and sheets_named_by(rows[:SUMMARY_SHEET_ROWS], names)
        ),
        None,
    )
    if summary is None:
        return None
    parts = [
        _sheet_parse(data, workbook, n, by_name[n], kind, file_name, [], k * SHEET_ROW_STRIDE)
        for k, n in enumerate(names)
    ]
    merged = configurations_merge(parts, summary[1][:SUMMARY_SHEET_ROWS], summary[0])
    if merged is not None:
        others = [summary[0], *(meta.name for meta, _rows in read if meta.name not in names)]
        _metadata_from_other_sheets(merged, workbook, list(dict.fromkeys(others)))
    return merged


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
            parsed.quote_date = date_normalize(
                meta["quote_date"],
                day_first=day_first(
                    parsed.decimal_separator,
                    parsed.currency,
                    day_first_labels="date_order" in meta,
                ),
            )
        if not parsed.vendor and meta.get("vendor"):
            parsed.vendor = meta["vendor"]
