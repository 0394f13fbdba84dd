"""What the account team says a line is, laid over the reading, and the reading in words.

Pure (no ORM). Intake calls three things here, in this order:

1. ``sublines_fold``: a line a user confirmed as a system that is a sub-line of a system line
   (nested under it, or with no price of its own after it) is part of that system, not one
   more: confirming "NVIDIA HGX H200 … 8 GPUs" (Included, under 2 × PowerEdge XE9680) as the
   XE9680 still buys 2 servers, not 3;
2. ``line_corrections_apply``: each line's role, system or GPU card as corrected, before the
   vehicles are assembled ("line 12 is a service", "line 4 is the XE9680");
3. ``system_corrections_apply``: the GPU model and the per-system count a correction states,
   on the vehicles assembled from that line ("1 × Z8 Fury carries 4 × RTX PRO 6000 Max-Q").

``reading_words`` then says how the quote was read: "2 × PowerEdge XE9680, each 8 × H200 SXM
141 GB (lines 1–10); lines 11–13 services".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from apps.catalog.snapshot import CatalogSnapshot, GpuSpec, PartSpec
from apps.quotes.matching import LineMatch
from apps.quotes.schemas import (
    LineCorrection,
    LineRole,
    QuotedSystem,
    QuoteLineOut,
    QuoteSummary,
)

#: The reason matching gives a line read through a mapping a user confirmed for the vendor.
CONFIRMED_REASON = "confirmed for this vendor"
CORRECTED_REASON = "corrected by the account team"
SYSTEM_KINDS = frozenset({"system", "chassis"})
#: Roles that are never hardware the review counts.
NOT_HARDWARE: frozenset[str] = frozenset(
    {
        "component",
        "service",
        "accessory",
        "discount",
        "subtotal",
        "total",
        "tax",
        "freight",
        "note",
        "unknown",
    }
)
#: The role a line has when the reader gave none, from what it matched.
ROLE_OF_KIND: dict[str, LineRole] = {
    "system": "system",
    "chassis": "chassis",
    "gpu_card": "gpu_card",
    "bridge": "nvlink_bridge",
    "other": "component",
    "unknown": "unknown",
}
#: How a group of lines is named in the reading: "lines 11–13 services".
ROLE_PLURALS: dict[str, str] = {
    "system": "systems",
    "gpu_board": "GPU boards",
    "gpu_card": "GPU cards",
    "nvlink_bridge": "NVLink bridges",
    "chassis": "chassis",
    "component": "components",
    "service": "services",
    "accessory": "accessories",
    "discount": "discounts",
    "subtotal": "subtotals",
    "total": "totals",
    "tax": "tax",
    "freight": "freight",
    "note": "notes",
    "unknown": "not read",
}

Confidence = Literal["high", "medium", "low"]


class CorrectionError(ValueError):
    """A correction the catalog cannot carry out ("no system dell-xe9999")."""


def line_role(line: QuoteLineOut) -> LineRole:
    """The line's role: the reader's, or, while it gives none, the one its match implies."""
    if line.role != "unknown" or line.corrected:
        return line.role
    return ROLE_OF_KIND.get(line.kind, "unknown")


def _priced(line: QuoteLineOut) -> bool:
    return bool(line.unit_price) or bool(line.extended_price)


def sublines_fold(
    lines: Sequence[QuoteLineOut], matches: Sequence[LineMatch]
) -> tuple[list[QuoteLineOut], list[LineMatch]]:
    """A confirmed system match on a sub-line is part of the system above it (module doc 1).

    A sub-line is one the reader nested under a line (``parent``), or, while the reader gives
    no nesting, a line with no price of its own after a priced system line.
    """
    out_lines, out_matches = list(lines), list(matches)
    by_number = {line.line: i for i, line in enumerate(lines)}
    owner: int | None = None  # the nearest priced line read as a system, so far
    for i, (line, match) in enumerate(zip(lines, matches, strict=True)):
        is_system = match.kind in SYSTEM_KINDS and match.part is not None
        parent = line.parent
        if parent is None and not _priced(line):
            parent = owner
        parent_index = by_number.get(parent) if parent is not None else None
        if (
            is_system
            and match.reason == CONFIRMED_REASON
            and parent_index is not None
            and matches[parent_index].kind in SYSTEM_KINDS
        ):
            out_matches[i] = LineMatch(
                match=match.match,
                kind="other",
                score=match.score,
                reason=f"part of line {parent}",
            )
            out_lines[i] = line.model_copy(
                update={"kind": "other", "sku": None, "role": "component", "parent": parent}
            )
            continue
        if is_system and _priced(line):
            owner = line.line
    return out_lines, out_matches


def _part_for(
    catalog: CatalogSnapshot, *, kind: str, system: str | None = None, gpu: str | None = None
) -> PartSpec:
    """The catalog's part of that kind for a system or GPU, or one standing in for it."""
    for part in catalog.parts:
        if part.kind == kind and part.system == system and part.gpu == gpu:
            return part
    if system is not None:
        spec = catalog.system_by_key[system]
        return PartSpec(vendor=spec.vendor, part_number=spec.name, kind=kind, system=system)
    assert gpu is not None
    spec_gpu = catalog.gpu_by_key[gpu]
    return PartSpec(vendor=spec_gpu.vendor, part_number=spec_gpu.name, kind=kind, gpu=gpu)


def correction_check(correction: LineCorrection, catalog: CatalogSnapshot) -> None:
    """Raise CorrectionError for a system or GPU the catalog does not know."""
    if correction.system is not None and correction.system not in catalog.system_by_key:
        raise CorrectionError(f"the catalog has no system {correction.system!r}")
    if correction.gpu is not None and correction.gpu not in catalog.gpu_by_key:
        raise CorrectionError(f"the catalog has no GPU {correction.gpu!r}")


def _corrected_match(
    correction: LineCorrection, line: QuoteLineOut, match: LineMatch, catalog: CatalogSnapshot
) -> tuple[LineMatch, LineRole]:
    role = correction.role or line_role(line)
    if correction.system is not None and role not in ("system", "chassis"):
        role = "chassis" if catalog.system(correction.system).is_chassis else "system"
    if correction.gpu is not None and correction.system is None and role == "unknown":
        role = "gpu_card"
    found = "alias"
    if role in ("system", "chassis"):
        key = correction.system or (match.part.system if match.part else None)
        if key is None or key not in catalog.system_by_key:
            raise CorrectionError(f"line {line.line}: say which system it is")
        kind = "chassis" if catalog.system(key).is_chassis else "system"
        part = _part_for(catalog, kind=kind, system=key)
        return LineMatch(match=found, kind=kind, score=100.0, part=part, reason=CORRECTED_REASON), (
            role
        )
    if role == "gpu_card":
        key = correction.gpu or (match.part.gpu if match.part else None)
        if key is None or key not in catalog.gpu_by_key:
            raise CorrectionError(f"line {line.line}: say which GPU card it is")
        part = _part_for(catalog, kind="gpu_card", gpu=key)
        return LineMatch(
            match=found, kind="gpu_card", score=100.0, part=part, reason=CORRECTED_REASON
        ), role
    if role == "nvlink_bridge" and match.kind == "bridge":
        return match.model_copy(update={"reason": CORRECTED_REASON}), role
    # A GPU board, a bridge the catalog does not know, and everything that is not hardware:
    # not a vehicle of its own (a board's GPUs go onto its parent system, see below).
    return LineMatch(match="none", kind="other", reason=CORRECTED_REASON), role


def line_corrections_apply(
    lines: Sequence[QuoteLineOut],
    matches: Sequence[LineMatch],
    corrections: Mapping[int, LineCorrection],
    catalog: CatalogSnapshot,
) -> tuple[list[QuoteLineOut], list[LineMatch]]:
    """Each corrected line's role and match as the account team said (module doc 2).

    Raises CorrectionError for a system or GPU the catalog does not know.
    """
    out_lines, out_matches = list(lines), list(matches)
    for i, (line, match) in enumerate(zip(lines, matches, strict=True)):
        correction = corrections.get(line.line)
        if correction is None:
            continue
        correction_check(correction, catalog)
        new_match, role = _corrected_match(correction, line, match, catalog)
        out_matches[i] = new_match
        out_lines[i] = line.model_copy(
            update={
                "role": role,
                "kind": new_match.kind,
                "match": new_match.match,
                "match_score": new_match.score,
                "sku": new_match.sku,
                "corrected": True,
            }
        )
    return out_lines, out_matches


def _domain(gpu: GpuSpec, count: int, before: int) -> int:
    """GPUs in one NVLink domain once a system carries ``count`` of this GPU: a switch or C2C
    domain spans the system up to the GPU's own limit; cards keep their bridges (at most the
    count) and are 1 without."""
    if count <= 0:
        return 1
    if gpu.interconnect in ("nvlink_switch", "nvlink_c2c"):
        return max(1, min(count, gpu.nvlink_domain_gpus))
    return max(1, min(before, count))


def _regpu(
    system: QuotedSystem, gpu_key: str | None, count: int | None, catalog: CatalogSnapshot
) -> QuotedSystem:
    """The vehicle with the GPUs the correction states; power follows the GPUs changed."""
    old_gpu = catalog.gpu_by_key.get(system.gpu_key or "")
    new_gpu = catalog.gpu_by_key.get(gpu_key or system.gpu_key or "")
    new_count = system.gpus_per_system if count is None else count
    if new_gpu is None:
        return system.model_copy(update={"gpus_per_system": new_count})
    spec = catalog.system_by_key.get(system.sku)
    update: dict[str, object] = {
        "gpu": new_gpu.model,
        "gpu_key": new_gpu.key,
        "gpus_per_system": new_count,
        "nvlink_domain_gpus": _domain(new_gpu, new_count, system.nvlink_domain_gpus),
    }
    old_w = system.gpus_per_system * (old_gpu.tdp_w_max if old_gpu else 0)
    old_typ = system.gpus_per_system * (old_gpu.tdp_w_typical if old_gpu else 0)
    if spec is not None and spec.base_power_kw is not None:
        # The chassis without GPUs plus every card at its maximum: 2.2 kW + 4 × 300 W = 3.4 kW.
        update["power_kw"] = round(spec.base_power_kw + new_count * new_gpu.tdp_w_max / 1000, 3)
        update["power_typical_kw"] = round(
            spec.base_power_kw + new_count * new_gpu.tdp_w_typical / 1000, 3
        )
    elif system.power_kw is not None:
        # The system's draw less the GPUs it was read with, plus the GPUs it carries.
        update["power_kw"] = round(
            system.power_kw + (new_count * new_gpu.tdp_w_max - old_w) / 1000, 3
        )
        if system.power_typical_kw is not None:
            update["power_typical_kw"] = round(
                system.power_typical_kw + (new_count * new_gpu.tdp_w_typical - old_typ) / 1000, 3
            )
    if spec is not None and spec.is_chassis:
        update["name"] = f"{spec.name} with {new_count} × {new_gpu.model}"
    return system.model_copy(update=update)


def system_corrections_apply(
    systems: Sequence[QuotedSystem],
    lines: Sequence[QuoteLineOut],
    corrections: Mapping[int, LineCorrection],
    catalog: CatalogSnapshot,
) -> list[QuotedSystem]:
    """The vehicles with the GPU model and per-system count the corrections state (module
    doc 3). A correction on a GPU-board line applies to the system line it belongs to."""
    by_system_line: dict[int, LineCorrection] = {}
    owner: int | None = None
    for line in lines:
        if line.kind in SYSTEM_KINDS and line.parent is None:
            owner = line.line
        correction = corrections.get(line.line)
        if correction is None or (correction.gpu is None and correction.gpus_per_system is None):
            continue
        target = line.line
        if line.kind not in SYSTEM_KINDS:
            target = line.parent if line.parent is not None else (owner or line.line)
        by_system_line[target] = correction
    out = []
    for system in systems:
        head = system.lines[0] if system.lines else None
        correction = by_system_line.get(head) if head is not None else None
        if correction is None:
            out.append(system)
            continue
        out.append(_regpu(system, correction.gpu, correction.gpus_per_system, catalog))
    return out


def _ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5] -> "lines 1–3, 5"; [4] -> "line 4"."""
    numbers = sorted(set(numbers))
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if n is not None:
            start = prev = n
    one = len(numbers) == 1
    return ("line " if one else "lines ") + ", ".join(parts)


def _gpu_words(system: QuotedSystem, catalog: CatalogSnapshot) -> str:
    gpu = catalog.gpu_by_key.get(system.gpu_key or "")
    if not system.gpu or not system.gpus_per_system:
        return "no GPUs"
    memory = f" {gpu.memory_gb:g} GB" if gpu is not None else ""
    return f"{system.gpus_per_system} × {system.gpu}{memory}"


def reading_words(
    systems: Sequence[QuotedSystem], lines: Sequence[QuoteLineOut], catalog: CatalogSnapshot
) -> tuple[str, Confidence]:
    """How the quote was read, and how sure the reading is.

    "2 × PowerEdge XE9680, each 8 × H200 SXM 141 GB (lines 1–10); lines 11–13 services".
    High: every line has a role and a system was found; medium: some line was not read;
    low: no system, or a priced line that was not read.
    """
    parts: list[str] = []
    placed: set[int] = set()
    for system in systems:
        where = f" ({_ranges(system.lines)})" if system.lines else ""
        parts.append(
            f"{system.quantity} × {system.name}, each {_gpu_words(system, catalog)}{where}"
        )
        placed.update(system.lines)
    owners: dict[int, int] = {}
    for line in lines:
        if line.parent is not None and line.parent in placed:
            owners[line.line] = line.parent
    # Sub-lines of a system line are part of it.
    groups: dict[str, list[int]] = {}
    for line in lines:
        if line.line in placed or line.line in owners:
            continue
        groups.setdefault(line_role(line), []).append(line.line)
    for role, numbers in groups.items():
        parts.append(f"{_ranges(numbers)} {ROLE_PLURALS.get(role, role)}")
    unread = [line for line in lines if line_role(line) == "unknown"]
    if not systems or any(_priced(line) for line in unread):
        confidence: Confidence = "low"
    elif unread:
        confidence = "medium"
    else:
        confidence = "high"
    if not systems:
        parts.insert(0, "no GPU system")
    return "; ".join(parts), confidence


class CorrectionsOverlay:
    """The three steps intake runs, in one object, so intake calls this module in two places:
    the lines and matches before assembly, then the vehicles and the reading after it."""

    def __init__(
        self,
        lines: list[QuoteLineOut],
        matches: list[LineMatch],
        corrections: Mapping[int, LineCorrection],
        catalog: CatalogSnapshot,
    ) -> None:
        self.lines, self.matches = lines, matches
        self.corrections, self.catalog = corrections, catalog

    def systems_after(self, systems: Sequence[QuotedSystem]) -> list[QuotedSystem]:
        return system_corrections_apply(systems, self.lines, self.corrections, self.catalog)

    def reading(
        self, summary: QuoteSummary, systems: Sequence[QuotedSystem]
    ) -> tuple[str, Confidence | None]:
        """The reader's own words while nothing was corrected, else the corrected reading."""
        if summary.reading and not self.corrections:
            return summary.reading, summary.reading_confidence
        return reading_words(systems, self.lines, self.catalog)


def corrections_overlay(
    lines: Sequence[QuoteLineOut],
    matches: Sequence[LineMatch],
    corrections: Mapping[int, LineCorrection],
    catalog: CatalogSnapshot,
) -> CorrectionsOverlay:
    """Fold confirmed sub-lines into their system, then apply the line corrections."""
    folded_lines, folded_matches = sublines_fold(lines, matches)
    new_lines, new_matches = line_corrections_apply(
        folded_lines, folded_matches, corrections, catalog
    )
    return CorrectionsOverlay(new_lines, new_matches, corrections, catalog)
