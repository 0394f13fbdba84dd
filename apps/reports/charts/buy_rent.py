"""Buy or rent: the cumulative cost of buying the quoted GPUs (price plus power) against
renting the same GPUs by the hour, month by month.
"""

from __future__ import annotations

from django.utils.safestring import SafeString

from apps.reports.charts.svg import (
    CAPACITY_COLOUR,
    CHART_W,
    INK,
    LIQUID_COLOUR,
    MUTED,
    OVER_COLOUR,
    amount_checked,
    svg_document,
    svg_text,
)
from apps.review.engine.schemas import BuyOrRent
from apps.words import number_format

PLOT_X, PLOT_W, PLOT_Y, PLOT_H = 64.0, 300.0, 38.0, 120.0


def _money(amount: float) -> str:
    if amount >= 1_000_000:
        return f"${amount / 1_000_000:,.1f}M"
    if amount >= 10_000:
        return f"${amount / 1000:,.0f}k"
    return f"${amount:,.0f}"


def buy_rent_svg(result: BuyOrRent) -> SafeString:
    """Cumulative cost by month: buying starts at the purchase price and climbs by the power bill,
    renting starts at nothing and climbs by the rent. Where they cross is the break-even, marked;
    the project's end is the dashed line. Eight H100s for six weeks end far left of the crossing.
    """
    months = amount_checked("months", result.months)
    even = result.break_even_months
    span = max(months, min(even * 1.25, 60.0) if even is not None else months, 1.0)
    buy_end = result.purchase_usd + result.power_usd_per_month * span
    rent_end = result.rent_usd_per_month * span
    top = max(buy_end, rent_end, 1.0)

    def point(month: float, usd: float) -> str:
        return f"{PLOT_X + month / span * PLOT_W:.1f},{PLOT_Y + PLOT_H - usd / top * PLOT_H:.1f}"

    body = [
        svg_text(0, 14, "Buy or rent: cumulative cost", size=13, weight="bold", css_class="label"),
        f'<line x1="{PLOT_X}" y1="{PLOT_Y + PLOT_H}" x2="{PLOT_X + PLOT_W}" '
        f'y2="{PLOT_Y + PLOT_H}" stroke="{INK}" stroke-width="1"/>',
        f'<line x1="{PLOT_X}" y1="{PLOT_Y}" x2="{PLOT_X}" y2="{PLOT_Y + PLOT_H}" stroke="{INK}" '
        f'stroke-width="1"/>',
        svg_text(PLOT_X - 4, PLOT_Y + 8, _money(top), size=10, anchor="end", fill=MUTED),
        svg_text(PLOT_X - 4, PLOT_Y + PLOT_H, "$0", size=10, anchor="end", fill=MUTED),
        svg_text(
            PLOT_X + PLOT_W,
            PLOT_Y + PLOT_H + 14,
            f"{number_format(span)} months",
            size=10,
            anchor="end",
            fill=MUTED,
        ),
        f'<polyline class="line-buy" points="{point(0, result.purchase_usd)} '
        f'{point(span, buy_end)}" fill="none" stroke="{CAPACITY_COLOUR}" stroke-width="2.5"/>',
        f'<polyline class="line-rent" points="{point(0, 0)} {point(span, rent_end)}" '
        f'fill="none" stroke="{LIQUID_COLOUR}" stroke-width="2.5"/>',
        svg_text(
            PLOT_X + 6,
            PLOT_Y + PLOT_H - result.purchase_usd / top * PLOT_H - 5,
            "buy",
            size=11,
            fill=MUTED,
            css_class="buy-label",
        ),
        svg_text(
            PLOT_X + PLOT_W - 6,
            PLOT_Y + PLOT_H - rent_end / top * PLOT_H - 2,
            "rent",
            size=11,
            anchor="end",
            fill=LIQUID_COLOUR,
            css_class="rent-label",
        ),
    ]
    end_x = PLOT_X + months / span * PLOT_W
    body += [
        f'<line class="project-end" x1="{end_x:.1f}" y1="{PLOT_Y}" x2="{end_x:.1f}" '
        f'y2="{PLOT_Y + PLOT_H}" stroke="{INK}" stroke-width="1" stroke-dasharray="4 2"/>',
        svg_text(
            end_x,
            PLOT_Y - 4,
            "project end",
            size=10,
            anchor="middle",
            fill=MUTED,
            css_class="project-end-label",
        ),
    ]
    if even is not None and even <= span:
        cx, cy = point(even, result.purchase_usd + result.power_usd_per_month * even).split(",")
        # above-left of the dot, clear of both lines; below-right when that leaves the plot
        room_above = float(cy) - 12 > PLOT_Y
        body += [
            f'<circle class="break-even" cx="{cx}" cy="{cy}" r="5" fill="{OVER_COLOUR}"/>',
            svg_text(
                float(cx) + (-8 if room_above else 8),
                float(cy) + (-10 if room_above else 18),
                f"break-even {number_format(even)} months",
                size=11,
                anchor="end" if room_above else "start",
                css_class="break-even-label",
            ),
        ]
    cheaper = "renting" if result.cheaper == "rent" else "buying"
    period = result.period or f"{number_format(months)} months"
    summary = (
        f"{period}: buy {_money(result.buy_total_usd)}, rent "
        f"{_money(result.rent_total_usd)}; {cheaper} is cheaper"
    )
    body.append(svg_text(0, PLOT_Y + PLOT_H + 32, summary, size=11, css_class="figures"))
    title = f"Buy or rent over {number_format(months)} months: buy {_money(result.buy_total_usd)}"
    title += f", rent {_money(result.rent_total_usd)}"
    if even is not None:
        title += f"; break-even after {number_format(even)} months"
    return svg_document(
        width=CHART_W, height=int(PLOT_Y + PLOT_H + 42), title=title, body=body, kind="buy-rent"
    )
