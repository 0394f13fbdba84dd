"""The passes over a whole quote's layout after each row's own role is read and before the
rows nest: alternatives offered side by side (``bom_options``) and group banners that give
their group's number of systems (``bom_groups``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

from apps.quotes.bom_groups import banner_counts_read
from apps.quotes.bom_options import options_read
from apps.quotes.bom_rows import Row
from apps.quotes.schemas import LineProblem


def layout_read(rows: list[Row]) -> list[LineProblem]:
    """Read the layout's options and group counts; the problems worth saying."""
    problems = options_read(rows)
    banner_counts_read(rows)
    return problems
