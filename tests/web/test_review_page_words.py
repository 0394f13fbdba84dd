"""The review page's words after the audit of the corpus quotes: Option A's total labelled as
one option's, a vehicle's weight on its own row, the newer checks named in words, and desk
machines drawn against their circuit."""

from __future__ import annotations

import re

import pytest

from apps.review.engine.schemas import Facility, Finding
from tests.reports.page_reports import DGX_B300, MEMORY_OK, RACK_OK, school_bus_report
from tests.web.test_review_views import people, review_for, url  # noqa: F401

pytestmark = pytest.mark.django_db

OPTIONS = Finding(
    check="quote_lines",
    severity="info",
    title="2 alternative configurations: Option A reviewed",
    detail="The buyer orders one, so they are not added up.",
    metrics={"options": ["Option A", "Option B"], "reviewed": "Option A"},
)
TTFT = Finding(
    check="ttft",
    severity="info",
    title="Time to first token",
    detail="An 8,192-token prompt takes about 170.9 ms.",
    metrics={"ttft_ms": 170.9, "ttft_target_ms": None},
)


def _page(clients, report, demo, people) -> str:  # noqa: F811
    review = review_for(demo["acme"], people["account"], report)
    response = clients["account_team"].get(url(review))
    assert response.status_code == 200
    return response.content.decode()


def test_one_options_total_weight_and_check_names_read_right(clients, demo, people):  # noqa: F811
    train = DGX_B300.model_copy(update={"weight_lb": 3000.0, "cpu_arch": "arm"})
    report = school_bus_report(findings=[OPTIONS, TTFT, MEMORY_OK, RACK_OK])
    html = _page(clients, report.model_copy(update={"systems": [train]}), demo, people)
    # Before: "total USD 600,000.00" with nothing to say Option B was left out.
    assert re.search(r'id="option-note">\(Option A of 2 offered\)', html)
    # Before: <dt>CPU</dt><dd>Arm · 3000 lb</dd>.
    assert "<dt>CPU</dt><dd>Arm</dd>" in html
    assert "<dt>Weight</dt><dd>3,000 lb each</dd>" in html
    # Before: "Ttft" and "Ttft ms 170.9"; the target with no figure stays a dash.
    assert "<h3>Time to first token</h3>" in html and ">Ttft<" not in html
    assert re.search(r"<dt>TTFT</dt><dd>170\.9 ms</dd>", html)


def test_desk_machines_get_a_circuit_chart(clients, demo, people):  # noqa: F811
    office = Facility(name="Office desk", site="office", circuit_volts=120, circuit_amps=15)
    circuit = Finding(
        check="circuit",
        severity="info",
        title="1,920 W together: 2 circuits of 15 A",
        detail="8 machines.",
        metrics={
            "circuit_volts": 120.0,
            "circuit_amps": 15.0,
            "continuous_limit_w": 1440,
            "total_w": 1920,
            "circuits_needed": 2,
        },
    )
    report = school_bus_report(findings=[MEMORY_OK, circuit])
    html = _page(clients, report.model_copy(update={"facility": office}), demo, people)
    assert 'id="chart-circuit"' in html
    # 1,920 W asked of a 1,440 W circuit (15 A × 120 V × 0.8): 133.3 %.
    assert "Demand is 133.3% of capacity" in html


def test_the_right_fit_on_a_desk_draws_watts(clients, demo, people):  # noqa: F811
    report = school_bus_report()
    spark = report.recommendation.model_copy(update={"power_kw": 0.24})
    html = _page(clients, report.model_copy(update={"recommendation": spark}), demo, people)
    # 0.24 kW × 1,000 = 240 W; before: "0.24 kW each".
    assert "<dt>Power</dt><dd>240 W each</dd>" in html
