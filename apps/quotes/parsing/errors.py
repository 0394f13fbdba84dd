"""The one exception the parser raises.

Anything that goes wrong while reading an upload — an HTML page renamed ``quote.xlsx``, a
negative quantity on row 7, a PDF that makes the sandbox blow its memory limit — ends up as a
``QuoteParseError`` that names the file and, when known, the row and the column, so the account
team can fix the spreadsheet instead of reading a traceback.
"""

from __future__ import annotations


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
