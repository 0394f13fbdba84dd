"""Reads for quotes: a vendor's confirmed mappings, catalog part ids, a stored quote re-read."""

from __future__ import annotations

from apps.catalog.models import Part
from apps.catalog.services import catalog_snapshot
from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import QuoteIntake, quote_intake_parsed
from apps.quotes.matching import PartRef
from apps.quotes.models import Quote, VendorPartMapping
from apps.quotes.parsing import ParsedLine, ParsedQuote, parse_upload
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
        parsed, catalog or catalog_snapshot(), mappings=vendor_mappings(vendor=parsed.vendor)
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
