"""Every sheet of a workbook is considered: one quote table is read (and said, when it is not
the first sheet); two sheets that both look like quotes are not guessed between — the reader
lists them (name, rows, header, first lines) and reads the one the person names."""

from __future__ import annotations

import io
import pickle

import openpyxl
import pytest

from apps.quotes.parsing import QuoteParseError, SheetChoiceNeeded, parse_upload
from apps.quotes.parsing.errors import SheetCandidate
from tests.fixtures.sheets import HEADER, two_quote_sheets_xlsx


def test_two_quote_sheets_are_listed_not_guessed() -> None:
    with pytest.raises(SheetChoiceNeeded) as raised:
        parse_upload(two_quote_sheets_xlsx(), "options.xlsx")  # through the sandbox child
    error = raised.value
    assert [c.name for c in error.candidates] == ["Option A", "Option B"]  # not the cover
    a, b = error.candidates
    # "Option A": 2 rows under the header (the DGX and its support line)
    assert (a.rows, a.header) == (2, tuple(HEADER))
    assert a.first_lines == ("NVIDIA DGX B200 8x B200 1440GB", "3-year support")
    assert b.first_lines == ("Supermicro SYS-521GE-TNRT 4x NVIDIA L40S 48GB",)
    assert str(error) == (
        "options.xlsx: 2 sheets look like quotes ('Option A', 'Option B'); "
        "say which sheet holds the quote"
    )
    assert a.words() == (
        "'Option A' (2 rows under Part Number | Description | Qty | Unit Price | Extended "
        "Price: NVIDIA DGX B200 8x B200 1440GB, 3-year support)"
    )
    assert isinstance(error, QuoteParseError)  # every caller that handles one handles this
    assert pickle.loads(pickle.dumps(error)).candidates == error.candidates


@pytest.mark.parametrize("named", ["Option B", "option b ", "OPTION B"])
def test_the_named_sheet_is_read_and_said(named: str) -> None:
    quote = parse_upload(two_quote_sheets_xlsx(), "options.xlsx", sheet=named)
    assert quote.sheet == "Option B"
    assert [(line.part_number, line.quantity) for line in quote.lines] == [("SYS-521GE-TNRT", 2)]
    assert "read sheet 'Option B', as chosen" in quote.warnings


def test_a_sheet_that_is_not_there_is_refused_with_the_names() -> None:
    with pytest.raises(QuoteParseError) as raised:
        parse_upload(two_quote_sheets_xlsx(), "options.xlsx", sheet="Option C")
    assert str(raised.value) == (
        "options.xlsx: there is no sheet 'Option C' in the workbook; "
        "its sheets are 'Cover', 'Option A', 'Option B'"
    )


def test_a_chosen_sheet_without_a_header_is_refused() -> None:
    with pytest.raises(QuoteParseError, match="sheet 'Cover' has no header row"):
        parse_upload(two_quote_sheets_xlsx(), "options.xlsx", sheet="Cover")


def _book(*sheets: tuple[str, list[list[object]]], hidden: str = "") -> bytes:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in sheets:
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
        if title == hidden:
            sheet.sheet_state = "hidden"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


LINES = [HEADER, ["A-1", "Widget", 1, 10, 10]]


def test_a_notes_table_is_no_second_quote() -> None:
    # "Description | Notes" names no quantity or price: not a quote table
    notes = [["Part Number", "Description", "Notes"], ["A-1", "Widget", "ships in May"]]
    quote = parse_upload(_book(("Notes", notes), ("Lines", LINES)), "q.xlsx")
    assert quote.sheet == "Lines"  # the one quote table, though Notes comes first
    assert quote.warnings == ["read sheet 'Lines'"]


def test_a_hidden_copy_is_no_second_quote() -> None:
    quote = parse_upload(_book(("Lines", LINES), ("Old", LINES), hidden="Old"), "q.xlsx")
    assert quote.sheet == "Lines" and quote.warnings == []


def test_a_header_with_no_lines_under_it_is_no_second_quote() -> None:
    quote = parse_upload(_book(("Template", [HEADER]), ("Lines", LINES)), "q.xlsx")
    assert quote.sheet == "Lines"
    assert quote.warnings == ["read sheet 'Lines'"]


def test_a_long_description_is_cut_for_the_list() -> None:
    long = "NVIDIA DGX B200 " * 8
    book = _book(("A", [HEADER, ["A-1", long, 1, 1, 1]]), ("B", LINES))
    with pytest.raises(SheetChoiceNeeded) as raised:
        parse_upload(book, "q.xlsx")
    first = raised.value.candidates[0].first_lines[0]
    assert len(first) == 60 and first.endswith("…")
    assert SheetCandidate("B", 1, tuple(HEADER), ("Widget",)) == raised.value.candidates[1]
