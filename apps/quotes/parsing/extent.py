"""A worksheet's actual extent, read from its XML before any workbook library sees it.

calamine allocates one slot per cell of the rectangle from the first to the farthest cell
holding a value, so one value at ``XFD1048576`` means 16,384 × 1,048,576 slots (~550 GB).
``sheet_extent_check`` streams each worksheet's XML (already bounded to 50 MiB by
``archive.archive_inspect``) and refuses a sheet past 100 columns or 20,000 data rows. Pure
Python over bytes (zlib and one regular expression, no XML parser), so the web process runs
it itself, while the sandbox child opens the workbook (``sheet_reader.sheet_parse``): a sheet
refused here stops the child before its lines are used. The ``<dimension>`` element is
never trusted.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.table import HEADER_SCAN_ROWS, MAX_COLUMNS, MAX_DATA_ROWS

#: A ``<row>``, ``<c>`` or ``<dimension>`` tag (any namespace prefix): (name, attributes, the
#: letters and digits of its first ``r="…"`` attribute, "/" when self-closing). The optional
#: group takes the leftmost ``r=`` of the attributes; a tag without one gives empty letters
#: and digits, read exactly as ``r=""`` is (no column, no row: the previous one's next).
_TAG_R_RE = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?(row|c|dimension)\b"
    rb'((?:[^>]*?\br\s*=\s*["\']([A-Za-z]*)([0-9]*)["\'])?[^>]*?)(/?)>'
)
_REF_RE = re.compile(rb'\bref\s*=\s*["\']([A-Za-z]+[0-9]+(?::[A-Za-z]+[0-9]+)?)["\']')
_CHUNK = 256 * 1024
#: Rows a sheet may reach: the data rows, the letterhead above the header, the header.
MAX_SHEET_ROWS = MAX_DATA_ROWS + HEADER_SCAN_ROWS + 1


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + (letter - 64)
    return number


def sheet_extent(xml_chunks: Iterator[bytes]) -> tuple[int, int, str]:
    """(columns, rows, declared ref) of a worksheet's XML, read as a stream of chunks.

    Columns and rows are the actual extent: the farthest column and row of a cell that holds
    something (``<c …>…</c>``; a self-closing ``<c r="XFD9" s="1"/>`` is only formatting,
    which calamine skips too). Cells and rows without ``r`` follow the previous one."""
    max_col = max_row = 0
    row = col = 0
    declared = ""
    tail = b""
    columns: dict[bytes, int] = {}  # "AB" -> 28, once per letters
    for chunk in xml_chunks:
        buffer = tail + chunk
        cut = buffer.rfind(b"<")
        if cut < 0 or b">" in buffer[cut:]:
            cut = len(buffer)
        body, tail = buffer[:cut], buffer[cut:]
        if len(tail) > 64 * 1024:  # a tag that never closes: nothing a reader could use
            tail = b""
        # One findall of tuples, not a match object and a second search per cell: 60,000
        # cells in a 10,000-line quote (bench/README.md, parsing).
        for name, attrs, letters, digits, closed in _TAG_R_RE.findall(body):
            if name == b"c":
                if letters:
                    col = columns.get(letters) or columns.setdefault(
                        letters, _column_number(letters)
                    )
                    if digits:
                        row = int(digits)
                else:
                    col += 1
                if not closed:
                    if col > max_col:
                        max_col = col
                    if row > max_row:
                        max_row = row
            elif name == b"row":
                row = int(digits) if digits else row + 1
                col = 0
            else:
                ref = _REF_RE.search(attrs)
                declared = ref.group(1).decode("ascii") if ref else ""
    return max_col, max_row, declared


def sheet_extent_check(data: bytes, *, file_name: str) -> None:
    """Refuse a workbook whose sheets reach past 100 columns or 20,000 data rows (see the
    module docstring): before calamine opens it in one process, while the sandbox child opens
    it for the web process (whose lines are then never used)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise QuoteParseError(
            "not a valid XLSX: the ZIP archive is damaged", file=file_name
        ) from None
    with archive:
        for info in archive.infolist():
            name = info.filename
            if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
                continue
            if "/_rels/" in name:
                continue
            try:
                with archive.open(info) as stream:
                    columns, rows, _declared = sheet_extent(iter(lambda: stream.read(_CHUNK), b""))
            except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError):
                raise QuoteParseError(
                    f"not a valid XLSX: member {name!r} is damaged", file=file_name
                ) from None
            if columns > MAX_COLUMNS or rows > MAX_SHEET_ROWS:
                raise QuoteParseError(
                    f"the sheet claims {columns:,} columns × {rows:,} rows; "
                    f"quotes have at most {MAX_COLUMNS} × {MAX_DATA_ROWS:,}",
                    file=file_name,
                )
