"""Hand-made review reports for the page and PDF tests, so the templates are exercised without
the parser or the engine.

`school_bus_report()` is the field guide's cement truck bought for a school bus, with every part
of the page filled (vehicles, sizing, charts, recommendation, lines). `four_semis_report()` is
the field guide's room: four DGX B200 semis (4 × 14.3 kW = 57.2 kW in one rack) for a 1,000 GB
training job in a legacy room qualified for 2 kW per rack; `hostile_report()` is the same review
with attack text in every customer-supplied field.
"""

from __future__ import annotations

from decimal import Decimal

from apps.review.engine.schemas import (
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
    verdict_for,
)
from tests.review.engine.engine_kit import ROW_RDHX

HOSTILE_IMG = '<img src="file:///etc/passwd">'
HOSTILE_LINK = '<link rel=attachment href="http://169.254.169.254/latest/meta-data/">'
HOSTILE_URL = "http://169.254.169.254/"

SCHOOL_BUS = Workload(
    name="Internal assistant",
    kind="inference",
    model="Qwen3-32B",
    precision="fp8",
    context_tokens=8192,
    concurrent_users=100,
    tokens_per_sec_per_user=15,
)
DGX_B300 = QuotedSystem(
    sku="dgx-b300",
    name="NVIDIA DGX B300",
    form_factor="nvl8_server",
    quantity=1,
    gpu="B300",
    gpus_per_system=8,
    nvlink_domain_gpus=8,
    power_kw=14.0,
    weight_lb=313.9,
    rack_units=10,
    cooling="air_or_liquid",
    cpu_arch="x86",
    vehicle="semi",
    lines=[1],
)
UTILIZATION_WARNING = Finding(
    check="utilization",
    severity="warning",
    title="Needed a school bus, bought a cement truck",
    detail="100 users at 15 tokens/s keep 6% of the DGX B300 busy; the rest sits idle.",
    metrics={"demand_tokens_per_sec": 1500, "capacity_tokens_per_sec": 25000, "idle_pct": 94.0},
    formula="utilization = 100 users × 15 tokens/s ÷ 25,000 tokens/s = 6%",
    lever="A smaller vehicle: one RTX PRO server carries this bus.",
    sources=["dgx-b300.power_max_kw: ~14 kW (unverified) https://aiwiki.ai/wiki/dgx_b300"],
    unverified=["dgx-b300.power_max_kw"],
)
MEMORY_OK = Finding(
    check="memory_fit",
    severity="ok",
    title="The model fits one GPU",
    detail="Qwen3-32B at FP8 is 32.8 GB of weights plus 21.5 GB of KV cache.",
    metrics={"job_memory_gb": 54.3, "gpu_memory_gb": 288},
)
RACK_OK = Finding(
    check="rack_power",
    severity="ok",
    title="One semi per rack fits the 20 kW qualification",
    detail="14 kW against 20 kW per rack.",
    metrics={"rack_power_kw": 14.0, "qualified_kw": 20},
)


def school_bus_report(
    *,
    findings: list[Finding] | None = None,
    users: int = 100,
    finance: str = "high",
    facilities: str = "raised",
    max_users: int = 1666,
) -> ReviewReport:
    findings = [UTILIZATION_WARNING, MEMORY_OK, RACK_OK] if findings is None else findings
    workload = SCHOOL_BUS.model_copy(update={"concurrent_users": users})
    return ReviewReport(
        verdict=verdict_for(findings),
        quote=QuoteSummary(
            vendor="Northwind",
            quote_number="Q-2291",
            total=Decimal("600000.00"),
            lines=[
                QuoteLineOut(
                    line=1,
                    part_number="DGXB300-G2304",
                    description="NVIDIA DGX B300 2304GB, 8x B300 SXM",
                    quantity=1,
                    unit_price=Decimal("600000.00"),
                    extended_price=Decimal("600000.00"),
                    sku="dgx-b300",
                    match="exact",
                    source_row=2,
                ),
                QuoteLineOut(
                    line=2,
                    part_number="SVC-3Y",
                    description="Support 3 years <b>gold</b>",
                    quantity=1,
                    sku=None,
                    match="fuzzy",
                    source_row=3,
                ),
            ],
        ),
        systems=[DGX_B300],
        sizing=Sizing(
            job_memory_gb=54.3,
            nvlink_domain_memory_gb=2304,
            decode_tokens_per_sec_bound=243.9,
            tokens_per_sec_per_user=15,
            max_concurrent_users=max_users,
            utilization_pct=round(100 * users / max_users, 1),
            power_kw=14.0,
            rack_power_kw=14.0,
            racks_needed=1,
            weight_lb=313.9,
        ),
        findings=findings,
        blood_pressure=BloodPressure(
            finance=Pressure(
                level=finance,
                reasons=["$600,000 for a load that keeps 6% of it busy: waste, not spend."],
            ),
            facilities=Pressure(
                level=facilities, reasons=["14 kW in a 20 kW rack: check the PDUs."]
            ),
        ),
        recommendation=Recommendation(
            sku="rtx-pro-server-8x",
            name="RTX PRO Server, 8× RTX PRO 6000",
            quantity=1,
            nvlink_domain_gpus=1,
            nvlink_domain_memory_gb=96,
            power_kw=6.0,
            why="The smallest vehicle that seats 100 users at 15 tokens/s.",
            vehicle="work van",
            estimated_cost_usd=Decimal("140000"),
        ),
        workload=workload,
        facility=ROW_RDHX,
    )


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
