"""The inline SVG charts: well-formed XML, geometry that tells the truth, text escaped."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from apps.reports.charts.demand import demand_capacity_svg
from apps.reports.charts.gauge import gauge_needle_angle, gauge_svg
from apps.reports.charts.racks import rack_power_svg
from apps.reports.charts.svg import OK_COLOUR, OVER_COLOUR
from apps.reports.charts.vehicles import vehicle_svg
from apps.words import LEVEL_COLOURS, VEHICLES, number_format, vehicle_name

NS = {"svg": "http://www.w3.org/2000/svg"}
HOSTILE = '<img src="file:///etc/passwd"> & "quotes" \'single\''


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, klass: str) -> list[ET.Element]:
    return [el for el in root.iter() if klass in (el.get("class") or "").split()]


def one(root: ET.Element, klass: str) -> ET.Element:
    found = by_class(root, klass)
    assert len(found) == 1, f"{klass}: {len(found)} elements"
    return found[0]


def all_svgs() -> list[str]:
    return [
        gauge_svg("high", label="Facilities"),
        demand_capacity_svg(1500, 3000, unit="tokens/s", label="Throughput"),
        rack_power_svg(60, 2, racks_needed=4, racks_available=2),
        *(vehicle_svg(ff, label="x") for ff in VEHICLES),
    ]


@pytest.mark.parametrize("index", range(len(all_svgs())))
def test_every_chart_is_svg_with_a_title_and_no_inline_style(index: int) -> None:
    svg = all_svgs()[index]
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img"
    title = root.find("svg:title", NS)
    assert title is not None and title.text
    # The CSP forbids inline styles: no style attribute anywhere, no <style> element.
    assert all(el.get("style") is None for el in root.iter())
    assert root.find(".//svg:style", NS) is None
    assert "style=" not in svg


def test_demand_half_of_capacity_draws_half_the_bar() -> None:
    # 1,500 tokens/s asked of 3,000: the demand bar is 1500/3000 = 0.5 of the capacity bar.
    root = parse(demand_capacity_svg(1500, 3000, unit="tokens/s", label="Throughput"))
    demand_w = float(one(root, "bar-demand").get("width"))
    capacity_w = float(one(root, "bar-capacity").get("width"))
    assert demand_w == pytest.approx(capacity_w / 2)
    assert capacity_w == pytest.approx(200)  # the larger of the two spans the whole track
    assert one(root, "bar-demand").get("fill") == OK_COLOUR
    assert one(root, "demand-value").text == "1,500 tokens/s"
    assert one(root, "capacity-value").text == "3,000 tokens/s"
    assert one(root, "figures").text == "Demand is 50% of capacity"


def test_demand_over_capacity_is_red_and_capacity_shrinks() -> None:
    # 6,000 users asked of 1,500 servable: capacity is 1500/6000 = 1/4 of the 200 px bar, 400%.
    root = parse(demand_capacity_svg(6000, 1500, unit="users", label="Users"))
    demand = one(root, "bar-demand")
    capacity_w = float(one(root, "bar-capacity").get("width"))
    assert float(demand.get("width")) == pytest.approx(200)
    assert capacity_w == pytest.approx(50)
    assert demand.get("fill") == OVER_COLOUR
    assert one(root, "figures").text == "Demand is 400% of capacity"
    mark = one(root, "capacity-mark")
    assert float(mark.get("x1")) == pytest.approx(72 + 50)


def test_demand_zero_capacity_does_not_divide_by_zero() -> None:
    root = parse(demand_capacity_svg(0, 0, unit="GB", label="Memory"))
    assert float(one(root, "bar-demand").get("width")) == 0
    assert one(root, "figures").text == "No capacity to serve the demand"


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_demand_rejects_nonsense(bad: float) -> None:
    with pytest.raises(ValueError, match="demand"):
        demand_capacity_svg(bad, 10, unit="GB", label="Memory")


def test_labels_and_units_are_escaped() -> None:
    svg = demand_capacity_svg(1, 2, unit="<b>GB</b>", label=HOSTILE)
    assert "<img" not in svg and "<b>" not in svg
    root = parse(svg)  # still well-formed XML
    assert one(root, "label").text == HOSTILE  # the reader sees the text, literally
    assert root.find("svg:title", NS).text.startswith(HOSTILE)
    assert root.get("aria-label").startswith(HOSTILE)
    vehicle = vehicle_svg("nvl8_server", label=HOSTILE)
    assert "<img" not in vehicle
    assert one(parse(vehicle), "label").text == HOSTILE
    gauge = gauge_svg("calm", label=HOSTILE)
    assert "<img" not in gauge
    assert one(parse(gauge), "label").text == HOSTILE


@pytest.mark.parametrize(
    ("level", "angle"),
    [("calm", 157.5), ("raised", 112.5), ("high", 67.5), ("crisis", 22.5)],
)
def test_gauge_needle_points_into_its_level(level: str, angle: float) -> None:
    # Four quarters of 45° from the left (180°): the middle of quarter i is 180 - 45 i - 22.5.
    assert gauge_needle_angle(level) == angle
    root = parse(gauge_svg(level, label="Finance"))
    needle = one(root, "needle")
    dx = float(needle.get("x2")) - float(needle.get("x1"))
    dy = float(needle.get("y1")) - float(needle.get("y2"))  # SVG y grows downwards
    assert math.degrees(math.atan2(dy, dx)) == pytest.approx(angle, abs=0.1)
    arcs = by_class(root, "gauge-arc")
    assert [a.get("data-level") for a in arcs] == ["calm", "raised", "high", "crisis"]
    current = [a for a in arcs if a.get("stroke-opacity") == "1"]
    assert [a.get("data-level") for a in current] == [level]
    assert current[0].get("stroke") == LEVEL_COLOURS[level]
    assert one(root, "level").text == level.capitalize()
    assert root.find("svg:title", NS).text == f"Finance: {level.capitalize()}"


def test_gauge_rejects_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown blood-pressure level"):
        gauge_svg("panic", label="Finance")


def test_rack_power_over_the_qualification() -> None:
    # The field guide's room: qualified for 2 kW, asked for 60 kW -> 60/2 = 30× over.
    root = parse(rack_power_svg(60, 2, racks_needed=4, racks_available=2))
    bar = one(root, "bar-rack")
    assert float(bar.get("width")) == pytest.approx(200)
    assert bar.get("fill") == OVER_COLOUR
    # The qualification line sits at 2/60 of the track: 72 + 200 × 2/60 ≈ 78.67.
    assert float(one(root, "qualified-mark").get("x1")) == pytest.approx(
        72 + 200 * 2 / 60, abs=0.01
    )
    assert one(root, "rack-value").text == "60 kW"
    assert one(root, "figures").text == "Room qualified for 2 kW per rack · 30× over"
    racks = by_class(root, "rack")
    missing = by_class(root, "rack-missing")
    assert len(racks) == 4 and len(missing) == 2  # racks 3 and 4 are beyond the 2 available
    assert one(root, "rack-figures").text == "4 needed · 2 available"


def test_rack_power_within_the_qualification() -> None:
    # 14.3 kW in a 17 kW rack: bar 200 × 14.3/17 ≈ 168.2 px, green, no racks row when unknown.
    root = parse(rack_power_svg(14.3, 17, racks_needed=None, racks_available=None))
    bar = one(root, "bar-rack")
    assert float(bar.get("width")) == pytest.approx(200 * 14.3 / 17, abs=0.01)
    assert bar.get("fill") == OK_COLOUR
    assert by_class(root, "rack") == []
    assert one(root, "figures").text == "Room qualified for 17 kW per rack"
    assert one(root, "rack-value").text == "14.3 kW"


def test_rack_icons_are_capped() -> None:
    root = parse(rack_power_svg(130, 40, racks_needed=100, racks_available=None))
    assert len(by_class(root, "rack")) == 24
    assert by_class(root, "rack-missing") == []  # availability unknown: nothing marked missing
    assert one(root, "rack-figures").text == "100 needed (first 24 drawn)"


@pytest.mark.parametrize(
    ("form_factor", "vehicle", "wheels"),
    [
        ("phone", "moped", 2),
        ("laptop", "motorcycle", 2),
        ("desktop", "compact car", 2),
        ("workstation", "sedan", 2),
        ("pcie_server", "work van", 2),
        ("nvl8_server", "semi", 5),
        ("rack_nvl72", "freight train", 7),
    ],
)
def test_each_form_factor_is_its_vehicle(form_factor: str, vehicle: str, wheels: int) -> None:
    assert vehicle_name(form_factor) == vehicle
    root = parse(vehicle_svg(form_factor, label="DGX B200 × 2"))
    group = one(root, "vehicle")
    assert group.get("data-vehicle") == vehicle
    assert len(by_class(root, "wheel")) == wheels
    assert root.find("svg:title", NS).text == f"DGX B200 × 2 ({vehicle})"


def test_unknown_form_factor_is_a_crate_not_a_crash() -> None:
    root = parse(vehicle_svg("hovercraft", label="Mystery"))
    assert one(root, "vehicle").get("data-vehicle") == "unknown vehicle"
    assert by_class(root, "wheel") == []


def test_vehicles_differ() -> None:
    drawings = {vehicle_svg(ff, label="x") for ff in VEHICLES}
    assert len(drawings) == len(VEHICLES)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1500, "1,500"),
        (14.3, "14.3"),
        (0.27, "0.27"),
        (8.0, "8"),
        (247.5, "247.5"),  # the memory finding's "247.5 GB", not 248
        (1255.6, "1,255.6"),
        (1500.04, "1,500"),  # 1,500.0 loses its zero
        (12600.4, "12,600"),  # past 10,000 no decimals
        (2.5, "2.5"),
        (-3.333, "-3.33"),
    ],
)
def test_number_format(value: float, text: str) -> None:
    assert number_format(value) == text


@pytest.mark.parametrize("level", list(LEVEL_COLOURS))
def test_a_gauge_without_its_text_is_the_same_dial(level: str) -> None:
    # The PDF prints "Finance" and the level under the dial as text (report.html).
    full, dial = (
        parse(gauge_svg(level, label="Finance")),
        parse(gauge_svg(level, label="Finance", text_outside=True)),
    )
    assert not list(dial.iter(f"{{{NS['svg']}}}text"))
    strip = [el for el in full if el.tag != f"{{{NS['svg']}}}text"]
    assert [ET.tostring(el) for el in strip] == [ET.tostring(el) for el in dial]
    assert dial.get("viewBox") == "0 0 220 114"
