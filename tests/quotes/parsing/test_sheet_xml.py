"""Hidden columns and rows of a workbook sheet (``parsing/sheet_xml.py``)."""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl

from apps.quotes.parsing import parse_upload
from apps.quotes.parsing.sheet_xml import hidden_columns, hidden_rows

HEADER = ["Part Number", "Description", "List Price", "Qty", "Net Price", "Total"]


def _workbook(hide_column: str | None = None, hide_row: int | None = None) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Quote"
    sheet.append(HEADER)
    sheet.append(["A-1", "GPU server", 400000, 2, 300000, 600000])
    sheet.append(["A-2", "Rail kit", 500, 2, 400, 800])
    if hide_column:
        sheet.column_dimensions[hide_column].hidden = True
    if hide_row:
        sheet.row_dimensions[hide_row].hidden = True
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_hidden_columns_and_rows_are_found_in_the_sheet_xml() -> None:
    xml = (
        b'<cols><col min="3" max="4" hidden="1" width="9"/><col min="6" max="6" width="9"/>'
        b'<col hidden="true" min="8" max="16384"/></cols>'
        b'<row r="2" spans="1:6"/><row r="7" hidden="1"><c r="A7"/></row>'
    )
    # C and D hidden; F shown; H to XFD is "hide the rest of the sheet", not columns.
    assert hidden_columns(xml) == {3, 4}
    assert hidden_rows(xml) == [7]


def test_a_hidden_price_column_is_not_read() -> None:
    quote = parse_upload(_workbook(hide_column="C"), "quote.xlsx")
    # "List Price" hidden: the unit price is the visible Net Price, 2 × 300,000 = 600,000.
    assert quote.lines[0].unit_price == Decimal("300000")
    assert "List Price" not in quote.header_cells
    assert any("column(s) C hidden in sheet 'Quote'" in w for w in quote.warnings)


def test_a_hidden_row_is_read_and_named() -> None:
    quote = parse_upload(_workbook(hide_row=3), "quote.xlsx")
    assert [line.part_number for line in quote.lines] == ["A-1", "A-2"]
    assert any(w.startswith("row(s) 3 are hidden in sheet 'Quote'") for w in quote.warnings)


def test_nothing_hidden_says_nothing() -> None:
    quote = parse_upload(_workbook(), "quote.xlsx")
    assert not [w for w in quote.warnings if "hidden" in w]


def test_a_hidden_column_above_the_header_still_gives_the_title_block() -> None:
    # Data#3's layout: "Quote Number:" in A, its value in C, and C is the table's hidden cost
    # column. Only the table (the header row down) loses the hidden column.
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Quote Number:", None, "QU-0412276"])
    sheet.append([])
    sheet.append(["Part No.", "Description", "Buy Price", "Qty", "Unit Price", "Total"])
    sheet.append(["A-1", "GPU server", 250000, 2, 300000, 600000])
    sheet.column_dimensions["C"].hidden = True
    out = io.BytesIO()
    workbook.save(out)
    quote = parse_upload(out.getvalue(), "quote.xlsx")
    assert quote.quote_number == "QU-0412276"
    assert "Buy Price" not in quote.header_cells
    assert quote.lines[0].raw_cells[2] == ""
