"""Cache keys for the review page's two heavy pieces, from everything each piece reads.

The review page renders the same stored report again and again (Finance opening it, the htmx
partial after every decision); its findings, drawings and the quote-lines table were most of
its server time. A key is a digest of the piece's inputs, never a review id alone, so a new
report, a correction, another role's view or a catalog match confirmed since gives a new key
by itself and nothing needs invalidating. None means "render it, keep nothing": a preview or a
re-run (their "was" figures and every what-if are new each time), or a lines table with a form
in it (the forms carry the person's CSRF token).

Inside the report, the pieces a what-if mostly leaves alone (each check's findings, the quoted
vehicles) are kept too, in this process (`PIECES`), under a digest of the very models they are
drawn from: "what if 120 users?" moves the throughput and utilization findings but not the
floor load, the cooling or the 18 vehicles, so a preview renders only what moved.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from django.utils.timesince import timesince
from django.utils.translation import get_language

from apps.reports.page import FindingGroup
from apps.review.engine.schemas import QuotedSystem, ReviewReport

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


def findings_group_key(group: FindingGroup) -> str:
    """One check's findings (`<details id="check-…">`): the check and its findings, in the
    order shown; the labels, the worst severity and the metrics' words all follow from them."""
    findings = [view.finding.model_dump_json() for view in group.findings]
    return "review-check:" + _digest(VERSION, group.check, findings)


def vehicles_key(systems: Sequence[QuotedSystem]) -> str:
    """The quoted vehicles' cards and drawings: the systems the quote was read into."""
    return "review-vehicles:" + _digest(VERSION, [s.model_dump_json() for s in systems])


class PieceCache:
    """Rendered report pieces by key, per process: least recently used out first, at most
    SIZE pieces and BUDGET characters (a 1,000-line quote's vehicles are ~250,000)."""

    SIZE = 512
    BUDGET = 16_000_000

    def __init__(self) -> None:
        self._items: OrderedDict[str, str] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            html = self._items.get(key)
            if html is not None:
                self._items.move_to_end(key)
            return html

    def put(self, key: str, html: str) -> None:
        if len(html) > self.BUDGET // 8:
            return  # one piece never pushes out everything else
        with self._lock:
            old = self._items.pop(key, None)
            self._chars += len(html) - (len(old) if old is not None else 0)
            self._items[key] = html
            while len(self._items) > self.SIZE or self._chars > self.BUDGET:
                _, dropped = self._items.popitem(last=False)
                self._chars -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._chars = 0


PIECES = PieceCache()


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
