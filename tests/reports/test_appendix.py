"""The PDF's appendix of quote lines (`apps/reports/appendix.py`): preformatted columns, every
line, the part number, description and match wrapped inside their columns, the figures
right-aligned on a line's first row."""

from __future__ import annotations

import random
import textwrap

from apps.reports.appendix import DESCRIPTION_WIDTH, GAP, PART_WIDTH, _wrap, lines_columns
from apps.reports.context import LineRow


def line_row(*cells: object) -> LineRow:
    names = ("line", "part_number", "description", "quantity", "unit_price")
    return LineRow(**dict(zip((*names, "extended_price", "match_label"), cells, strict=True)))


LINES = [
    line_row(1, "DGXB-G1440+P2CMI36", "NVIDIA DGX B200 1440GB", "2", "USD 515,000.00",
         "USD 1,030,000.00", "Exact"),
    line_row(2, "CON-SNT-UCSC8XGPU-LONG-PART",
         "ProSupport Plus 3yr next business day onsite for the whole system", "1",
         "USD 9,000.00", "USD 9,000.00", "No match"),
]  # fmt: skip


def test_figures_are_right_aligned_under_their_headers() -> None:
    header, rule, first, second, *_ = lines_columns(LINES).split("\n")
    assert set(rule) == {"-"} and len(rule) == len(header)
    for row, line in ((first, LINES[0]), (second, LINES[1])):
        unit_end = row.index(line.unit_price) + len(line.unit_price)
        extended_end = row.rindex(line.extended_price) + len(line.extended_price)
        assert unit_end == header.index("Unit price") + len("Unit price")
        assert extended_end == header.index("Extended") + len("Extended")
        assert row.lstrip().startswith(str(line.line))


def test_long_texts_wrap_inside_their_columns_and_nothing_is_cut() -> None:
    header, _rule, _first, second, *wrapped = lines_columns(LINES).split("\n")
    part_at = header.index("Part number")
    description_at = header.index("Description")
    assert description_at == part_at + PART_WIDTH + len(GAP)
    rows = [second, *wrapped]
    parts = [row[part_at : part_at + PART_WIDTH].strip() for row in rows]
    described = [row[description_at : description_at + DESCRIPTION_WIDTH].strip() for row in rows]
    # 27 characters of part number on rows of at most 20; 65 of description on rows of 36.
    assert "".join(parts) == LINES[1].part_number and len(parts[0]) == PART_WIDTH
    assert " ".join(d for d in described if d) == LINES[1].description
    assert len(wrapped) == 1  # two rows: the figures only on the first
    assert "9,000.00" not in wrapped[0]


def test_a_cell_is_wrapped_as_textwrap_wraps_it() -> None:
    """The short-cell shortcut gives what `textwrap.wrap` gives, spaces, tabs and Unicode
    spaces included."""
    rng = random.Random(41)
    alphabet = "ab -\t\n xy1.,\u00a0\u2003\x1c\x85é"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 45)))
        width = rng.choice((14, 20, 36))
        expected = textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False)
        assert _wrap(text, width) == (expected or [""]), (text, width)
