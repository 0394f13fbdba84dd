"""Review events for webhooks: what a receiver is told when a review is flagged for Finance,
decided, or published to the customer.

The payload names the review and where to read it (`/api/v1/reviews/<uuid>`), never the
whole report. A decision's comment goes only to the reseller's own endpoints: a customer's
endpoint hears the outcome, not Finance's note (RELIABILITY 21).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from apps.webhooks.models import WebhookDelivery, WebhookEvent
from apps.webhooks.services import webhook_emit

if TYPE_CHECKING:
    from apps.review.models import AuditEvent, Review


class ReviewEvent(StrEnum):
    FLAGGED = WebhookEvent.FLAGGED.value
    DECIDED = WebhookEvent.DECIDED.value
    PUBLISHED = WebhookEvent.PUBLISHED.value


def review_summary(review: Review) -> dict[str, Any]:
    return {
        "uuid": str(review.uuid),
        "status": review.status,
        "verdict": review.verdict,
        "version": review.version,
        "total_usd": None if review.total_usd is None else f"{review.total_usd:.2f}",
        "url": f"/api/v1/reviews/{review.uuid}",
    }


def emit_review_event(
    review: Review, event: ReviewEvent | str, *, decision: AuditEvent | None = None
) -> list[WebhookDelivery]:
    """Queue `event` about `review` for every endpoint that wants it (sent after commit)."""
    event = ReviewEvent(event)
    common: dict[str, Any] = {
        "created_at": timezone.now().isoformat(),
        "organisation": review.organisation.slug,
        "review": review_summary(review),
    }
    payload, internal = dict(common), dict(common)
    if decision is not None:
        outcome = {
            "action": decision.action,
            "from_status": decision.from_status,
            "to_status": decision.to_status,
            "decided_at": decision.created_at.isoformat(),
        }
        payload["decision"] = outcome
        internal["decision"] = outcome | {
            "reason": decision.reason,
            "actor": decision.actor.get_username(),
            "role": decision.role,
        }
    return webhook_emit(
        organisation_id=review.organisation_id,
        event=event.value,
        subject=str(review.uuid),
        payload=payload,
        internal_payload=internal,
    )
