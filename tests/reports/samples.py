"""Hand-built review reports for the PDF tests (the engine is not needed to print one).

`four_semis_report()` is the field guide's room: four DGX B200 semis (4 × 14.3 kW = 57.2 kW in
one rack) for a 1,000 GB training job in a legacy room qualified for 2 kW per rack.
"""

from __future__ import annotations

from decimal import Decimal

from apps.review.schemas import (
    BloodPressure,
    Facility,
    Finding,
    Pressure,
    QuotedSystem,
    QuoteLineOut,
    QuoteSummary,
    Recommendation,
    ReviewReport,
    Sizing,
    Workload,
)

HOSTILE_IMG = '<img src="file:///etc/passwd">'
HOSTILE_LINK = '<link rel=attachment href="http://169.254.169.254/latest/meta-data/">'
HOSTILE_URL = "http://169.254.169.254/"


def four_semis_report(*, description: str = "NVIDIA DGX B200 1440GB, 8x B200 SXM") -> ReviewReport:
    findings = [
        Finding(
            check="rack_power",
            severity="critical",
            title="57.2 kW in one rack; the room is qualified for 2 kW",
            detail=(
                "Four semis in one rack draw 4 × 14.3 kW = 57.2 kW; the room was qualified for "
                "2 kW per rack, so it needs 29 racks' worth of power and has 1 rack."
            ),
            metrics={"rack_power_kw": 57.2, "qualified_kw": 2, "racks_needed": 29},
            formula="systems × power_max_kw = 4 × 14.3 kW = 57.2 kW > 2 kW",
            lever="facility: a room qualified for 60 kW racks, or liquid cooling",
            sources=["dgx-b200.power_max_kw: 14.3 (verified)"],
        ),
        Finding(
            check="memory_fit",
            severity="ok",
            title="The 1,000 GB job fits in one 1,440 GB NVLink domain",
            detail="One DGX B200 holds 8 × 180 GB = 1,440 GB of HBM in one NVLink domain.",
            metrics={"job_memory_gb": 1000, "nvlink_domain_memory_gb": 1440},
            formula="8 × 180 GB = 1,440 GB ≥ 1,000 GB",
            lever="",
            sources=["b200.memory_gb: 180 (verified)"],
        ),
        Finding(
            check="floor_load",
            severity="warning",
            title="1,255.6 lb in one rack footprint",
            detail="Four 313.9 lb servers in one rack: check the raised floor before delivery.",
            metrics={"weight_lb": 1255.6, "floor_load_lb_per_sqft": 150},
            formula="4 × 313.9 lb = 1,255.6 lb",
            lever="facility: spread the servers over more racks",
            sources=["dgx-b200.weight_lb: 313.9 (unverified)"],
            unverified=["dgx-b200.weight_lb"],
        ),
    ]
    return ReviewReport(
        verdict="fail",
        quote=QuoteSummary(
            vendor="Acme Systems",
            quote_number="Q-2024-0042",
            currency="USD",
            total=Decimal("2060000.00"),
            lines=[
                QuoteLineOut(
                    line=1,
                    part_number="DGXB-G1440+P2CMI36",
                    description=description,
                    quantity=4,
                    unit_price=Decimal("515000.00"),
                    extended_price=Decimal("2060000.00"),
                    sku="dgx-b200",
                    match="exact",
                    kind="system",
                ),
            ],
            file="quote.csv",
        ),
        systems=[
            QuotedSystem(
                sku="dgx-b200",
                name="NVIDIA DGX B200",
                form_factor="nvl8_server",
                quantity=4,
                gpu="B200",
                gpu_key="b200",
                gpus_per_system=8,
                nvlink_domain_gpus=8,
                power_kw=14.3,
                weight_lb=313.9,
                rack_units=10,
                cooling="air_or_liquid",
                cpu_arch="x86",
                unit_price=Decimal("515000.00"),
                vehicle="semi",
                lines=[1],
            )
        ],
        sizing=Sizing(
            job_memory_gb=1000,
            nvlink_domain_memory_gb=1440,
            power_kw=57.2,
            rack_power_kw=57.2,
            racks_needed=29,
            weight_lb=1255.6,
        ),
        findings=findings,
        blood_pressure=BloodPressure(
            finance=Pressure(
                level="high", reasons=["USD 2,060,000.00 on one quote: Finance clears its throat."]
            ),
            facilities=Pressure(
                level="crisis",
                reasons=[
                    "57.2 kW per rack in a room qualified for 2 kW.",
                    "1,255.6 lb in one rack footprint.",
                ],
            ),
        ),
        recommendation=Recommendation(
            sku="dgx-b200",
            name="NVIDIA DGX B200",
            quantity=1,
            nvlink_domain_gpus=8,
            nvlink_domain_memory_gb=1440,
            power_kw=14.3,
            why="One semi holds the 1,000 GB job in one NVLink domain; scale out after that.",
            gpu="B200",
            vehicle="semi",
            estimated_cost_usd=Decimal("515000.00"),
            is_quoted=True,
        ),
        workload=Workload(name="Pre-training", kind="training", memory_gb=1000),
        facility=Facility(
            name="Legacy room",
            site="datacenter",
            rack_power_kw=2,
            racks_available=1,
            cooling="air",
            floor_load_lb_per_sqft=150,
        ),
        catalog_version="test-catalog",
    )


def hostile_report() -> ReviewReport:
    """The same review with attack text in every customer-supplied field."""
    report = four_semis_report(description=f"{HOSTILE_IMG} {HOSTILE_LINK} {HOSTILE_URL}")
    quote = report.quote.model_copy(
        update={"vendor": HOSTILE_IMG, "quote_number": f"{HOSTILE_LINK}"}
    )
    workload = report.workload.model_copy(update={"name": HOSTILE_URL + " " + HOSTILE_IMG})
    return report.model_copy(update={"quote": quote, "workload": workload})
