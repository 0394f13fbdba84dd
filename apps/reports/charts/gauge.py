"""The blood-pressure gauge: four coloured quarters of a half circle and one needle
("Facilities: crisis" points into the red quarter on the right).
"""

from __future__ import annotations

import functools
import math

from apps.reports.charts.svg import INK, svg_document, svg_text
from apps.words import LEVEL_COLOURS, LEVEL_LABELS

GAUGE_CX, GAUGE_CY, GAUGE_R = 110.0, 100.0, 80.0


def _polar(angle_deg: float, radius: float) -> tuple[float, float]:
    """A point on the gauge: 180° is the left end (calm), 0° the right end (crisis)."""
    rad = math.radians(angle_deg)
    return GAUGE_CX + radius * math.cos(rad), GAUGE_CY - radius * math.sin(rad)


def gauge_needle_angle(level: str) -> float:
    """The needle points at the middle of its level's quarter: calm 157.5°, crisis 22.5°."""
    if level not in LEVEL_COLOURS:
        raise ValueError(f"unknown blood-pressure level {level!r}")
    index = list(LEVEL_COLOURS).index(level)
    return 180.0 - 45.0 * index - 22.5


#: How tall a gauge is without its two lines of text ("Finance", "Crisis") underneath.
GAUGE_DIAL_H = 114


@functools.lru_cache(maxsize=512, typed=True)  # words in, the same drawing out
def gauge_svg(level: str, *, label: str, text_outside: bool = False) -> str:
    """A blood-pressure gauge: four coloured quarters of a half circle and one needle.

    "Facilities: crisis" puts the needle in the red quarter on the right, the way a 60 kW rack in a
    room qualified for 2 kW should look to the person who has to power it. `text_outside=True`
    (the PDF) draws the dial alone and leaves "Finance" and "Crisis" for the page to print under
    it: WeasyPrint lays SVG text out letter by letter.
    """
    angle = gauge_needle_angle(level)
    body: list[str] = []
    for index, (name, colour) in enumerate(LEVEL_COLOURS.items()):
        start, end = 180.0 - 45.0 * index, 180.0 - 45.0 * (index + 1)
        x1, y1 = _polar(start, GAUGE_R)
        x2, y2 = _polar(end, GAUGE_R)
        is_current = name == level
        body.append(
            f'<path class="gauge-arc" data-level="{name}" d="M {x1:.2f} {y1:.2f} '
            f'A {GAUGE_R:.0f} {GAUGE_R:.0f} 0 0 1 {x2:.2f} {y2:.2f}" fill="none" '
            f'stroke="{colour}" stroke-width="{22 if is_current else 16}" '
            f'stroke-opacity="{1 if is_current else 0.35}"/>'
        )
    nx, ny = _polar(angle, GAUGE_R - 14)
    body.append(
        f'<line class="needle" x1="{GAUGE_CX:.2f}" y1="{GAUGE_CY:.2f}" x2="{nx:.2f}" '
        f'y2="{ny:.2f}" stroke="{INK}" stroke-width="4" stroke-linecap="round"/>'
    )
    body.append(f'<circle cx="{GAUGE_CX:.0f}" cy="{GAUGE_CY:.0f}" r="7" fill="{INK}"/>')
    level_text = LEVEL_LABELS[level]
    title = f"{label}: {level_text}"
    if text_outside:
        return svg_document(width=220, height=GAUGE_DIAL_H, title=title, body=body, kind="gauge")
    body.append(
        svg_text(GAUGE_CX, 128, label, size=13, anchor="middle", weight="bold", css_class="label")
    )
    body.append(
        svg_text(
            GAUGE_CX,
            146,
            level_text,
            size=13,
            anchor="middle",
            fill=LEVEL_COLOURS[level],
            weight="bold",
            css_class="level",
        )
    )
    return svg_document(width=220, height=154, title=title, body=body, kind="gauge")
