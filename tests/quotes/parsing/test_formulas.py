"""Workbook formulas saved without their values (``parsing/formulas.py``): computed when they
are sums and products of the sheet's numbers, else named cell by cell."""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl
import pytest

from apps.quotes.parsing import parse_upload
from apps.quotes.parsing.formulas import (
    column_letters,
    column_number,
    formulas_compute,
    uncached_formulas,
)
from apps.quotes.parsing.sheet_xml import sheet_xml

ROWS = [(1, ["Qty", "Price"]), (2, [2, 150.5]), (3, [3, "n/a"])]


def _compute(formula: str) -> Decimal | None:
    done, _failed = formulas_compute(ROWS, {(9, 1): formula}, first_column=1)
    return done.get((9, 1))


@pytest.mark.parametrize(
    ("formula", "value"),
    [
        ("A2*B2", "301.0"),  # 2 × 150.5
        ("=A2*B2*1.1", "331.10"),  # 2 × 150.5 × 1.1
        ("SUM(A2:A3)", "5"),  # 2 + 3
        ("SUM(A2:A3,10)-1", "14"),  # 2 + 3 + 10 − 1
        ("PRODUCT(A2,B2)", "301.0"),  # 2 × 150.5
        ("ROUND(B2/3,2)", "50.17"),  # 150.5 / 3 = 50.1666…
        ("(A2+A3)*-2", "-10"),  # (2 + 3) × −2
        ("$A$2+A5", "2"),  # an empty cell counts as 0, as in Excel
    ],
)
def test_simple_formulas_are_computed(formula: str, value: str) -> None:
    assert _compute(formula) == Decimal(value)


@pytest.mark.parametrize(
    "formula",
    ["VLOOKUP(A2,Prices!A:B,2,FALSE)", "B3*2", "Prices!B2*2", "A2/0", 'IF(A2>1,"x","y")'],
)
def test_other_formulas_are_not_guessed(formula: str) -> None:
    # A lookup, a text cell, another sheet, a division by zero, a condition: left uncomputed.
    done, failed = formulas_compute(ROWS, {(9, 1): formula}, first_column=1)
    assert done == {} and failed == {(9, 1): formula}


def test_a_formula_on_an_uncomputed_formula_is_not_computed_either() -> None:
    formulas = {(4, 1): "VLOOKUP(A2,X,2)", (4, 2): "A4*B2"}
    done, failed = formulas_compute(ROWS, formulas, first_column=1)
    assert done == {} and set(failed) == {(4, 1), (4, 2)}


def test_a_chain_of_formulas_is_computed_in_order() -> None:
    # E2 = C2 × D2 where D2 = 100 × 1.5: 2 × 150 = 300; E3 = SUM(E2:E2) = 300.
    formulas = {(2, 5): "C2*D2", (2, 4): "100*1.5", (3, 5): "SUM(E2:E2)"}
    done, _failed = formulas_compute([(2, [None, None, 2])], formulas, first_column=1)
    assert done == {(2, 4): Decimal("150.0"), (2, 5): Decimal("300.0"), (3, 5): Decimal("300.0")}


def test_a_formula_referring_to_itself_stops() -> None:
    done, failed = formulas_compute([], {(1, 1): "A1+1"}, first_column=1)
    assert done == {} and (1, 1) in failed


def test_column_letters_both_ways() -> None:
    assert [column_number(x) for x in ("A", "Z", "AA", "AZ")] == [1, 26, 27, 52]
    assert [column_letters(n) for n in (1, 26, 27, 52)] == ["A", "Z", "AA", "AZ"]


def _workbook(*rows: list[object], title: str = "Quote") -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)  # openpyxl saves formulas without values, as quoting tools do
    return out.getvalue()


HEADER = ["Part Number", "Description", "Qty", "Unit Price", "Extended Price"]


def test_only_formula_cells_without_a_value_are_found() -> None:
    data = _workbook(HEADER, ["A-1", "Widget", 2, 150, "=C2*D2"], title="Q & A")
    # The sheet's name is XML-escaped in workbook.xml ("Q &amp; A").
    assert uncached_formulas(sheet_xml(data, "Q & A")) == {(2, 5): "C2*D2"}
    assert sheet_xml(data, "No such sheet") == b""
    cached = b'<c r="E2"><f>C2*D2</f><v>300</v></c><c r="E3"><f>C3*D3</f><v/></c>'
    assert uncached_formulas(cached) == {(3, 5): "C3*D3"}


def test_a_workbook_of_formulas_reads_its_prices_and_total() -> None:
    data = _workbook(
        HEADER,
        ["A-1", "Widget", 2, "=100*1.5", "=C2*D2"],
        ["A-2", "Gadget", 3, 10, "=C3*D3"],
        [None, "Total", None, None, "=SUM(E2:E3)"],
    )
    quote = parse_upload(data, "quote.xlsx")
    # Before: every extended price and the total read as empty. Now 2 × 150 = 300,
    # 3 × 10 = 30, and the stated total 300 + 30 = 330.
    assert [line.extended_price for line in quote.lines] == [Decimal("300.0"), Decimal("30")]
    assert quote.lines[0].unit_price == Decimal("150.0")
    assert quote.stated_total == Decimal("330.0")
    assert any("4 formula cell(s)" in w for w in quote.warnings)


def test_a_formula_we_cannot_compute_is_named_by_row_and_column() -> None:
    data = _workbook(HEADER, ["A-1", "Widget", 2, "=VLOOKUP(A2,Prices!A:B,2,FALSE)", "=C2*D2"])
    quote = parse_upload(data, "quote.xlsx")
    assert quote.lines[0].unit_price is None
    assert any(w.startswith("row 2, column D: the formula =VLOOKUP") for w in quote.warnings)
    assert any(w.startswith("row 2, column E: the formula =C2*D2") for w in quote.warnings)
