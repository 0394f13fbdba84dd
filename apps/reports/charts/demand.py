"""Demand against capacity: two bars on one scale, what the load asks for and what the
quote can give (1,500 tokens/s asked of a quote serving 3,000 draws the demand bar half as long).
"""

from __future__ import annotations

from apps.reports.charts.svg import (
    BAR_W,
    BAR_X,
    CAPACITY_COLOUR,
    CHART_TITLE_H,
    CHART_W,
    INK,
    MUTED,
    OK_COLOUR,
    OVER_COLOUR,
    TRACK,
    VALUE_X,
    amount_checked,
    svg_document,
    svg_text,
)
from apps.words import number_format, unit_for


def demand_ratio(demand: float, capacity: float) -> str:
    """The line under the two bars: "Demand is 50% of capacity"."""
    if capacity > 0:
        return f"Demand is {number_format(100 * demand / capacity)}% of capacity"
    return "No capacity to serve the demand"


def demand_capacity_svg(
    demand: float, capacity: float, *, unit: str, label: str, text_outside: bool = False
) -> str:
    """Two bars on one scale: what the load asks for, and what the quote can give.

    1,500 tokens/s asked of a quote that serves 3,000 draws the demand bar half as long as the
    capacity bar (the school bus half empty); 6,000 against 3,000 draws it twice as long, in red.
    `text_outside=True` (the PDF) leaves out the title above and the ratio below (`label` and
    `demand_ratio`), for the page to print as text.
    """

    def amount(value: float) -> str:
        return f"{number_format(value)} {unit_for(value, unit)}"

    demand = amount_checked("demand", demand)
    capacity = amount_checked("capacity", capacity)
    scale = BAR_W / max(demand, capacity) if max(demand, capacity) > 0 else 0.0
    demand_w, capacity_w = demand * scale, capacity * scale
    over = demand > capacity
    colour = OVER_COLOUR if over else OK_COLOUR
    ratio = demand_ratio(demand, capacity)
    body = [
        svg_text(0, 14, label, size=13, weight="bold", css_class="label"),
        svg_text(0, 40, "Demand", size=12, fill=MUTED),
        f'<rect class="bar-track" x="{BAR_X}" y="27" width="{BAR_W}" height="18" fill="{TRACK}"/>',
        f'<rect class="bar-demand" x="{BAR_X}" y="27" width="{demand_w:.2f}" height="18" '
        f'fill="{colour}"/>',
        svg_text(0, 70, "Capacity", size=12, fill=MUTED),
        f'<rect class="bar-track" x="{BAR_X}" y="57" width="{BAR_W}" height="18" fill="{TRACK}"/>',
        f'<rect class="bar-capacity" x="{BAR_X}" y="57" width="{capacity_w:.2f}" height="18" '
        f'fill="{CAPACITY_COLOUR}"/>',
        f'<line class="capacity-mark" x1="{BAR_X + capacity_w:.2f}" y1="22" '
        f'x2="{BAR_X + capacity_w:.2f}" y2="80" stroke="{INK}" stroke-width="1.5" '
        f'stroke-dasharray="3 2"/>',
        svg_text(VALUE_X, 40, amount(demand), size=11, css_class="demand-value"),
        svg_text(VALUE_X, 70, amount(capacity), size=11, css_class="capacity-value"),
        svg_text(BAR_X, 96, ratio, size=11, css_class="figures"),
    ]
    title = f"{label}: demand {amount(demand)} against capacity {amount(capacity)}"
    if text_outside:
        top = CHART_TITLE_H
        return svg_document(
            width=CHART_W, height=84 - top, title=title, body=body[1:-1], kind="demand", top=top
        )
    return svg_document(width=CHART_W, height=104, title=title, body=body, kind="demand")
