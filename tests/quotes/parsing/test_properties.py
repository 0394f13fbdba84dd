"""Property tests (RELIABILITY 12): parse(serialize(x)) == x for CSV and XLSX, and any bytes
give a ParsedQuote or a deliberate QuoteParseError — never another exception.

These are the bounded fuzz targets per reader (CSV, XLSX; PDFs in test_fuzz_pdf.py). They call
the readers in this process (``quote_parse_local``): the sandbox child costs ~0.3 s to start,
which would turn 750 examples into minutes of process start-ups. The child's own round trip
has its property at the end, with few examples."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import openpyxl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.quotes.parsing import ParsedQuote, QuoteParseError, parse_upload
from apps.quotes.parsing.readers_local import quote_parse_local
from tests.fixtures.hostile import HEADER, xlsx_bytes
from tests.quotes.parsing.conftest import SAMPLES

# Printable text as a vendor might type it: no control characters, surrogates, unassigned
# code points or line/paragraph separators; no leading "=" (a formula in XLSX), trimmed.
_TEXT = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Cn", "Co", "Zl", "Zp")),
        max_size=40,
    )
    .map(str.strip)
    .filter(lambda text: not text.startswith("="))
)
_MONEY = st.decimals(min_value=Decimal("-9999999.99"), max_value=Decimal("9999999.99"), places=2)
_LINE = st.tuples(
    _TEXT.filter(bool),  # part number (a line needs one, or a description)
    _TEXT,
    st.integers(min_value=0, max_value=100_000),
    _MONEY,
    _MONEY,
)
_LINES = st.lists(_LINE, min_size=1, max_size=15)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _money_text(value: Decimal, *, european: bool, grouped: bool) -> str:
    text = f"{value:,.2f}" if grouped else f"{value:.2f}"
    if european:  # 1,234.56 → 1.234,56
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return text


def _as_tuples(quote: ParsedQuote) -> list[tuple]:
    return [
        (line.part_number, line.description, line.quantity, line.unit_price, line.extended_price)
        for line in quote.lines
    ]


@SETTINGS
@given(
    lines=_LINES,
    delimiter=st.sampled_from([",", ";"]),
    bom=st.booleans(),
    grouped=st.booleans(),
)
def test_csv_round_trip(lines, delimiter: str, bom: bool, grouped: bool) -> None:
    european = delimiter == ";"
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerow(HEADER)
    for part, description, quantity, unit, extended in lines:
        writer.writerow(
            [
                part,
                description,
                quantity,
                _money_text(unit, european=european, grouped=grouped),
                _money_text(extended, european=european, grouped=grouped),
            ]
        )
    data = (b"\xef\xbb\xbf" if bom else b"") + buffer.getvalue().encode("utf-8")
    quote = quote_parse_local(data, "quote.csv")
    assert quote.delimiter == delimiter
    assert quote.column_map["part_number"] == "Part Number"
    assert _as_tuples(quote) == [tuple(line) for line in lines]


@SETTINGS
@given(lines=_LINES)
def test_xlsx_round_trip(lines) -> None:
    rows = [
        [part, description or None, qty, unit, ext] for part, description, qty, unit, ext in lines
    ]
    quote = quote_parse_local(xlsx_bytes(rows), "quote.xlsx")
    assert _as_tuples(quote) == [tuple(line) for line in lines]


def _only_deliberate_errors(data: bytes, name: str) -> None:
    try:
        result = quote_parse_local(data, name)
    except QuoteParseError as error:
        assert error.internal is False, error.__cause__
        assert str(error).startswith(error.file)
    else:
        assert isinstance(result, ParsedQuote)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=65_536), name=st.sampled_from(["q.csv", "q.xlsx", "q", "q.txt"]))
def test_any_bytes_raise_only_quote_parse_error(data: bytes, name: str) -> None:
    _only_deliberate_errors(data, name)


_CSV_SAMPLES = [path.read_bytes() for path in sorted(SAMPLES.glob("*.csv"))]
_XLSX_SAMPLES = [path.read_bytes() for path in sorted(SAMPLES.glob("*.xlsx"))]


@settings(max_examples=150, deadline=None)
@given(
    sample=st.sampled_from(_CSV_SAMPLES),
    edits=st.lists(st.tuples(st.integers(min_value=0), st.binary(max_size=8)), max_size=6),
    cut=st.integers(min_value=0),
)
def test_mutated_csv_samples_raise_only_quote_parse_error(sample: bytes, edits, cut: int) -> None:
    data = bytearray(sample)
    for position, replacement in edits:
        at = position % (len(data) + 1)
        data[at : at + len(replacement)] = replacement
    _only_deliberate_errors(bytes(data[: len(data) - cut % 50]), "quote.csv")


@settings(max_examples=100, deadline=None)
@given(
    sample=st.sampled_from(_XLSX_SAMPLES),
    position=st.integers(min_value=0),
    replacement=st.binary(min_size=1, max_size=16),
)
def test_mutated_xlsx_samples_raise_only_quote_parse_error(
    sample: bytes, position: int, replacement: bytes
) -> None:
    data = bytearray(sample)
    at = position % len(data)
    data[at : at + len(replacement)] = replacement
    _only_deliberate_errors(bytes(data), "quote.xlsx")


@settings(max_examples=60, deadline=None)
@given(
    cells=st.lists(
        st.lists(
            st.one_of(_TEXT, st.integers(-(10**6), 10**6), st.floats(allow_nan=True), st.none()),
            max_size=8,
        ),
        max_size=12,
    )
)
def test_arbitrary_workbook_cells_raise_only_quote_parse_error(cells) -> None:
    workbook = openpyxl.Workbook()
    for row in cells:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    _only_deliberate_errors(buffer.getvalue(), "quote.xlsx")


@settings(max_examples=8, deadline=None)
@given(lines=_LINES, kind=st.sampled_from(["csv", "xlsx"]))
def test_the_sandbox_child_gives_what_the_reader_gives(lines, kind: str) -> None:
    # The same quote through the child (JSON out, ParsedQuote back) and in this process.
    if kind == "xlsx":
        data, name = xlsx_bytes([list(line) for line in lines]), "quote.xlsx"
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(HEADER)
        writer.writerows(lines)
        data, name = buffer.getvalue().encode(), "quote.csv"
    try:
        local = quote_parse_local(data, name)
    except QuoteParseError as error:
        try:
            parse_upload(data, name)
        except QuoteParseError as remote:
            assert str(remote) == str(error)
        else:
            raise AssertionError("the child read a file the reader refused") from error
    else:
        assert parse_upload(data, name) == local
