"""Read a bill of materials the way an account manager does: what each line is, which lines
belong to which system, and what the quote says the systems contain (DESIGN.md "Reading a
quote").

A line's role comes from its structure, never from a word somewhere in its text:

- its **head**: the words before the first comma, dash, colon, parenthesis, "for" or "with"
  ("ProDeploy Plus" in "Dell ProDeploy Plus for PowerEdge XE9680" is a service, whatever server
  it names; "ThinkSystem SR675 V3" in "ThinkSystem SR675 V3 - 3yr Warranty" is the server), read
  from its last noun backwards ("... Rack Server" is a server, "... Integrated Rack" a rack);
- **what it carries**: a GPU model, a count and a board ("8x NVIDIA HGX H200 141GB SXM5",
  "HGX B300 8-GPU board", "NVIDIA L4 x 6"); NVLink bridges are found before GPU cards;
- its **part-number style**: HPE's ``0D1`` factory-integration suffix, Lenovo's ``CTO1WW``
  machine types and ``5WS`` service codes, Cisco's ``CON-`` service SKUs, Dell's ``8xx-`` service
  SKUs;
- its **price**: a negative line is a discount, a line with only an amount is a money line;
- its **position**: item numbers (1, 1.1, 1.0.1, 10/10.1, 1-1), indentation, a configuration
  column, and the system line the block sits under.

A line's own role is read in ``apps.quotes.bom_line_roles``, its position (parents, roles
that depend on it, the one total) in ``bom_nesting``, the reading in words in ``bom_summary``.
Whether a system's child quantities are per system or order totals is read in
``apps.quotes.bom_quantities``, what the system contains in ``apps.quotes.bom_systems``; the
words and patterns of a line in ``apps.quotes.bom_words``; the quote's rows in
``apps.quotes.bom_rows``; ordering bundles in ``bom_bundles``, what a layout's own columns say
in ``bom_layouts``, options and group counts in ``bom_layout_passes``, things made for a
machine in ``bom_fittings``.

Pure: no ORM, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_blocks import rack_parts_join, trays_as_racks
from apps.quotes.bom_bundles import bundles_open
from apps.quotes.bom_config_notes import config_notes_read
from apps.quotes.bom_gpus import GpuMention
from apps.quotes.bom_layout_passes import layout_read
from apps.quotes.bom_layouts import selections_read
from apps.quotes.bom_line_roles import BomTexts, bom_texts, first_pass, match_pass
from apps.quotes.bom_nesting import loose_cards_place, nest, one_total, refine
from apps.quotes.bom_problems import loose_gpu_problems, unknown_accelerator_problems
from apps.quotes.bom_quantities import QuoteFacts
from apps.quotes.bom_rows import Row, rows_from
from apps.quotes.bom_summary import reading_words
from apps.quotes.bom_systems import ChildQuantities, SystemReading, corrected, quoted, read_system
from apps.quotes.matching import LineMatch
from apps.quotes.parsing.schemas import ParsedQuote
from apps.quotes.schemas import LineCorrection, LineProblem, LineRole, QuotedSystem


@dataclass
class BomReading:
    """How the quote was read: every row's role, the systems and the problems found."""

    rows: list[Row]
    systems: list[QuotedSystem]
    readings: list[SystemReading]
    child_quantities: ChildQuantities
    problems: list[LineProblem]
    text: str
    confidence: Literal["high", "medium", "low"]

    def role_of_line(self, line: int) -> LineRole:
        for row in self.rows:
            if row.line == line:
                return row.role
        return "unknown"


# ---------------------------------------------------------------------------------------------
# The whole quote.


def bom_read(
    parsed: ParsedQuote,
    catalog: CatalogSnapshot,
    *,
    matches: Sequence[LineMatch] | None = None,
    corrections: Mapping[int, LineCorrection] | None = None,
    texts: BomTexts | None = None,
) -> BomReading:
    """Read every row of a parsed quote (module doc). ``matches`` are the catalog matches
    of ``parsed.lines`` (one each); ``corrections`` (by 1-based line number) override the
    reading of their lines. ``texts``: this quote's lines read ahead (``bom_texts``)."""
    families = texts if texts is not None and texts.catalog is catalog else bom_texts(catalog)
    rows = rows_from(parsed)
    for row in rows:
        first_pass(row, families)
        if matches is not None and row.line is not None and row.line <= len(matches):
            match_pass(row, matches[row.line - 1])
    config_notes_read(rows)  # "Each node: 8x H200 SXM5 ..." under a system line
    selections_read(rows)
    problems: list[LineProblem] = layout_read(rows)  # "Option A" / "B", "(Quantity: 3)"
    corrections = corrections or {}
    for row in rows:
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.role is not None:
            row.role, row.corrected, row.guessed = fix.role, True, False
    trays_as_racks(rows, catalog, families.find)
    one_total(rows)
    nest(rows)
    bundles_open(rows)
    rack_parts_join(rows)
    refine(rows, families)
    for row in rows:  # a correction wins over position too
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.role is not None:
            row.role, row.corrected, row.guessed = fix.role, True, False
    for row in rows:
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.gpu and row.role in ("gpu_card", "gpu_board"):
            count = row.gpu.count if row.gpu else None
            row.gpu = GpuMention(key=fix.gpu, count=count, board=row.role == "gpu_board")
            row.corrected = True
    loose_cards_place(rows)
    readings: list[SystemReading] = []
    facts = QuoteFacts.of(rows, parsed.title_systems)  # the rows are read, unchanged from here
    for row in rows:
        if row.role != "system" or row.line is None:
            continue
        reading, found = read_system(row, rows, catalog, families.find, facts)
        for member in (row, *reading.members):
            fix = corrections.get(member.line) if member.line is not None else None
            if fix is not None and (
                fix.system or fix.gpus_per_system is not None or (fix.gpu and member is row)
            ):
                reading = corrected(reading, fix, catalog)
        readings.append(reading)
        problems.extend(found)
    systems = [quoted(r, catalog) for r in readings if r.quantity > 0 and r.row.line is not None]
    kinds = {r.child_quantities for r in readings if r.child_quantities != "none"}
    if not kinds:
        child: ChildQuantities = "none"
    elif len(kinds) == 1:
        child = next(iter(kinds))
    else:
        child = "totals" if "totals" in kinds else "per_system"
    problems.extend(loose_gpu_problems(rows, catalog))
    problems.extend(unknown_accelerator_problems(rows))
    text, confidence = reading_words(rows, readings, problems)
    return BomReading(
        rows=rows,
        systems=systems,
        readings=readings,
        child_quantities=child,
        problems=problems,
        text=text,
        confidence=confidence,
    )
