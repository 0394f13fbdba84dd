"""The report's typed context: what the PDF prints, decided before any template runs."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils.safestring import SafeString
from pydantic import ValidationError

from apps.reports import page
from apps.reports.context import (
    ChartRow,
    finding_sources,
    metric_label,
    metric_value,
    money_format,
    report_context_build,
)
from apps.review.engine.schemas import Finding
from tests.reports.page_reports import four_semis_report

DAY = dt.date(2025, 3, 14)


@pytest.fixture(scope="module")
def ctx():
    return report_context_build(
        report=four_semis_report(), generated_on=DAY, organisation="Acme Corp", quote_date="1 Mar"
    )


def test_header_facts(ctx) -> None:
    assert ctx.quote_number == "Q-2024-0042"
    assert ctx.vendor == "Acme Systems"
    assert ctx.generated_on == DAY
    assert ctx.page_size == "A4"
    assert ctx.total == "USD 2,060,000.00"
    assert ctx.organisation == "Acme Corp"


def test_verdict_is_the_pages_sentence(ctx) -> None:
    report = four_semis_report()
    assert ctx.verdict == "fail"
    assert ctx.verdict_label == "Fail"
    assert ctx.verdict_sentence == page.verdict_sentence(report)
    # The one critical finding names the verdict (the page owns the words around it).
    assert ctx.verdict_sentence.endswith("57.2 kW in one rack; the room is qualified for 2 kW.")


def test_both_blood_pressure_checks_with_reasons(ctx) -> None:
    finance, facilities = ctx.pressures
    assert (finance.who, finance.level, finance.level_label) == ("Finance", "high", "High")
    assert (facilities.who, facilities.level, facilities.level_label) == (
        "Facilities",
        "crisis",
        "Crisis",
    )
    assert facilities.reasons == [
        "57.2 kW per rack in a room qualified for 2 kW.",
        "1,255.6 lb in one rack footprint.",
    ]
    assert isinstance(facilities.gauge, SafeString)
    assert "Facilities: Crisis" in facilities.gauge


def test_findings_worst_first_with_numbers_formula_lever(ctx) -> None:
    assert [f.severity for f in ctx.findings] == ["critical", "warning", "ok"]
    rack = ctx.findings[0]
    assert rack.check_label == "Rack power"
    assert rack.severity_label == "Critical"
    # 4 systems × 14.3 kW = 57.2 kW per rack against 2 kW qualified.
    assert [(m.label, m.value, m.unit) for m in rack.metrics] == [
        ("Rack power", "57.2", "kW"),
        ("Qualified", "2", "kW"),
        ("Racks needed", "29", ""),
    ]
    assert rack.formula == "systems × power_max_kw = 4 × 14.3 kW = 57.2 kW > 2 kW"
    assert rack.lever.startswith("facility:")
    memory = ctx.findings[2]
    # 8 × 180 GB = 1,440 GB in one NVLink domain.
    assert [(m.label, m.value, m.unit) for m in memory.metrics] == [
        ("Job memory", "1,000", "GB"),
        ("NVLink domain memory", "1,440", "GB"),
    ]


def test_sources_are_marked_unverified(ctx) -> None:
    floor = ctx.findings[1]
    assert [(s.label, s.unverified) for s in floor.sources] == [("dgx-b200.weight_lb: 313.9", True)]
    assert [(s.label, s.unverified, s.checks) for s in ctx.sources] == [
        ("dgx-b200.weight_lb: 313.9", True, ["floor_load"]),
        ("b200.memory_gb: 180", False, ["memory_fit"]),
        ("dgx-b200.power_max_kw: 14.3", False, ["rack_power"]),
    ]
    assert ctx.unverified_count == 1


def test_unverified_figure_without_a_source_line_is_still_listed() -> None:
    finding = Finding(
        check="fp64",
        severity="critical",
        title="t",
        detail="d",
        sources=["b300.fp64_tflops: 1.2", "b300.memory_gb: 288 (verified)"],
        unverified=["b300.fp64_tflops", "b300.bandwidth_tbs: 8"],
    )
    rows = finding_sources(finding)
    assert [(r.text, r.unverified) for r in rows] == [
        ("b300.fp64_tflops: 1.2", True),  # flagged by its key in `unverified`
        ("b300.memory_gb: 288 (verified)", False),
        ("b300.bandwidth_tbs: 8", True),  # no source line of its own
    ]


def test_sizing_table_and_charts(ctx) -> None:
    sizing = {r.label: (r.value, r.unit) for r in ctx.sizing}
    assert sizing["Power per rack"] == ("57.2", "kW")
    assert sizing["Racks needed"] == ("29", "racks")
    assert sizing["Memory of the biggest single job"] == ("1,000", "GB")
    # Null sizing figures are left out (no throughput for a training job).
    assert "Per user at the asked load" not in sizing
    assert [c.key for c in ctx.charts] == ["memory", "rack"]
    rack_chart = ctx.charts[1].svg
    assert "57.2 kW per rack against 2 kW qualified; 29 racks needed, 1 available" in rack_chart


def test_vehicles_and_recommendation(ctx) -> None:
    (semi,) = ctx.vehicles
    assert (semi.quantity, semi.name, semi.vehicle) == (4, "NVIDIA DGX B200", "semi")
    assert 'data-vehicle="semi"' in semi.drawing
    assert semi.domain_sentence == "All 8 GPUs in one NVLink domain."
    assert semi.power_kw == "14.3"
    rec = ctx.recommendation
    assert (rec.quantity, rec.vehicle, rec.nvlink_domain_memory_gb) == (1, "semi", "1,440")
    assert rec.estimated_cost == "USD 515,000.00"
    assert rec.is_quoted is True
    assert 'data-vehicle="semi"' in rec.drawing


def test_quote_lines(ctx) -> None:
    (line,) = ctx.lines
    assert (line.line, line.part_number, line.quantity) == (1, "DGXB-G1440+P2CMI36", "4")
    assert (line.unit_price, line.extended_price) == ("USD 515,000.00", "USD 2,060,000.00")
    assert line.match_label == "Exact"


def test_workload_and_facility_rows(ctx) -> None:
    workload = {r.label: (r.value, r.unit) for r in ctx.workload}
    assert workload["Load"] == ("Training (the cement truck)", "")
    assert workload["Biggest job (given)"] == ("1,000", "GB")
    facility = {r.label: (r.value, r.unit) for r in ctx.facility}
    assert facility["Power qualified per rack"] == ("2", "kW")
    assert facility["Floor rating"] == ("150", "lb/sq ft")
    assert "Circuit" not in facility  # not given for this room


def test_svg_fields_take_only_built_markup() -> None:
    with pytest.raises(ValidationError, match=r"apps\.reports\.charts"):
        ChartRow(key="x", svg='<svg onload="alert(1)"/>', caption="")


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("nvlink_domain_memory_gb", ("NVLink domain memory", "GB")),
        ("floor_load_lb_per_sqft", ("Floor load", "lb/sq ft")),
        ("decode_tokens_per_sec", ("Decode", "tokens/s")),
        ("fp64_tflops", ("FP64", "TFLOPS")),
        ("racks_needed", ("Racks needed", "")),
    ],
)
def test_metric_label(key: str, label: tuple[str, str]) -> None:
    assert metric_label(key) == label


def test_metric_and_money_values() -> None:
    from decimal import Decimal

    assert metric_value(True) == "yes"
    assert metric_value(None) == "—"
    assert metric_value([1500, 2.5]) == "1,500, 2.5"
    assert metric_value("8 × 180 GB") == "8 × 180 GB"
    assert metric_value("528600") == "528,600"  # idle_usd arrives as a decimal string
    assert metric_value("dgx-b300") == "dgx-b300"
    assert money_format(Decimal("1234567.5"), "EUR") == "EUR 1,234,567.50"
    assert money_format(None, "USD") == "—"
