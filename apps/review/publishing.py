"""Publishing a review to its customer, and what a customer may see.

A customer sees a review only once the account team has published it, and then a frozen copy:
the report, load, room and status of the version published. A later save or a vendor's
revision is unpublished until the account team publishes again; until then the customer keeps
the published figures and its PDF. A review that needs Finance is published only once Finance
approved it.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.review.models import AuditEvent, Review, ReviewStatus
from apps.review.services import ReviewChanged
from apps.review.webhooks import ReviewEvent, emit_review_event
from apps.sites.access import role_of, scope_for_user
from apps.sites.models import Role

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

PUBLISHERS = frozenset({Role.ACCOUNT_TEAM, Role.ADMIN})
PUBLISHABLE = (ReviewStatus.CLEAR, ReviewStatus.APPROVED)


class PublishRefused(ValueError):
    """The review may not go to the customer yet (Finance has not approved it)."""


def reviews_for(queryset: QuerySet[Review], user: User | AnonymousUser) -> QuerySet[Review]:
    """The reviews this person may open: internal roles all, a customer only their
    organisation's published ones (anything else is 404)."""
    scoped = scope_for_user(queryset, user)
    if role_of(user) == Role.CUSTOMER:
        return scoped.filter(published_version__isnull=False)
    return scoped


def review_as_published(review: Review) -> Review:
    """An unsaved stand-in carrying the published version's report, inputs, status and version
    (what the customer's page and PDF read). The review itself when it was never published."""
    if review.published_version is None or review.published_report is None:
        return review
    frozen = copy.copy(review)
    frozen.report = review.published_report
    frozen.workload = review.published_workload
    frozen.facility = review.published_facility
    frozen.status = review.published_status
    frozen.version = review.published_version
    report = review.published_report
    quote = report.get("quote", {})
    frozen.verdict = report.get("verdict", review.verdict)
    pressure = report.get("blood_pressure", {})
    frozen.finance_level = pressure.get("finance", {}).get("level", review.finance_level)
    frozen.facilities_level = pressure.get("facilities", {}).get("level", review.facilities_level)
    frozen.currency = (quote.get("currency") or "").upper()
    frozen.total = Decimal(str(quote["total"])) if quote.get("total") is not None else None
    if frozen.total is None or frozen.currency != review.currency or review.rate is None:
        frozen.converted_total = None
    else:  # the published total at the review's rate (the same one unless the money moved)
        frozen.converted_total = (frozen.total * review.rate).quantize(Decimal("0.01"))
    if review.published_at is not None:
        frozen.updated_at = review.published_at
    return frozen


def review_for_viewer(review: Review, user: User | AnonymousUser) -> Review:
    """A customer reads the published copy; internal roles the review as it is now."""
    return review_as_published(review) if role_of(user) == Role.CUSTOMER else review


def publish_refusal(review: Review, *, revised: bool | None = None) -> str:
    """Why this review cannot be published now, in words; "" when it can. `revised`: whether
    the caller already knows a revision replaced it (saves the query)."""
    if review.status not in PUBLISHABLE:
        label = ReviewStatus(review.status).label.lower()
        return f"Finance must approve it before the customer sees it (it is {label})."
    if revised is None:
        revised = Review.objects.filter(quote__previous_id=review.quote_id).exists()
    if revised:
        return "A revised quote replaced this version: publish the revision's review."
    return ""


def review_publish(*, review_id: int, expected_version: int, user: User) -> Review:
    """Publish the review's current version to its customer (and withdraw the publication of
    the quote's earlier versions). Raises PermissionDenied for a role that may not publish,
    ReviewChanged when the review moved past `expected_version`, PublishRefused when Finance
    has not approved a flagged review."""
    role = role_of(user)
    if role not in PUBLISHERS:
        raise PermissionDenied("Only the account team publishes reviews.")
    with transaction.atomic():
        review = (
            Review.objects.select_for_update(of=("self",))
            .select_related("quote__source_file")
            .get(pk=review_id)
        )
        if review.version != expected_version:
            raise ReviewChanged("Quote changed: reload it before publishing.")
        refusal = publish_refusal(review)
        if refusal:
            raise PublishRefused(refusal)
        earlier = _earlier_quote_ids(review)
        Review.objects.filter(quote_id__in=earlier).update(
            published_version=None,
            published_at=None,
            published_by=None,
            published_report=None,
            published_workload=None,
            published_facility=None,
            published_status="",
        )
        now = timezone.now()
        Review.objects.filter(pk=review.pk).update(
            published_version=review.version,
            published_at=now,
            published_by=user,
            published_report=review.report,
            published_workload=review.workload,
            published_facility=review.facility,
            published_status=review.status,
        )
        AuditEvent.objects.create(
            review=review,
            actor=user,
            role=role.value if role else "",
            action="publish",
            reason=f"Published version {review.version} to {review.organisation}.",
            from_status=review.status,
            to_status=review.status,
            version=review.quote.version,
            file_sha256=review.quote.source_file.sha256,
        )
    review.refresh_from_db()
    _after_publish(review)
    return review


def _earlier_quote_ids(review: Review) -> list[int]:
    ids: list[int] = []
    quote = review.quote
    while quote.previous_id is not None and quote.previous_id not in ids:
        ids.append(quote.previous_id)
        quote = quote.previous  # type: ignore[assignment]
    return ids


def _after_publish(review: Review) -> None:
    """After a publication has committed: the organisation's webhooks hear of it."""
    emit_review_event(review, ReviewEvent.PUBLISHED)
