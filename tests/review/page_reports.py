"""Hand-made reports for the page tests: the field guide's cement truck bought for a school bus,
with every part of the page filled (vehicles, sizing, charts, recommendation, lines), so the
templates are exercised without the parser or the engine."""

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
    verdict_for,
)

SCHOOL_BUS = Workload(
    name="Internal assistant",
    kind="inference",
    model="Qwen3-32B",
    precision="fp8",
    context_tokens=8192,
    concurrent_users=100,
    tokens_per_sec_per_user=15,
)
ROW_3 = Facility(
    name="Row 3",
    site="datacenter",
    rack_power_kw=20,
    racks_available=4,
    cooling="air_rdhx",
    floor_load_lb_per_sqft=250,
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
        facility=ROW_3,
    )
