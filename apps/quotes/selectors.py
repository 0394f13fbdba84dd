"""Reads for quotes: a vendor's confirmed mappings, catalog part ids, a stored quote re-read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from apps.catalog.models import Part
from apps.catalog.services import catalog_snapshot
from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake_parsed
from apps.quotes.matching import PartRef, mapping_key
from apps.quotes.models import (
    CorrectionAction,
    Quote,
    QuoteLineCorrection,
    VendorLineCorrection,
    VendorPartMapping,
)
from apps.quotes.parsing import ParsedLine, ParsedQuote, parse_upload
from apps.quotes.schemas import LineCorrection, LineRole
from apps.quotes.storage import blob_read


def vendor_key(vendor: str) -> str:
    """Mappings are per vendor, whatever the capitals: "Dell Inc." and "DELL INC." agree."""
    return " ".join(vendor.split()).casefold()[:200]


def vendor_mappings(*, vendor: str) -> dict[str, PartRef]:
    """{mapping key: (catalog vendor, part number)} confirmed for this vendor."""
    rows = VendorPartMapping.objects.filter(vendor=vendor_key(vendor)).values_list(
        "text", "part__vendor__name", "part__part_number"
    )
    return {text: (part_vendor, number) for text, part_vendor, number in rows}


def catalog_part_ids() -> dict[PartRef, int]:
    """(vendor, part number) -> Part id, for linking quote lines to catalog rows."""
    rows = Part.objects.values_list("vendor__name", "part_number", "pk")
    return {(vendor, number): pk for vendor, number, pk in rows}


def quote_parsed_stored(*, quote: Quote) -> ParsedQuote:
    """The quote as it was read at upload, rebuilt from the stored reading and lines: the
    original file is parsed once, at upload, and never again.

    A quote stored before readings were kept (no `reading`) is read from its original once
    more; that is the only path that touches the blob."""
    if not quote.reading:
        return parse_upload(blob_read(quote.source_file.blob), quote.display_name)
    lines = [ParsedLine.model_validate(row) for row in quote.lines.values_list("parsed", flat=True)]
    return ParsedQuote.model_validate({**quote.reading, "lines": lines})


def quote_intake_stored(*, quote: Quote, catalog: CatalogSnapshot | None = None) -> QuoteIntake:
    """Match the stored lines again with today's catalog and this vendor's confirmed mappings:
    a mapping confirmed after the upload shows up in the next review of the same quote."""
    parsed = quote_parsed_stored(quote=quote)
    return quote_intake_parsed(
        parsed,
        catalog or catalog_snapshot(),
        mappings=vendor_mappings(vendor=parsed.vendor),
        corrections=quote_corrections(quote=quote),
    )


def quote_versions(*, quote: Quote) -> list[Quote]:
    """Every version of a quote, oldest first (v1 -> v2 -> ...)."""
    first = quote
    while first.previous_id is not None:
        first = Quote.objects.get(pk=first.previous_id)
    versions = [first]
    while (nxt := Quote.objects.filter(previous=versions[-1]).first()) is not None:
        versions.append(nxt)
    return versions


def correction_of(row: QuoteLineCorrection | VendorLineCorrection) -> LineCorrection:
    """A stored correction as the reader takes it (blank fields keep the reading)."""
    return LineCorrection(
        role=cast("LineRole", row.role) if row.role else None,
        system=row.system or None,
        gpu=row.gpu or None,
        gpus_per_system=row.gpus_per_system,
    )


def line_key(*, part_number: str, description: str) -> str:
    """The text a remembered correction is stored under (as for a confirmed mapping)."""
    return mapping_key(part_number or description)[:300]


def corrections_standing(*, quote: Quote) -> dict[int, list[QuoteLineCorrection]]:
    """{line number: the corrections still standing, oldest first}: the history replayed,
    each "undo" taking the newest standing one off."""
    stacks: dict[int, list[QuoteLineCorrection]] = {}
    rows = QuoteLineCorrection.objects.filter(quote_line__quote=quote).select_related(
        "quote_line", "remembered", "created_by"
    )
    for row in rows.order_by("created_at", "id"):
        stack = stacks.setdefault(row.quote_line.line, [])
        if row.action == CorrectionAction.CORRECT:
            stack.append(row)
        elif stack:
            stack.pop()
    return {line: stack for line, stack in stacks.items() if stack}


def vendor_corrections(*, vendor: str) -> dict[str, VendorLineCorrection]:
    """{line key: the correction remembered for this vendor} (removed ones left out)."""
    rows = VendorLineCorrection.objects.filter(vendor=vendor_key(vendor), removed_at__isnull=True)
    return {row.text: row for row in rows}


def vendor_line_corrections(
    *, vendor: str, lines: Sequence[tuple[str, str]]
) -> dict[int, LineCorrection]:
    """{line number (1-based): correction} this vendor remembers for these (part number,
    description) lines: what an upload from the vendor reads before anyone corrects it."""
    remembered = vendor_corrections(vendor=vendor)
    out: dict[int, LineCorrection] = {}
    if remembered:
        for number, (pn, desc) in enumerate(lines, 1):
            row = remembered.get(line_key(part_number=pn, description=desc))
            if row is not None:
                out[number] = correction_of(row)
    return out


def quote_corrections(*, quote: Quote) -> dict[int, LineCorrection]:
    """{line number: correction} a re-run of this quote applies: the vendor's remembered
    corrections for lines with the same part number or text, and over them the quote's own."""
    rows = quote.lines.order_by("line").values_list("line", "part_number", "description")
    numbered = {n: (pn, desc) for n, pn, desc in rows}
    remembered = vendor_line_corrections(vendor=quote.vendor, lines=list(numbered.values()))
    numbers = list(numbered)
    out = {numbers[i - 1]: c for i, c in remembered.items()}
    for number, stack in corrections_standing(quote=quote).items():
        out[number] = correction_of(stack[-1])
    return out
