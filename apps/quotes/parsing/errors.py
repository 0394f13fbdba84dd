"""The one exception the parser raises.

Anything that goes wrong while reading an upload — an HTML page renamed ``quote.xlsx``, a
negative quantity on row 7, a PDF that makes the sandbox blow its memory limit — ends up as a
``QuoteParseError`` that names the file and, when known, the row and the column, so the account
team can fix the spreadsheet instead of reading a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class QuoteParseError(Exception):
    """A quote file we refuse to read, with where and why.

    ``str(err)`` reads ``quote.csv, row 2, column 'Qty': quantity -2 is negative``.
    ``needs_manual`` is True when the file may be fine but our reader gave up on it (a PDF that
    hit the sandbox limits): upstream keeps the original with status NEEDS_MANUAL.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str,
        row: int | None = None,
        column: str | None = None,
        needs_manual: bool = False,
    ) -> None:
        self.file = file
        self.row = row
        self.column = column
        self.message = message
        self.needs_manual = needs_manual
        #: True only when an unexpected exception was wrapped (see ``parse_upload``).
        self.internal = False
        #: The stored quote record (REJECTED, NEEDS_MANUAL) when the original was kept; set by
        #: the upload service, never by the parser (which knows no database).
        self.quote: object | None = None
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = [self.file or "quote"]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column!r}")
        return f"{', '.join(where)}: {self.message}"

    def __reduce__(self):
        return (
            _rebuild,
            (self.message, self.file, self.row, self.column, self.needs_manual),
        )


def _rebuild(
    message: str, file: str, row: int | None, column: str | None, needs_manual: bool
) -> QuoteParseError:
    return QuoteParseError(message, file=file, row=row, column=column, needs_manual=needs_manual)


@dataclass(frozen=True, slots=True)
class SheetCandidate:
    """A sheet that looks like a quote table, as the person choosing between sheets sees it:
    its name, how many rows lie under its header, the header, and the first lines' text."""

    name: str
    rows: int
    header: tuple[str, ...]
    first_lines: tuple[str, ...]

    def words(self) -> str:
        """ "'Quote' (12 rows under Part Number | Description | Qty: DGX B200, …)"."""
        header = " | ".join(self.header[:6])
        first = f": {', '.join(self.first_lines)}" if self.first_lines else ""
        return (
            f"{self.name!r} ({self.rows} row{'s' if self.rows != 1 else ''} under {header}{first})"
        )


class SheetChoiceNeeded(QuoteParseError):
    """Two sheets or more of a workbook both look like quote tables: the person says which
    (the upload page asks; `review_quote --sheet NAME`; the API's `sheet` field)."""

    def __init__(self, candidates: list[SheetCandidate], *, file: str) -> None:
        self.candidates = list(candidates)
        #: The stored original's hash, set by the upload service, so the answer can be read
        #: from storage instead of asking for the file again.
        self.sha256 = ""
        names = ", ".join(repr(c.name) for c in self.candidates)
        super().__init__(
            f"{len(self.candidates)} sheets look like quotes ({names}); "
            "say which sheet holds the quote",
            file=file,
        )

    def __reduce__(self):
        return (_rebuild_choice, (self.candidates, self.file))


def _rebuild_choice(candidates: list[SheetCandidate], file: str) -> SheetChoiceNeeded:
    return SheetChoiceNeeded(candidates, file=file)
