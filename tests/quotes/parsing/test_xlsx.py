"""XLSX quotes through python-calamine (RELIABILITY 5–8)."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import openpyxl
import pytest

from apps.quotes.parsing import QuoteParseError, parse_upload
from apps.quotes.parsing.xlsx_reader import defusedxml_check
from tests.fixtures.hostile import HEADER, xlsx_bytes, xlsx_huge_dimension


def workbook_bytes(workbook: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_numeric_cells_are_read_without_separator_guessing() -> None:
    data = xlsx_bytes([["A-1", "Widget", 3, 1234.56, Decimal("3703.68")]])
    quote = parse_upload(data, "quote.xlsx")
    line = quote.lines[0]
    assert quote.detected_type == "xlsx"
    assert quote.sheet == "Quote"
    assert (line.source_row, line.part_number, line.quantity) == (2, "A-1", 3)
    # 3 × 1,234.56 = 3,703.68
    assert (line.unit_price, line.extended_price) == (Decimal("1234.56"), Decimal("3703.68"))
    assert line.raw_cells == ["A-1", "Widget", "3", "1234.56", "3703.68"]


def test_quantity_stored_as_float_two_is_two() -> None:
    quote = parse_upload(xlsx_bytes([["A-1", "Widget", 2.0, 1, 2]]), "quote.xlsx")
    assert quote.lines[0].quantity == 2


def test_negative_quantity_in_xlsx_names_sheet_row_and_column() -> None:
    data = xlsx_bytes([["A-1", "Widget", 1, 1, 1], ["B-2", "Gadget", -4, 1, -4]])
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(data, "quote.xlsx")
    assert str(caught.value) == "quote.xlsx, row 3, column 'Qty': quantity -4 is negative"


def test_huge_dimension_with_ten_real_rows_gives_ten_lines() -> None:
    quote = parse_upload(xlsx_huge_dimension(), "quote.xlsx")
    assert len(quote.lines) == 10
    assert [line.source_row for line in quote.lines] == list(range(2, 12))


def test_rows_are_sheet_rows_even_after_blank_rows() -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet["C4"] = "Part Number"
    sheet["D4"] = "Qty"
    sheet["C9"] = "A-1"
    sheet["D9"] = 5
    quote = parse_upload(workbook_bytes(workbook), "quote.xlsx")
    assert quote.header_row == 4
    assert (quote.lines[0].source_row, quote.lines[0].quantity) == (9, 5)


def test_title_date_cell_becomes_iso() -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Quote Date", datetime.date(2025, 3, 1)])
    sheet.append(HEADER)
    sheet.append(["A-1", "Widget", 1, 1, 1])
    assert parse_upload(workbook_bytes(workbook), "q.xlsx").quote_date == "2025-03-01"


def test_first_sheet_with_a_header_wins_over_a_cover_sheet() -> None:
    workbook = openpyxl.Workbook()
    workbook.active.title = "Cover"
    workbook.active["A1"] = "Thank you for your business"
    sheet = workbook.create_sheet("Lines")
    sheet.append(HEADER)
    sheet.append(["A-1", "Widget", 1, 1, 1])
    quote = parse_upload(workbook_bytes(workbook), "q.xlsx")
    assert quote.sheet == "Lines"
    assert quote.warnings == ["read sheet 'Lines'"]


def test_no_header_in_any_sheet_is_an_error() -> None:
    workbook = openpyxl.Workbook()
    workbook.active.append(["just", "some", "words"])
    with pytest.raises(QuoteParseError, match="no header row found in any sheet"):
        parse_upload(workbook_bytes(workbook), "q.xlsx")


def test_over_20000_rows_hits_the_row_limit() -> None:
    rows = [[f"P-{n}", "Widget", 1, 1, 1] for n in range(20_001)]
    with pytest.raises(QuoteParseError, match="row limit is 20,000"):
        parse_upload(xlsx_bytes(rows), "q.xlsx")


def test_over_100_columns_is_refused() -> None:
    row = ["A-1", "Widget", 1, 1, 1] + ["x"] * 96
    # Refused from the sheet's XML before calamine reads a cell (the extent check).
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(xlsx_bytes([row]), "q.xlsx")
    assert caught.value.message == (
        "the sheet claims 101 columns × 2 rows; quotes have at most 100 × 20,000"
    )


def test_openpyxl_reads_xml_through_defusedxml() -> None:
    assert openpyxl.xml.DEFUSEDXML is True
    assert defusedxml_check() is True
