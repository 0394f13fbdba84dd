"""Quote services: take an upload in as a staged import, remember a confirmed match.

What is kept when something goes wrong (RELIABILITY 1-13):
- refused before reading (empty, too big, not a spreadsheet, wrong magic bytes, zip or XML
  bombs, .xls/.xlsm/password-protected): nothing is stored, the ``QuoteParseError`` is raised;
- readable as a file but not as a quote (no header, a negative quantity on row 7, over 20,000
  rows): the original is kept and a ``Quote`` with status REJECTED and the message is recorded,
  then the error is raised with ``error.quote`` set, so the page can show both;
- a PDF the sandbox had to kill: the same, with status NEEDS_MANUAL;
- a bug while matching: status ERROR, the original kept with its sha256, the exception raised.
Rows are written in one transaction: a crash leaves the blob (swept after a day) and no row.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.catalog.services import catalog_snapshot
from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.corrections import CorrectionError, correction_check
from apps.quotes.intake import QuoteIntake, quote_intake_parsed
from apps.quotes.matching import lines_match, mapping_key
from apps.quotes.models import (
    CorrectionAction,
    Quote,
    QuoteFile,
    QuoteLine,
    QuoteLineCorrection,
    QuoteStatus,
    VendorLineCorrection,
    VendorPartMapping,
)
from apps.quotes.parsing import ParsedQuote, QuoteParseError, SheetChoiceNeeded, parse_upload
from apps.quotes.parsing.detect import type_detect
from apps.quotes.parsing.seller import vendor_key
from apps.quotes.schemas import LineCorrection
from apps.quotes.selectors import (
    catalog_part_ids,
    correction_of,
    corrections_standing,
    line_key,
    vendor_line_corrections,
    vendor_mappings,
)
from apps.quotes.storage import blob_store, display_name_clean

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.catalog.models import Part
    from apps.sites.models import Organisation

CONTENT_TYPES = {
    "csv": "text/csv",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "xls": "application/vnd.ms-excel",
    "xlsb": "application/vnd.ms-excel.sheet.binary.macroenabled.12",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "pdf": "application/pdf",
}
_MONEY_LIMIT = Decimal("1e14")  # DecimalField(max_digits=16, decimal_places=2)


class QuoteRevisionError(Exception):
    """A revision of another organisation's quote."""


class NothingToUndo(Exception):
    """An undo on a line with no correction standing."""


@dataclass(frozen=True)
class QuoteRead:
    """An upload read and matched, its original stored, no row written yet: the caller writes
    the quote, its lines and (for a first review) the review in one transaction."""

    source: dict[str, Any]
    base: dict[str, Any]
    intake: QuoteIntake


def quote_refusal_check(*, data: bytes, filename: str) -> tuple[str, str]:
    """The checks that refuse a file before anything is stored (too large, not a quote type):
    raises QuoteParseError with no quote kept; else (display name, detected type). Cheap (the
    first bytes), so the upload request makes them before it hands the reading to a worker."""
    display = display_name_clean(filename)
    try:
        limit = settings.QUOTE_MAX_UPLOAD_BYTES
        if len(data) > limit:
            raise QuoteParseError(
                f"the file is {len(data):,} bytes; the limit is {limit:,}", file=display
            )
        detected = type_detect(data, file_name=display)  # refusals raise here: nothing stored
    except QuoteParseError as error:
        error.quote = None
        raise
    return display, detected


def quote_read(
    *,
    data: bytes,
    filename: str,
    organisation: Organisation,
    uploaded_by: User,
    previous: Quote | None = None,
    delimiter: str | None = None,
    catalog: CatalogSnapshot | None = None,
    sheet: str | None = None,
) -> QuoteRead:
    """Keep the original under ``uploads/<sha256>``, parse it once and match it. A file that
    cannot be read as a quote is recorded (REJECTED, NEEDS_MANUAL or ERROR, the original kept)
    and its error raised; see the module doc. Two sheets that both look like quotes are a
    question, not a refusal: ``SheetChoiceNeeded`` is raised with nothing recorded but the
    original (its ``sha256`` set), and the caller asks which sheet and reads again with
    ``sheet``."""
    if previous is not None and previous.organisation_id != organisation.pk:
        raise QuoteRevisionError("a revision must belong to the same organisation")
    display, detected = quote_refusal_check(data=data, filename=filename)
    sha256, blob = blob_store(data)
    source = {"sha256": sha256, "blob": blob, "size": len(data), "detected_type": detected}
    base = {
        "organisation": organisation,
        "uploaded_by": uploaded_by,
        "display_name": display,
        "previous": previous,
    }
    try:
        parsed = parse_upload(data, display, delimiter=delimiter, sheet=sheet)
    except SheetChoiceNeeded as error:
        error.quote = None
        error.sha256 = sha256
        raise
    except QuoteParseError as error:
        status = QuoteStatus.NEEDS_MANUAL if error.needs_manual else QuoteStatus.REJECTED
        error.quote = _quote_record(source, base, status=status, parse_error=str(error))
        raise
    catalog = catalog or catalog_snapshot()
    try:
        intake = quote_intake_remembered(parsed, catalog)
    except Exception as error:
        _quote_record(
            source, base, status=QuoteStatus.ERROR, parse_error=f"internal error: {error!r}"
        )
        raise
    return QuoteRead(source=source, base=base, intake=intake)


def quote_intake_remembered(parsed: ParsedQuote, catalog: CatalogSnapshot) -> QuoteIntake:
    """Intake of parsed lines with what was remembered for their vendor: its part mappings and
    the line corrections that match these lines."""
    return quote_intake_parsed(
        parsed,
        catalog,
        mappings=vendor_mappings(vendor=parsed.vendor),
        corrections=vendor_line_corrections(
            vendor=parsed.vendor,
            lines=[(line.part_number, line.description) for line in parsed.lines],
        ),
    )


def quote_record(*, read: QuoteRead) -> Quote:
    """Write the quote and its lines as read (inside the caller's transaction, if any)."""
    return _quote_record(read.source, read.base, status=QuoteStatus.PARSED, intake=read.intake)


def quote_upload(
    *,
    data: bytes,
    filename: str,
    organisation: Organisation,
    uploaded_by: User,
    previous: Quote | None = None,
    delimiter: str | None = None,
    catalog: CatalogSnapshot | None = None,
    sheet: str | None = None,
) -> Quote:
    """Read an upload and record the quote and its lines in one transaction. ``previous``
    makes this a revision: version + 1, linked to the newest version of that quote (nothing is
    overwritten)."""
    read = quote_read(
        data=data,
        filename=filename,
        organisation=organisation,
        uploaded_by=uploaded_by,
        previous=previous,
        delimiter=delimiter,
        catalog=catalog,
        sheet=sheet,
    )
    return quote_record(read=read)


def quote_manual_record(
    *,
    intake: QuoteIntake,
    organisation: Organisation,
    entered_by: User,
    quote: Quote | None = None,
) -> Quote:
    """Record lines entered by hand (call inside the caller's transaction).

    With `quote` (a NEEDS_MANUAL or REJECTED upload) the same quote gets the lines and keeps
    its original file; without one, the lines as entered are stored as the original (a CSV of
    the grid), so every quote has an original to download."""
    parsed = intake.parsed
    if quote is not None:
        quote = Quote.objects.select_for_update().get(pk=quote.pk)
        if quote.status not in (QuoteStatus.NEEDS_MANUAL, QuoteStatus.REJECTED):
            raise QuoteRevisionError("only an unreadable upload takes lines entered by hand")
        for name, value in _quote_fields(parsed, intake).items():
            setattr(quote, name, value)
        quote.status, quote.parse_error = QuoteStatus.PARSED, ""
        quote.entered_by, quote.entered_at = entered_by, timezone.now()
        quote.save()
        quote.lines.all().delete()
        QuoteLine.objects.bulk_create(_line_rows(quote, intake))
        return quote
    data = _grid_csv(parsed)
    sha256, blob = blob_store(data)
    source = {"sha256": sha256, "blob": blob, "size": len(data), "detected_type": "csv"}
    base = {
        "organisation": organisation,
        "uploaded_by": entered_by,
        "display_name": f"{parsed.file_name}.csv",
        "previous": None,
    }
    quote = _quote_record(source, base, status=QuoteStatus.PARSED, intake=intake)
    Quote.objects.filter(pk=quote.pk).update(entered_by=entered_by, entered_at=timezone.now())
    quote.refresh_from_db()
    return quote


def _grid_csv(parsed: ParsedQuote) -> bytes:
    """The lines as entered, as the CSV a user could have uploaded instead."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Line", "Part Number", "Description", "Qty", "Unit Price", "Extended Price"])
    for line in parsed.lines:
        writer.writerow(line.raw_cells)
    return out.getvalue().encode("utf-8")


def _quote_record(
    source: dict[str, Any],
    base: dict[str, Any],
    *,
    status: str,
    parse_error: str = "",
    intake: QuoteIntake | None = None,
) -> Quote:
    with transaction.atomic():
        quote_file, _ = QuoteFile.objects.get_or_create(
            sha256=source["sha256"],
            defaults={
                "blob": source["blob"],
                "size": source["size"],
                "detected_type": source["detected_type"],
                "content_type": CONTENT_TYPES.get(
                    source["detected_type"], "application/octet-stream"
                ),
            },
        )
        previous = base["previous"]
        if previous is not None:
            previous = _newest_version(previous)
        parsed = intake.parsed if intake else None
        quote = Quote.objects.create(
            organisation=base["organisation"],
            uploaded_by=base["uploaded_by"],
            display_name=base["display_name"],
            source_file=quote_file,
            status=status,
            parse_error=parse_error,
            previous=previous,
            version=previous.version + 1 if previous else 1,
            **(_quote_fields(parsed, intake) if parsed and intake else {}),
        )
        if intake is not None:
            QuoteLine.objects.bulk_create(_line_rows(quote, intake))
    return quote


def _newest_version(quote: Quote) -> Quote:
    """Follow revisions to the newest one, locked, so two revisions of v1 become v2 and v3."""
    current = Quote.objects.select_for_update().get(pk=quote.pk)
    while (nxt := Quote.objects.select_for_update().filter(previous=current).first()) is not None:
        current = nxt
    return current


def _money(value: Decimal | None) -> Decimal | None:
    if value is None or not value.is_finite() or abs(value) >= _MONEY_LIMIT:
        return None
    return value


def _quote_fields(parsed: ParsedQuote, intake: QuoteIntake) -> dict:
    total = _money(intake.summary.total)
    return {
        "vendor": parsed.vendor[:200],
        "quote_number": parsed.quote_number[:120],
        "quote_date": parsed.quote_date[:40],
        "currency": (parsed.currency or "USD")[:3],
        "total": total if total is None or total >= 0 else None,
        "reading": parsed.model_dump(mode="json", exclude={"lines"}),
    }


def _line_rows(quote: Quote, intake: QuoteIntake) -> list[QuoteLine]:
    part_ids = catalog_part_ids()
    rows = []
    for out, line, match in zip(
        intake.summary.lines, intake.parsed.lines, intake.matches, strict=True
    ):
        errors = list(line.errors)
        unit_price = _money(line.unit_price)
        if unit_price is not None and unit_price < 0:
            # A discount line: the amount stays in the raw cells and the extended price.
            errors.append(f"negative unit price {unit_price} (a discount?) kept in the raw cells")
            unit_price = None
        part = match.part if match.match != "ambiguous" else None
        rows.append(
            QuoteLine(
                quote=quote,
                line=out.line,
                source_row=line.source_row,
                part_number=line.part_number[:200],
                description=line.description,
                quantity=line.quantity,
                unit_price=unit_price,
                extended_price=_money(line.extended_price),
                raw_cells=list(line.raw_cells),
                parsed=line.model_dump(mode="json"),
                errors=errors,
                is_valid=not line.errors,
                match=match.match,
                match_score=match.score,
                part_id=part_ids.get((part.vendor, part.part_number)) if part else None,
            )
        )
    return rows


def quote_mapping_confirm(*, quote_line: QuoteLine, part: Part, user: User) -> QuoteLine:
    """ "Yes, this line is that part": remember it for the quote's vendor and re-match the
    quote's lines, so every line with the same text (here and on later quotes) follows. The
    vendor is keyed by ``vendor_key`` ("Exxact Corporation" and "EXXACT CORP." share one
    memory); confirming again moves ``confirmed_at`` to now: the latest confirmation wins."""
    quote = quote_line.quote
    text = mapping_key(quote_line.part_number or quote_line.description)
    with transaction.atomic():
        VendorPartMapping.objects.update_or_create(
            vendor=vendor_key(quote.vendor),
            text=text[:300],
            defaults={"part": part, "confirmed_by": user, "confirmed_at": timezone.now()},
        )
        quote_rematch(quote=quote)
    quote_line.refresh_from_db()
    return quote_line


def quote_rematch(*, quote: Quote, catalog: CatalogSnapshot | None = None) -> int:
    """Match the stored lines again (after a mapping or a catalog change); returns how many
    lines changed."""
    catalog = catalog or catalog_snapshot()
    lines = list(quote.lines.order_by("line"))
    matches = lines_match(
        [(line.part_number, line.description) for line in lines],
        catalog,
        mappings=vendor_mappings(vendor=quote.vendor),
    )
    part_ids = catalog_part_ids()
    changed = []
    for line, match in zip(lines, matches, strict=True):
        part = match.part if match.match != "ambiguous" else None
        part_id = part_ids.get((part.vendor, part.part_number)) if part else None
        if (line.match, line.match_score, line.part_id) != (match.match, match.score, part_id):
            line.match, line.match_score, line.part_id = match.match, match.score, part_id
            changed.append(line)
    QuoteLine.objects.bulk_update(changed, ["match", "match_score", "part"])
    return len(changed)


def _correction_fields(correction: LineCorrection) -> dict[str, Any]:
    return {
        "role": correction.role or "",
        "system": correction.system or "",
        "gpu": correction.gpu or "",
        "gpus_per_system": correction.gpus_per_system,
    }


def _correction_words(row: QuoteLineCorrection | None) -> dict[str, Any]:
    """What a standing correction says, for the before/after of the audit trail ({} = the
    line as the reader read it)."""
    if row is None:
        return {}
    fields = {"role": row.role, "system": row.system, "gpu": row.gpu}
    words: dict[str, Any] = {k: v for k, v in fields.items() if v}
    if row.gpus_per_system is not None:
        words["gpus_per_system"] = row.gpus_per_system
    return words


def quote_line_correct(
    *,
    quote_line: QuoteLine,
    correction: LineCorrection,
    user: User,
    remember: bool,
    catalog: CatalogSnapshot | None = None,
) -> QuoteLineCorrection:
    """ "Line 12 is a service", "line 1 carries 4 × RTX PRO 6000 Max-Q": lay the correction
    over the line's reading (the next re-run of the review reads it), keeping who, when and
    what it read before. ``remember`` also keeps it for the quote's vendor: later quotes with
    the same part number (or text) read the same. Raises CorrectionError for a system or GPU
    the catalog does not know, or a correction that says nothing."""
    if not correction.model_dump(exclude_none=True):
        raise CorrectionError(f"line {quote_line.line}: say what the line is")
    correction_check(correction, catalog or catalog_snapshot())
    quote = quote_line.quote
    with transaction.atomic():
        QuoteLine.objects.select_for_update().get(pk=quote_line.pk)  # one correction at a time
        stack = corrections_standing(quote=quote).get(quote_line.line, [])
        remembered = None
        if remember:
            vendor, text = (
                vendor_key(quote.vendor),
                line_key(part_number=quote_line.part_number, description=quote_line.description),
            )
            VendorLineCorrection.objects.filter(
                vendor=vendor, text=text, removed_at__isnull=True
            ).update(removed_by=user, removed_at=timezone.now())
            remembered = VendorLineCorrection.objects.create(
                vendor=vendor, text=text, created_by=user, **_correction_fields(correction)
            )
        row = QuoteLineCorrection(
            quote_line=quote_line,
            action=CorrectionAction.CORRECT,
            remembered=remembered,
            created_by=user,
            before=_correction_words(stack[-1] if stack else None),
            **_correction_fields(correction),
        )
        row.after = _correction_words(row)
        row.save()
    return row


def quote_line_correction_undo(*, quote_line: QuoteLine, user: User) -> QuoteLineCorrection:
    """Take the newest standing correction of the line off: the line reads as it did before
    it (the correction under it, or the reader's reading). A correction that was remembered
    for the vendor is forgotten with it. Raises NothingToUndo when nothing stands."""
    with transaction.atomic():
        QuoteLine.objects.select_for_update().get(pk=quote_line.pk)
        stack = corrections_standing(quote=quote_line.quote).get(quote_line.line, [])
        if not stack:
            raise NothingToUndo(f"line {quote_line.line} has no correction to undo")
        top = stack[-1]
        if top.remembered is not None and top.remembered.removed_at is None:
            vendor_correction_remove(vendor_correction=top.remembered, user=user)
        below = stack[-2] if len(stack) > 1 else None
        row = QuoteLineCorrection(
            quote_line=quote_line,
            action=CorrectionAction.UNDO,
            created_by=user,
            before=_correction_words(top),
            after=_correction_words(below),
            **(_correction_fields(correction_of(below)) if below else {}),
        )
        row.save()
    return row


def vendor_correction_remove(
    *, vendor_correction: VendorLineCorrection, user: User
) -> VendorLineCorrection:
    """Forget a remembered correction: the vendor's next quotes read that line as the reader
    does. Kept with who removed it and when (idempotent: removing twice changes nothing)."""
    updated = VendorLineCorrection.objects.filter(
        pk=vendor_correction.pk, removed_at__isnull=True
    ).update(removed_by=user, removed_at=timezone.now())
    vendor_correction.refresh_from_db()
    if updated:
        vendor_correction.removed_by = user
    return vendor_correction
