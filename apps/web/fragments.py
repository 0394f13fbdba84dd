"""Cache keys for the review page's two heavy pieces, from everything each piece reads.

The review page renders the same stored report again and again (Finance opening it, the htmx
partial after every decision); its findings, drawings and the quote-lines table were most of
its server time. A key is a digest of the piece's inputs, never a review id alone, so a new
report, a correction, another role's view or a catalog match confirmed since gives a new key
by itself and nothing needs invalidating. None means "render it, keep nothing": a preview or a
re-run (their "was" figures and every what-if are new each time), or a lines table with a form
in it (the forms carry the person's CSRF token).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.timesince import timesince
from django.utils.translation import get_language

from apps.review.engine.schemas import ReviewReport

#: Bump to drop every cached piece when the template's HTML for them changes.
VERSION = "1"


def _digest(*parts: Any) -> str:
    text = json.dumps(parts, default=str, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def report_fragment_key(
    report: ReviewReport, *, can_edit: bool, before: ReviewReport | None
) -> str | None:
    """The blood pressure, vehicles, charts, sizing, findings and right fit: the report and
    whether the reader may correct lines (a link), nothing else."""
    if before is not None:
        return None
    return "review-report:" + _digest(VERSION, report.model_dump_json(), can_edit)


def lines_fragment_key(
    report: ReviewReport, lines: list[Any], *, review_uuid: str, can_edit: bool, internal: bool
) -> str | None:
    """The quote-lines table: the report's quote, each row's stored line (id, catalog part,
    errors) and correction in force, the review (its URLs) and who reads it."""
    if can_edit and any(row.form or row.standing or row.needs_confirmation for row in lines):
        return None
    rows = [
        (
            row.line.line,
            row.quote_line_id,
            row.part_id,
            row.errors,
            row.needs_confirmation,
            getattr(row.standing, "pk", None),
        )
        for row in lines
    ]
    quote = report.quote.model_dump_json()
    return "review-lines:" + _digest(VERSION, review_uuid, quote, rows, can_edit, internal)


def queue_row_key(review: Any, *, role: str | None) -> str:
    """A Finance queue row: every field of the review, its quote and organisation the row
    prints, the decisions it offers, how long it has waited (in the words the row shows, so
    a row is drawn again at most once a minute) and the language its money is written in."""
    quote = review.quote
    parts = (
        VERSION,
        (review.pk, str(review.uuid), review.version, review.updated_at, review.status),
        (review.verdict, review.finance_level, review.facilities_level, review.finance_reasons),
        (review.total, review.currency, review.total_usd),
        (quote.pk, str(quote), quote.display_name, review.organisation.name),
        [str(action) for action in review.allowed_actions],
        (review.created_at, timesince(review.created_at)),
        (role, get_language()),
    )
    return "queue-row:" + _digest(*parts)
