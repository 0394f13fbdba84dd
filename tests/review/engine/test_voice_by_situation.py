"""The field guide's voice by situation: each line is chosen by the facts it describes and never
shown where they do not hold.

One row per situation: what is quoted, for which load, in which room; the lines that must be
said, and the lines that must not. The rows that failed on the old main are the issue's own:
"Breakfast for one… hopeless for a department" for a DGX B300 serving 5,000 users, a calm
"didn't even notice" line under a Crisis gauge, Facilities "Raised" for a 240 W DGX Spark in a
data center, and "The floor holds 54 lb/sq ft" where 54 is the load, not the floor's rating.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.schemas import ReviewReport
from apps.words import number_format
from tests.review.engine.engine_kit import OFFICE_15A, ROW_RDHX, quoted_system, run


def _serving(users: int, speed: float) -> dict[str, Any]:
    return {
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": users,
        "tokens_per_sec_per_user": speed,
    }


DEVELOPER = {
    "kind": "development",
    "model": "Qwen3-32B",
    "precision": "fp8",
    "tokens_per_sec_per_user": 4,
}


@dataclass(frozen=True)
class Situation:
    name: str
    systems: list[tuple[Any, ...]]
    workload: dict[str, Any]
    facility: Any
    total: Decimal | None = None
    # (where, level) the gauges must read, e.g. ("facilities", "calm")
    levels: dict[str, str] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)
    never: list[str] = field(default_factory=list)


def _everything_said(report: ReviewReport) -> str:
    """Every line a reader sees: findings' titles and details, both gauges' reasons."""
    parts = [f"{f.title}\n{f.detail}" for f in report.findings]
    parts += report.blood_pressure.finance.reasons + report.blood_pressure.facilities.reasons
    return "\n".join(parts)


SITUATIONS = [
    Situation(
        # 273 GB/s ÷ 32.8 GB ≈ 8.3 tokens/s for one conversation, 10 asked: nobody seated.
        "a Spark for a 100-user department: breakfast for one",
        [("dgx-spark", 1)],
        _serving(100, 10),
        OFFICE_15A,
        said=[
            "Breakfast for one, and no friends are coming over",
            "Hopeless for a department needing a production workload.",
        ],
    ),
    Situation(
        # A semi short of seats is short of seats: no desk-machine line for a data-center load.
        "a DGX B300 for 5,000 users: seats, not breakfast",
        [("dgx-b300", 1)],
        _serving(5000, 15),
        ROW_RDHX,
        said=["of 5,000 users", "Fewer than half of the riders get a seat"],
        never=["Breakfast for one", "Hopeless for a department"],
    ),
    Situation(
        "a Spark on a desk: Facilities didn't even notice",
        [("dgx-spark", 1)],
        DEVELOPER,
        OFFICE_15A,
        levels={"facilities": "calm"},
        # 0.24 kW × 1,000 = 240 W, under a 15 A × 120 V × 80 % = 1,440 W desk outlet
        said=["Facilities didn't even notice: the NVIDIA DGX Spark draws 240 W"],
    ),
    Situation(
        # The liquid train makes it a crisis; the Spark's calm line is no longer true of the room.
        "a Spark beside a liquid-cooled train in an office: no calm line under Crisis",
        [("dgx-spark", 1), ("gb300-nvl72", 1)],
        DEVELOPER,
        OFFICE_15A,
        levels={"facilities": "crisis"},
        said=["there is no facility water at a desk"],
        never=["didn't even notice"],
    ),
    Situation(
        # A 240 W desk machine in a data center needs no rack walk-through: calm, not Raised.
        "a DGX Spark in a data center: calm",
        [("dgx-spark", 1)],
        DEVELOPER,
        ROW_RDHX,
        levels={"facilities": "calm"},
        said=["Facilities didn't even notice: the NVIDIA DGX Spark draws 240 W"],
        never=["Facilities asks which rack"],
    ),
    Situation(
        # The floor line names the floor's rating, not only the rack's load.
        "a semi on a 250 lb/sq ft floor: the floor holds it, at its rating",
        [("dgx-b200", 1)],
        _serving(100, 15),
        ROW_RDHX,
        said=["Floor load ", "within a 250 lb/sq ft (1,221 kg/m²) rating"],
        never=["The floor holds 54 lb/sq ft"],
    ),
    Situation(
        # $3,999 is calm spend, but the Spark does not carry the department (throughput
        # critical), so Finance is at least High: the "expensed it" line would contradict it.
        "a $3,999 Spark for a department: no calm Finance line under High",
        [("dgx-spark", 1)],
        _serving(100, 10),
        OFFICE_15A,
        total=Decimal("3999"),
        levels={"finance": "high"},
        said=["The spend itself is small: $3,999, under the $10,000 line."],
        never=["Finance expensed it without reading the receipt"],
    ),
    Situation(
        "a $3,999 Spark for one developer: expensed it without reading the receipt",
        [("dgx-spark", 1)],
        DEVELOPER,
        OFFICE_15A,
        total=Decimal("3999"),
        levels={"finance": "calm"},
        said=["Finance expensed it without reading the receipt: $3,999."],
        never=["The spend itself is small"],
    ),
]


#: The mopeds and motorcycles (issue 21): a laptop's GPU is read from its quote line.
LAPTOP = ("dell-pro-max-16-plus", "rtx-pro-5000-laptop", 4689)
ONE_DEVELOPER_8B = {
    "kind": "development",
    "model": "Qwen3-8B",
    "precision": "bf16",
    "tokens_per_sec_per_user": 10,
}
SITUATIONS += [
    Situation(
        # One developer on one laptop: 896 GB/s ÷ 16.4 GB ≈ 54.7 tokens/s, one rider.
        "a laptop for one developer: breakfast for one, charged up, expensed",
        [(*LAPTOP, 1)],
        ONE_DEVELOPER_8B,
        OFFICE_15A,
        total=Decimal("4689"),
        levels={"finance": "calm", "facilities": "calm"},
        said=[
            "Breakfast for one.",
            "as long as it is charged up (280 W at most)",
            "Finance expensed it without reading the receipt: $4,689.",
        ],
        # a laptop is not in a pocket: the phone's line is not said
        never=["switch pockets", "Nobody runs a factory", "Hopeless for a department"],
    ),
    Situation(
        # 200 users of a shared service on 10 laptops: the guide's mismatch, whatever the sum.
        "ten laptops for a 200-user department: nobody runs a factory from a motorcycle",
        [(*LAPTOP, 10)],
        _serving(200, 10) | {"model": "Qwen3-8B", "precision": "bf16"},
        OFFICE_15A,
        total=Decimal("46890"),
        levels={"finance": "high"},
        said=[
            "Nobody runs a factory from a motorcycle",
            "10 separate hosts",
            # $4,689 each is under the $10,000 line; the fleet is a purchase order
            "Each laptop alone would be expensed without reading the receipt ($4,689)",
        ],
        never=["Breakfast for one", "Finance expensed it without reading the receipt: $"],
    ),
    Situation(
        # The moped: on-device only, in a pocket.
        "a phone: on-device only, and Facilities will switch pockets",
        [("apple-iphone-16-pro", "apple-a18-pro", 1099, 1)],
        _serving(1, 5) | {"kind": "development", "model": "Llama-3.2-1B", "precision": "int4"},
        OFFICE_15A,
        total=Decimal("1099"),
        levels={"finance": "calm", "facilities": "calm"},
        said=["On-device only: a phone is not a server", "they'll switch pockets"],
    ),
    Situation(
        # A semi has no pocket and no charger: none of the personal lines.
        "a DGX B200: no moped or motorcycle lines",
        [("dgx-b200", 1)],
        _serving(100, 15),
        ROW_RDHX,
        never=["switch pockets", "charged up", "Nobody runs a factory", "On-device only"],
    ),
]


@pytest.mark.parametrize("situation", SITUATIONS, ids=[s.name for s in SITUATIONS])
def test_each_line_only_where_its_facts_hold(
    catalog: CatalogSnapshot, situation: Situation
) -> None:
    systems = [_system(catalog, *row) for row in situation.systems]
    report = run(catalog, systems, situation.workload, situation.facility, total=situation.total)
    said = _everything_said(report)
    for who, level in situation.levels.items():
        assert getattr(report.blood_pressure, who).level == level, said
    for line in situation.said:
        assert line in said, said
    for line in situation.never:
        assert line not in said, said


def test_the_floor_line_reads_load_then_rating(catalog: CatalogSnapshot) -> None:
    report = run(catalog, [quoted_system(catalog, "dgx-b200", 1)], _serving(100, 15), ROW_RDHX)
    (floor,) = [f for f in report.findings if f.check == "floor_load"]
    load = floor.metrics["floor_lb_per_sqft"]
    # (1 × 313.9 lb + the rack's tare) ÷ its footprint = the load; the rating is the room's 250
    assert floor.metrics["floor_rating_lb_per_sqft"] == 250
    # load first, then the rating, in both units: 250 lb/sq ft × 4.88243 = 1,221 kg/m²
    assert floor.title.startswith(f"Floor load {number_format(load)} lb/sq ft (")
    assert floor.title.endswith("within a 250 lb/sq ft (1,221 kg/m²) rating")


def _system(catalog: CatalogSnapshot, sku: str, *rest: Any) -> Any:
    """(sku, quantity) for a catalog system; (family, GPU, unit price, quantity) for a
    configured one whose quote line names its one GPU (a laptop, a phone)."""
    if len(rest) == 1:
        return quoted_system(catalog, sku, rest[0])
    gpu_key, price, quantity = rest
    return quoted_system(catalog, sku, quantity, gpu_key=gpu_key, gpus=1, unit_price=price)
