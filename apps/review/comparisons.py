"""Reviews on file, compared: how a review is named, which reviews share a load, and the
comparisons people keep.

A review is named by what a buyer recognises — the customer, the vendor and quote number, the
date — never by its file name: "Acme Research · Northwind Q-1042 · 2026-11-03". Two reviews share
a load when their workloads are equal apart from the name a user gave them (the engine's rule
in `apps.review.engine.compare`); `load_key` is that equality as a short string, so a picker can
offer "only reviews of this load".

Who may open a saved comparison follows its reviews: the compare pages are for the internal
roles, and a comparison is found only when every one of its reviews is visible to the user.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.review.models import Review, SavedComparison, SavedComparisonReview
from apps.sites.access import INTERNAL_ROLES, role_of, scope_for_user
from apps.sites.models import Organisation

#: How many reviews the picker reads to group them by load (newest first) and shows.
PICKER_SCAN = 500
PICKER_ROWS = 50
NAME_MAX = 200


def review_title(review: Review) -> str:
    """ "Acme Research · Northwind Q-1042 · 2026-11-03": customer, vendor and number, date (the
    quote's own date when it gave one, else the day it was reviewed)."""
    quote = review.quote
    vendor = quote.vendor or "Unknown vendor"
    number = quote.quote_number or "no quote number"
    when = quote.quote_date or timezone.localdate(review.created_at).isoformat()
    return f"{review.organisation.name} · {vendor} {number} · {when}"


def load_key(workload: dict[str, Any] | None) -> str:
    """The load without its name, as 12 hex digits: equal loads, equal keys."""
    plain = {k: v for k, v in (workload or {}).items() if k != "name"}
    digest = hashlib.sha256(json.dumps(plain, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:12]


def review_load(review: Review) -> dict[str, Any]:
    """The load the review's report was made for: what the engine compares."""
    report = review.report if isinstance(review.report, dict) else {}
    return report.get("workload") or review.workload or {}


@dataclass(frozen=True, slots=True)
class LoadChoice:
    """One load the picker offers: its key, one review's workload (to name it) and how many."""

    key: str
    workload: dict[str, Any]
    count: int


@dataclass(frozen=True, slots=True)
class Picking:
    reviews: list[Review]
    loads: list[LoadChoice]
    more: bool  # more reviews matched than the picker shows


def reviews_for_picking(
    reviews: QuerySet[Review],
    *,
    organisation_id: int | None = None,
    load: str = "",
    since: dt.date | None = None,
    until: dt.date | None = None,
) -> Picking:
    """The reviews a user may tick, filtered by organisation, load and review date (inclusive),
    newest first, with the loads among them (before the load filter, so one can switch)."""
    if organisation_id is not None:
        reviews = reviews.filter(organisation_id=organisation_id)
    if since is not None:
        reviews = reviews.filter(created_at__date__gte=since)
    if until is not None:
        reviews = reviews.filter(created_at__date__lte=until)
    scanned = list(reviews.order_by("-created_at", "-pk")[:PICKER_SCAN])
    counts: dict[str, LoadChoice] = {}
    for review in scanned:
        workload = review_load(review)
        key = load_key(workload)
        seen = counts.get(key)
        counts[key] = LoadChoice(key, workload, (seen.count if seen else 0) + 1)
    kept = [r for r in scanned if not load or load_key(review_load(r)) == load]
    loads = sorted(counts.values(), key=lambda c: -c.count)
    return Picking(reviews=kept[:PICKER_ROWS], loads=loads, more=len(kept) > PICKER_ROWS)


def comparison_name_default(reviews: Sequence[Review]) -> str:
    """ "Full fine-tune: 2 quotes for Acme Research" — what the save form suggests."""
    load = review_load(reviews[0]).get("name") or "One load"
    customers = list(dict.fromkeys(r.organisation.name for r in reviews))
    who = customers[0] if len(customers) == 1 else f"{len(customers)} customers"
    return f"{load}: {len(reviews)} quotes for {who}"[:NAME_MAX]


def comparison_save(*, name: str, reviews: Sequence[Review], user: User) -> SavedComparison:
    """Keep a comparison of `reviews` (already checked comparable) in their order."""
    with transaction.atomic():
        saved = SavedComparison.objects.create(name=name.strip()[:NAME_MAX], created_by=user)
        SavedComparisonReview.objects.bulk_create(
            SavedComparisonReview(comparison=saved, review=review, position=i)
            for i, review in enumerate(reviews, 1)
        )
    return saved


def comparisons_visible(user: User | AnonymousUser) -> QuerySet[SavedComparison]:
    """Saved comparisons this person may open: internal roles only, and only those whose every
    review the person may see."""
    if role_of(user) not in INTERNAL_ROLES:
        return SavedComparison.objects.none()
    hidden = Review.objects.exclude(pk__in=scope_for_user(Review.objects.all(), user).values("pk"))
    return (
        SavedComparison.objects.exclude(items__review__in=hidden)
        .select_related("created_by")
        .prefetch_related("items")
    )


def comparison_reviews(saved: SavedComparison, visible: QuerySet[Review]) -> list[Review]:
    """The saved comparison's reviews in their saved order, read through `visible`."""
    ids = [item.review_id for item in saved.items.all()]
    found = {r.pk: r for r in visible.filter(pk__in=ids)}
    return [found[i] for i in ids if i in found]


def organisations_with_reviews(reviews: QuerySet[Review]) -> list[tuple[int, str]]:
    """(id, name) of every organisation that has one of `reviews`, by name: the filter's choices."""
    return list(
        Organisation.objects.filter(reviews__in=reviews)
        .distinct()
        .order_by("name")
        .values_list("id", "name")
    )
