"""Server-drawn inline SVG for the pages and the PDF: gauges, bars and the vehicles on the lot.

Every function is pure: numbers and words in, one `<svg>` string out, marked safe only because we
built every tag ourselves and escaped every piece of text that came from outside (a quote's
description may carry `<img src=...>`). No `style=` attributes and no `<style>` element: the pages'
CSP forbids inline styles, so colour and type are SVG presentation attributes (fill, stroke,
font-size). Each SVG has a `<title>` and `role="img"` so a screen reader says what it shows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from apps.review.engine.schemas import BuyOrRent, RackLoad
from apps.words import LEVEL_COLOURS, LEVEL_LABELS, number_format, unit_for, vehicle_name

__all__ = ["LEVEL_COLOURS", "LEVEL_LABELS", "number_format", "vehicle_name"]

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
INK = "#1f2933"
MUTED = "#616e7c"
TRACK = "#d9dee3"

# The blood-pressure levels, calm to crisis, with the colour each one wears everywhere.
OK_COLOUR = "#2e7d32"
OVER_COLOUR = "#b71c1c"
CAPACITY_COLOUR = "#90a4ae"


# Form factor -> the vehicle the field guide parks it as.
def _text(value: object) -> str:
    return str(escape(str(value)))


def _svg(
    *, width: int, height: int, title: str, body: Iterable[str], kind: str, top: int = 0
) -> SafeString:
    """Wrap already-built SVG elements; `title` is escaped here. `top` > 0 shows the drawing from
    that y down (`height` units of it): the band above held text now printed outside."""
    safe_title = _text(title)
    parts = [
        f'<svg xmlns="{SVG_NS}" class="chart chart-{kind}" width="{width}" height="{height}" '
        f'viewBox="0 {top} {width} {height}" role="img" aria-label="{safe_title}" '
        f'font-family="{FONT}">',
        f"<title>{safe_title}</title>",
        *body,
        "</svg>",
    ]
    return mark_safe("".join(parts))  # every interpolated text was escaped


def _label(
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
        f'fill="{fill}" font-weight="{weight}"{klass}>{_text(text)}</text>'
    )


def _check_amount(name: str, value: float) -> float:
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number ≥ 0, got {value!r}")
    return float(value)


# --- the blood-pressure gauge -------------------------------------------------------------------

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
        return _svg(width=220, height=GAUGE_DIAL_H, title=title, body=body, kind="gauge")
    body.append(
        _label(GAUGE_CX, 128, label, size=13, anchor="middle", weight="bold", css_class="label")
    )
    body.append(
        _label(
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
    return _svg(width=220, height=154, title=title, body=body, kind="gauge")


# --- demand against capacity --------------------------------------------------------------------

BAR_X, BAR_W = 72.0, 200.0
VALUE_X = BAR_X + BAR_W + 8
CHART_W = 400


#: The band a chart's bold title takes at its top (y 0 to 18) when it is printed outside.
CHART_TITLE_H = 18


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

    demand = _check_amount("demand", demand)
    capacity = _check_amount("capacity", capacity)
    scale = BAR_W / max(demand, capacity) if max(demand, capacity) > 0 else 0.0
    demand_w, capacity_w = demand * scale, capacity * scale
    over = demand > capacity
    colour = OVER_COLOUR if over else OK_COLOUR
    ratio = demand_ratio(demand, capacity)
    body = [
        _label(0, 14, label, size=13, weight="bold", css_class="label"),
        _label(0, 40, "Demand", size=12, fill=MUTED),
        f'<rect class="bar-track" x="{BAR_X}" y="27" width="{BAR_W}" height="18" fill="{TRACK}"/>',
        f'<rect class="bar-demand" x="{BAR_X}" y="27" width="{demand_w:.2f}" height="18" '
        f'fill="{colour}"/>',
        _label(0, 70, "Capacity", size=12, fill=MUTED),
        f'<rect class="bar-track" x="{BAR_X}" y="57" width="{BAR_W}" height="18" fill="{TRACK}"/>',
        f'<rect class="bar-capacity" x="{BAR_X}" y="57" width="{capacity_w:.2f}" height="18" '
        f'fill="{CAPACITY_COLOUR}"/>',
        f'<line class="capacity-mark" x1="{BAR_X + capacity_w:.2f}" y1="22" '
        f'x2="{BAR_X + capacity_w:.2f}" y2="80" stroke="{INK}" stroke-width="1.5" '
        f'stroke-dasharray="3 2"/>',
        _label(VALUE_X, 40, amount(demand), size=11, css_class="demand-value"),
        _label(VALUE_X, 70, amount(capacity), size=11, css_class="capacity-value"),
        _label(BAR_X, 96, ratio, size=11, css_class="figures"),
    ]
    title = f"{label}: demand {amount(demand)} against capacity {amount(capacity)}"
    if text_outside:
        top = CHART_TITLE_H
        return _svg(
            width=CHART_W, height=84 - top, title=title, body=body[1:-1], kind="demand", top=top
        )
    return _svg(width=CHART_W, height=104, title=title, body=body, kind="demand")


# --- rack power against the room's qualification -----------------------------------------------

MAX_RACK_ICONS = 24
RACK_POWER_TITLE = "Rack power"


def rack_power_svg(
    rack_kw: float,
    qualified_kw: float,
    *,
    racks_needed: int | None,
    racks_available: int | None,
    text_outside: bool = False,
) -> str:
    """One rack's draw against the kW the room is qualified for, and racks needed vs available.

    The field guide's room "qualified for 2 kW rack and you want 60 kW": the bar runs thirty times
    past the dashed qualification line, in red. Below, one small rack per rack needed; the racks
    beyond what the room has are red. `text_outside=True` (the PDF) leaves out the title
    (`RACK_POWER_TITLE`), for the page to print as text.
    """
    rack_kw = _check_amount("rack_kw", rack_kw)
    qualified_kw = _check_amount("qualified_kw", qualified_kw)
    top = max(rack_kw, qualified_kw)
    scale = BAR_W / top if top > 0 else 0.0
    rack_w, qualified_x = rack_kw * scale, BAR_X + qualified_kw * scale
    over = rack_kw > qualified_kw
    colour = OVER_COLOUR if over else OK_COLOUR
    summary = f"Room qualified for {number_format(qualified_kw)} kW per rack"
    if over and qualified_kw > 0:
        summary += f" · {number_format(rack_kw / qualified_kw)}× over"
    body = [
        _label(0, 14, RACK_POWER_TITLE, size=13, weight="bold", css_class="label"),
        _label(0, 40, "Per rack", size=12, fill=MUTED),
        f'<rect class="bar-track" x="{BAR_X}" y="27" width="{BAR_W}" height="18" fill="{TRACK}"/>',
        f'<rect class="bar-rack" x="{BAR_X}" y="27" width="{rack_w:.2f}" height="18" '
        f'fill="{colour}"/>',
        f'<line class="qualified-mark" x1="{qualified_x:.2f}" y1="21" x2="{qualified_x:.2f}" '
        f'y2="51" stroke="{INK}" stroke-width="2" stroke-dasharray="4 2"/>',
        _label(VALUE_X, 40, f"{number_format(rack_kw)} kW", size=11, css_class="rack-value"),
        _label(BAR_X, 66, summary, size=11, css_class="figures"),
    ]
    height = 74
    if racks_needed is not None:
        body.extend(_rack_icons(racks_needed, racks_available))
        height = 122
    title = f"Rack power: {number_format(rack_kw)} kW per rack against "
    title += f"{number_format(qualified_kw)} kW qualified"
    if racks_needed is not None:
        title += f"; {racks_needed} racks needed"
        if racks_available is not None:
            title += f", {racks_available} available"
    if text_outside:
        top = CHART_TITLE_H
        return _svg(
            width=CHART_W, height=height - top, title=title, body=body[1:], kind="rack", top=top
        )
    return _svg(width=CHART_W, height=height, title=title, body=body, kind="rack")


def _rack_icons(racks_needed: int, racks_available: int | None) -> list[str]:
    if racks_needed < 0 or (racks_available is not None and racks_available < 0):
        raise ValueError("rack counts must be ≥ 0")
    shown = min(racks_needed, MAX_RACK_ICONS)
    body = [_label(0, 96, "Racks", size=12, fill=MUTED)]
    for index in range(shown):
        beyond = racks_available is not None and index >= racks_available
        fill = OVER_COLOUR if beyond else CAPACITY_COLOUR
        klass = "rack rack-missing" if beyond else "rack"
        x = BAR_X + index * 8.3
        body.append(
            f'<rect class="{klass}" x="{x:.1f}" y="80" width="6.5" height="20" fill="{fill}" '
            f'stroke="{INK}" stroke-width="0.6"/>'
        )
    text = f"{racks_needed} needed"
    if racks_available is not None:
        text += f" · {racks_available} available"
    if racks_needed > shown:
        text += f" (first {shown} drawn)"
    body.append(_label(BAR_X, 115, text, size=11, css_class="rack-figures"))
    return body


# --- each rack against its limit, split by where the heat goes --------------------------------

LIQUID_COLOUR = "#1565c0"
AIR_COLOUR = "#f9a825"
RACK_COL_W, RACK_COL_GAP, RACK_COL_H = 22.0, 8.0, 120.0
MAX_RACK_COLUMNS = 12


RACK_ROW_TITLE = "Racks against their limit"


def rack_row_words(racks: Sequence[RackLoad]) -> str:
    """The line under the columns: "4 racks · limit 15 kW"."""
    shown = racks[:MAX_RACK_COLUMNS]
    unusable = sum(not r.usable for r in racks)
    limits = {r.limit_kw for r in racks if r.limit_kw is not None}
    words = [f"{len(racks)} rack{'s' if len(racks) != 1 else ''}"]
    if limits:
        words.append(f"limit {' / '.join(number_format(v) for v in sorted(limits))} kW")
    if any(r.liquid_kw for r in racks):
        words.append("blue: liquid, amber: air")
    if unusable:
        words.append(f"{unusable} cannot be used (crossed out)")
    if len(racks) > len(shown):
        words.append(f"first {len(shown)} drawn")
    return " · ".join(words)


def rack_row_svg(racks: Sequence[RackLoad], *, text_outside: bool = False) -> SafeString:
    """Each rack as a column: its kW (liquid share blue, air share amber) up to the dashed line of
    its limit; a rack none of whose systems it can take is crossed out in red.

    Four DGX B200 in a 2 kW room draw as one crossed-out column 28.6 times its line; an NVL72 in a
    150 kW liquid hall as one column, 80 % blue, under its line. `text_outside=True` (the PDF)
    leaves out the title above and the line below (`RACK_ROW_TITLE`, `rack_row_words`).
    """
    if not racks:
        raise ValueError("no racks to draw")
    shown = list(racks[:MAX_RACK_COLUMNS])
    top = max(max(r.kw, r.limit_kw or 0.0) for r in shown) or 1.0
    scale = RACK_COL_H / top
    base_y, left = 30.0 + RACK_COL_H, 40.0
    body = [_label(0, 14, RACK_ROW_TITLE, size=13, weight="bold", css_class="label")]
    for index, rack in enumerate(shown):
        for name, amount in (("kw", rack.kw), ("liquid_kw", rack.liquid_kw)):
            _check_amount(name, amount)
        x = left + index * (RACK_COL_W + RACK_COL_GAP)
        air_h, liquid_h = rack.air_kw * scale, rack.liquid_kw * scale
        body.append(
            f'<rect class="rack-frame" x="{x:.1f}" y="30" width="{RACK_COL_W:.1f}" '
            f'height="{RACK_COL_H:.1f}" fill="none" stroke="{TRACK}" stroke-width="1"/>'
        )
        if liquid_h:
            body.append(
                f'<rect class="rack-liquid" x="{x:.1f}" y="{base_y - liquid_h:.1f}" '
                f'width="{RACK_COL_W:.1f}" height="{liquid_h:.1f}" fill="{LIQUID_COLOUR}"/>'
            )
        body.append(
            f'<rect class="rack-air" x="{x:.1f}" y="{base_y - liquid_h - air_h:.1f}" '
            f'width="{RACK_COL_W:.1f}" height="{air_h:.1f}" fill="{AIR_COLOUR}"/>'
        )
        if rack.limit_kw is not None:
            limit_y = base_y - rack.limit_kw * scale
            body.append(
                f'<line class="rack-limit" x1="{x - 3:.1f}" y1="{limit_y:.1f}" '
                f'x2="{x + RACK_COL_W + 3:.1f}" y2="{limit_y:.1f}" stroke="{INK}" '
                f'stroke-width="2" stroke-dasharray="4 2"/>'
            )
        if not rack.usable:
            body.append(
                f'<path class="rack-unusable" d="M {x:.1f} 30 L {x + RACK_COL_W:.1f} {base_y:.1f} '
                f'M {x + RACK_COL_W:.1f} 30 L {x:.1f} {base_y:.1f}" stroke="{OVER_COLOUR}" '
                f'stroke-width="2.5"/>'
            )
        body.append(
            _label(
                x + RACK_COL_W / 2,
                base_y + 14,
                number_format(rack.kw),
                size=10,
                anchor="middle",
                css_class="rack-kw",
            )
        )
    body.append(_label(0, base_y + 32, rack_row_words(racks), size=11, css_class="figures"))
    title = "Racks: " + "; ".join(
        f"{number_format(r.kw)} kW"
        + (f" of {number_format(r.limit_kw)} kW" if r.limit_kw is not None else "")
        + ("" if r.usable else " (cannot be used)")
        for r in shown
    )
    if text_outside:
        top = 24
        return _svg(
            width=CHART_W,
            height=int(base_y + 20) - top,
            title=title,
            body=body[1:-1],
            kind="rack-row",
            top=top,
        )
    return _svg(width=CHART_W, height=int(base_y + 40), title=title, body=body, kind="rack-row")


# --- buy or rent: cumulative cost ---------------------------------------------------------------

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
    months = _check_amount("months", result.months)
    even = result.break_even_months
    span = max(months, min(even * 1.25, 60.0) if even is not None else months, 1.0)
    buy_end = result.purchase_usd + result.power_usd_per_month * span
    rent_end = result.rent_usd_per_month * span
    top = max(buy_end, rent_end, 1.0)

    def point(month: float, usd: float) -> str:
        return f"{PLOT_X + month / span * PLOT_W:.1f},{PLOT_Y + PLOT_H - usd / top * PLOT_H:.1f}"

    body = [
        _label(0, 14, "Buy or rent: cumulative cost", size=13, weight="bold", css_class="label"),
        f'<line x1="{PLOT_X}" y1="{PLOT_Y + PLOT_H}" x2="{PLOT_X + PLOT_W}" '
        f'y2="{PLOT_Y + PLOT_H}" stroke="{INK}" stroke-width="1"/>',
        f'<line x1="{PLOT_X}" y1="{PLOT_Y}" x2="{PLOT_X}" y2="{PLOT_Y + PLOT_H}" stroke="{INK}" '
        f'stroke-width="1"/>',
        _label(PLOT_X - 4, PLOT_Y + 8, _money(top), size=10, anchor="end", fill=MUTED),
        _label(PLOT_X - 4, PLOT_Y + PLOT_H, "$0", size=10, anchor="end", fill=MUTED),
        _label(
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
        _label(
            PLOT_X + 6,
            PLOT_Y + PLOT_H - result.purchase_usd / top * PLOT_H - 5,
            "buy",
            size=11,
            fill=MUTED,
            css_class="buy-label",
        ),
        _label(
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
        _label(
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
            _label(
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
    body.append(_label(0, PLOT_Y + PLOT_H + 32, summary, size=11, css_class="figures"))
    title = f"Buy or rent over {number_format(months)} months: buy {_money(result.buy_total_usd)}"
    title += f", rent {_money(result.rent_total_usd)}"
    if even is not None:
        title += f"; break-even after {number_format(even)} months"
    return _svg(
        width=CHART_W, height=int(PLOT_Y + PLOT_H + 42), title=title, body=body, kind="buy-rent"
    )


# --- the vehicles -------------------------------------------------------------------------------


def _wheel(cx: float, cy: float, r: float = 7.0) -> str:
    return (
        f'<circle class="wheel" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{INK}"/>'
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.4:.1f}" fill="{TRACK}"/>'
    )


def _rect(x: float, y: float, w: float, h: float, fill: str, rx: float = 2) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx:.1f}" '
        f'fill="{fill}" stroke="{INK}" stroke-width="1"/>'
    )


def _path(d: str, fill: str) -> str:
    return f'<path d="{d}" fill="{fill}" stroke="{INK}" stroke-width="1" stroke-linejoin="round"/>'


GLASS = "#cfe3f0"
BODY = "#4a7fa7"


def _moped() -> list[str]:
    return [
        _path("M 58 50 L 96 50 L 104 36 L 110 36 L 104 52 L 60 58 Z", BODY),
        _rect(60, 40, 22, 6, INK, 2),
        f'<line x1="104" y1="36" x2="100" y2="24" stroke="{INK}" stroke-width="2"/>',
        f'<line x1="96" y1="24" x2="106" y2="24" stroke="{INK}" stroke-width="2"/>',
        _wheel(58, 62, 8),
        _wheel(104, 62, 8),
    ]


def _motorcycle() -> list[str]:
    return [
        _path("M 46 54 L 62 40 L 96 40 L 112 52 L 100 56 L 60 58 Z", BODY),
        _rect(66, 32, 24, 8, INK, 3),
        _path("M 98 40 L 108 26 L 112 28 L 104 42 Z", MUTED),
        _wheel(50, 60, 10),
        _wheel(110, 60, 10),
    ]


def _compact() -> list[str]:
    return [
        _path("M 44 58 L 44 42 L 58 42 L 68 28 L 96 28 L 108 42 L 118 44 L 118 58 Z", BODY),
        _path("M 62 42 L 70 32 L 94 32 L 102 42 Z", GLASS),
        _wheel(60, 60, 8),
        _wheel(104, 60, 8),
    ]


def _sedan() -> list[str]:
    # The long roof doubles as the station wagon: same family, more room in the back.
    return [
        _path("M 24 58 L 24 44 L 44 40 L 58 26 L 118 26 L 126 40 L 140 44 L 140 58 Z", BODY),
        _path("M 50 40 L 62 30 L 86 30 L 86 40 Z", GLASS),
        _path("M 90 40 L 90 30 L 114 30 L 120 40 Z", GLASS),
        _wheel(46, 60, 9),
        _wheel(118, 60, 9),
    ]


def _work_van() -> list[str]:
    return [
        _path("M 20 60 L 20 18 L 112 18 L 112 60 Z", "#e7eaee"),
        _path("M 112 60 L 112 26 L 130 26 L 142 42 L 142 60 Z", BODY),
        _path("M 116 30 L 128 30 L 137 42 L 116 42 Z", GLASS),
        _wheel(40, 62, 9),
        _wheel(124, 62, 9),
    ]


def _semi() -> list[str]:
    return [
        _rect(4, 12, 106, 42, "#e7eaee", 1),
        f'<line x1="4" y1="54" x2="118" y2="54" stroke="{INK}" stroke-width="3"/>',
        _path("M 114 56 L 114 20 L 134 20 L 150 36 L 154 38 L 154 56 Z", BODY),
        _path("M 120 24 L 132 24 L 145 36 L 120 36 Z", GLASS),
        _wheel(22, 62, 7),
        _wheel(38, 62, 7),
        _wheel(98, 62, 7),
        _wheel(124, 62, 7),
        _wheel(142, 62, 7),
    ]


def _freight_train() -> list[str]:
    body = [f'<line x1="0" y1="68" x2="160" y2="68" stroke="{INK}" stroke-width="2"/>']
    for x in (2, 50):
        body.append(_rect(x, 24, 44, 34, "#e7eaee", 1))
        body.extend([_wheel(x + 10, 62, 5), _wheel(x + 34, 62, 5)])
    body.append(
        _path("M 98 58 L 98 22 L 128 22 L 128 12 L 144 12 L 144 30 L 158 40 L 158 58 Z", BODY)
    )
    body.append(_rect(131, 16, 10, 10, GLASS, 1))
    body.extend([_wheel(108, 62, 5), _wheel(128, 62, 5), _wheel(148, 62, 5)])
    return body


def _unknown() -> list[str]:
    return [
        _rect(56, 16, 48, 44, "#e7eaee", 3),
        _label(80, 46, "?", size=26, anchor="middle", fill=MUTED),
    ]


DRAWINGS = {
    "moped": _moped,
    "motorcycle": _motorcycle,
    "compact car": _compact,
    "sedan": _sedan,
    "work van": _work_van,
    "semi": _semi,
    "freight train": _freight_train,
}


#: How tall a vehicle drawing is without its label underneath (every drawing ends above y 72).
VEHICLE_DRAWING_H = 76


@functools.lru_cache(maxsize=512, typed=True)  # words in, the same drawing out
def vehicle_svg(form_factor: str, *, label: str, labelled: bool = True) -> str:
    """A small drawing of the vehicle a quoted system is: a DGX B200 is a semi, an NVL72 a train.

    The drawing sits on the left of the report's "what was quoted" table, so a reader sees at a
    glance that they were quoted a freight train for a school-bus load. `labelled=False` leaves
    the label ("4 × semi") for the PDF to print under the drawing as text: WeasyPrint sets SVG
    text letter by letter, each label a dozen text layouts and a group of its own.
    """
    vehicle = vehicle_name(form_factor)
    drawing = DRAWINGS.get(vehicle, _unknown)()
    body = [f'<g class="vehicle" data-vehicle="{_text(vehicle)}">', *drawing, "</g>"]
    height = VEHICLE_DRAWING_H
    if labelled:
        body.append(
            _label(80, 88, label, size=11, anchor="middle", weight="bold", css_class="label")
        )
        height = 94
    return _svg(width=160, height=height, title=f"{label} ({vehicle})", body=body, kind="vehicle")
