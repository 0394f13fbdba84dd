"""The vehicles on the lot: a small drawing of the vehicle a quoted system is (a DGX B200 is a
semi, an NVL72 a freight train), so a reader sees a school-bus load quoted a train.
"""

from __future__ import annotations

import functools

from apps.reports.charts.svg import INK, MUTED, TRACK, escaped, svg_document, svg_text
from apps.words import vehicle_name


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
        svg_text(80, 46, "?", size=26, anchor="middle", fill=MUTED),
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
    body = [f'<g class="vehicle" data-vehicle="{escaped(vehicle)}">', *drawing, "</g>"]
    height = VEHICLE_DRAWING_H
    if labelled:
        body.append(
            svg_text(80, 88, label, size=11, anchor="middle", weight="bold", css_class="label")
        )
        height = 94
    return svg_document(
        width=160, height=height, title=f"{label} ({vehicle})", body=body, kind="vehicle"
    )
