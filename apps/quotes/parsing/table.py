"""Rows of cells → ``ParsedQuote``: the part every reader (CSV, XLSX, PDF) shares.

A reader turns its file into numbered rows; this module finds the header among the title rows,
reads the letterhead metadata, picks the decimal separator and currency for the whole file,
skips blank rows, section headings and subtotal/tax rows (keeping the stated total), and reads
each remaining row into a ``ParsedLine``. A negative or non-numeric quantity stops the parse
with the row and column named; an unreadable price only marks its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal

from apps.quotes.parsing.cells import Cell, NumberedRow, cell_number, cell_text
from apps.quotes.parsing.dates import date_normalize, day_first
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.headers import header_language_hint, header_map, is_header
from apps.quotes.parsing.metadata import metadata_read
from apps.quotes.parsing.numbers import (
    amount_parse,
    currency_detect,
    decimal_separator_detect,
    quantity_parse,
)
from apps.quotes.parsing.schemas import DetectedType, ParsedLine, ParsedQuote, SkippedRow
from apps.quotes.parsing.seller import seller_read
from apps.quotes.parsing.summary import (
    Totals,
    recurring_total,
    summary_amount,
    summary_kind,
    tax_total_row,
)

MAX_DATA_ROWS = 20_000
MAX_COLUMNS = 100
MAX_CELL_CHARS = 10_000
#: How far down we look for the header: letterheads are rarely longer than this.
HEADER_SCAN_ROWS = 60
#: Lines per batch handed to the line sink (``lines_streamed``).
LINE_BATCH = 1000
#: Rows after the last line read for the seller's sign-off ("Remit to", "Thank you for
#: your business - Lambda, Inc.").
CLOSING_ROWS = 15

#: Who receives each batch of lines as soon as it is read: the sandbox child writes them to
#: the parent, which matches them while the child reads on (``sheet_worker.py``).
_line_sink: ContextVar[Callable[[list[ParsedLine]], None] | None] = ContextVar(
    "line_sink", default=None
)


def lines_stream_to(sink: Callable[[list[ParsedLine]], None] | None) -> None:
    """Hand every later read's lines to ``sink`` in batches of ``LINE_BATCH``, in file order,
    as they are read (the last batch once every row is read and the rows passed the ragged
    check). The quote returned still holds every line; a read that then fails has handed some
    lines over for nothing, and the receiver must drop them."""
    _line_sink.set(sink)


@dataclass
class TableOptions:
    """What the reader knows about the file before the rows are read."""

    file_name: str
    detected_type: DetectedType
    decimal_default: str = "."
    encoding: str | None = None
    encoding_fallback: bool = False
    delimiter: str | None = None
    sheet: str | None = None
    check_ragged: bool = False
    #: The header's texts: a PDF or a printed report repeats it on every page; skip those.
    repeated_header: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _trimmed_texts(cells: Sequence[Cell]) -> list[str]:
    texts = [cell_text(cell) for cell in cells]
    while texts and not texts[-1]:
        texts.pop()
    return texts


def _find_header(
    rows: Sequence[NumberedRow], opts: TableOptions
) -> tuple[int, dict[str, int], list[str]]:
    for position, (_row, cells) in enumerate(rows[:HEADER_SCAN_ROWS]):
        texts = [cell_text(cell) for cell in cells]
        mapping = header_map(texts)
        if is_header(mapping):
            if "quantity" not in mapping and "system_count" in mapping:
                # "Item | Description | Systems | Price": the only count is the quantity.
                mapping["quantity"] = mapping.pop("system_count")
            return position, mapping, texts
    hint = header_language_hint(
        [cell_text(cell) for cell in cells] for _row, cells in rows[:HEADER_SCAN_ROWS]
    )
    raise QuoteParseError(
        "no header row found: expected columns such as 'Part Number', 'Description', "
        "'Qty', 'Unit Price' (or Artikelnummer, Beschreibung, Menge, Einzelpreis)" + hint,
        file=opts.file_name,
    )


#: A line that says it gives something back: "Trade-in: 2 × DL380 Gen10", "Return of ...",
#: "Credit for ...", "Buy-back", German "Inzahlungnahme", French "Reprise".
_CREDIT_HEAD = re.compile(
    r"^\s*(?:trade[- ]?in|return|credit|buy[- ]?back|inzahlungnahme|rückgabe|gutschrift|"
    r"reprise|avoir)\b",
    re.IGNORECASE,
)


def _credit_amount(
    cells: Sequence[Cell], ext_i: int | None, ext_text: str, decimal_separator: str
) -> bool:
    """Whether the line's extended amount is negative: a trade-in or return may then write
    its quantity negative too ("-2 | 1,700.00 | -3,400.00"); a negative quantity on a line
    that charges money stays an error."""
    if not ext_text:
        return False
    number = (
        cell_number(cells[ext_i]) if ext_i is not None and type(cells[ext_i]) is not str else None
    )
    if number is None:
        try:
            number = amount_parse(ext_text, decimal_separator=decimal_separator)
        except ValueError:
            return False
    return number is not None and number < 0


def quote_from_rows(rows: Iterable[NumberedRow], opts: TableOptions) -> ParsedQuote:
    """Read numbered rows into a ``ParsedQuote``; see the module docstring for the rules."""
    # `cell_text` inline for a text cell (every CSV and PDF cell, most of a workbook's):
    # 60,000 cells in a 10,000-line quote.
    rows = [
        row
        for row in rows
        if any((cell.strip() if type(cell) is str else cell_text(cell)) for cell in row[1])
    ]
    if not rows:
        raise QuoteParseError("the file is empty: no rows with any text", file=opts.file_name)
    header_pos, mapping, header_texts = _find_header(rows, opts)
    header_row = rows[header_pos][0]
    title_rows = [[cell_text(cell) for cell in cells] for _n, cells in rows[:header_pos]]
    data_rows = rows[header_pos + 1 :]
    if len(data_rows) > MAX_DATA_ROWS:
        raise QuoteParseError(
            f"too many rows: {len(data_rows):,} data rows, the row limit is {MAX_DATA_ROWS:,}",
            file=opts.file_name,
            row=data_rows[MAX_DATA_ROWS][0],
        )
    column_names = {name: header_texts[index] for name, index in mapping.items()}
    opts.repeated_header = _trimmed_texts(rows[header_pos][1])
    meta = metadata_read(title_rows)
    warnings = list(opts.warnings)

    money_columns = [mapping[name] for name in ("unit_price", "extended_price") if name in mapping]
    money_texts = [
        cell
        for _n, cells in data_rows[:2000]
        for index in money_columns
        if index < len(cells) and isinstance(cell := cells[index], str)
    ]
    decimal_separator = decimal_separator_detect(money_texts, default=opts.decimal_default)
    stated = _currency_choose(meta, column_names, data_rows[:200], money_columns, warnings)
    currency = stated or "USD"

    header_width = len(rows[header_pos][1])
    lines, totals = _lines_read(
        data_rows,
        mapping,
        column_names,
        decimal_separator,
        header_width,
        opts,
    )
    if totals.ignored_after_footer:
        warnings.append(
            f"{totals.ignored_after_footer} row(s) after the total on row {totals.footer_row} "
            "were not read as quote lines"
        )
    if "quantity" not in mapping:
        warnings.append("no quantity column: quantities are left empty")
    closing_rows = [
        [cell_text(cell) for cell in cells]
        for number, cells in data_rows[-CLOSING_ROWS:]
        if not lines or number > lines[-1].source_row
    ]
    if not lines:
        raise QuoteParseError(
            "no quote lines found below the header", file=opts.file_name, row=header_row
        )
    return ParsedQuote(
        file_name=opts.file_name,
        detected_type=opts.detected_type,
        vendor=seller_read(title_rows, closing_rows) if closing_rows else meta.get("vendor", ""),
        quote_number=meta.get("quote_number", ""),
        quote_date=date_normalize(
            meta.get("quote_date", ""),
            day_first=day_first(decimal_separator, stated, day_first_labels="date_order" in meta),
        ),
        currency=currency,
        title_systems=int(re.sub(r"\D", "", meta["systems"])) if meta.get("systems") else None,
        encoding=opts.encoding,
        encoding_fallback=opts.encoding_fallback,
        delimiter=opts.delimiter,
        decimal_separator=decimal_separator,
        sheet=opts.sheet,
        header_row=header_row,
        column_map=column_names,
        lines=lines,
        skipped=totals.skipped,
        header_cells=list(header_texts),
        stated_total=totals.total if totals.total is not None else totals.subtotal,
        stated_subtotal=totals.subtotal,
        stated_tax=totals.tax,
        stated_charges=totals.charges,
        warnings=warnings,
    )


def _currency_choose(
    meta: dict[str, str],
    column_names: dict[str, str],
    data_rows: Sequence[NumberedRow],
    money_columns: Sequence[int],
    warnings: list[str],
) -> str | None:
    """Currency by authority: a "Currency:" title row, then the price headers
    ("Unit Price (EUR)"), then symbols in the amounts ("€ 265.000,00"); None when none (the
    quote is read as USD, but its dates are not read as American)."""
    seen: list[str] = []
    if meta.get("currency"):
        seen.append(meta["currency"])
    for name in ("unit_price", "extended_price"):
        code = currency_detect(column_names.get(name, ""))
        if code:
            seen.append(code)
    for _n, cells in data_rows:
        for index in money_columns:
            cell = cells[index] if index < len(cells) else None
            if isinstance(cell, str):
                code = currency_detect(cell)
                if code:
                    seen.append(code)
    if not seen:
        return None
    if len(set(seen)) > 1:
        warnings.append(
            f"several currencies named ({', '.join(sorted(set(seen)))}); using {seen[0]}"
        )
    return seen[0]


def _lines_read(
    data_rows: Sequence[NumberedRow],
    mapping: dict[str, int],
    column_names: dict[str, str],
    decimal_separator: str,
    header_width: int,
    opts: TableOptions,
) -> tuple[list[ParsedLine], Totals]:
    part_i = mapping.get("part_number")
    desc_i = mapping.get("description")
    qty_i = mapping.get("quantity")
    unit_i = mapping.get("unit_price")
    ext_i = mapping.get("extended_price")
    count_i = mapping.get("system_count")
    totals = Totals()
    lines: list[ParsedLine] = []
    ragged: list[int] = []
    sink = _line_sink.get()
    sent = 0
    for row_number, cells in data_rows:
        texts = [cell.strip() if type(cell) is str else cell_text(cell) for cell in cells]
        while texts and not texts[-1]:
            texts.pop()
        if not texts or texts == opts.repeated_header:
            continue
        qty_text = texts[qty_i] if qty_i is not None and qty_i < len(texts) else ""
        # Summary rows have no quantity; some vendors put the label in the Qty column.
        kind = None if any(ch.isdigit() for ch in qty_text) else summary_kind(texts)
        if kind in ("total", "subtotal") and recurring_total(texts, ext_i):
            kind = "heading"  # "Total monthly payment" of a lease: no price of the quote
        if kind:
            amount = summary_amount(cells, texts, ext_i, decimal_separator)
            totals.skipped.append(
                SkippedRow(
                    source_row=row_number,
                    kind=kind,
                    text=" ".join(t for t in texts if t),
                    amount=amount,
                )
            )
            if amount is not None:
                if kind == "total" and totals.total is not None and totals.subtotal is None:
                    totals.subtotal = totals.total  # "Net total" above "Gross total"
                # Freight and tax come in parts: "Shipping" + "Handling", India's
                # "CGST @ 9%" + "SGST @ 9%", Canada's GST + PST.
                adds = kind == "charges" or (kind == "tax" and not tax_total_row(texts))
                earlier = getattr(totals, kind) if adds else None
                setattr(totals, kind, amount + earlier if earlier is not None else amount)
            if kind == "total" and totals.footer_row is None:
                totals.footer_row = row_number
            continue
        if totals.footer_row is not None:
            totals.ignored_after_footer += 1
            totals.skipped.append(
                SkippedRow(
                    source_row=row_number, kind="after_footer", text=" ".join(t for t in texts if t)
                )
            )
            continue
        line = _line_read(
            row_number,
            cells,
            texts,
            part_i,
            desc_i,
            qty_i,
            unit_i,
            ext_i,
            column_names,
            decimal_separator,
            opts,
        )
        if line is not None and count_i is not None:
            _times_systems(line, texts, count_i, decimal_separator)
        if line is None:
            totals.skipped.append(
                SkippedRow(
                    source_row=row_number, kind="heading", text=" ".join(t for t in texts if t)
                )
            )
            continue
        if opts.check_ragged and (len(cells) < header_width or len(texts) > header_width):
            ragged.append(row_number)
        lines.append(line)
        if sink is not None and len(lines) - sent >= LINE_BATCH and not ragged:
            sink(lines[sent:])
            sent = len(lines)
    if ragged:
        listed = ", ".join(str(n) for n in ragged[:10]) + (" …" if len(ragged) > 10 else "")
        raise QuoteParseError(
            f"ragged rows: row(s) {listed} do not have the header's {header_width} columns",
            file=opts.file_name,
            row=ragged[0],
        )
    if sink is not None and len(lines) > sent:
        sink(lines[sent:])
    return lines, totals


def _times_systems(
    line: ParsedLine, texts: list[str], count_i: int, decimal_separator: str
) -> None:
    """A "Qty per Server | Servers" line's quantity for the whole order: 8 cards per server
    × 2 servers = 16, as the extended price (8,995.00 × 16) states it. A blank or
    unreadable count leaves the per-server quantity."""
    text = texts[count_i] if count_i < len(texts) else ""
    if line.quantity is None or not text:
        return
    try:
        count = quantity_parse(text, decimal_separator=decimal_separator)
    except ValueError:
        return
    if count is not None:
        line.__dict__["quantity"] = line.quantity * count


def _line_read(
    row_number: int,
    cells: Sequence[Cell],
    texts: list[str],
    part_i: int | None,
    desc_i: int | None,
    qty_i: int | None,
    unit_i: int | None,
    ext_i: int | None,
    column_names: dict[str, str],
    decimal_separator: str,
    opts: TableOptions,
) -> ParsedLine | None:
    width = len(texts)
    part = texts[part_i] if part_i is not None and part_i < width else ""
    description = texts[desc_i] if desc_i is not None and desc_i < width else ""
    qty_text = texts[qty_i] if qty_i is not None and qty_i < width else ""
    unit_text = texts[unit_i] if unit_i is not None and unit_i < width else ""
    ext_text = texts[ext_i] if ext_i is not None and ext_i < width else ""
    if not (qty_text or unit_text or ext_text) and sum(1 for text in texts if text) <= 1:
        return None  # a section heading ("Compute nodes") or a note, not a line
    if texts and max(map(len, texts)) > MAX_CELL_CHARS:
        for text in texts:
            if len(text) > MAX_CELL_CHARS:
                raise QuoteParseError(
                    f"a cell of {len(text):,} characters is too long (limit {MAX_CELL_CHARS:,})",
                    file=opts.file_name,
                    row=row_number,
                )
    errors: list[str] = []
    quantity: int | None = None
    returned = False  # "-2 | 1,700.00 | -3,400.00": 2 returned or traded in, a credit
    if qty_text:
        # A text cell (CSV, PDF) is never a number: `cell_number` answers None for it.
        number = (
            cell_number(cells[qty_i])
            if qty_i is not None and type(cells[qty_i]) is not str
            else None
        )
        quantity_cell = format(number, "f") if number is not None else qty_text
        quantity_separator = "." if number is not None else decimal_separator
        try:
            quantity = quantity_parse(quantity_cell, decimal_separator=quantity_separator)
        except ValueError as exc:
            if (
                "negative" not in str(exc)
                or not _CREDIT_HEAD.match(description)
                or not _credit_amount(cells, ext_i, ext_text, decimal_separator)
            ):
                raise QuoteParseError(
                    str(exc), file=opts.file_name, row=row_number, column=column_names["quantity"]
                ) from None
            quantity = quantity_parse(
                quantity_cell, decimal_separator=quantity_separator, credit=True
            )
            returned = True
    prices: list[Decimal | None] = []
    for name, index, text in (
        ("unit_price", unit_i, unit_text),
        ("extended_price", ext_i, ext_text),
    ):
        value: Decimal | None = None
        if text:
            value = (
                cell_number(cells[index])
                if index is not None and type(cells[index]) is not str
                else None
            )
            if value is None:
                try:
                    value = amount_parse(text, decimal_separator=decimal_separator)
                except ValueError as exc:
                    errors.append(f"column {column_names[name]!r}: {exc}")
        prices.append(value)
    if returned and prices[0] is not None and prices[0] > 0:
        prices[0] = -prices[0]  # 2 returned at 1,700.00 each: -1,700.00 a unit, -3,400.00
    if not part and not description:
        errors.append("no part number or description")
    if quantity is None and qty_i is not None and (prices[0] is not None or prices[1] is not None):
        errors.append("no quantity")
    # Every value is built and typed above: skip re-validation (10,000 lines < 1 s).
    raw_description = cells[desc_i] if desc_i is not None and desc_i < len(cells) else ""
    indent = (
        len(raw_description) - len(raw_description.lstrip())
        if isinstance(raw_description, str)
        else 0
    )
    return _line_new(
        {
            "source_row": row_number,
            "page": None,
            "part_number": part,
            "description": description,
            "quantity": quantity,
            "unit_price": prices[0],
            "extended_price": prices[1],
            "raw_cells": texts,
            "errors": errors,
            "indent": indent,
        }
    )


#: The fields `_line_read` sets, as `ParsedLine.model_construct(**those)` records them (`page`
#: keeps its default and is not among them).
_LINE_FIELDS_SET = frozenset(ParsedLine.model_fields) - {"page"}
_object_setattr = object.__setattr__


def _line_new(values: dict[str, object]) -> ParsedLine:
    """``ParsedLine.model_construct(**values)`` for a dict of every field in declaration
    order, without its per-field loop (a quarter of the time; 10,000 lines a quote): the same
    ``__dict__``, fields set, no extra and no private attributes."""
    line = ParsedLine.__new__(ParsedLine)
    _object_setattr(line, "__dict__", values)
    _object_setattr(line, "__pydantic_fields_set__", set(_LINE_FIELDS_SET))
    _object_setattr(line, "__pydantic_extra__", None)
    _object_setattr(line, "__pydantic_private__", None)
    return line
