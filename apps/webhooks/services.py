"""Queue an event for every endpoint that wants it, and send one delivery attempt.

`webhook_emit` writes one `WebhookDelivery` per endpoint and enqueues its task after the
transaction commits, so the request that decided a review never waits on a receiver. The task
(`webhook_attempt`) POSTs once; a failure is retried with exponential backoff — 1, 2, 4, 8 and
16 minutes after attempts 1–5 (60 s × 2^(n−1)) — and the delivery is FAILED after the sixth.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.webhooks.http import post_json
from apps.webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint
from apps.webhooks.signing import webhook_signature

logger = logging.getLogger("rightsize.webhooks")

MAX_ATTEMPTS = 6
RETRY_BASE_S = 60
TIMEOUT_S = 10
USER_AGENT = "Rightsize-Webhooks/1"


def retry_delay(attempts: int) -> dt.timedelta:
    """The wait after the `attempts`-th failure: 60 s × 2^(attempts−1) (1, 2, 4, 8, 16 min)."""
    base = getattr(settings, "WEBHOOK_RETRY_BASE_S", RETRY_BASE_S)
    return dt.timedelta(seconds=base * 2 ** (attempts - 1))


def webhook_emit(
    *,
    organisation_id: int,
    event: str,
    subject: str,
    payload: dict[str, Any],
    internal_payload: dict[str, Any] | None = None,
) -> list[WebhookDelivery]:
    """One delivery per active endpoint subscribed to `event`: the organisation's own
    endpoints get `payload`; the reseller's (internal organisation's) get `internal_payload`
    (which may carry what customers must not see, such as Finance's comment)."""
    endpoints = WebhookEndpoint.objects.filter(active=True).filter(
        Q(organisation_id=organisation_id) | Q(organisation__is_internal=True)
    )
    deliveries = []
    for endpoint in endpoints.select_related("organisation"):
        if not endpoint.wants(event):
            continue
        body = internal_payload if endpoint.organisation.is_internal else payload
        delivery = WebhookDelivery(endpoint=endpoint, event=event, subject=subject)
        delivery.payload = {"id": str(delivery.event_id), "event": event, **(body or payload)}
        delivery.save()
        deliveries.append(delivery)
        transaction.on_commit(partial(webhook_enqueue, delivery_id=delivery.pk))
    return deliveries


def webhook_enqueue(*, delivery_id: int, run_after: dt.datetime | None = None) -> None:
    from apps.webhooks.tasks import webhook_deliver_task

    task = webhook_deliver_task
    if run_after is not None and task.get_backend().supports_defer:
        task = task.using(run_after=run_after)
    task.enqueue(delivery_id)


def delivery_body(delivery: WebhookDelivery) -> bytes:
    return json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode("utf-8")


def webhook_attempt(*, delivery_id: int) -> WebhookDelivery:
    """The task's body: claim the next attempt, POST once, record it, schedule the retry."""
    delivery = WebhookDelivery.objects.select_related("endpoint").get(pk=delivery_id)
    open_statuses = [DeliveryStatus.PENDING, DeliveryStatus.RETRYING]
    claimed = WebhookDelivery.objects.filter(
        pk=delivery.pk, attempts=delivery.attempts, status__in=open_statuses
    ).update(attempts=F("attempts") + 1)
    if claimed != 1:
        return delivery  # delivered, given up, or a duplicate task got there first
    delivery.attempts += 1
    endpoint = delivery.endpoint
    if not endpoint.active:
        return _record(delivery, status_code=None, error="endpoint deactivated", ms=0, final=True)
    body = delivery_body(delivery)
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Rightsize-Event": delivery.event,
        "X-Rightsize-Delivery": str(delivery.event_id),
        "X-Rightsize-Timestamp": str(timestamp),
        "X-Rightsize-Signature": webhook_signature(
            secret=endpoint.secret, timestamp=timestamp, body=body
        ),
    }
    outcome = post_json(
        url=endpoint.url,
        body=body,
        headers=headers,
        timeout_s=getattr(settings, "WEBHOOK_TIMEOUT_S", TIMEOUT_S),
    )
    delivery = _record(
        delivery,
        status_code=outcome.status_code,
        error=outcome.error,
        ms=outcome.ms,
        final=outcome.ok or delivery.attempts >= MAX_ATTEMPTS,
        delivered=outcome.ok,
    )
    if delivery.status == DeliveryStatus.RETRYING:
        webhook_enqueue(delivery_id=delivery.pk, run_after=delivery.next_attempt_at)
    return delivery


def _record(
    delivery: WebhookDelivery,
    *,
    status_code: int | None,
    error: str,
    ms: int,
    final: bool,
    delivered: bool = False,
) -> WebhookDelivery:
    now = timezone.now()
    delivery.history = [
        *delivery.history,
        {"at": now.isoformat(), "status_code": status_code, "error": error, "ms": ms},
    ]
    delivery.last_status_code = status_code
    delivery.last_error = error
    if delivered:
        delivery.status, delivery.delivered_at, delivery.next_attempt_at = (
            DeliveryStatus.DELIVERED,
            now,
            None,
        )
    elif final:
        delivery.status, delivery.next_attempt_at = DeliveryStatus.FAILED, None
        logger.warning("webhook %s gave up after %d attempts", delivery.event_id, delivery.attempts)
    else:
        delivery.status = DeliveryStatus.RETRYING
        delivery.next_attempt_at = now + retry_delay(delivery.attempts)
    delivery.save(
        update_fields=[
            "history",
            "last_status_code",
            "last_error",
            "status",
            "delivered_at",
            "next_attempt_at",
            "updated_at",
        ]
    )
    return delivery
