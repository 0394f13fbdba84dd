"""Reads for quotes: a vendor's confirmed mappings, catalog part ids, a stored quote re-read."""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import cast

from django.db.models import Max

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
from apps.quotes.parsing.seller import vendor_key
from apps.quotes.schemas import LineCorrection, LineRole
from apps.quotes.storage import blob_read


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
    a mapping confirmed after the upload shows up in the next review of the same quote.

    The intake is kept per process (`_IntakeCache`) under everything it is computed from: the
    quote (its lines never change once stored), the catalog snapshot, the vendor's mappings and
    the corrections in force. A what-if preview re-runs the engine on the same intake on
    every pause in typing, and matching and reading 100 lines was most of its time."""
    catalog = catalog or catalog_snapshot()
    if not quote.reading:
        parsed = quote_parsed_stored(quote=quote)
        return quote_intake_parsed(
            parsed,
            catalog,
            mappings=vendor_mappings(vendor=parsed.vendor),
            corrections=quote_corrections(quote=quote),
        )
    vendor = ParsedQuote.model_validate({**quote.reading, "lines": []}).vendor
    mappings = vendor_mappings(vendor=vendor)
    corrections = quote_corrections(quote=quote)
    key = _IntakeCache.key(quote=quote, mappings=mappings, corrections=corrections)
    hit = _INTAKES.get(key, catalog)
    if hit is None:
        parsed = quote_parsed_stored(quote=quote)
        intake = quote_intake_parsed(parsed, catalog, mappings=mappings, corrections=corrections)
        hit = _INTAKES.put(key, catalog, intake)
    intake, held = hit
    # The report holds the intake's summary, systems and line problems: each caller gets its
    # own copy of those, so no two reports share objects (the parsed lines and the frozen
    # matches are only read). The copy is unpickled from the bytes pickled when the intake
    # was kept: the same objects as a deep copy, three times faster for 100 lines.
    summary, systems, line_problems = pickle.loads(held)  # bytes this process pickled
    return intake.model_copy(
        update={"summary": summary, "systems": systems, "line_problems": line_problems}
    )


class _IntakeCache:
    """A small LRU of stored quotes' intakes, per process. The catalog is compared by
    identity (a reloaded catalog is a new snapshot, so nothing read from the old one is
    reused) and held, so its id cannot be taken by another snapshot while cached."""

    SIZE = 32

    def __init__(self) -> None:
        self._items: OrderedDict[tuple, tuple[CatalogSnapshot, QuoteIntake, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(
        *, quote: Quote, mappings: dict[str, PartRef], corrections: dict[int, LineCorrection]
    ) -> tuple:
        return (
            str(quote.uuid),
            tuple(sorted(mappings.items())),
            tuple(sorted((n, c.model_dump_json()) for n, c in corrections.items())),
        )

    def get(self, key: tuple, catalog: CatalogSnapshot) -> tuple[QuoteIntake, bytes] | None:
        """The intake kept under this key and its copied parts, pickled (see `put`)."""
        with self._lock:
            hit = self._items.get(key)
            if hit is None or hit[0] is not catalog:
                return None
            self._items.move_to_end(key)
            return hit[1], hit[2]

    def put(
        self, key: tuple, catalog: CatalogSnapshot, intake: QuoteIntake
    ) -> tuple[QuoteIntake, bytes]:
        """Keep the intake with the parts every report gets a copy of (summary, systems,
        line problems) pickled once, so each copy is one `pickle.loads`."""
        held = pickle.dumps(
            (intake.summary, intake.systems, intake.line_problems), pickle.HIGHEST_PROTOCOL
        )
        with self._lock:
            self._items[key] = (catalog, intake, held)
            self._items.move_to_end(key)
            while len(self._items) > self.SIZE:
                self._items.popitem(last=False)
        return intake, held

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_INTAKES = _IntakeCache()


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
    return _correction(row.role, row.system, row.gpu, row.gpus_per_system)


def _correction(role: str, system: str, gpu: str, gpus_per_system: int | None) -> LineCorrection:
    return LineCorrection(
        role=cast("LineRole", role) if role else None,
        system=system or None,
        gpu=gpu or None,
        gpus_per_system=gpus_per_system,
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


def vendor_names(keys: Sequence[str]) -> dict[str, str]:
    """{vendor key: the seller as its newest quote spells it}: the memory is kept under the
    normalised key ("exxact"), the page names the seller as people read it ("Exxact
    Corporation"). A key no stored quote spells keeps itself."""
    wanted = set(keys)
    names: dict[str, str] = {}
    spellings = (
        Quote.objects.exclude(vendor="")
        .values("vendor")
        .annotate(newest=Max("created_at"))  # one row per spelling, not one per quote
        .order_by("-newest")
        .values_list("vendor", flat=True)
    )
    for vendor in spellings:
        key = vendor_key(vendor)
        if key in wanted and key not in names:
            names[key] = vendor
            if len(names) == len(wanted):
                break
    return {key: names.get(key, key) for key in wanted}


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
    out: dict[int, LineCorrection] = {}
    remembered = vendor_corrections(vendor=quote.vendor)
    if remembered:  # the lines are read only when the vendor remembers a correction
        rows = quote.lines.order_by("line").values_list("line", "part_number", "description")
        for number, pn, desc in rows:
            row = remembered.get(line_key(part_number=pn, description=desc))
            if row is not None:
                out[number] = correction_of(row)
    out.update(_corrections_in_force(quote=quote))
    return out


def _corrections_in_force(*, quote: Quote) -> dict[int, LineCorrection]:
    """{line number: the newest correction still standing}, as `corrections_standing` replays
    the history, reading only the fields a correction carries (no person, no remembered row:
    every re-run and what-if asks this for the intake's key)."""
    stacks: dict[int, list[LineCorrection]] = {}
    rows = QuoteLineCorrection.objects.filter(quote_line__quote=quote).order_by("created_at", "id")
    fields = ("quote_line__line", "action", "role", "system", "gpu", "gpus_per_system")
    for line, action, role, system, gpu, gpus_per_system in rows.values_list(*fields):
        stack = stacks.setdefault(line, [])
        if action == CorrectionAction.CORRECT:
            stack.append(_correction(role, system, gpu, gpus_per_system))
        elif stack:
            stack.pop()
    return {line: stack[-1] for line, stack in stacks.items() if stack}
