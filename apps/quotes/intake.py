"""From a vendor's file to what the review reads: the quote summary, the vehicles and the
problems its lines have (the review's ``quote_lines`` check words them as findings).

The vehicles come from reading the bill of materials (``apps.quotes.reading``): each line's
role from its structure, the configurator's nesting and whether sub-line quantities are per
system or order totals. The catalog match of each line (``apps.quotes.matching``) names its
part; a user's confirmed mapping or correction overrides the reading of its line.

Pure (no ORM): the ``review_quote`` command, the upload service and the review service all call
``quote_intake``. The quote-line problems are the bookkeeper's checks, each with its arithmetic:
"2 × 515,000.00 = 1,030,000.00 but the line says 515,000.00".
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from pydantic import BaseModel, Field

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.assembly import lines_text
from apps.quotes.bom_line_roles import BomTexts, bom_texts
from apps.quotes.bom_prices import line_amount
from apps.quotes.bom_rows import Row
from apps.quotes.group_sums import grouped_sum
from apps.quotes.matching import LineMatch, LinesSeen, PartRef, lines_match
from apps.quotes.parsing import ParsedLine, ParsedQuote, parse_upload
from apps.quotes.reading import BomReading, bom_read
from apps.quotes.schemas import (
    LineCorrection,
    LineProblem,
    QuotedSystem,
    QuoteLineOut,
    QuoteSummary,
)
from apps.sites.collector import collector_paused
from apps.words import money_format

#: Findings listed one by one before the rest are summed up in one finding, so a 10,000-line
#: quote of unknown cables does not bury the vehicle problems.
MAX_LINE_PROBLEMS = 10
CENT = Decimal("0.01")


class QuoteIntake(BaseModel):
    parsed: ParsedQuote
    summary: QuoteSummary
    systems: list[QuotedSystem] = Field(default_factory=list)
    line_problems: list[LineProblem] = Field(default_factory=list)
    matches: list[LineMatch] = Field(default_factory=list)  # one per parsed line
    #: "per_system", "totals" or "none": how the quote's sub-line quantities were read.
    child_quantities: str = "none"
    #: (source row, role) of every data row, summary and banner rows included, in file order.
    row_roles: list[tuple[int, str]] = Field(default_factory=list)


def quote_intake(
    data: bytes,
    filename: str,
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None = None,
    delimiter: str | None = None,
    corrections: Mapping[int, LineCorrection] | None = None,
    sheet: str | None = None,
) -> QuoteIntake:
    """Parse, match and read a quote file (``sheet``: the workbook sheet the person chose).
    Raises ``QuoteParseError`` for a file we cannot read (the message names the file, row and
    column), ``SheetChoiceNeeded`` when two sheets look like quotes and none was named."""
    with collector_paused():
        return _quote_intake(
            data,
            filename,
            catalog,
            mappings=mappings,
            delimiter=delimiter,
            corrections=corrections,
            sheet=sheet,
        )


def _quote_intake(
    data: bytes,
    filename: str,
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None,
    delimiter: str | None,
    corrections: Mapping[int, LineCorrection] | None,
    sheet: str | None,
) -> QuoteIntake:
    # A workbook's lines are matched in batches while the sandbox child reads the rest
    # (sheet_reader.sheet_parse): the child's time and the matcher's overlap.
    matches: list[LineMatch] = []
    seen = LinesSeen()
    texts = bom_texts(catalog)

    def batch_match(batch: list[ParsedLine]) -> None:
        pairs = [(line.part_number, line.description) for line in batch]
        matches.extend(lines_match(pairs, catalog, mappings=mappings, seen=seen))
        texts.lines_read_ahead(batch)

    parsed = parse_upload(data, filename, delimiter=delimiter, sheet=sheet, on_lines=batch_match)
    return quote_intake_parsed(
        parsed,
        catalog,
        mappings=mappings,
        corrections=corrections,
        matches=matches if len(matches) == len(parsed.lines) else None,
        texts=texts,
    )


def quote_intake_parsed(
    parsed: ParsedQuote,
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None = None,
    corrections: Mapping[int, LineCorrection] | None = None,
    matches: list[LineMatch] | None = None,
    texts: BomTexts | None = None,
) -> QuoteIntake:
    """Match and read an already parsed quote (the upload service parses first, to learn
    the vendor whose confirmed mappings apply). ``corrections`` are the account team's, by
    1-based line number, applied over the reading (a corrected line says ``corrected``).
    ``matches``: the lines' matches under the same ``mappings``, one per line, when the
    caller matched them already (``quote_intake``, while the file was read); ``texts``, the
    lines' texts it read meanwhile (``reading.bom_texts``)."""
    with collector_paused():
        return _quote_intake_parsed(
            parsed,
            catalog,
            mappings=mappings,
            corrections=corrections,
            matches=matches,
            texts=texts,
        )


def _quote_intake_parsed(
    parsed: ParsedQuote,
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None,
    corrections: Mapping[int, LineCorrection] | None,
    matches: list[LineMatch] | None,
    texts: BomTexts | None,
) -> QuoteIntake:
    if matches is None:
        matches = lines_match(
            [(line.part_number, line.description) for line in parsed.lines],
            catalog,
            mappings=mappings,
        )
    reading = bom_read(parsed, catalog, matches=matches, corrections=corrections, texts=texts)
    rows_by_line = {row.line: row for row in reading.rows if row.line is not None}
    lines_out = [
        _line_out(n, line, match, rows_by_line.get(n), reading)
        for n, (line, match) in enumerate(zip(parsed.lines, matches, strict=True), 1)
    ]
    lines_sum = _lines_sum(parsed, lines_out)
    stated_total = _stated_total(parsed, lines_out)
    summary = QuoteSummary(
        vendor=parsed.vendor,
        quote_number=parsed.quote_number,
        currency=parsed.currency or "USD",
        total=stated_total if stated_total is not None else lines_sum,
        lines=lines_out,
        file=parsed.file_name,
        reading=reading.text,
        reading_confidence=reading.confidence,
    )
    problems = [
        *_match_problems(parsed, lines_out, matches, rows_by_line),
        *_arithmetic_problems(parsed, lines_out),
        *_total_problems(parsed, lines_sum, lines_out, reading),
        *reading.problems,
    ]
    problems.extend(
        LineProblem(severity="info", title="Read with a caveat", detail=w) for w in parsed.warnings
    )
    return QuoteIntake(
        parsed=parsed,
        summary=summary,
        systems=reading.systems,
        line_problems=problems,
        matches=matches,
        child_quantities=reading.child_quantities,
        row_roles=[(row.source_row, row.role) for row in reading.rows],
    )


_ROLE_KIND = {
    "system": "system",
    "chassis": "chassis",
    "gpu_card": "gpu_card",
    "gpu_board": "gpu_card",
    "nvlink_bridge": "bridge",
}


def _line_out(
    number: int, line: ParsedLine, match: LineMatch, row: Row | None, reading: BomReading
) -> QuoteLineOut:
    role = row.role if row is not None else "unknown"
    kind = match.kind
    if kind == "unknown" and row is not None and not row.guessed:
        kind = _ROLE_KIND.get(role, "other")  # type: ignore[assignment]
    parent = None
    if row is not None and row.parent is not None:
        parent = reading.rows[row.parent].line
    # Every value is already of its field's type (a validated or typed ParsedLine, a
    # validated LineMatch, the reading's roles): built as validation would build it, without
    # validating 10,000 lines again (bench/README.md, parsing).
    out = QuoteLineOut.__new__(QuoteLineOut)
    _object_setattr(
        out,
        "__dict__",
        {
            "line": number,
            "part_number": line.part_number,
            "description": line.description,
            "quantity": line.quantity,
            "unit_price": line.unit_price,
            "extended_price": line.extended_price,
            "sku": match.sku,
            "match": match.match,
            "kind": kind,
            "match_score": match.score,
            "source_row": line.source_row,
            "role": role,
            "parent": parent,
            "corrected": row.corrected if row is not None else False,
        },
    )
    _object_setattr(out, "__pydantic_fields_set__", set(_LINE_OUT_FIELDS))
    _object_setattr(out, "__pydantic_extra__", None)
    _object_setattr(out, "__pydantic_private__", None)
    return out


#: Every field of a line out is given (`QuoteLineOut(**all of them)` sets them all).
_LINE_OUT_FIELDS = frozenset(QuoteLineOut.model_fields)
_object_setattr = object.__setattr__


def money(amount: Decimal, currency: str = "") -> str:
    """ "USD 1,030,000.00": how problems write money (`apps.words.money_format`)."""
    return money_format(amount, currency)


#: Lines that state money about the quote rather than items on it: never counted as items.
MONEY_ROLES = frozenset({"subtotal", "total", "tax"})


def _lines_sum(parsed: ParsedQuote, out: list[QuoteLineOut]) -> Decimal | None:
    """The items' amounts, discounts and freight lines included; subtotal, total and tax
    lines (and a freight amount with no quantity, which sits beside the subtotal, and a
    discount below the subtotal) left out, and notes: an "Optional - ..." line's price is
    offered, not part of the total."""
    amounts = [
        a
        for line, o in zip(parsed.lines, out, strict=True)
        if o.role not in MONEY_ROLES
        and o.role != "note"
        and not (o.role == "freight" and o.quantity is None)
        and not _below_subtotal(parsed, o)
        and (a := line_amount(line)) is not None
    ]
    return sum(amounts, Decimal(0)) if amounts else None


def _below_subtotal(parsed: ParsedQuote, line: QuoteLineOut) -> bool:
    """A discount with no quantity under the subtotal row ("Subtotal 2,046,900.00 / Volume
    Discount (2%) -40,938.00 / Shipping / Total"): taken off the subtotal, like freight is
    added to it, not one of the lines the subtotal adds up."""
    if line.role != "discount" or line.quantity is not None or line.source_row is None:
        return False
    rows = [s.source_row for s in parsed.skipped if s.kind == "subtotal"]
    return bool(rows) and line.source_row > rows[0]


def _capped(problems: list[LineProblem], what: str) -> list[LineProblem]:
    if len(problems) <= MAX_LINE_PROBLEMS:
        return problems
    rest = problems[MAX_LINE_PROBLEMS:]
    lines: list[int] = [f.metrics["line"] for f in rest if f.metrics.get("line")]
    return [
        *problems[:MAX_LINE_PROBLEMS],
        LineProblem(
            severity=max(
                (f.severity for f in rest), key=("ok", "info", "warning", "critical").index
            ),
            title=f"{len(rest)} more {what}",
            detail=f"{lines_text(lines).capitalize()} have the same problem.",
            metrics={"lines": lines},
            lever=rest[0].lever,
        ),
    ]


def _where(line: QuoteLineOut) -> str:
    text = line.part_number or line.description
    row = f" (row {line.source_row})" if line.source_row else ""
    return f"Line {line.line}{row}, {text[:80]!r}"


def _line_metrics(out: QuoteLineOut) -> dict[str, object]:
    return {"line": out.line, "row": out.source_row, "part_number": out.part_number}


def _match_problems(
    parsed: ParsedQuote,
    lines: list[QuoteLineOut],
    matches: list[LineMatch],
    rows: Mapping[int, Row],
) -> list[LineProblem]:
    """Lines the reading could not place: not in the catalog, several parts, or matched only
    by similarity. A line whose role its structure decided ("ProSupport 3yr" is a service,
    "64GB RDIMM" a component) is known even when the catalog has no part for it."""
    unmatched: list[LineProblem] = []
    ambiguous: list[LineProblem] = []
    fuzzy: list[LineProblem] = []
    errors: list[LineProblem] = []
    for out, line, match in zip(lines, parsed.lines, matches, strict=True):
        row = rows.get(out.line)
        placed = (
            row is not None
            and not row.guessed
            and not (
                row.role == "unknown" or (row.role in ("gpu_card", "gpu_board") and row.gpu is None)
            )
        )
        money_line = (
            out.role in MONEY_ROLES
            # "Projektrabatt 4%" | | -8'247.55: a discount is an amount, it needs no quantity
            or (out.role in ("freight", "note", "discount") and out.quantity is None)
            or (row is not None and row.head_category == "multiplier")
        )
        # A money row's label sits where the grid has a price or a part number ("Product
        # Total" in the unit-price column): only an unreadable amount is worth a word.
        has_amount = out.extended_price is not None or out.unit_price is not None
        line_errors = [] if money_line and has_amount else list(line.errors)
        if line_errors:
            errors.append(
                LineProblem(
                    severity="warning",
                    title=f"Line {out.line} could not be read completely",
                    detail=f"{_where(out)}: {'; '.join(line_errors)}.",
                    metrics=_line_metrics(out),
                    lever="Fix the cell in the quote and upload it again.",
                )
            )
        if placed and match.match != "ambiguous":
            continue
        if placed and row is not None and (row.role != "system" or row.spec_key):
            continue
        if match.match == "none" and match.kind == "unknown":
            unmatched.append(
                LineProblem(
                    severity="warning",
                    title=f"Line {out.line} is not in the catalog",
                    detail=f"{_where(out)} matches nothing on the lot. If it is hardware the "
                    "review cannot see it; confirm what it is.",
                    metrics=_line_metrics(out),
                    lever="Confirm what the line is, or ask the vendor for the part number.",
                )
            )
        elif match.match == "ambiguous":
            names = ", ".join(p.part_number for p in match.candidates)
            ambiguous.append(
                LineProblem(
                    severity="warning",
                    title=f"Line {out.line} could be several parts",
                    detail=f"{_where(out)} is as close to {names}. It is left out of the "
                    "vehicles until someone confirms which one it is.",
                    metrics={
                        **_line_metrics(out),
                        "candidates": [p.part_number for p in match.candidates],
                    },
                    lever="Confirm which part it is; the choice is remembered for this vendor.",
                )
            )
        elif match.match == "fuzzy" and match.part is not None:
            fuzzy.append(
                LineProblem(
                    severity="info",
                    title=f"Line {out.line} read as {match.part.part_number}",
                    detail=f"{_where(out)} is closest to {match.part.part_number} "
                    f"(score {match.score:.0f} of 100). Confirm it to remember it for this vendor.",
                    metrics={**_line_metrics(out), "score": match.score, "sku": match.sku},
                    lever="Confirm the match to remember it for this vendor.",
                )
            )
    return [
        *_capped(errors, "lines that could not be read completely"),
        *_capped(unmatched, "lines not in the catalog"),
        *_capped(ambiguous, "ambiguous lines"),
        *_capped(fuzzy, "lines matched by similarity"),
    ]


def _arithmetic_problems(parsed: ParsedQuote, lines: list[QuoteLineOut]) -> list[LineProblem]:
    problems: list[LineProblem] = []
    for out in lines:
        if out.quantity is None or out.unit_price is None or out.extended_price is None:
            continue
        expected = (out.quantity * out.unit_price).quantize(CENT)
        off = out.extended_price - expected
        if abs(off) <= CENT:
            continue
        problems.append(
            LineProblem(
                severity="warning",
                title=f"Line {out.line} does not add up",
                detail=f"{_where(out)}: {out.quantity} × {money(out.unit_price)} = "
                f"{money(expected)}, but the line says {money(out.extended_price)} "
                f"(off by {money(off)}).",
                metrics={
                    "line": out.line,
                    "quantity": out.quantity,
                    "unit_price": str(out.unit_price),
                    "expected": str(expected),
                    "extended_price": str(out.extended_price),
                    "difference": str(off.quantize(CENT)),
                },
                formula="quantity × unit price = extended price",
                lever="Ask the vendor to correct the line.",
            )
        )
    return _capped(problems, "lines that do not add up")


def _stated_total(parsed: ParsedQuote, out: list[QuoteLineOut]) -> Decimal | None:
    """The grand total the quote states: its total row, or a total line inside the grid
    ("Configuration Total (3 units)") when the summary rows state none."""
    if parsed.stated_total is not None:
        return parsed.stated_total
    totals = [
        line.extended_price if line.extended_price is not None else line.unit_price
        for line in out
        if line.role == "total"
    ]
    totals = [t for t in totals if t is not None]
    return totals[-1] if totals else None


def _money_lines(
    parsed: ParsedQuote, out: list[QuoteLineOut]
) -> tuple[Decimal | None, Decimal | None, Decimal | None]:
    """Subtotal, tax and charges the quote states, from its summary rows and from money
    lines inside the grid ("zzgl. 19 % MwSt.", "Crating and air-ride freight")."""
    subtotal, tax, charges = parsed.stated_subtotal, parsed.stated_tax, parsed.stated_charges
    partial = [
        amount
        for line in out
        if line.role == "subtotal"
        and line.quantity is None
        and (amount := line.extended_price if line.extended_price is not None else line.unit_price)
        is not None
    ]
    if subtotal is None and len(partial) > 1 and sum(partial) == parsed.stated_total:
        # Cisco's Product, Service and Subscription totals: parts of the total, not a subtotal.
        subtotal = sum(partial, Decimal(0))
    for line in out:
        amount = line.extended_price if line.extended_price is not None else line.unit_price
        if amount is None or line.quantity is not None:
            continue
        if line.role == "tax":
            tax = (tax or Decimal(0)) + amount
        elif line.role == "freight" or _below_subtotal(parsed, line):
            charges = (charges or Decimal(0)) + amount
        elif line.role == "subtotal" and subtotal is None and parsed.stated_total is not None:
            subtotal = amount if amount != parsed.stated_total else None
    return subtotal, tax, charges


def _total_problems(
    parsed: ParsedQuote,
    lines_sum: Decimal | None,
    out: list[QuoteLineOut],
    reading: BomReading,
) -> list[LineProblem]:
    """The lines against the stated subtotal (or the total, less tax and freight when the
    quote states them), then subtotal + tax + freight against the total. A quote priced per
    system ("Price per system", then × 2) adds up when the lines × the systems do. Rounding of
    a cent per line is allowed."""
    if lines_sum is None:
        return []
    tolerance = max(CENT, CENT * len(parsed.lines) / 2)
    subtotal, tax, charges = _money_lines(parsed, out)
    multipliers = (
        {1}
        | {
            r.quantity
            for r in reading.readings
            if r.child_quantities == "per_system" and r.quantity > 1 and not r.row.priced
        }
        | {
            r.quantity
            for r in reading.readings
            if r.child_quantities == "per_system"
            and r.quantity > 1
            and r.row.quantity is not None
            and r.row.quantity < r.quantity
        }
    )
    problems: list[LineProblem] = []
    if subtotal is not None:
        stated, label, compared = subtotal, "subtotal", lines_sum
    elif parsed.stated_total is not None:
        extra = (tax or Decimal(0)) + (charges or Decimal(0))
        stated, label, compared = parsed.stated_total, "total", lines_sum + extra
    else:
        return []
    if (
        subtotal is not None
        and parsed.stated_total is not None
        and (tax is not None or charges is not None)
    ):
        # Subtotal + tax + freight = total: 1,809,500 + 0 + 4,250 = 1,813,750.
        expected = subtotal + (tax or Decimal(0)) + (charges or Decimal(0))
        gap = parsed.stated_total - expected
        if abs(gap) > tolerance and all(
            abs(parsed.stated_total - expected * m) > tolerance for m in multipliers
        ):
            cur = parsed.currency
            problems.append(
                LineProblem(
                    severity="warning",
                    title="The subtotal, tax and freight don't add up to the total",
                    detail=f"{money(subtotal, cur)} subtotal + {money(tax or Decimal(0), cur)} "
                    f"tax + {money(charges or Decimal(0), cur)} freight = "
                    f"{money(expected, cur)}, but the quote states a total of "
                    f"{money(parsed.stated_total, cur)} (off by {money(gap, cur)}).",
                    metrics={
                        "subtotal": str(subtotal),
                        "tax": str(tax or Decimal(0)),
                        "charges": str(charges or Decimal(0)),
                        "stated": str(parsed.stated_total),
                        "difference": str(gap),
                    },
                    formula="subtotal + tax + freight = total",
                    lever="Ask the vendor to correct the total.",
                )
            )
    off = stated - compared
    # Priced per system: (lines × systems) + tax and freight = stated; each group × its own.
    grouped = grouped_sum(lines_sum, out, reading)
    if (
        any(
            abs(stated - (lines_sum * m + (compared - lines_sum))) <= tolerance for m in multipliers
        )
        or abs(stated - (grouped + compared - lines_sum)) <= tolerance
    ):
        return problems
    cur = parsed.currency
    tax_text = f" plus {money(tax, cur)} tax" if label == "total" and tax else ""
    if label == "total" and charges:
        tax_text += f" plus {money(charges, cur)} freight"
    return [
        *problems,
        LineProblem(
            severity="warning",
            title=f"The lines don't add up to the stated {label}",
            detail=f"The lines add up to {money(lines_sum, cur)}{tax_text}, but the quote states "
            f"a {label} of {money(stated, cur)} (off by {money(off, cur)}).",
            metrics={"lines_sum": str(lines_sum), "stated": str(stated), "difference": str(off)},
            formula="Σ extended prices = stated " + label,
            lever="Ask the vendor to correct the total or the lines.",
        ),
    ]
