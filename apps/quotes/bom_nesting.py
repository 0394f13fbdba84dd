"""Which lines belong to which system, once each line's own role is read
(``apps.quotes.bom_line_roles``): parents from item numbers (1, 1.1, 1.0.1, 10/10.1, 1-1),
indentation, configuration groups and blocks (``nest``); the roles that depend on position
(``refine``: a barebone under a system is its chassis); exactly one total (``one_total``); and
loose GPU cards placed into the systems that carry none (``loose_cards_place``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping

from apps.quotes.bom_blocks import ends_flat_block, shared_by_systems
from apps.quotes.bom_layouts import bought_beside
from apps.quotes.bom_line_roles import BomTexts
from apps.quotes.bom_quantities import QuoteFacts, system_members
from apps.quotes.bom_rows import Row


def one_total(rows: list[Row]) -> None:
    """Exactly one total row when the quote states any sum: "Net Total" above "Total inc.
    VAT" is a subtotal (only the last total is the total), and HPE iQuote's "Total Net
    Price", its only sum below the lines, is the total although "total net" most often
    means a sum before tax."""
    totals = [r for r in rows if r.role == "total"]
    for row in totals[:-1]:
        row.role = "subtotal"
    if totals:
        return
    last_line = max((r.index for r in rows if r.line is not None), default=-1)
    sums = [r for r in rows if r.role in ("subtotal", "tax", "freight") and r.index > last_line]
    if len(sums) == 1 and sums[0].role == "subtotal":
        sums[0].role = "total"


def nest(rows: list[Row]) -> None:
    """Parent lines from numbering, indentation, configuration groups and blocks: a system's
    block runs from its line to the next system or top-level line that is not a part."""
    by_number: dict[str, int] = {}
    current_system: int | None = None
    current_top: int | None = None
    #: The current system's parts are indented under it: a line back at the margin is not one.
    indented = False
    for row in rows:
        if (
            row.role in ("subtotal", "total", "tax")
            or row.head_category == "multiplier"
            or (row.line is None and row.role == "freight")
        ):
            current_system = None  # the totals block ends the configuration
            continue
        number = row.number
        parent: int | None = None
        if number:
            by_number[number] = row.index  # numbering that starts again: the nearer line
            parent_number = _parent_number(number, by_number)
            top = parent_number is None
            if not top and parent_number is not None:
                parent = by_number[parent_number]
        else:
            top = row.indent == 0 and row.line is not None and row.role == "system"
        if (
            row.role == "chassis"
            and parent is None
            and row.indent == 0
            and row.line is not None
            and (
                current_system is None
                or any(
                    r.parent == current_system and r.role not in ("note", "chassis")
                    for r in rows[current_system : row.index]
                )
            )
        ):
            row.role = "system"  # a second barebone after a finished block starts a system
        if row.role == "system" and (top or parent is None) and row.indent == 0:
            current_system = row.index
            current_top = row.index
            indented = False
            row.parent = None
            continue
        if parent is None and row.indent > 0 and current_top is not None:
            parent = current_top
            indented = indented or current_top == current_system
        elif indented and parent is None and row.indent == 0 and row.line is not None:
            # Colfax's "  QuantaGrid D74H-7U barebone … Included" under the server, then the
            # support and a rail kit at the margin: those are the order's, not the server's.
            current_system = None
        if (
            parent is None
            and row.group
            and current_system is not None
            and rows[current_system].group == row.group
        ):
            parent = current_system
        # A numbered top-level line is its own item and ends the system block, unless it is
        # a part of the system in a totals layout without sub-numbers.
        if (
            parent is None
            and number
            and top
            and (
                row.role in ("service", "accessory", "discount", "freight", "system")
                or (
                    current_system is not None
                    and _parent_number(rows[current_system].number, by_number) is None
                    and "." in "".join(r.number for r in rows)
                )
            )
        ):
            current_top = row.index
            if row.role != "note":
                current_system = None if row.role != "system" else row.index
            row.parent = None
            continue
        if parent is None and current_system is not None:
            system = rows[current_system]
            if (row.group and system.group and row.group != system.group) or ends_flat_block(
                row, system
            ):
                current_system = None
            elif shared_by_systems(row, system):
                pass  # beside the systems, not in each of them
            elif row.role in (
                "gpu_board",
                "gpu_card",
                "nvlink_bridge",
                "chassis",
                "component",
                "note",
            ) or (
                row.role == "accessory"
                and row.line is not None
                and (
                    not row.priced
                    or row.guessed
                    # the rack enclosures of racks bought as their trays: the racks' own
                    or (row.head_category == "rack" and system.units_per_system > 1)
                )
            ):
                parent = current_system
            elif bought_beside(row, system):
                current_system = None  # bought beside it, not configured into it
        row.parent = parent
        if row.role == "system" and row.parent is None:
            current_system = row.index


def _parent_number(number: str, seen: Mapping[str, int]) -> str | None:
    """ "1.1" → "1" (or "1.0"), "1.0.3" → "1.0", "10.1" → "10", "1-2" → "1"; None at the top."""
    separator = "." if "." in number else "-" if "-" in number else ""
    if not separator:
        return None
    parts = number.split(separator)
    while len(parts) > 1:
        parts = parts[:-1]
        candidate = separator.join(parts)
        if candidate in seen:
            return candidate
        if candidate + ".0" in seen and seen[candidate + ".0"] != seen.get(number):
            return candidate + ".0"
    return None


def refine(rows: list[Row], families: BomTexts) -> None:
    """Roles that depend on position: a barebone under a system is its chassis, a system
    line nested under another is a part of it, an adapter beside the systems an accessory."""
    for row in rows:
        if row.line is None:
            continue
        parent = rows[row.parent] if row.parent is not None else None
        if row.role == "system" and parent is not None and parent.role == "system":
            row.role = (
                "chassis"
                if row.gpu is None or not row.gpu.count
                else ("gpu_board" if row.gpu.board else "gpu_card")
            )
        elif row.role == "chassis" and parent is None:
            row.role = "system"
        elif (
            row.role == "component"
            and parent is None
            and row.head_category
            in (
                "component",
                "",
            )
        ):
            row.role = "accessory" if not row.guessed else row.role
        elif row.role == "accessory" and parent is not None and parent.role == "system":
            if row.head_category in ("", "rack", "peripheral") or row.guessed:
                row.role = "component"
                # Included in the system's price or numbered under it: a part of it. A
                # separately priced line we could not name stays a guess to confirm.
                if not row.priced or row.number or row.indent:
                    row.guessed = False
        elif (
            row.role in ("gpu_card", "gpu_board")
            and parent is None
            and families.find(families.head(row.text)) is not None
            and row.head_category not in ("card", "board")
        ):
            # A top-level line with a GPU and a system name the catalog knows is the system.
            row.role = "system"


def loose_cards_place(rows: list[Row]) -> None:
    """Cards and bridges listed beside the systems rather than under them (a flat quote, or
    the cards before the chassis) go into the systems that carry no GPUs of their own, one GPU
    model per system in quote order."""
    loose = [
        r
        for r in rows
        if r.line is not None and r.parent is None and r.role in ("gpu_card", "nvlink_bridge")
    ]
    if not loose:
        return
    empty = []
    facts = QuoteFacts.of(rows)
    for system in (r for r in rows if r.role == "system" and r.line is not None):
        members = system_members(rows, system, facts)
        carries = system.gpu is not None or any(
            m.role in ("gpu_card", "gpu_board") for m in members
        )
        if not carries:
            empty.append(system)
    if not empty:
        return
    models: list[str] = []
    for r in loose:
        if r.role == "gpu_card" and r.gpu and r.gpu.key not in models:
            models.append(r.gpu.key)
    for r in loose:
        if r.role == "gpu_card" and r.gpu:
            position = models.index(r.gpu.key)
            target = empty[position] if position < len(empty) else None
        else:
            target = empty[0]
        if target is not None:
            r.parent = target.index
