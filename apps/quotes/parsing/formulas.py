"""Formula cells a workbook holds without their value, computed when they are simple.

Excel saves every formula with the value it last computed. A workbook written by a program
(openpyxl, a quoting tool's export) often saves the formula alone: ``<c r="E2"><f>C2*D2</f>
<v/></c>``, and a reader sees an empty cell — a quote whose extended prices are all ``=C2*D2``
would read with no extended prices, silently. So the sheet's XML is searched for such cells
and each formula is computed when it is arithmetic (+ - * / and brackets) on numbers and cells
of the same sheet, ``SUM``, ``PRODUCT`` or ``ROUND``: "=C2*D2" with 2 and 150.00 is 300.00.
Any other formula (a lookup, a condition, another sheet's cell) stays empty and the quote says
which cell, so nobody takes the missing price for zero.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal, DivisionByZero, InvalidOperation

from apps.quotes.parsing.cells import Cell, NumberedRow, cell_number

#: How deep one formula may refer to another (E2 → D2 → ...) before we give up.
MAX_DEPTH = 20

_UNCACHED = re.compile(
    rb'<c r="([A-Z]{1,3})(\d+)"[^>]*?>\s*<f>([^<]*)</f>\s*(?:<v\s*/>|<v>\s*</v>)?\s*</c>'
)
_TOKEN = re.compile(
    r"\s*(?:(?P<range>\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+)|(?P<ref>\$?[A-Z]{1,3}\$?\d+)"
    r"|(?P<func>SUM|PRODUCT|ROUND)\(|(?P<num>\d+(?:\.\d+)?(?:E[+-]?\d+)?)|(?P<op>[-+*/(),]))",
    re.IGNORECASE,
)
Address = tuple[int, int]  # (row, column), both 1-based


def column_number(letters: str) -> int:
    """ "A" → 1, "Z" → 26, "AA" → 27."""
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def uncached_formulas(xml: bytes) -> dict[Address, str]:
    """The sheet XML's formula cells saved without a value: {(row, column): "C2*D2"}."""
    if b"<f>" not in xml:
        return {}
    return {
        (int(row), column_number(letters.decode())): html.unescape(formula.decode("utf-8"))
        for letters, row, formula in _UNCACHED.findall(xml)
    }


class _Unsupported(Exception):
    """A formula we do not compute."""


def _address(ref: str) -> Address:
    match = re.fullmatch(r"\$?([A-Z]{1,3})\$?(\d+)", ref.upper())
    if match is None:
        raise _Unsupported(ref)
    return int(match.group(2)), column_number(match.group(1))


class _Formula:
    """A recursive-descent reading of one formula: expr := term (('+'|'-') term)*, term :=
    factor (('*'|'/') factor)*, factor := ['-'|'+'] (number | cell | func(args) | (expr))."""

    def __init__(self, text: str, value_of: Callable[[Address], Decimal]) -> None:
        self.tokens: list[tuple[str, str]] = []
        position = 0
        text = text.strip().lstrip("=")
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise _Unsupported(text)
            kind = match.lastgroup or ""
            self.tokens.append((kind, match.group(kind)))
            position = match.end()
        self.at = 0
        self.value_of = value_of

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self) -> tuple[str, str]:
        token = self._peek()
        if token is None:
            raise _Unsupported("end of formula")
        self.at += 1
        return token

    def value(self) -> Decimal:
        result = self._expression()
        if self._peek() is not None:
            raise _Unsupported("trailing text")
        return result

    def _expression(self) -> Decimal:
        result = self._term()
        while (token := self._peek()) is not None and token[1] in "+-":
            self.at += 1
            result = result + self._term() if token[1] == "+" else result - self._term()
        return result

    def _term(self) -> Decimal:
        result = self._factor()
        while (token := self._peek()) is not None and token[1] in "*/":
            self.at += 1
            result = result * self._factor() if token[1] == "*" else result / self._factor()
        return result

    def _factor(self) -> Decimal:
        kind, text = self._take()
        if kind == "op" and text in "+-":
            return self._factor() if text == "+" else -self._factor()
        if kind == "num":
            return Decimal(text)
        if kind == "ref":
            return self.value_of(_address(text))
        if kind == "op" and text == "(":
            result = self._expression()
            if self._take() != ("op", ")"):
                raise _Unsupported("bracket")
            return result
        if kind == "func":
            return self._function(text.upper())
        raise _Unsupported(text)

    def _arguments(self) -> list[Decimal]:
        values: list[Decimal] = []
        while True:
            token = self._peek()
            if token is not None and token[0] == "range":
                self.at += 1
                start, end = (_address(part) for part in token[1].split(":"))
                values.extend(
                    self.value_of((row, column))
                    for row in range(min(start[0], end[0]), max(start[0], end[0]) + 1)
                    for column in range(min(start[1], end[1]), max(start[1], end[1]) + 1)
                )
            else:
                values.append(self._expression())
            _kind, text = self._take()
            if text == ")":
                return values
            if text != ",":
                raise _Unsupported(text)

    def _function(self, name: str) -> Decimal:
        values = self._arguments()
        if name == "SUM":
            return sum(values, Decimal(0))
        if name == "PRODUCT":
            result = Decimal(1)
            for value in values:
                result *= value
            return result
        if len(values) != 2 or values[1] != values[1].to_integral_value():
            raise _Unsupported("ROUND needs a value and a number of places")
        return values[0].quantize(Decimal(1).scaleb(-int(values[1])), rounding=ROUND_HALF_UP)


def formulas_compute(
    rows: Sequence[NumberedRow], formulas: dict[Address, str], first_column: int
) -> tuple[dict[Address, Decimal], dict[Address, str]]:
    """Each uncached formula's value from the sheet's cells (``rows``: numbered sheet rows whose
    first cell is column ``first_column``), and the formulas that could not be computed."""
    cells = {number: row for number, row in rows}
    done: dict[Address, Decimal] = {}
    failed: dict[Address, str] = {}

    def value_of(address: Address, depth: int = 0) -> Decimal:
        if address in done:
            return done[address]
        if address in formulas:
            if address in failed or depth > MAX_DEPTH:
                raise _Unsupported("depends on a formula we do not compute")
            try:
                result = _Formula(formulas[address], lambda a: value_of(a, depth + 1)).value()
            except (_Unsupported, InvalidOperation, DivisionByZero, ZeroDivisionError):
                failed[address] = formulas[address]
                raise _Unsupported("depends on a formula we do not compute") from None
            done[address] = result
            return result
        row = cells.get(address[0], ())
        index = address[1] - first_column
        cell: Cell = row[index] if 0 <= index < len(row) else None
        if cell is None or cell == "":
            return Decimal(0)  # an empty cell counts as 0, as in Excel
        number = cell_number(cell)
        if number is None:
            raise _Unsupported("a text cell in arithmetic")
        return number

    for address in sorted(formulas):
        try:
            value_of(address)
        except _Unsupported:
            failed.setdefault(address, formulas[address])
    return done, failed


def column_letters(number: int) -> str:
    """1 → "A", 27 → "AA"."""
    letters = ""
    while number:
        number, remainder = divmod(number - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


def formulas_fill(
    xml: bytes, rows: list[NumberedRow], first_column: int
) -> tuple[list[NumberedRow], list[str]]:
    """The sheet's rows with every uncached formula of its XML we compute filled in, and
    warnings that name the cells we did not (see the module docstring)."""
    formulas = uncached_formulas(xml)
    if not formulas:
        return rows, []
    computed, failed = formulas_compute(rows, formulas, first_column)
    filled: dict[int, list[Cell]] = {number: list(cells) for number, cells in rows}
    for (row, column), value in computed.items():
        cells = filled.setdefault(row, [])
        index = column - first_column
        if index < 0:
            continue
        cells.extend([None] * (index + 1 - len(cells)))
        cells[index] = value
    warnings = []
    if computed:
        (row, column), value = min(computed.items())
        warnings.append(
            f"{len(computed)} formula cell(s) were saved without their value (the workbook "
            "was not last saved by Excel); computed from the sheet, e.g. row "
            f"{row}, column {column_letters(column)}: ={formulas[(row, column)]} = {value}"
        )
    for (row, column), formula in sorted(failed.items())[:10]:
        warnings.append(
            f"row {row}, column {column_letters(column)}: the formula ={formula} was saved "
            "without its value and could not be computed (we compute sums and products of the "
            "sheet's numbers); the cell is read as empty (open the workbook in Excel and save "
            "it to store the values)"
        )
    if len(failed) > 10:
        warnings.append(f"{len(failed) - 10} more formula cell(s) read as empty")
    return sorted((number, cells) for number, cells in filled.items()), warnings
