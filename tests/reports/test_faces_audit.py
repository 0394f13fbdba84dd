"""What a fresh-eyes audit of the corpus quotes found wrong on the faces, each pinned here: check
names and metric units the engine's newer checks lacked, "1 racks", a right-fit sentence that
counted the same vehicle three times, a weight printed raw under "CPU", Option A's total shown
as if it were the whole proposal's, and desk machines with no picture of their circuit."""

from __future__ import annotations

import datetime as dt

import pytest

from apps import words
from apps.reports import drawings, page
from apps.reports.context import report_context_build
from apps.reports.render import report_html_from_context
from apps.reports.text import report_text
from apps.review.engine.checks import CHECKS as ENGINE_CHECKS
from apps.review.engine.schemas import Facility, Finding, QuotedSystem
from tests.reports.page_reports import DGX_B300, MEMORY_OK, RACK_OK, school_bus_report

GB10 = QuotedSystem(
    sku="asus-ascent-gx10",
    name="ASUS Ascent GX10",
    form_factor="desktop",
    quantity=4,
    gpu="GB10",
    gpus_per_system=1,
    nvlink_domain_gpus=1,
    power_kw=0.24,
    cooling="air",
    cpu_arch="arm",
    vehicle="compact car",
    lines=[1],
)
DAY = dt.date(2026, 12, 1)
OFFICE = Facility(name="Office desk", site="office", circuit_volts=120, circuit_amps=15)


def _passing(systems: list[QuotedSystem], findings: list[Finding] | None = None):
    report = school_bus_report(findings=findings or [MEMORY_OK, RACK_OK])
    return report.model_copy(update={"systems": systems})


def test_every_check_the_engine_runs_has_a_name_and_a_question():
    # Before: "ttft" was printed as "Ttft" with no question, and energy, context length,
    # precision support and power spikes had no question and sorted after the others.
    for check, _run in ENGINE_CHECKS:
        label, question = words.CHECKS[check]
        assert label and question.endswith("?"), check
    assert words.check_label("ttft") == "Time to first token"
    # The engine's reading order is every face's: context length right after the quote lines.
    assert list(words.CHECKS)[:3] == ["quote_lines", "context_length", "memory_fit"]


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("heat_btu_per_hr", ("Heat", "BTU/h")),  # was ("Heat btu per hr", "")
        ("energy_kwh_per_year", ("Energy", "kWh a year")),
        ("co2_tonnes_per_year", ("CO2", "t a year")),  # was "Co2 tonnes per year"
        ("usd_per_kwh", ("Electricity", "USD/kWh")),  # was "Usd per kwh"
        ("kg_co2_per_kwh", ("Grid carbon", "kg CO2/kWh")),
        ("ttft_ms", ("TTFT", "ms")),  # was "Ttft ms"
        ("pue", ("PUE", "")),  # was "Pue"
        ("x86_systems", ("x86 systems", "")),  # was "X86 systems"
        ("floor_kg_per_m2", ("Floor", "kg/m²")),
        ("footprint_sqft", ("Footprint", "sq ft")),
        ("gpus_needed", ("GPUs needed", "")),  # unchanged
    ],
)
def test_metric_labels_name_their_units(key: str, label: tuple[str, str]) -> None:
    assert words.metric_label(key) == label


def test_a_metric_not_given_is_a_dash_without_a_unit():
    # Before: "TTFT target — ms" (the Ttft finding gives no target when none was asked).
    assert page.metric("ttft_target_ms", None) == page.Metric("TTFT target", "—", "")
    assert page.metric("ttft_ms", 170.9) == page.Metric("TTFT", "170.9", "ms")


def test_an_empty_list_metric_says_none():
    # Before: "x86 systems" followed by nothing at all.
    assert words.metric_value([]) == "none"
    assert words.metric_value(["NVIDIA GB300 NVL72"]) == "NVIDIA GB300 NVL72"


def test_a_counted_unit_agrees_with_its_figure():
    assert words.unit_for(1, "racks") == "rack"
    assert words.unit_for(2, "racks") == "racks"
    assert words.unit_for(1, "users") == "user"
    assert words.unit_for(1, "kW") == "kW"  # a measure, not a count
    # The sizing rows every face prints: school_bus_report needs 1 rack.
    rows = {r.key: r for r in page.sizing_rows(school_bus_report())}
    assert (rows["racks_needed"].value, rows["racks_needed"].unit) == ("1", "rack")


def test_the_right_fit_sentence_counts_each_vehicle_once():
    msi = GB10.model_copy(update={"sku": "msi-edgexpert", "name": "MSI EdgeXpert", "quantity": 2})
    dell = GB10.model_copy(update={"sku": "dell-pro-max-gb10", "name": "Dell GB10", "quantity": 2})
    # 4 + 2 + 2 = 8 compact cars; before: "4 × compact car, 2 × compact car, 2 × compact car".
    assert page.verdict_sentence(_passing([GB10, msi, dell])) == (
        "A right fit: 8 × compact car carries this load in this room."
    )
    mixed = _passing([DGX_B300.model_copy(update={"quantity": 2}), GB10])
    assert page.verdict_sentence(mixed) == (
        "A right fit: 2 × semi and 4 × compact car carry this load in this room."
    )


def test_a_vehicles_weight_is_its_own_formatted_row():
    freight = DGX_B300.model_copy(update={"weight_lb": 3000.0, "quantity": 2})
    card = page.vehicle_cards([freight])[0]
    # 3,000 lb each; 2 × 3,000 = 6,000 lb. Before: "Arm · 3000 lb" under CPU.
    assert card.weight_text == "3,000 lb each, 6,000 lb for 2"
    assert card.cpu_label == "x86"
    assert page.vehicle_cards([GB10])[0].weight_text == ""  # no weight in the catalog
    ctx = report_context_build(generated_on=DAY, report=_passing([freight]))
    html = report_html_from_context(ctx)
    assert "3,000 lb each, 6,000 lb for 2" in html
    # The PDF writes desk power as the page does: 240 W, not "0.24 kW".
    gb10_html = report_html_from_context(
        report_context_build(generated_on=DAY, report=_passing([GB10]))
    )
    assert "240 W each, 960 W for 4 at maximum" in gb10_html  # 4 × 240 W = 960 W


OPTIONS = Finding(
    check="quote_lines",
    severity="info",
    title="2 alternative configurations: Option A reviewed",
    detail="The buyer orders one, so they are not added up.",
    metrics={"options": ["Option A", "Option B"], "reviewed": "Option A"},
)


def test_the_total_of_one_option_says_so_on_every_face():
    report = school_bus_report(findings=[OPTIONS, MEMORY_OK, RACK_OK])
    assert page.option_note(report) == "Option A of 2 offered"
    assert page.option_note(school_bus_report()) == ""
    assert report_text(report).splitlines()[0].endswith("(USD 600,000.00, Option A of 2 offered)")
    html = report_html_from_context(report_context_build(generated_on=DAY, report=report))
    assert "USD 600,000.00 (Option A of 2 offered)" in html


def _circuit(**metrics: object) -> Finding:
    base = {"circuit_volts": 120.0, "circuit_amps": 15.0, "continuous_limit_w": 1440}
    return Finding(
        check="circuit", severity="info", title="t", detail="d", metrics={**base, **metrics}
    )


def test_desk_machines_are_drawn_against_their_circuit():
    fleet = [
        _circuit(system="asus-ascent-gx10", watts=240),
        _circuit(machines=8, total_w=1920, circuits_needed=2),
    ]
    report = _passing([GB10], fleet).model_copy(update={"facility": OFFICE})
    chart = {c.key: c for c in drawings.charts(report)}["circuit"]
    # 8 × 240 W = 1,920 W together against 15 A × 120 V × 0.8 = 1,440 W: 133.3 %.
    assert "1,920 W" in chart.svg and "1,440 W" in chart.svg
    assert "Demand is 133.3% of capacity" in chart.svg
    assert "one 120 V / 15 A circuit" in chart.caption
    # One 1,850 W workstation is over the circuit on its own: it is the one drawn.
    one = [_circuit(system="hp-z8", watts=1850), _circuit(machines=3, total_w=5550)]
    big = {
        c.key: c
        for c in drawings.charts(_passing([GB10], one).model_copy(update={"facility": OFFICE}))
    }
    assert "1,850 W" in big["circuit"].svg and "5,550 W" not in big["circuit"].svg
    # A data hall draws racks, not a wall circuit.
    assert "circuit" not in {c.key for c in drawings.charts(_passing([GB10], fleet))}


def test_a_title_that_repeats_its_checks_name_is_said_once():
    # Before: "Time to first token: Time to first token" in the PDF and the CLI text.
    assert words.finding_heading("Time to first token", "Time to first token") == (
        "Time to first token"
    )
    assert words.finding_heading("Rack power", "1 per rack") == "Rack power: 1 per rack"
    ttft = Finding(check="ttft", severity="info", title="Time to first token", detail="d")
    text = report_text(school_bus_report(findings=[ttft, MEMORY_OK]))
    assert "[NOTE    ] Time to first token\n" in text


def test_the_right_fits_desk_power_is_in_watts_in_the_pdf():
    spark = school_bus_report().recommendation.model_copy(update={"power_kw": 0.24})
    report = school_bus_report().model_copy(update={"recommendation": spark})
    html = report_html_from_context(report_context_build(generated_on=DAY, report=report))
    assert "240 W each" in html and "0.24 kW" not in html  # 0.24 kW × 1,000 = 240 W
