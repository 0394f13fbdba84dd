"""Webhook endpoints (one organisation's receiver) and the log of every delivery to them.

An endpoint of a customer organisation hears about that organisation's reviews; an endpoint
of the reseller's own (internal) organisation hears about every organisation's reviews.
"""

import secrets
import uuid

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models


class WebhookEvent(models.TextChoices):
    FLAGGED = "review.flagged", "A review was flagged for Finance"
    DECIDED = "review.decided", "Finance decided a review"
    PUBLISHED = "review.published", "A review was published to the customer"


def webhook_secret() -> str:
    return secrets.token_urlsafe(32)


def events_validate(value: object) -> None:
    known = set(WebhookEvent.values)
    if not isinstance(value, list) or not value or not all(e in known for e in value):
        raise ValidationError(f"Pick one or more of: {', '.join(sorted(known))}.")


class WebhookEndpoint(models.Model):
    organisation = models.ForeignKey(
        "sites.Organisation", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(
        max_length=500,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="Where events are POSTed (http or https; redirects are not followed).",
    )
    secret = models.CharField(
        max_length=100,
        default=webhook_secret,
        help_text="Signs every delivery (HMAC-SHA256); give it to the receiver.",
    )
    events = models.JSONField(default=list, validators=[events_validate])
    active = models.BooleanField(default=True)
    description = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organisation__name", "url"]

    def __str__(self) -> str:
        return f"{self.url} ({self.organisation})"

    def wants(self, event: str) -> bool:
        return self.active and event in (self.events or [])


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    RETRYING = "retrying", "Failed; will try again"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Gave up"


class WebhookDelivery(models.Model):
    """One event for one endpoint, with every attempt in `history`
    ([{"at", "status_code", "error", "ms"}], oldest first)."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.CharField(max_length=40, choices=WebhookEvent.choices)
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    subject = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        help_text="What the event is about (a review's UUID).",
    )
    payload = models.JSONField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    history = models.JSONField(default=list)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint.url} ({self.status})"
