"""The pieces every chart shares: the ``<svg>`` frame with its ``<title>`` and ``role="img"``
(``svg_document``), a ``<text>`` element whose words are escaped (``svg_text``), the ink and
level colours, the bar layout, and the check that an amount drawn is a finite number ≥ 0.

Pure: numbers and words in, markup out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
INK = "#1f2933"
MUTED = "#616e7c"
TRACK = "#d9dee3"

# The blood-pressure levels, calm to crisis, with the colour each one wears everywhere.
OK_COLOUR = "#2e7d32"
OVER_COLOUR = "#b71c1c"
CAPACITY_COLOUR = "#90a4ae"
#: Where a rack's heat goes (liquid or air); renting is drawn in the liquid colour.
LIQUID_COLOUR = "#1565c0"
AIR_COLOUR = "#f9a825"


def escaped(value: object) -> str:
    return str(escape(str(value)))


def svg_document(
    *, width: int, height: int, title: str, body: Iterable[str], kind: str, top: int = 0
) -> SafeString:
    """Wrap already-built SVG elements; `title` is escaped here. `top` > 0 shows the drawing from
    that y down (`height` units of it): the band above held text now printed outside."""
    safe_title = escaped(title)
    parts = [
        f'<svg xmlns="{SVG_NS}" class="chart chart-{kind}" width="{width}" height="{height}" '
        f'viewBox="0 {top} {width} {height}" role="img" aria-label="{safe_title}" '
        f'font-family="{FONT}">',
        f"<title>{safe_title}</title>",
        *body,
        "</svg>",
    ]
    return mark_safe("".join(parts))  # every interpolated text was escaped


def svg_text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 12,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
    css_class: str = "",
) -> str:
    klass = f' class="{css_class}"' if css_class else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}" font-weight="{weight}"{klass}>{escaped(text)}</text>'
    )


def amount_checked(name: str, value: float) -> float:
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number ≥ 0, got {value!r}")
    return float(value)


#: The bar charts' layout: the bars start at x 72 and are 200 wide, their values to the right.
BAR_X, BAR_W = 72.0, 200.0
VALUE_X = BAR_X + BAR_W + 8
CHART_W = 400


#: The band a chart's bold title takes at its top (y 0 to 18) when it is printed outside.
CHART_TITLE_H = 18
