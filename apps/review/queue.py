"""The Finance queue as a selector: reviews the Finance rule flags (a warning or critical
finding, high Finance pressure, spend over the line, no exchange rate) of the newest quote
versions, filtered by verdict, spend and age. Spend is the total in USD, converted at the
review's stored rate.

Spend bands follow the finance blood-pressure thresholds (settings.RIGHTSIZE_FINANCE_THRESHOLDS,
10k / 100k / 1M USD), so "high" in the filter means the same as a "high" finance gauge.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from apps.review.models import Review, ReviewStatus, Verdict
from apps.words import usd_whole

FLAGGED = (Verdict.WARN, Verdict.FAIL)
VERDICT_CHOICES = [
    ("", "Any verdict"),
    (Verdict.FAIL, "Fail"),
    (Verdict.WARN, "Warn"),
    (Verdict.PASS, "Pass"),
]
STATUS_CHOICES = [
    (ReviewStatus.PENDING, "Waiting for Finance"),
    (ReviewStatus.CHANGES_REQUESTED, "Changes requested"),
    (ReviewStatus.APPROVED, "Approved"),
    (ReviewStatus.REJECTED, "Rejected"),
    ("all", "All flagged"),
]
AGE_CHOICES = [
    ("", "Any age"),
    ("day", "Under a day"),
    ("week", "1 to 7 days"),
    ("older", "Over 7 days"),
]


_money = usd_whole  # "$10,000": the thresholds as every face writes money in a sentence


def spend_choices() -> list[tuple[str, str]]:
    """("calm", "Under $10,000"), ("raised", "$10,000 to $100,000"), ... from the thresholds."""
    low, mid, high = settings.RIGHTSIZE_FINANCE_THRESHOLDS
    return [
        ("", "Any spend"),
        ("calm", f"Under {_money(low)}"),
        ("raised", f"{_money(low)} to {_money(mid)}"),
        ("high", f"{_money(mid)} to {_money(high)}"),
        ("crisis", f"{_money(high)} and over"),
        ("unknown", "No total, or no exchange rate"),
    ]


def _spend_filter(spend: str) -> Q:
    low, mid, high = (Decimal(t) for t in settings.RIGHTSIZE_FINANCE_THRESHOLDS)
    bands = {
        "calm": Q(total_usd__lt=low),
        "raised": Q(total_usd__gte=low, total_usd__lt=mid),
        "high": Q(total_usd__gte=mid, total_usd__lt=high),
        "crisis": Q(total_usd__gte=high),
        "unknown": Q(total_usd__isnull=True),
    }
    return bands.get(spend, Q())


def _age_filter(age: str) -> Q:
    now = timezone.now()
    day, week = now - timedelta(days=1), now - timedelta(days=7)
    bands = {
        "day": Q(created_at__gt=day),
        "week": Q(created_at__lte=day, created_at__gt=week),
        "older": Q(created_at__lte=week),
    }
    return bands.get(age, Q())


@dataclass(frozen=True)
class QueueFilters:
    """What the Finance reviewer asked for; unknown values fall back to "any"."""

    status: str = ReviewStatus.PENDING
    verdict: str = ""
    spend: str = ""
    age: str = ""

    @classmethod
    def from_query(cls, query: dict[str, str]) -> QueueFilters:
        def pick(name: str, choices: list[tuple[str, str]], default: str) -> str:
            value = query.get(name, default)
            return value if value in {c for c, _ in choices} else default

        return cls(
            status=pick("status", STATUS_CHOICES, ReviewStatus.PENDING),
            verdict=pick("verdict", VERDICT_CHOICES, ""),
            spend=pick("spend", spend_choices(), ""),
            age=pick("age", AGE_CHOICES, ""),
        )


#: What a queue row reads (the row, its cache key and its decisions): the review's status and
#: figures, the quote's name (`str(quote)`, its file name) and the organisation's name. The
#: rest of each review, quote and organisation, and the quote's file, are never loaded: 50
#: rows a page, each built into three model objects from every column, was most of the queue's
#: time in Python.
QUEUE_READS = (
    "uuid",
    "version",
    "updated_at",
    "created_at",
    "status",
    "verdict",
    "finance_level",
    "facilities_level",
    "finance_reasons",
    "total",
    "currency",
    "total_usd",
    "quote",
    "quote__vendor",
    "quote__quote_number",
    "quote__display_name",
    "quote__version",
    "organisation",
    "organisation__name",
)


def queue_reviews(*, filters: QueueFilters) -> QuerySet[Review]:
    """Reviews the Finance rule flags (apps.review.finance_rule), oldest first (longest
    waiting), leaving out those whose quote was revised and reviewed again (the revision's
    review is the one to decide). Loaded with QUEUE_READS only."""
    # `previous_id IS NOT NULL` is implied by the equality; said, it lets PostgreSQL look at
    # the few revised quotes instead of joining every review to its quote first.
    revised = Review.objects.filter(
        quote__previous_id=OuterRef("quote_id"), quote__previous_id__isnull=False
    )
    reviews = Review.objects.filter(needs_finance=True).exclude(Exists(revised))
    if filters.status != "all":
        reviews = reviews.filter(status=filters.status)
    if filters.verdict:
        reviews = reviews.filter(verdict=filters.verdict)
    reviews = reviews.filter(_spend_filter(filters.spend) & _age_filter(filters.age))
    return (
        reviews.select_related("quote", "organisation")
        .only(*QUEUE_READS)
        .order_by("created_at", "id")
    )
