"""Whether a system's child quantities are per system or order totals, and the quote facts
every system's reading asks for (``apps.quotes.bom_systems`` reads the systems).

Dell's configurator lists each system's parts (2 × XE9680, each with one 8-GPU board); HPE
lists the order's (16 × H200 NVL for 2 servers). ``quantities_decide`` reads which from the
arithmetic of the quantities, the quote's own banners and the quote's structure; when nothing
tells, it says so.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from apps.quotes.bom_rows import Row
from apps.quotes.bom_words import OFFER_RE, PER_SYSTEM_RE

#: A processor line: "ThinkSystem AMD EPYC 9554 64C 360W", "Intel Xeon Platinum 8568Y+", not
#: its heatsink, fan, riser or blank.
_CPU_RE = re.compile(r"\b(?:xeon|epyc|processors?|cpus?)\b", re.IGNORECASE)
_NOT_A_CPU_RE = re.compile(
    r"\b(?:heat\s?sinks?|coolers?|fans?|risers?|blanks?|fillers?|brackets?|kits?|modules? for)\b",
    re.IGNORECASE,
)
#: Sockets in a GPU server: one or two (a four-socket GPU server is too rare to read by).
MAX_SOCKETS = 2

Decision = Literal["per_system", "totals", "none", "ambiguous"]


@dataclass(frozen=True)
class QuoteFacts:
    """What every system's reading asks of the whole quote, found once per quote rather than
    once per system: a 10,000-line quote holds 1,240 systems, and asking each time made the
    reading quadratic (7 s of the 10,000-line intake, bench/README.md)."""

    children: dict[int, list[int]]  # row index -> the indexes of the rows nested under it
    per_system_note: bool  # a note or subtotal line says its sub-lines are per system
    multiplier: bool  # a row gives the number of systems separately
    multipliers: list[int]

    @classmethod
    def of(cls, rows: list[Row], title_systems: int | None = None) -> QuoteFacts:
        children: dict[int, list[int]] = {}
        for row in rows:
            if row.parent is not None:
                children.setdefault(row.parent, []).append(row.index)
        notes = [r.text for r in rows if r.role in ("subtotal", "note") and r.line is not None]
        multipliers = [r.quantity for r in rows if r.head_category == "multiplier"]
        return cls(
            children=children,
            per_system_note=any(_says_per_system(t) for t in notes),
            multiplier=bool(multipliers) or title_systems is not None,  # or "Quantity: 3" on top
            multipliers=[n for n in [*multipliers, title_systems] if n is not None],
        )


def _says_per_system(note: str) -> bool:
    """A note that says the sub-lines are per system ("Configuration per server"), but not an
    offer beside the quote ("ALTERNATE: XE9680 with H100 ... (per server, not included)"):
    what an offer is priced per says nothing of the ordered lines."""
    return PER_SYSTEM_RE.search(note) is not None and OFFER_RE.match(note) is None


def system_members(rows: list[Row], system: Row, facts: QuoteFacts | None = None) -> list[Row]:
    """Every row nested under `system`, at any depth, in quote order."""
    children = (facts or QuoteFacts.of(rows)).children
    found: list[int] = []
    stack = list(children.get(system.index, ()))
    seen = {system.index}
    while stack:
        index = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        found.append(index)
        stack.extend(children.get(index, ()))
    return [rows[i] for i in sorted(found)]


def quantities_decide(
    system: Row,
    members: list[Row],
    rows: list[Row],
    quantity: int,
    max_gpus: int,
    gpus_by_reading: Mapping[str, int],
    facts: QuoteFacts | None = None,
) -> tuple[Decision, str]:
    """Per system or totals, and why (module doc); "ambiguous" when nothing tells."""
    parts = [
        m
        for m in members
        if m.line is not None
        and m.quantity is not None
        and m.role in ("gpu_board", "gpu_card", "nvlink_bridge", "chassis", "component")
    ]
    if not parts:
        # a configuration paragraph under the line ("Each node: 8x H200 ...") or a banner is no
        # sub-line; a workstation's "Processor: ..." spec rows are
        sub_lines = [
            m
            for m in members
            if m.head_category != "config" and (m.line is not None or m.role != "note")
        ]
        return ("none" if not sub_lines else "per_system"), "no sub-line quantities"
    if quantity <= 1:
        return "per_system", "one system: per system and totals agree"
    if system.parts_beside:
        return "totals", "its parts are listed beside it in a bundle that counts the order"
    facts = facts or QuoteFacts.of(rows)
    block = rows[system.index + 1 : max(m.index for m in members) + 1]  # rows[i].index == i
    notes = [r.text for r in block if r.role == "note" or r.line is None]
    if facts.per_system_note or any(_says_per_system(t) for t in notes):
        return "per_system", "the quote says its sub-lines are per system"
    if facts.multiplier:
        return "per_system", "the quote gives the number of systems separately"
    stated = _stated_reading(system, gpus_by_reading)
    if stated:
        return stated, (
            f"line {system.line} says {gpus_by_reading[stated]} GPUs per system, as its "
            f"sub-lines read {'per system' if stated == 'per_system' else 'as order totals'}"
        )
    per_system_gpus = gpus_by_reading.get("per_system", 0)
    if per_system_gpus > max_gpus and 0 < gpus_by_reading.get("totals", 0) <= max_gpus:
        # the GPUs decide over a shared part: 36 GB300 trays under 2 racks are 18 per rack
        # even when the one in-row CDU listed with them does not divide over 2
        return "totals", (
            f"{per_system_gpus} GPUs per system would not fit a chassis that takes {max_gpus}"
        )
    bridged = _bridges_reading(system, parts, quantity)
    if bridged:
        return "totals", bridged
    sockets = _sockets_reading(parts, quantity)
    if sockets:
        return "totals", sockets
    odd = [m for m in parts if m.quantity and m.quantity % quantity]
    if odd:
        return "per_system", (
            f"line {odd[0].line} has {odd[0].quantity}, which does not divide over "
            f"{quantity} systems"
        )
    boards = [m for m in parts if m.role == "gpu_board"]
    if any(m.quantity == quantity for m in boards):
        return "totals", f"one GPU board per system: {quantity} boards for {quantity} systems"
    if per_system_gpus > max_gpus:
        return "totals", (
            f"{per_system_gpus} GPUs per system would not fit a chassis that takes {max_gpus}"
        )
    if per_system_gpus == max_gpus and gpus_by_reading.get("totals", 0) < max_gpus:
        # "1.2 AMD EPYC 9355 | 2", "1.4 RTX PRO 6000 | 8" under 2 servers that take 8 GPUs:
        # the 2 CPUs are each server's pair, not one each of a half-filled server.
        return "per_system", f"{max_gpus} GPUs per system fill the chassis"
    if any(m.quantity == quantity for m in parts):
        return "totals", f"one-per-system parts are quoted {quantity} times"
    priced = [m for m in parts if m.priced]
    if priced and system.priced and len(priced) >= len(parts) / 2:
        return "totals", "every part is priced on its own line (itemized totals layout)"
    return "ambiguous", ""


def _stated_reading(system: Row, gpus_by_reading: Mapping[str, int]) -> Decision | None:
    """The reading that gives the GPU count the system's own line states, when only one does:
    "2 × PowerEdge XE9680 ... 8x NVIDIA H200" over sub-lines of 8 H200 and 2 CPUs is per
    system (8 each), though the 2 CPUs alone would look like one per system quoted twice."""
    stated = system.gpu.count if system.gpu is not None else None
    if not stated:
        return None
    fits = [r for r in ("per_system", "totals") if gpus_by_reading.get(r) == stated]
    return fits[0] if len(fits) == 1 else None  # type: ignore[return-value]


def _bridges_reading(system: Row, parts: list[Row], quantity: int) -> str:
    """Why the bridges say the sub-lines are order totals, or "": 4 four-way bridges under 2
    servers of 8 H200 NVL would link 16 GPUs in each server read per system, but 8 (2 × 4)
    read as the order's; a server cannot bridge more GPUs than it carries."""
    gpus = system.gpu.count if system.gpu is not None else None
    bridges = [m for m in parts if m.role == "nvlink_bridge" and m.bridge_ways and m.quantity]
    if not gpus or not bridges:
        return ""
    linked = sum((m.quantity or 0) * (m.bridge_ways or 0) for m in bridges)
    if linked > gpus and linked // quantity <= gpus:
        return (
            f"{linked} bridged GPUs per system would exceed the {gpus} line {system.line} "
            f"names; as order totals they are {linked // quantity}"
        )
    return ""


def _sockets_reading(parts: list[Row], quantity: int) -> str:
    """Order totals when the processors, read per system, would not fit a server's sockets:
    "AMD EPYC 9554 | 4" under 2 SR675 V3 is 2 each, not 4 in a two-socket server (and so its
    "H200 NVL | 8" is 4 each); "" when the processors do not tell."""
    cpus = sum(
        m.quantity or 0
        for m in parts
        if m.role == "component" and _CPU_RE.search(m.text) and not _NOT_A_CPU_RE.search(m.text)
    )
    if cpus > MAX_SOCKETS and cpus % quantity == 0 and cpus // quantity <= MAX_SOCKETS:
        return (
            f"{cpus} processors in one system would be more than its {MAX_SOCKETS} sockets: "
            f"{cpus // quantity} in each of {quantity}"
        )
    return ""
