"""What calamine does not tell about a workbook sheet, read from the sheet's own XML.

calamine gives each cell's value; it says nothing of a column the vendor hid (Data#3's "Buy
Price", its cost, between the part number and the description), nor of a formula a program
saved without its value. Both are in the sheet's XML (``<col min="3" max="3" hidden="1"/>``,
``<row r="14" hidden="1">``, ``<c r="E2"><f>C2*D2</f><v/></c>``), found here with plain
searches once ``archive_inspect`` has passed the ZIP: hidden columns are not read (a customer
never sees them, and a hidden "List Price" must not be taken for the price), hidden rows are
read but named (Excel's SUM counts them, so the stated total does), uncached formulas are
computed when simple (``formulas``).
"""

from __future__ import annotations

import html
import io
import posixpath
import re
import zipfile

from apps.quotes.parsing.cells import Cell, NumberedRow
from apps.quotes.parsing.formulas import column_letters, formulas_fill

_SHEET = re.compile(rb'<sheet\b[^>]*?name="([^"]*)"[^>]*?r:id="([^"]*)"')
_RELATION = re.compile(rb"<Relationship\b([^>]*)>")
_ATTRIBUTE = re.compile(rb'\b(Id|Target)="([^"]*)"')
_HIDDEN_COLUMNS = re.compile(rb'<col\b(?=[^>]*\bhidden="(?:1|true)")[^>]*>')
_HIDDEN_ROW = re.compile(rb'<row\b(?=[^>]*\bhidden="(?:1|true)")[^>]*\br="(\d+)"')
_SPAN = re.compile(rb'\b(min|max)="(\d+)"')
#: A hidden column range wider than this is the rest of the sheet hidden, not a column.
MAX_HIDDEN_SPAN = 1000


def sheet_xml(data: bytes, sheet_name: str) -> bytes:
    """The worksheet XML of ``sheet_name``; b"" when the workbook does not lay it out as
    Excel does (the sheet is then read by calamine alone)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            relations = archive.read("xl/_rels/workbook.xml.rels")
            targets = {}
            for attributes in _RELATION.findall(relations):
                found = dict(_ATTRIBUTE.findall(attributes))
                if b"Id" in found and b"Target" in found:
                    targets[found[b"Id"]] = found[b"Target"].decode("utf-8")
            for name, rid in _SHEET.findall(archive.read("xl/workbook.xml")):
                if html.unescape(name.decode("utf-8")) == sheet_name and rid in targets:
                    target = targets[rid]
                    path = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
                    return archive.read(posixpath.normpath(path))
    except (KeyError, zipfile.BadZipFile, OSError, ValueError, UnicodeDecodeError):
        pass
    return b""


def hidden_columns(xml: bytes) -> set[int]:
    """The sheet's hidden columns, 1-based."""
    columns: set[int] = set()
    for element in _HIDDEN_COLUMNS.findall(xml):
        span = {key: int(value) for key, value in _SPAN.findall(element)}
        low, high = span.get(b"min", 0), span.get(b"max", 0)
        if 1 <= low <= high and high - low < MAX_HIDDEN_SPAN:
            columns.update(range(low, high + 1))
    return columns


def hidden_rows(xml: bytes) -> list[int]:
    return sorted(int(row) for row in _HIDDEN_ROW.findall(xml))


def _listed(numbers: list[str]) -> str:
    return ", ".join(numbers[:10]) + (" …" if len(numbers) > 10 else "")


def sheet_xml_apply(
    data: bytes, sheet_name: str, rows: list[NumberedRow], first_column: int, header_row: int
) -> tuple[list[NumberedRow], list[str]]:
    """The sheet's rows with uncached formulas computed and hidden columns emptied from the
    header row down, and the warnings that say so (see the module docstring). Above the
    header a hidden column stays: a letterhead's "Quote Number: | | QU-0412276" may have its
    value in the column the table uses for a hidden cost."""
    xml = sheet_xml(data, sheet_name)
    if not xml:
        return rows, []
    rows, warnings = formulas_fill(xml, rows, first_column)
    hidden = hidden_columns(xml)
    indexes = {column - first_column for column in hidden if column >= first_column}
    if indexes and any(
        any(cells[i] not in (None, "") for i in indexes if i < len(cells))
        for number, cells in rows
        if number >= header_row
    ):
        emptied: list[NumberedRow] = []
        for number, cells in rows:
            kept: list[Cell] = [
                None if i in indexes and number >= header_row else cell
                for i, cell in enumerate(cells)
            ]
            emptied.append((number, kept))
        rows = emptied
        letters = [column_letters(c) for c in sorted(hidden) if c - first_column in indexes]
        warnings.append(
            f"column(s) {_listed(letters)} hidden in sheet {sheet_name!r} were not read "
            "(unhide them in Excel if they belong to the quote)"
        )
    filled = {number for number, cells in rows if any(c not in (None, "") for c in cells)}
    shown = [str(row) for row in hidden_rows(xml) if row in filled]
    if shown:
        warnings.append(
            f"row(s) {_listed(shown)} are hidden in sheet {sheet_name!r}; they were read as "
            "quote rows (Excel's totals count them): check them in the preview"
        )
    return rows, warnings
