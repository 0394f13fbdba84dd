"""Builders for engine tests: quoted systems straight from the catalog fixture, no parser, no DB.

`quoted_system(catalog, "dgx-b200", 4)` is four DGX B200 as quote intake would hand them over;
`quoted_system(catalog, "supermicro-sys-521ge-tnrt", 2, gpu_key="l40s", gpus=4)` is two work vans
with four L40S cards each (2.2 kW chassis + 4 × 350 W = 3.6 kW apiece).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.schemas import LineProblem
from apps.review.engine.checks.context import ReviewContext, context_build
from apps.review.engine.review import ReviewInput, review
from apps.review.engine.schemas import (
    Facility,
    Finding,
    QuotedSystem,
    QuoteSummary,
    ReviewReport,
    Workload,
)
from apps.review.engine.sizing.facility import assembled_power_kw

ROW_RDHX = Facility(
    name="Row 3",
    site="datacenter",
    rack_power_kw=20,
    racks_available=4,
    cooling="air_rdhx",
    floor_load_lb_per_sqft=250,
)
OFFICE_15A = Facility(name="Office desk", site="office", circuit_volts=120, circuit_amps=15)


def quoted_system(
    catalog: CatalogSnapshot,
    sku: str,
    quantity: int = 1,
    *,
    unit_price: float | None = None,
    gpu_key: str | None = None,
    gpus: int | None = None,
    domain: int | None = None,
    **overrides: Any,
) -> QuotedSystem:
    spec = catalog.system(sku)
    key = gpu_key or spec.gpu
    gpu = catalog.gpu(key) if key else None
    count = spec.gpu_count if gpus is None else gpus
    power = spec.power_max_kw
    if power is None and gpu is not None and spec.base_power_kw is not None:
        power = assembled_power_kw(base_kw=spec.base_power_kw, gpus=count, watts_each=gpu.tdp_w_max)
    price = unit_price if unit_price is not None else spec.list_price_usd
    fields: dict[str, Any] = {
        "sku": sku,
        "name": spec.name,
        "form_factor": spec.form_factor,
        "quantity": quantity,
        "gpu": gpu.model if gpu else None,
        "gpu_key": key,
        "gpus_per_system": count,
        "nvlink_domain_gpus": domain or spec.nvlink_domain_gpus,
        "power_kw": power,
        "power_typical_kw": spec.power_typical_kw,
        "weight_lb": spec.weight_lb,
        "rack_units": spec.rack_units,
        "cooling": spec.cooling,
        "cpu_arch": spec.cpu_arch,
        "unit_price": Decimal(str(price)) if price is not None else None,
    }
    return QuotedSystem(**(fields | overrides))


def _workload(workload: Workload | dict[str, Any]) -> Workload:
    return workload if isinstance(workload, Workload) else Workload(**workload)


def _facility(facility: Facility | dict[str, Any]) -> Facility:
    return facility if isinstance(facility, Facility) else Facility(**facility)


def review_input(
    systems: list[QuotedSystem],
    workload: Workload | dict[str, Any],
    facility: Facility | dict[str, Any] = ROW_RDHX,
    *,
    total: Decimal | None = None,
    currency: str = "USD",
    line_problems: list[LineProblem] | None = None,
) -> ReviewInput:
    return ReviewInput(
        quote=QuoteSummary(total=total, currency=currency),
        systems=systems,
        workload=_workload(workload),
        facility=_facility(facility),
        line_problems=line_problems or [],
    )


def run(
    catalog: CatalogSnapshot,
    systems: list[QuotedSystem],
    workload: Workload | dict[str, Any],
    facility: Facility | dict[str, Any] = ROW_RDHX,
    **kwargs: Any,
) -> ReviewReport:
    return review(review_input(systems, workload, facility, **kwargs), catalog)


def context(
    catalog: CatalogSnapshot,
    systems: list[QuotedSystem],
    workload: Workload | dict[str, Any],
    facility: Facility | dict[str, Any] = ROW_RDHX,
    *,
    total: Decimal | None = None,
    line_problems: list[LineProblem] | None = None,
) -> ReviewContext:
    inp = review_input(systems, workload, facility, total=total, line_problems=line_problems)
    return context_build(
        workload=inp.workload,
        facility=inp.facility,
        quote=inp.quote,
        systems=inp.systems,
        line_problems=inp.line_problems,
        catalog=catalog,
    )


def only(findings: list[Finding]) -> Finding:
    """The single finding a check returned (fails loudly when there are several)."""
    assert len(findings) == 1, [f.title for f in findings]
    return findings[0]
