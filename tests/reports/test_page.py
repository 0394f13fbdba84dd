"""The review page's pure parts: the verdict sentence, the NVLink domain drawing, the numbers as
the page shows them."""

from __future__ import annotations

from apps.reports import page
from apps.review.engine.schemas import Facility, Finding, Workload
from apps.review.report_changes import FindingChange
from tests.reports.page_reports import (
    DGX_B300,
    MEMORY_OK,
    RACK_OK,
    UTILIZATION_WARNING,
    school_bus_report,
)

CRITICAL = Finding(
    check="nvlink_domain",
    severity="critical",
    title="A house on the roofs of eight vans",
    detail="512 GB over 8 PCIe GPUs.",
)


def test_the_verdict_sentence_speaks_like_the_field_guide():
    fail = school_bus_report(findings=[CRITICAL, UTILIZATION_WARNING])
    assert page.verdict_sentence(fail) == (
        "Back corner of the lot: a house on the roofs of eight vans."
    )
    warn = school_bus_report()
    assert page.verdict_sentence(warn) == (
        "Look again before anyone signs: needed a school bus, bought a cement truck."
    )
    passing = school_bus_report(findings=[MEMORY_OK, RACK_OK])
    assert page.verdict_sentence(passing) == "A right fit: 1 × semi carries this load in this room."


def test_a_title_that_starts_with_a_name_keeps_its_capitals():
    dgx = CRITICAL.model_copy(update={"title": "DGX B300 has almost no FP64"})
    two = [dgx, CRITICAL]
    assert page.verdict_sentence(school_bus_report(findings=two)) == (
        "Back corner of the lot: DGX B300 has almost no FP64 (and 1 more critical)."
    )


def test_an_hgx_is_one_box_of_eight_and_pcie_gpus_are_loose():
    hgx = page.nvlink_domain_svg(8, 8)
    assert hgx.count('class="gpu"') == 8 and hgx.count('class="domain"') == 1
    assert "8 GPUs in NVLink domains of 8" in hgx
    vans = page.nvlink_domain_svg(4, 1)
    assert vans.count('class="gpu"') == 4 and 'class="domain"' not in vans
    assert "each on its own (PCIe only)" in vans
    # 8 × H200 NVL with two 4-way bridges: two boxes of four.
    bridged = page.nvlink_domain_svg(8, 4)
    assert bridged.count('class="domain"') == 2
    # An NVL72 wraps onto 4 rows of 18: 72 ÷ 18 = 4.
    train = page.nvlink_domain_svg(72, 72)
    assert train.count('class="gpu"') == 72 and 'height="76"' in train  # 8 + 4 × 16 + 4


def test_vehicle_cards_say_what_the_drawing_shows():
    (card,) = page.vehicle_cards([DGX_B300])
    assert card.vehicle == "semi" and 'data-vehicle="semi"' in card.drawing
    assert card.domain_sentence == "All 8 GPUs in one NVLink domain."
    assert card.power_text == "14 kW each"
    two_vans = DGX_B300.model_copy(
        update={"form_factor": "pcie_server", "vehicle": "", "quantity": 2, "power_kw": 3.6}
    )
    two_vans = two_vans.model_copy(update={"nvlink_domain_gpus": 1, "gpus_per_system": 4})
    (card,) = page.vehicle_cards([two_vans])
    assert card.vehicle == "work van"
    assert card.domain_sentence.startswith("4 GPUs that pass notes over PCIe")
    assert card.power_text == "3.6 kW each, 7.2 kW for 2"  # 2 × 3.6 kW
    spark = DGX_B300.model_copy(
        update={"form_factor": "desktop", "power_kw": 0.24, "gpus_per_system": 1}
    )
    (card,) = page.vehicle_cards([spark])
    assert card.power_text == "240 W each"  # 0.24 kW × 1,000
    assert card.domain_sentence == "One GPU: the whole job rides on one engine."
    (card,) = page.vehicle_cards([spark.model_copy(update={"quantity": 2})])
    assert card.domain_sentence == "One GPU in each of 2: 2 separate hosts, no NVLink between them."


def test_vehicle_cards_name_the_fabric_the_gpus_ride_on():
    # 8 × MI300X on AMD's Infinity Fabric: one 8-GPU domain, never called NVLink.
    amd = DGX_B300.model_copy(update={"gpu": "MI300X", "gpu_interconnect": "infinity_fabric"})
    (card,) = page.vehicle_cards([amd])
    assert card.domain_sentence == "All 8 GPUs in one Infinity Fabric domain."
    assert card.domain_label == "Infinity Fabric domain"
    halves = amd.model_copy(update={"nvlink_domain_gpus": 4})
    (card,) = page.vehicle_cards([halves])
    assert card.domain_sentence == (
        "8 GPUs in Infinity Fabric domains of 4, joined to each other over PCIe."
    )
    (card,) = page.vehicle_cards([DGX_B300])
    assert card.domain_label == "NVLink domain"


def test_metrics_carry_their_units():
    # The labels the PDF prints too (apps.words.metric_label): capitalised, capitals kept.
    assert page.metric("rack_power_kw", 57.2) == page.Metric("Rack power", "57.2", "kW")
    assert page.metric("idle_pct", 94.0) == page.Metric("Idle", "94", "%")
    assert page.metric("demand_tokens_per_sec", 1500) == page.Metric("Demand", "1,500", "tokens/s")
    assert page.metric("basis", "inference") == page.Metric("Basis", "inference", "")
    assert page.metric("fits", True) == page.Metric("Fits", "yes", "")
    assert page.metric("idle_usd", "528600.00") == page.Metric("Idle", "528,600", "USD")
    # The page said "gpus needed" where the PDF said "GPUs needed"; now both say the latter.
    assert page.metric("gpus_needed", 16) == page.Metric("GPUs needed", "16", "")


def test_sizing_rows_leave_out_nulls_and_keep_what_moved():
    before = school_bus_report(users=100)
    after = school_bus_report(users=200)
    rows = {r.key: r for r in page.sizing_rows(after, before=before)}
    assert "fp64_tflops" not in rows  # null for an inference load
    # 200 users ÷ 1,666 served = 12.0 %; before 100 ÷ 1,666 = 6.0 %.
    assert rows["utilization_pct"].value == "12" and rows["utilization_pct"].was == "6"
    assert rows["nvlink_domain_memory_gb"].value == "2,304"
    assert rows["nvlink_domain_memory_gb"].was is None  # did not move


def test_findings_are_grouped_in_reading_order():
    groups = page.findings_grouped(school_bus_report())
    assert [g.check for g in groups] == ["memory_fit", "utilization", "rack_power"]
    assert groups[1].worst == "warning" and groups[1].worst_label == "Warning"
    assert groups[1].findings[0].has_workings and not groups[0].findings[0].has_workings


def test_counts_and_changes_read_as_words():
    report = school_bus_report(findings=[CRITICAL, UTILIZATION_WARNING, MEMORY_OK, RACK_OK])
    assert page.severity_counts(report) == [
        ("critical", 1, "critical"),
        ("warning", 1, "warning"),
        ("ok", 2, "checks passed"),
    ]
    diff = [
        FindingChange(check="rack_power", title="t", before="ok", after="critical", change="worse"),
        FindingChange(check="memory_fit", title="m", before="warning", after="ok", change="better"),
    ]
    assert [(c.label, c.change) for c in page.changes(diff)] == [
        ("Memory fit", "better"),
        ("Rack power", "worse"),
    ]


def test_load_and_room_sentences():
    workload = Workload(kind="inference", model="Qwen3-32B", precision="fp8", concurrent_users=100)
    assert page.load_sentence(workload) == (
        "inference, Qwen3-32B at FP8, 100 users at 10 tokens/s, 8,192-token context"
    )
    assert page.load_sentence(Workload(kind="fine_tuning", memory_gb=512)) == (
        "full fine-tuning, a 512 GB job"
    )
    room = Facility(rack_power_kw=2, racks_available=1, floor_load_lb_per_sqft=150)
    assert page.room_sentence(room) == (
        "2 kW per rack, 1 rack, air cooling, floor rated 150 lb/sq ft"
    )
    desk = Facility(site="office", circuit_volts=120, circuit_amps=15)
    assert page.room_sentence(desk) == "an office, on a 120 V / 15 A circuit"
