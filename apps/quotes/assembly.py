"""Assemble matched quote lines into the vehicles the checks review.

A DGX B200 line is a whole vehicle. A PCIe quote is a kit: "2 × SYS-521GE-TNRT" and
"8 × L40S" are two work vans with four L40S each, and because the L40S has no NVLink each van's
NVLink domain is 1 GPU. "8 × H200 NVL" in one chassis with "2 × 4-way NVLink bridge" is one van
with two 4-GPU domains, so its domain is 4.

Power of an assembled van is what the breakers must carry: the chassis without GPUs plus every
card at its maximum, e.g. 2.2 kW + 4 × 350 W = 3.6 kW.

Anything that does not add up (cards with no chassis, more cards than slots, cards hotter than
the chassis takes, bridges with nothing to bridge) becomes a ``quote_lines`` finding; assembly
never raises on a strange quote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from pydantic import BaseModel, Field

from apps.catalog.snapshot import CatalogSnapshot, GpuSpec, SystemSpec
from apps.quotes.matching import LineMatch
from apps.quotes.schemas import LineProblem, QuotedSystem
from apps.words import VEHICLES


class AssemblyLine(BaseModel):
    """A quote line as assembly sees it: its number, how many, what it costs, what it is."""

    line: int
    quantity: int | None = None
    unit_price: Decimal | None = None
    match: LineMatch = Field(default_factory=LineMatch)


class Assembly(BaseModel):
    systems: list[QuotedSystem] = Field(default_factory=list)
    problems: list[LineProblem] = Field(default_factory=list)


@dataclass
class _CardPool:
    """All cards of one GPU model on the quote."""

    gpu: GpuSpec
    count: int = 0
    lines: list[int] = field(default_factory=list)
    unit_price: Decimal | None = None


@dataclass
class _Chassis:
    line: int
    quantity: int
    spec: SystemSpec
    unit_price: Decimal | None


@dataclass
class _Bridges:
    ways: int
    count: int = 0
    lines: list[int] = field(default_factory=list)
    unit_price: Decimal | None = None


def vehicle_for(spec: SystemSpec) -> str:
    """The field guide's vehicle: a DGX B200 is a semi, a PCIe server a work van, a DGX Station
    the station wagon among the workstation sedans."""
    if "station" in spec.key:
        return "station wagon"
    return VEHICLES.get(spec.form_factor, spec.form_factor.replace("_", " "))


def lines_text(lines: Sequence[int]) -> str:
    """ "line 3" or "lines 3, 4": how a finding points at the quote."""
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))


def _problem(
    severity: str, title: str, detail: str, *, lever: str, **metrics: object
) -> LineProblem:
    return LineProblem(
        severity=severity,
        title=title,
        detail=detail,
        metrics=metrics,
        lever=lever,
    )


def systems_assemble(lines: Sequence[AssemblyLine], catalog: CatalogSnapshot) -> Assembly:
    """Vehicles from matched lines; strange combinations become problems (module doc)."""
    out = Assembly()
    chassis: list[_Chassis] = []
    pools: dict[str, _CardPool] = {}
    bridges: dict[int, _Bridges] = {}
    for item in lines:
        match = item.match
        part = match.part
        if part is None or match.match in ("none", "ambiguous") or match.kind == "other":
            continue
        quantity = item.quantity
        if quantity is None:
            out.problems.append(
                _problem(
                    "warning",
                    f"Line {item.line} has no quantity",
                    f"Line {item.line} ({part.part_number}) gives no quantity, so it is left "
                    "out of the vehicles reviewed.",
                    lever="Fix the quantity in the quote and upload it again.",
                    line=item.line,
                )
            )
            continue
        if quantity <= 0:
            continue
        if part.kind == "system" and part.system in catalog.system_by_key:
            spec = catalog.system(part.system)
            out.systems.append(
                quoted_system_from_spec(
                    spec, catalog, quantity=quantity, unit_price=item.unit_price, lines=[item.line]
                )
            )
        elif part.kind == "chassis" and part.system in catalog.system_by_key:
            spec = catalog.system(part.system)
            chassis.append(_Chassis(item.line, quantity, spec, item.unit_price))
        elif part.kind == "gpu_card" and part.gpu in catalog.gpu_by_key:
            pool = pools.setdefault(part.gpu, _CardPool(catalog.gpu(part.gpu)))
            pool.count += quantity
            pool.lines.append(item.line)
            pool.unit_price = pool.unit_price if pool.unit_price is not None else item.unit_price
        elif part.kind == "bridge" and part.bridge_gpus:
            group = bridges.setdefault(part.bridge_gpus, _Bridges(part.bridge_gpus))
            group.count += quantity
            group.lines.append(item.line)
            group.unit_price = group.unit_price if group.unit_price is not None else item.unit_price
    whole = len(out.systems)
    _assemble_kits(chassis, list(pools.values()), out)
    kits = out.systems[whole:]
    _fit_bridges(list(bridges.values()), kits, catalog, out)
    return out


def quoted_system_from_spec(
    spec: SystemSpec,
    catalog: CatalogSnapshot,
    *,
    quantity: int,
    unit_price: Decimal | None,
    lines: Sequence[int] = (),
) -> QuotedSystem:
    """A catalog system as a quoted vehicle, with the facts the sizing reads: a DGX B200 line
    on the quote (its quantity, price and line), or one DGX H100 at list price that the
    recommendation weighs against it."""
    gpu = catalog.gpu_by_key.get(spec.gpu or "")
    return QuotedSystem(
        sku=spec.key,
        name=spec.name,
        form_factor=spec.form_factor,
        quantity=quantity,
        gpu=gpu.model if gpu else None,
        gpu_key=gpu.key if gpu else None,
        gpu_interconnect=gpu.interconnect if gpu else None,
        gpus_per_system=spec.gpu_count,
        nvlink_domain_gpus=spec.nvlink_domain_gpus,
        power_kw=spec.power_max_kw,
        power_typical_kw=spec.power_typical_kw,
        weight_lb=spec.weight_lb,
        rack_units=spec.rack_units,
        cooling=spec.cooling,
        cpu_arch=spec.cpu_arch,
        unit_price=unit_price,
        vehicle=vehicle_for(spec),
        lines=list(lines),
    )


def _assemble_kits(chassis: list[_Chassis], pools: list[_CardPool], out: Assembly) -> None:
    """Pair card pools with chassis lines in quote order: one GPU model goes into every
    chassis; with several models, the first model fills the first chassis line, and so on."""
    if len(pools) <= 1:
        pairs = [(chassis, pools[0] if pools else None)] if chassis else []
        leftover = [] if chassis else pools
    else:
        pairs = [([c], p) for c, p in zip(chassis, pools, strict=False)]
        pairs += [([c], None) for c in chassis[len(pools) :]]
        leftover = pools[len(chassis) :]
    for left in leftover:
        out.problems.append(_no_chassis(left))
    for group, pool in pairs:
        if pool is None:
            for item in group:
                out.problems.append(
                    _problem(
                        "warning",
                        f"{item.quantity} × {item.spec.name} with no GPUs",
                        f"Line {item.line} quotes a GPU-ready chassis but no GPU cards go "
                        "into it: a van with no engine.",
                        lever="Add the GPU cards to the quote, or drop the chassis.",
                        line=item.line,
                    )
                )
                out.systems.append(_kit(item, item.quantity, None, 0, None))
            continue
        _fill(group, pool, out)


def _no_chassis(pool: _CardPool) -> LineProblem:
    """Cards with no vehicle. A warning, not critical: a cards-only quote is often an upgrade
    for servers already in the rack, but the review cannot see the vehicle they go into."""
    return _problem(
        "warning",
        f"{pool.count} × {pool.gpu.model} with no chassis",
        f"{lines_text(pool.lines).capitalize()}: {pool.count} × {pool.gpu.name} cards "
        "and no server to put them in. Engines without a vehicle are left out of the review; "
        "ask which servers they go into.",
        lever="Ask which servers the cards go into, or add the chassis to the quote.",
        lines=pool.lines,
        gpus=pool.count,
    )


def _fill(group: list[_Chassis], pool: _CardPool, out: Assembly) -> None:
    units = sum(item.quantity for item in group)
    per, extra = divmod(pool.count, units)
    if extra:
        out.problems.append(
            _problem(
                "warning",
                f"{pool.count} × {pool.gpu.model} don't divide over {units} chassis",
                f"{pool.count} cards over {units} chassis: {extra} take {per + 1}, "
                f"{units - extra} take {per}. Uneven servers are hard to schedule and to "
                "replace.",
                lever="Quote the same number of cards in every server.",
                cards=pool.count,
                chassis=units,
            )
        )
    watts_over = False
    for item in group:
        # The first `extra` chassis units take one card more.
        bigger = min(extra, item.quantity)
        extra -= bigger
        for quantity, cards in ((bigger, per + 1), (item.quantity - bigger, per)):
            if quantity:
                out.systems.append(_kit(item, quantity, pool, cards, out))
        limit = item.spec.max_gpu_watts
        if limit is not None and pool.gpu.tdp_w_max > limit and not watts_over:
            watts_over = True
            out.problems.append(
                _problem(
                    "critical",
                    f"{pool.gpu.model} draws more than {item.spec.name} takes per slot",
                    f"The {pool.gpu.name} draws up to {pool.gpu.tdp_w_max:.0f} W; the chassis "
                    f"powers and cools at most {limit:.0f} W per GPU. It will not run as "
                    "quoted.",
                    lever="Quote a chassis rated for these cards, or cards that draw less.",
                    gpu_w=pool.gpu.tdp_w_max,
                    max_gpu_w=limit,
                )
            )


def _kit(
    item: _Chassis, quantity: int, pool: _CardPool | None, cards: int, out: Assembly | None
) -> QuotedSystem:
    spec = item.spec
    installed = cards
    if spec.gpu_slots is not None and cards > spec.gpu_slots and out is not None:
        installed = spec.gpu_slots
        out.problems.append(
            _problem(
                "critical",
                f"{cards} cards for {spec.gpu_slots} slots",
                f"Each {spec.name} takes {spec.gpu_slots} GPUs but the quote puts {cards} in "
                f"it: {cards - spec.gpu_slots} card(s) per server have nowhere to go.",
                lever="Quote fewer cards per server, or more servers.",
                line=item.line,
                cards=cards,
                slots=spec.gpu_slots,
            )
        )
    gpu = pool.gpu if pool else None
    power = typical = None
    if spec.base_power_kw is not None:
        # Chassis without GPUs plus every card at its maximum: 2.2 kW + 4 × 350 W = 3.6 kW.
        power = round(spec.base_power_kw + installed * (gpu.tdp_w_max if gpu else 0) / 1000, 3)
        typical = round(
            spec.base_power_kw + installed * (gpu.tdp_w_typical if gpu else 0) / 1000, 3
        )
    price = None
    if item.unit_price is not None and (installed == 0 or (pool and pool.unit_price is not None)):
        card_price = pool.unit_price if pool and pool.unit_price is not None else Decimal(0)
        price = item.unit_price + installed * card_price
    return QuotedSystem(
        sku=spec.key,
        name=f"{spec.name} with {installed} × {gpu.model}" if gpu else spec.name,
        form_factor=spec.form_factor,
        quantity=quantity,
        gpu=gpu.model if gpu else None,
        gpu_key=gpu.key if gpu else None,
        gpu_interconnect=gpu.interconnect if gpu else None,
        gpus_per_system=installed,
        nvlink_domain_gpus=1,
        power_kw=power,
        power_typical_kw=typical,
        weight_lb=spec.weight_lb,
        rack_units=spec.rack_units,
        cooling=spec.cooling,
        cpu_arch=spec.cpu_arch,
        unit_price=price,
        vehicle=vehicle_for(spec),
        lines=[item.line, *(pool.lines if pool else [])],
    )


def _fit_bridges(
    groups: list[_Bridges], kits: list[QuotedSystem], catalog: CatalogSnapshot, out: Assembly
) -> None:
    """Share NVLink bridges over the assembled servers whose cards take them. Eight H200 NVL
    with two 4-way bridges per server are two 4-GPU domains: the server's domain is 4. Only
    cards whose interconnect is an NVLink bridge take one (not the PCIe-only L40S, not SXM
    systems that have NVSwitch inside)."""
    if not groups:
        return
    bridged = [
        s
        for s in kits
        if s.gpu_key
        and s.gpus_per_system > 1
        and catalog.gpu(s.gpu_key).interconnect == "nvlink_bridge"
    ]
    units = sum(s.quantity for s in bridged)
    lines = sorted(line for g in groups for line in g.lines)
    if not units:
        out.problems.append(
            _problem(
                "warning",
                "NVLink bridges with nothing to bridge",
                f"{lines_text(lines).capitalize()}: NVLink bridges, but no GPU on "
                "this quote takes them (PCIe-only cards like the L40S, or SXM systems with "
                "NVSwitch already inside).",
                lever="Drop the bridges, or quote cards that take them (H200 NVL, H100 NVL).",
                lines=lines,
            )
        )
        return
    for system in bridged:
        gpu_max = catalog.gpu(system.gpu_key or "").nvlink_domain_gpus
        for group in sorted(groups, key=lambda g: -g.ways):
            per_system = group.count // units
            if per_system == 0:
                continue
            ways = min(group.ways, gpu_max, system.gpus_per_system)
            if group.ways > gpu_max:
                out.problems.append(
                    _problem(
                        "warning",
                        f"{group.ways}-way bridge on a {system.gpu} that links {gpu_max}",
                        f"The {system.gpu} joins at most {gpu_max} GPUs over NVLink bridges; "
                        f"a {group.ways}-way bridge does not make a bigger domain.",
                        lever="Quote bridges the GPU supports.",
                        lines=group.lines,
                    )
                )
            if per_system * ways < system.gpus_per_system:
                out.problems.append(
                    _problem(
                        "info",
                        f"Only {per_system * ways} of {system.gpus_per_system} GPUs bridged",
                        f"{per_system} × {group.ways}-way bridge per server links "
                        f"{per_system * ways} of its {system.gpus_per_system} {system.gpu}; the "
                        "rest talk over PCIe.",
                        lever="Add bridges to join the remaining GPUs.",
                        lines=group.lines,
                    )
                )
            system.nvlink_domain_gpus = max(system.nvlink_domain_gpus, ways)
            if system.unit_price is not None and group.unit_price is not None:
                system.unit_price += per_system * group.unit_price
            system.lines = sorted({*system.lines, *group.lines})
            break
