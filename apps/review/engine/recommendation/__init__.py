"""The right-fit vehicle: what the lot should sell for this load, in this building.

The field guide's rule, "buy the smallest NVLink domain your biggest single job requires, then
scale out", as four steps over every catalog system that carries GPUs (a chassis without cards
is an engine-less vehicle and is skipped) plus any kit the quote assembled itself:

1. Hold the biggest job in one NVLink domain, at the 90 % of memory the runtime leaves usable.
   Training, full fine-tuning and LoRA must fit one domain: a 512 GB fine-tune fits a DGX H100
   (8 × 80 GiB = 687.2 GB, 618.5 GB usable); four bridged H200 NVL (4 × 141 GiB = 605.6 GB,
   545 usable) hold it too, but training and full fine-tuning want an 8-GPU NVSwitch semi, and
   get the bridge only when no semi fits the building (the recommendation says so). Inference
   holds one copy of the weights plus one conversation per replica, and a replica may span the
   GPUs of one domain, never PCIe or the network.
2. Scale out to the demand: users at the asked tokens/s for inference-type loads (replicas ×
   users each), FP64 TFLOPS for HPC, one domain for a training job. Desk-side vehicles are
   one-desk vehicles: never a fleet of them ("a desktop for a department"), and never for a
   department's production serving (inference, RAG or vision for more than 10 users): the
   field guide calls a desk "hopeless for a department needing to host a production
   workload", however many conversations its memory holds (with the FP8 KV cache FP8 weights
   default to, a 4 × RTX PRO Max-Q workstation holds ~196).
3. Keep what the facility can power, cool and carry (`facility_fit`), planned at what the room
   cools without a warning (20 kW of air per rack, 60 kW with rear doors) and, on an office
   circuit, within its 80 % continuous rating; only when nothing fits that way, at the hard limits.
   An office takes desk-side vehicles only.
4. Rank by cost per served unit (the quote's own unit price when the quoted system is a
   candidate, else the catalog list price, mostly unverified estimates), then by kW. The
   candidates are sized cheapest first (`cheapest_comfortable`): once a comfortable plan is in
   hand, a system whose one-unit price per served unit is already dearer is not sized at all;
   when nothing is comfortable, every candidate is sized, as the unlock finding needs.

When nothing on the lot fits the building, there is no recommendation and a `recommendation`
finding names the facility change that would unlock the cheapest one: "lay rails first".
Pure: pydantic in, pydantic out; the sizing is `apps/review/sizing`, reused, never copied.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.model_resolve import model_resolve
from apps.review.engine.recommendation.demand import (
    CHECK,
    ONE_DOMAIN_KINDS,
    SERVING_KINDS,
    Basis,
    Demand,
    Serves,
    demand_of,
    quantity_for,
    served_unit,
    serves,
)
from apps.review.engine.recommendation.plans import (
    Candidate,
    Plan,
    building_fit,
    candidates_of,
    cheapest_comfortable,
    desk_circuit,
    plans_for,
    price_floor,
)
from apps.review.engine.recommendation.unlock import (
    COOLING_RANK,
    DESK_CIRCUITS,
    Unlock,
    blocked_finding,
    facility_changes,
    nothing_serves_finding,
    nothing_to_size_finding,
    unlock_for,
)
from apps.review.engine.recommendation.words import (
    COOLING_WORDS,
    DEMAND_FIGURES,
    money,
    recommendation_of,
    why_of,
)
from apps.review.engine.schemas import Facility, Finding, QuotedSystem, Recommendation, Workload

if TYPE_CHECKING:
    from apps.review.engine.checks.context import ReviewContext

__all__ = [
    "CHECK",
    "COOLING_RANK",
    "COOLING_WORDS",
    "DEMAND_FIGURES",
    "DESK_CIRCUITS",
    "ONE_DOMAIN_KINDS",
    "SERVING_KINDS",
    "Basis",
    "Candidate",
    "Demand",
    "Plan",
    "Serves",
    "Unlock",
    "blocked_finding",
    "building_fit",
    "candidates_of",
    "cheapest_comfortable",
    "demand_of",
    "desk_circuit",
    "facility_changes",
    "money",
    "nothing_serves_finding",
    "nothing_to_size_finding",
    "plans_for",
    "price_floor",
    "quantity_for",
    "recommend",
    "recommend_from_context",
    "recommendation_of",
    "served_unit",
    "serves",
    "unlock_for",
    "why_of",
]


def recommend(
    *,
    workload: Workload,
    facility: Facility,
    catalog: CatalogSnapshot,
    quoted: list[QuotedSystem] | None = None,
    quote_unit_prices: dict[str, Decimal] | None = None,
) -> tuple[Recommendation | None, Finding | None]:
    """The right-fit vehicle, or None and the finding that says why (module doc).

    `quote_unit_prices` (sku → unit price) defaults to the quoted systems' own unit prices.
    Raises ReviewInputError for an unknown model preset, like the review itself.
    """
    quoted = quoted or []
    if quote_unit_prices is None:
        quote_unit_prices = {s.sku: s.unit_price for s in quoted if s.unit_price is not None}
    demand = demand_of(workload, model_resolve(workload.model, catalog))
    if demand is None:
        return None, nothing_to_size_finding()
    candidates = candidates_of(catalog, quoted, quote_unit_prices)
    best, plans, skipped = cheapest_comfortable(candidates, demand, facility)
    if best is None:  # nothing comfortable, so every candidate was sized: the best at the edge
        best = min((p for p in plans if p.fit.fits), key=Plan.rank_key, default=None)
    if best is not None:
        return recommendation_of(best, facility), None
    if demand.min_domain_gpus > 1:
        # no NVSwitch semi fits this building: a bridged domain that holds the job is the
        # closest fit, and the recommendation says what it gives up
        bridged = replace(demand, min_domain_gpus=1)
        best, bridged_plans, _ = cheapest_comfortable(candidates, bridged, facility)
        if best is None:
            best = min((p for p in bridged_plans if p.fit.fits), key=Plan.rank_key, default=None)
        if best is not None:
            rec = recommendation_of(best, facility)
            note = (
                f" No {demand.min_domain_gpus}-GPU NVSwitch system fits this facility, so this "
                "bridged domain is the closest fit: the job fits its memory, but its GPUs talk "
                "over a bridge, slower than a semi's fabric."
            )
            return rec.model_copy(update={"why": rec.why + note}), None
    if plans:
        return None, blocked_finding(plans, facility)
    return None, nothing_serves_finding(demand, skipped)


def recommend_from_context(ctx: ReviewContext) -> tuple[Recommendation | None, Finding | None]:
    """The engine's one call: the quoted vehicles and their prices (in USD only, since the
    catalog is priced in dollars) from the review's context."""
    systems = [v.system for v in ctx.vehicles]
    prices: dict[str, Decimal] | None = None if ctx.quote.currency.upper() == "USD" else {}
    return recommend(
        workload=ctx.workload,
        facility=ctx.facility,
        catalog=ctx.catalog,
        quoted=systems,
        quote_unit_prices=prices,
    )
