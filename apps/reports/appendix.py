"""The quote lines as the PDF's appendix: preformatted columns, not a table.

WeasyPrint lays a table out cell by cell (a 500-line quote is 3,500 cells; 7 s of the 12 s
its PDF took, bench/README.md) and a block of monospaced lines as lines. The columns: the line
number, part number, description, quantity, unit price, extended price and catalog match;
the part number, the description and the match wrap inside their columns, onto as many lines as
they need (nothing is cut), and the figures are right-aligned on the line's first row.

    #  Part number           Description                    Qty      Unit price  …
    1  DGXB-G1440+P2CMI36    NVIDIA DGX B200 1440GB           1  USD 515,000.00  …
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Protocol

HEADER = ("#", "Part number", "Description", "Qty", "Unit price", "Extended", "Catalog match")
#: Characters per wrapped column (part number, description, match); the figures take the
#: width of their longest value. 6.5 pt DejaVu Sans Mono is 3.9 pt a character: a quote of
#: 7-digit dollar amounts is about 120 characters, 165 mm, inside A4's and Letter's 178 mm.
PART_WIDTH = 20
DESCRIPTION_WIDTH = 36
MATCH_WIDTH = 14
GAP = "  "


class Line(Protocol):
    line: int
    part_number: str
    description: str
    quantity: str
    unit_price: str
    extended_price: str
    match_label: str


#: What `textwrap` reads as whitespace (its `TextWrapper.whitespace`) besides the space.
_WRAPPED_SPACES = frozenset("\t\n\x0b\x0c\r")


def _wrap(text: str, width: int) -> list[str]:
    """`text` on lines of at most `width` characters, as `textwrap.wrap` breaks it; a text that
    fits and has no space to drop or tab to replace is its own one line (most cells: 1,503
    wraps were 80 % of a 500-line appendix's 80 ms, bench/README.md)."""
    if len(text) <= width and text == text.strip() and _WRAPPED_SPACES.isdisjoint(text):
        return [text] if text else [""]
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def lines_columns(lines: Sequence[Line]) -> str:
    """The header, a rule and every line, as text for a `<pre>` (the template escapes it)."""
    rows = [
        (str(x.line), x.part_number, x.description, x.quantity, x.unit_price, x.extended_price)
        for x in lines
    ]
    figure_widths = [
        max(len(HEADER[i]), *(len(row[i]) for row in rows)) if rows else len(HEADER[i])
        for i in (0, 3, 4, 5)
    ]
    number_w, qty_w, unit_w, extended_w = figure_widths

    def physical(cells: tuple[str, ...], match: str) -> list[str]:
        number, part, description, qty, unit, extended = cells
        parts = _wrap(part, PART_WIDTH)
        descriptions = _wrap(description, DESCRIPTION_WIDTH)
        matches = _wrap(match, MATCH_WIDTH)
        out = []
        for i in range(max(len(parts), len(descriptions), len(matches))):
            first = i == 0
            out.append(
                GAP.join(
                    (
                        (number if first else "").rjust(number_w),
                        (parts[i] if i < len(parts) else "").ljust(PART_WIDTH),
                        (descriptions[i] if i < len(descriptions) else "").ljust(DESCRIPTION_WIDTH),
                        (qty if first else "").rjust(qty_w),
                        (unit if first else "").rjust(unit_w),
                        (extended if first else "").rjust(extended_w),
                        matches[i] if i < len(matches) else "",
                    )
                ).rstrip()
            )
        return out

    header = physical(HEADER[:6], HEADER[6])
    text = [*header, "-" * max(len(x) for x in header)]
    for row, line in zip(rows, lines, strict=True):
        text.extend(physical(row, line.match_label))
    return "\n".join(text)
