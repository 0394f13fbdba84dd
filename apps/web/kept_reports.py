"""Stored reports as the what-if preview reads them: validated once per process, by content.

Every preview of a review compares the fresh report with the stored one (the "was" figures,
what the change moved). Validating the stored report (a 100-line quote's is ~100 kB of JSON)
was a tenth of the preview's time, repeated on every pause in typing for the same text. The
report is read as the database's text (`report_text`, see `with_report_text`) and kept here
under a digest of that text, so a re-run, a correction or a decision that changed the report
is a new key by itself and nothing needs invalidating.

A kept report is shared between requests: its readers only read it (review_diff, the sizing
rows' "was", the levels before), never change it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review


def with_report_text(queryset: QuerySet[Review]) -> QuerySet[Review]:
    """The reviews with their report as the stored JSON text (`report_text`) instead of the
    decoded `report`: `stored_report` validates it, once per text."""
    return queryset.annotate(report_text=Cast("report", output_field=TextField())).defer("report")


class StoredReports:
    """Validated reports by a digest of their JSON text, per process: least recently used out
    first, at most SIZE reports and BUDGET characters of text."""

    SIZE = 32
    BUDGET = 16_000_000

    def __init__(self) -> None:
        self._items: OrderedDict[bytes, tuple[int, ReviewReport]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def report(self, text: str) -> ReviewReport:
        """The report this JSON text holds, as `ReviewReport.model_validate(json.loads(text))`
        (what reading the model's JSONField and validating it gives), validated once."""
        key = hashlib.blake2b(text.encode(), digest_size=16).digest()
        with self._lock:
            kept = self._items.get(key)
            if kept is not None:
                self._items.move_to_end(key)
                return kept[1]
        report = ReviewReport.model_validate(json.loads(text))
        if len(text) > self.BUDGET // 8:
            return report  # one report never pushes out everything else
        with self._lock:
            if key not in self._items:
                self._items[key] = (len(text), report)
                self._chars += len(text)
            while len(self._items) > self.SIZE or self._chars > self.BUDGET:
                _, (chars, _dropped) = self._items.popitem(last=False)
                self._chars -= chars
        return report

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._chars = 0


STORED_REPORTS = StoredReports()


def stored_report_data(review: Review) -> Any:
    """The review's stored report as its JSONField reads it, from `with_report_text`'s text."""
    return json.loads(review.report_text)  # type: ignore[attr-defined]


def stored_report(review: Review) -> ReviewReport:
    """The review's stored report, read through `with_report_text`; shared, read it only."""
    return STORED_REPORTS.report(review.report_text)  # type: ignore[attr-defined]
