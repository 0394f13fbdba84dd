"""From a vendor's file to what the review reads: the quote summary, the vehicles and the
problems its lines have (the review's ``quote_lines`` check words them as findings).

Pure (no ORM): the ``review_quote`` command, the upload service and the review service all call
``quote_intake``. The quote-line problems are the bookkeeper's checks, each with its arithmetic:
"2 × 515,000.00 = 1,030,000.00 but the line says 515,000.00".
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from pydantic import BaseModel, Field

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.assembly import AssemblyLine, lines_text, systems_assemble
from apps.quotes.matching import LineMatch, PartRef, lines_match
from apps.quotes.parsing import ParsedLine, ParsedQuote, parse_upload
from apps.quotes.schemas import LineProblem, QuotedSystem, QuoteLineOut, QuoteSummary

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


def quote_intake(
    data: bytes,
    filename: str,
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None = None,
    delimiter: str | None = None,
) -> QuoteIntake:
    """Parse, match and assemble a quote file. Raises ``QuoteParseError`` for a file we cannot
    read (the message names the file, row and column)."""
    parsed = parse_upload(data, filename, delimiter=delimiter)
    return quote_intake_parsed(parsed, catalog, mappings=mappings)


def quote_intake_parsed(
    parsed: ParsedQuote,
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None = None,
) -> QuoteIntake:
    """Match and assemble an already parsed quote (the upload service parses first, to learn
    the vendor whose confirmed mappings apply)."""
    matches = lines_match(
        [(line.part_number, line.description) for line in parsed.lines],
        catalog,
        mappings=mappings,
    )
    lines_out = [
        _line_out(n, line, match)
        for n, (line, match) in enumerate(zip(parsed.lines, matches, strict=True), 1)
    ]
    assembly = systems_assemble(
        [
            AssemblyLine(
                line=out.line, quantity=out.quantity, unit_price=line.unit_price, match=match
            )
            for out, line, match in zip(lines_out, parsed.lines, matches, strict=True)
        ],
        catalog,
    )
    lines_sum = _lines_sum(parsed.lines)
    summary = QuoteSummary(
        vendor=parsed.vendor,
        quote_number=parsed.quote_number,
        currency=parsed.currency or "USD",
        total=parsed.stated_total if parsed.stated_total is not None else lines_sum,
        lines=lines_out,
        file=parsed.file_name,
    )
    problems = [
        *_match_problems(parsed, lines_out, matches),
        *_arithmetic_problems(parsed, lines_out),
        *_total_problems(parsed, lines_sum),
        *assembly.problems,
    ]
    problems.extend(
        LineProblem(severity="info", title="Read with a caveat", detail=w) for w in parsed.warnings
    )
    return QuoteIntake(
        parsed=parsed,
        summary=summary,
        systems=assembly.systems,
        line_problems=problems,
        matches=matches,
    )


def _line_out(number: int, line: ParsedLine, match: LineMatch) -> QuoteLineOut:
    return QuoteLineOut(
        line=number,
        part_number=line.part_number,
        description=line.description,
        quantity=line.quantity,
        unit_price=line.unit_price,
        extended_price=line.extended_price,
        sku=match.sku,
        match=match.match,
        kind=match.kind,
        match_score=match.score,
        source_row=line.source_row,
    )


def money(amount: Decimal, currency: str = "") -> str:
    """ "USD 1,030,000.00": how problems write money."""
    text = f"{amount.quantize(CENT):,}"
    return f"{currency} {text}" if currency else text


def _line_amount(line: ParsedLine) -> Decimal | None:
    """The line's extended price, or quantity × unit price when the vendor left it out."""
    if line.extended_price is not None:
        return line.extended_price
    if line.quantity is not None and line.unit_price is not None:
        return line.quantity * line.unit_price
    return None


def _lines_sum(lines: list[ParsedLine]) -> Decimal | None:
    amounts = [a for a in map(_line_amount, lines) if a is not None]
    return sum(amounts, Decimal(0)) if amounts else None


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


def _match_problems(
    parsed: ParsedQuote, lines: list[QuoteLineOut], matches: list[LineMatch]
) -> list[LineProblem]:
    unmatched: list[LineProblem] = []
    ambiguous: list[LineProblem] = []
    fuzzy: list[LineProblem] = []
    errors: list[LineProblem] = []
    for out, line, match in zip(lines, parsed.lines, matches, strict=True):
        metrics = {"line": out.line, "row": out.source_row, "part_number": out.part_number}
        if line.errors:
            errors.append(
                LineProblem(
                    severity="warning",
                    title=f"Line {out.line} could not be read completely",
                    detail=f"{_where(out)}: {'; '.join(line.errors)}.",
                    metrics=metrics,
                    lever="Fix the cell in the quote and upload it again.",
                )
            )
        if match.match == "none" and match.kind == "unknown":
            unmatched.append(
                LineProblem(
                    severity="warning",
                    title=f"Line {out.line} is not in the catalog",
                    detail=f"{_where(out)} matches nothing on the lot. If it is hardware the "
                    "review cannot see it; confirm what it is.",
                    metrics=metrics,
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
                    metrics={**metrics, "candidates": [p.part_number for p in match.candidates]},
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
                    metrics={**metrics, "score": match.score, "sku": match.sku},
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


def _total_problems(parsed: ParsedQuote, lines_sum: Decimal | None) -> list[LineProblem]:
    """The lines against the stated subtotal (or the total, less tax when the quote states
    tax). Rounding of a cent per line is allowed."""
    if lines_sum is None:
        return []
    tolerance = max(CENT, CENT * len(parsed.lines) / 2)
    if parsed.stated_subtotal is not None:
        stated, label, compared = parsed.stated_subtotal, "subtotal", lines_sum
    elif parsed.stated_total is not None:
        tax = parsed.stated_tax or Decimal(0)
        stated, label, compared = parsed.stated_total, "total", lines_sum + tax
    else:
        return []
    off = stated - compared
    if abs(off) <= tolerance:
        return []
    cur = parsed.currency
    tax_text = (
        f" plus {money(parsed.stated_tax, cur)} tax"
        if label == "total" and parsed.stated_tax
        else ""
    )
    return [
        LineProblem(
            severity="warning",
            title=f"The lines don't add up to the stated {label}",
            detail=f"The lines add up to {money(lines_sum, cur)}{tax_text}, but the quote states "
            f"a {label} of {money(stated, cur)} (off by {money(off, cur)}).",
            metrics={"lines_sum": str(lines_sum), "stated": str(stated), "difference": str(off)},
            formula="Σ extended prices = stated " + label,
            lever="Ask the vendor to correct the total or the lines.",
        )
    ]
