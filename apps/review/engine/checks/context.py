"""Everything the checks read, computed once per review: the vehicles joined to the catalog, the
job's memory, the serving plan, the FP64 total, the rack plans and the spend.

Checks are pure functions of this context; building it is the only place sizing runs, so a
100-line quote is sized once, not once per check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.catalog.snapshot import CatalogSnapshot, SystemSpec
from apps.review.engine.model_resolve import ModelFacts, model_resolve
from apps.review.engine.schemas import (
    Facility,
    LineProblem,
    QuotedSystem,
    QuoteSummary,
    Workload,
    WorkloadKind,
)
from apps.review.engine.sizing.facility import RackPlan, vehicle_rack_plan
from apps.review.engine.sizing.fp64 import Fp64Fleet, fp64_fleet
from apps.review.engine.sizing.memory import JobMemory, gpu_memory_gb, job_memory
from apps.review.engine.sizing.serving_load import workload_serving_load
from apps.review.engine.sizing.throughput import FleetServing, fleet_serving
from apps.review.engine.sizing.vehicle import Vehicle, vehicles_from

SERVING_KINDS = frozenset(
    {WorkloadKind.INFERENCE, WorkloadKind.RAG, WorkloadKind.DEVELOPMENT, WorkloadKind.VISION}
)
WASTE_IDLE_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Spend:
    """What the quote costs, and where the number came from."""

    amount: Decimal | None
    basis: str  # "quote total", "quantity × unit price", "catalog price (estimate)"
    currency: str
    by_vehicle: tuple[Decimal | None, ...]


@dataclass(frozen=True, slots=True)
class Utilization:
    """Demand ÷ capacity at the asked speed, and what the idle part costs."""

    demand_users: int
    capacity_users: int
    share: float  # 0..1, capped at 1 when over-subscribed
    idle_share: float
    idle_usd: Decimal | None
    training_grade: bool


@dataclass(frozen=True, slots=True)
class ReviewContext:
    workload: Workload
    facility: Facility
    quote: QuoteSummary
    catalog: CatalogSnapshot
    line_problems: tuple[LineProblem, ...]
    model: ModelFacts | None
    vehicles: tuple[Vehicle, ...]
    job: JobMemory | None
    serving: FleetServing | None
    fp64: Fp64Fleet
    racks: tuple[tuple[Vehicle, RackPlan], ...]  # empty outside a data center
    spend: Spend
    utilization: Utilization | None

    @property
    def gpu_vehicles(self) -> list[Vehicle]:
        return [v for v in self.vehicles if v.gpu is not None and v.gpus]

    @property
    def total_gpus(self) -> int:
        return sum(v.gpus for v in self.vehicles)

    @property
    def total_memory_gb(self) -> float:
        return sum(v.memory_gb for v in self.vehicles)

    @property
    def biggest_domain(self) -> Vehicle | None:
        """The vehicle line with the most memory in one NVLink domain."""
        return max(self.gpu_vehicles, key=lambda v: v.domain_memory_gb, default=None)

    @property
    def is_datacenter(self) -> bool:
        return self.facility.site == "datacenter"

    @property
    def wants_fp64(self) -> bool:
        return self.workload.kind == WorkloadKind.HPC or self.workload.fp64_tflops is not None

    def smallest_domain_holding(self, gb: float, *, min_gpus: int = 2) -> SystemSpec | None:
        """The catalog vehicle whose NVLink domain is the smallest that holds `gb` (levers)."""
        best: tuple[float, SystemSpec] | None = None
        for spec in self.catalog.systems:
            gpu = self.catalog.gpu_by_key.get(spec.gpu or "")
            if gpu is None or spec.nvlink_domain_gpus < min_gpus:
                continue
            domain_gb = spec.nvlink_domain_gpus * gpu_memory_gb(gpu)
            if domain_gb >= gb and (best is None or domain_gb < best[0]):
                best = (domain_gb, spec)
        return best[1] if best else None


def spend_of(quote: QuoteSummary, vehicles: Sequence[Vehicle]) -> Spend:
    """The quote total when the quote gives one, else quantity × unit price, else the catalog's
    price for each system (an estimate, and the reason says so)."""
    by_vehicle = [v.cost for v in vehicles]
    estimated = any(v.cost_estimated for v in vehicles)
    if quote.total is not None:
        return Spend(quote.total, "quote total", quote.currency, tuple(by_vehicle))
    known = [p for p in by_vehicle if p is not None]
    if not known:
        return Spend(None, "no prices", quote.currency, tuple(by_vehicle))
    basis = "catalog price (estimate)" if estimated else "quantity × unit price"
    return Spend(sum(known, Decimal(0)), basis, quote.currency, tuple(by_vehicle))


def utilization_of(
    workload: Workload, serving: FleetServing | None, spend: Spend, vehicles: Sequence[Vehicle]
) -> Utilization | None:
    """Users asked ÷ users the quote serves at the asked speed (inference-type loads only)."""
    if serving is None:
        return None
    users = workload.concurrent_users
    capacity = serving.max_concurrent_users
    share = min(1.0, users / capacity) if capacity else 1.0
    idle = 1.0 - share
    serving_vehicles = {id(v) for v, _ in serving.plans}
    costs = [
        cost
        for v, cost in zip(vehicles, spend.by_vehicle, strict=True)
        if id(v) in serving_vehicles and cost is not None
    ]
    base = sum(costs, Decimal(0)) if costs else spend.amount
    idle_usd = (base * Decimal(str(round(idle, 4)))).quantize(Decimal(1)) if base else None
    return Utilization(
        demand_users=users,
        capacity_users=capacity,
        share=share,
        idle_share=idle,
        idle_usd=idle_usd,
        training_grade=any(v.is_training_grade for v, _ in serving.plans),
    )


def context_build(
    *,
    workload: Workload,
    facility: Facility,
    quote: QuoteSummary,
    systems: Sequence[QuotedSystem],
    line_problems: Sequence[LineProblem],
    catalog: CatalogSnapshot,
) -> ReviewContext:
    """Size everything once. Raises ReviewInputError for an unknown model or GPU."""
    model = model_resolve(workload.model, catalog)
    vehicles = tuple(vehicles_from(systems, catalog))
    serving = None
    if model is not None and workload.kind in SERVING_KINDS:
        load = workload_serving_load(workload, model)
        serving = fleet_serving(vehicles, load)
    racks: tuple[tuple[Vehicle, RackPlan], ...] = ()
    if facility.site == "datacenter":
        racks = tuple((v, vehicle_rack_plan(v, facility)) for v in vehicles if v.quantity)
    spend = spend_of(quote, vehicles)
    return ReviewContext(
        workload=workload,
        facility=facility,
        quote=quote,
        catalog=catalog,
        line_problems=tuple(line_problems),
        model=model,
        vehicles=vehicles,
        job=job_memory(workload, model),
        serving=serving,
        fp64=fp64_fleet(vehicles),
        racks=racks,
        spend=spend,
        utilization=utilization_of(workload, serving, spend, vehicles),
    )
