"""The racks against the room: rack power against the room's qualification (one icon a rack
needed), and each rack against its limit, split by where the heat goes (liquid or air).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString

from apps.reports.charts.svg import (
    AIR_COLOUR,
    BAR_W,
    BAR_X,
    CAPACITY_COLOUR,
    CHART_TITLE_H,
    CHART_W,
    INK,
    LIQUID_COLOUR,
    MUTED,
    OK_COLOUR,
    OVER_COLOUR,
    TRACK,
    VALUE_X,
    amount_checked,
    svg_document,
    svg_text,
)
from apps.review.engine.schemas import RackLoad
from apps.words import number_format

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
    rack_kw = amount_checked("rack_kw", rack_kw)
    qualified_kw = amount_checked("qualified_kw", qualified_kw)
    top = max(rack_kw, qualified_kw)
    scale = BAR_W / top if top > 0 else 0.0
    rack_w, qualified_x = rack_kw * scale, BAR_X + qualified_kw * scale
    over = rack_kw > qualified_kw
    colour = OVER_COLOUR if over else OK_COLOUR
    summary = f"Room qualified for {number_format(qualified_kw)} kW per rack"
    if over and qualified_kw > 0:
        summary += f" · {number_format(rack_kw / qualified_kw)}× over"
    body = [
        svg_text(0, 14, RACK_POWER_TITLE, size=13, weight="bold", css_class="label"),
        svg_text(0, 40, "Per rack", size=12, fill=MUTED),
        f'<rect class="bar-track" x="{BAR_X}" y="27" width="{BAR_W}" height="18" fill="{TRACK}"/>',
        f'<rect class="bar-rack" x="{BAR_X}" y="27" width="{rack_w:.2f}" height="18" '
        f'fill="{colour}"/>',
        f'<line class="qualified-mark" x1="{qualified_x:.2f}" y1="21" x2="{qualified_x:.2f}" '
        f'y2="51" stroke="{INK}" stroke-width="2" stroke-dasharray="4 2"/>',
        svg_text(VALUE_X, 40, f"{number_format(rack_kw)} kW", size=11, css_class="rack-value"),
        svg_text(BAR_X, 66, summary, size=11, css_class="figures"),
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
        return svg_document(
            width=CHART_W, height=height - top, title=title, body=body[1:], kind="rack", top=top
        )
    return svg_document(width=CHART_W, height=height, title=title, body=body, kind="rack")


def _rack_icons(racks_needed: int, racks_available: int | None) -> list[str]:
    if racks_needed < 0 or (racks_available is not None and racks_available < 0):
        raise ValueError("rack counts must be ≥ 0")
    shown = min(racks_needed, MAX_RACK_ICONS)
    body = [svg_text(0, 96, "Racks", size=12, fill=MUTED)]
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
    body.append(svg_text(BAR_X, 115, text, size=11, css_class="rack-figures"))
    return body


# --- each rack against its limit, split by where the heat goes --------------------------------

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
    body = [svg_text(0, 14, RACK_ROW_TITLE, size=13, weight="bold", css_class="label")]
    for index, rack in enumerate(shown):
        for name, amount in (("kw", rack.kw), ("liquid_kw", rack.liquid_kw)):
            amount_checked(name, amount)
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
            svg_text(
                x + RACK_COL_W / 2,
                base_y + 14,
                number_format(rack.kw),
                size=10,
                anchor="middle",
                css_class="rack-kw",
            )
        )
    body.append(svg_text(0, base_y + 32, rack_row_words(racks), size=11, css_class="figures"))
    title = "Racks: " + "; ".join(
        f"{number_format(r.kw)} kW"
        + (f" of {number_format(r.limit_kw)} kW" if r.limit_kw is not None else "")
        + ("" if r.usable else " (cannot be used)")
        for r in shown
    )
    if text_outside:
        top = 24
        return svg_document(
            width=CHART_W,
            height=int(base_y + 20) - top,
            title=title,
            body=body[1:-1],
            kind="rack-row",
            top=top,
        )
    return svg_document(
        width=CHART_W, height=int(base_y + 40), title=title, body=body, kind="rack-row"
    )
