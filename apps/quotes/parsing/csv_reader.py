"""CSV quotes: decode, pick the delimiter, split into numbered rows, hand to ``table``.

The delimiter is the one among , ; TAB | under which a header row appears ("Artikelnummer;
Beschreibung;Menge" only makes sense split on ";"). When two delimiters both give a believable
table we ask the user to choose instead of guessing, and we never return a one-column parse of a
multi-column file.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter

from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.headers import header_language_hint, header_map, is_header
from apps.quotes.parsing.schemas import ParsedQuote
from apps.quotes.parsing.table import (
    HEADER_SCAN_ROWS,
    MAX_COLUMNS,
    MAX_DATA_ROWS,
    TableOptions,
    quote_from_rows,
)
from apps.quotes.parsing.text import text_decode

DELIMITERS = (",", ";", "\t", "|")
_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_SAMPLE_LINES = 200
_SEP_LINE = re.compile(r"sep=(.)[ \t]*(?=\r?\n)", re.IGNORECASE)


def _sample_rows(sample: str, delimiter: str) -> list[list[str]]:
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(sample), delimiter=delimiter):
            rows.append(row)
    except csv.Error:
        pass  # the sample may cut a quoted field; what we have is enough to judge
    return rows


def _score(rows: list[list[str]]) -> tuple[int, int, float] | None:
    """(fields the header names, columns, share of rows below it with the header's width);
    None when no header appears under this delimiter."""
    filled = [row for row in rows if any(cell.strip() for cell in row)]
    for position, row in enumerate(filled[:HEADER_SCAN_ROWS]):
        mapping = header_map([cell.strip() for cell in row])
        if is_header(mapping):
            below = filled[position + 1 :]
            same = sum(1 for other in below if len(other) == len(row))
            return len(mapping), len(row), same / len(below) if below else 1.0
    return None


def delimiter_detect(text: str, *, file_name: str) -> str:
    """The delimiter under which the file has a recognisable header; see module docstring."""
    sample = "\n".join(text.splitlines()[:_SAMPLE_LINES])
    scored = {}
    for delimiter in DELIMITERS:
        if delimiter in sample:
            score = _score(_sample_rows(sample, delimiter))
            if score is not None:
                scored[delimiter] = score
    if not scored:
        widths = Counter(
            len(row) for row in _sample_rows(sample, ",") if any(c.strip() for c in row)
        )
        raise QuoteParseError(
            "no header row found: expected columns such as 'Part Number', 'Description', "
            "'Qty', 'Unit Price' separated by commas or semicolons"
            + ("" if widths else " (the file has no text rows)")
            + header_language_hint(_sample_rows(sample, ",")),
            file=file_name,
        )
    ranked = sorted(scored.items(), key=lambda item: (item[1][0], item[1][2]), reverse=True)
    if len(ranked) > 1:
        (best, best_score), (second, second_score) = ranked[0], ranked[1]
        # Both splits name columns and both give rows of a steady width: a guess could
        # silently shift every price one column over, so ask instead.
        if best_score[0] - second_score[0] <= 1 and second_score[2] >= 0.8:
            raise QuoteParseError(
                f"the delimiter is ambiguous: the file reads as a table split by "
                f"{_NAMES[best]} and by {_NAMES[second]}; "
                "choose the CSV delimiter and upload again",
                file=file_name,
            )
    return ranked[0][0]


def csv_parse(data: bytes, *, file_name: str, delimiter: str | None = None) -> ParsedQuote:
    """Parse a CSV quote; ``delimiter`` overrides detection (the user chose it)."""
    text, encoding, fallback, warnings = text_decode(data, file_name=file_name)
    if not text.strip():
        raise QuoteParseError("the file is empty", file=file_name)
    if delimiter is not None and delimiter not in DELIMITERS:
        raise QuoteParseError(
            f"unsupported delimiter {delimiter!r}: choose comma, semicolon, tab or pipe",
            file=file_name,
        )
    declared = _SEP_LINE.match(text)
    if declared:  # Excel's "sep=;" first line: a declaration, not a row
        text = text[declared.end() :]  # row 1 stays, now blank, so row numbers still match
    if delimiter is None and declared and declared.group(1) in DELIMITERS:
        delimiter = declared.group(1)
    chosen = delimiter or delimiter_detect(text, file_name=file_name)
    rows = _rows_read(text, chosen, file_name=file_name)
    opts = TableOptions(
        file_name=file_name,
        detected_type="csv",
        decimal_default="," if chosen == ";" else ".",
        encoding=encoding,
        encoding_fallback=fallback,
        delimiter=chosen,
        check_ragged=True,
        warnings=warnings,
    )
    return quote_from_rows(rows, opts)


def _rows_read(text: str, delimiter: str, *, file_name: str) -> list[tuple[int, list[str]]]:
    """Numbered rows (record numbers, as Excel shows them), refusing over-wide or over-long
    files early so a 1,000,000-row upload costs no more than reading 20,000 of them."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    filled = 0
    limit = MAX_DATA_ROWS + HEADER_SCAN_ROWS + 1
    number = 0
    try:
        for number, row in enumerate(reader, start=1):
            if len(row) > MAX_COLUMNS:
                width = len(row)
                while width and not row[width - 1].strip():
                    width -= 1
                if width > MAX_COLUMNS:
                    raise QuoteParseError(
                        f"too many columns: {width}, the limit is {MAX_COLUMNS}",
                        file=file_name,
                        row=number,
                    )
                row = row[:width]
            rows.append((number, row))
            if any(row):
                filled += 1
                if filled > limit:
                    raise QuoteParseError(
                        f"too many rows: more than {MAX_DATA_ROWS:,} data rows, "
                        f"the row limit is {MAX_DATA_ROWS:,}",
                        file=file_name,
                        row=number,
                    )
    except csv.Error as exc:
        raise QuoteParseError(f"not a valid CSV: {exc}", file=file_name, row=number + 1) from None
    return rows
