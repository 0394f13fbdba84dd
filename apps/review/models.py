"""The review record and the Finance workflow: an explicit transition table and an append-only
audit log. Every decision bumps `version` with a conditional update, so two deciders never
both win."""

import uuid

from django.conf import settings
from django.db import models

from apps.words import LEVEL_COLOURS, LEVEL_LABELS, VERDICT_COLOURS, VERDICT_LABELS


class Verdict(models.TextChoices):
    PASS = "pass", VERDICT_LABELS["pass"]
    WARN = "warn", VERDICT_LABELS["warn"]
    FAIL = "fail", VERDICT_LABELS["fail"]

    @property
    def colour(self) -> str:
        return VERDICT_COLOURS[self.value]


class PressureLevel(models.TextChoices):
    """A blood-pressure gauge's level, as `Review.finance_level` / `facilities_level` store it."""

    CALM = "calm", LEVEL_LABELS["calm"]
    RAISED = "raised", LEVEL_LABELS["raised"]
    HIGH = "high", LEVEL_LABELS["high"]
    CRISIS = "crisis", LEVEL_LABELS["crisis"]

    @property
    def colour(self) -> str:
        return LEVEL_COLOURS[self.value]


class ReviewStatus(models.TextChoices):
    CLEAR = "clear", "Clear (no approval needed)"
    PENDING = "pending", "Waiting for Finance"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"


class Review(models.Model):
    """One review of one quote version against one workload and facility."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    quote = models.ForeignKey("quotes.Quote", on_delete=models.PROTECT, related_name="reviews")
    organisation = models.ForeignKey(
        "sites.Organisation", on_delete=models.PROTECT, related_name="reviews"
    )
    workload = models.JSONField()
    facility = models.JSONField()
    report = models.JSONField()
    verdict = models.CharField(max_length=4, choices=Verdict.choices)
    finance_level = models.CharField(max_length=10)
    facilities_level = models.CharField(max_length=10)
    total_usd = models.DecimalField(
        max_digits=16,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="The total in USD: as quoted, or converted at `rate` (the queue's spend bands).",
    )
    # The quote's own money, and what it came to in the organisation's currency.
    currency = models.CharField(max_length=3, blank=True, default="")
    total = models.DecimalField(max_digits=16, decimal_places=2, null=True, blank=True)
    converted_total = models.DecimalField(max_digits=16, decimal_places=2, null=True, blank=True)
    converted_currency = models.CharField(max_length=3, blank=True, default="")
    rate = models.DecimalField(
        max_digits=18,
        decimal_places=8,
        null=True,
        blank=True,
        help_text="converted_total = total × rate; empty when no rate was known.",
    )
    rates_of = models.DateField(null=True, blank=True, help_text="The date of the rates used.")
    # The one rule (apps.review.finance_rule): whether, and why, Finance must decide.
    needs_finance = models.BooleanField(default=False)
    finance_reasons = models.JSONField(default=list, blank=True)
    # What a decision is bound to (apps.review.basis): lines, money, load, room, catalog.
    basis = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=ReviewStatus.choices)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # What the customer sees: a frozen copy of one version, made by the account team.
    published_version = models.PositiveIntegerField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    published_report = models.JSONField(null=True, blank=True)
    published_workload = models.JSONField(null=True, blank=True)
    published_facility = models.JSONField(null=True, blank=True)
    published_status = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "verdict"])]

    def __str__(self) -> str:
        return f"Review {self.uuid} ({self.verdict})"


class AuditEventQuerySet(models.QuerySet["AuditEvent"]):
    """Bulk edits and deletes are refused too, not only single-row saves."""

    def update(self, **kwargs: object) -> int:
        raise PermissionError("Audit events are append-only")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("Audit events are append-only")


class AuditEvent(models.Model):
    """Append-only: who decided what, from which status to which, on which file."""

    review = models.ForeignKey(Review, on_delete=models.PROTECT, related_name="events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(max_length=20)
    action = models.CharField(max_length=30)
    reason = models.TextField()
    from_status = models.CharField(max_length=20)
    to_status = models.CharField(max_length=20)
    version = models.PositiveIntegerField()
    file_sha256 = models.CharField(max_length=64)
    #: What moved in a save: [{"what": "line 1 quantity", "before": "1", "after": "2"}, ...].
    changes = models.JSONField(default=list, blank=True)
    #: The decision this save set aside ("Approved by finance on 2026-11-30: fits the budget").
    previous_decision = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor} ({self.from_status} -> {self.to_status})"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise PermissionError("Audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("Audit events are append-only")


class ExchangeRate(models.Model):
    """One currency's rate on one date, as USD per unit (EUR 1.1617: one euro buys 1.1617
    dollars). Admin-edited; seeded from fixtures/exchange_rates.csv with its source."""

    currency = models.CharField(max_length=3)
    usd_per_unit = models.DecimalField(max_digits=18, decimal_places=8)
    rates_of = models.DateField()
    source = models.CharField(max_length=500)
    verified = models.BooleanField(
        default=False, help_text="Checked against the source's published series."
    )

    class Meta:
        ordering = ["currency", "-rates_of"]
        constraints = [
            models.UniqueConstraint(fields=["currency", "rates_of"], name="one_rate_per_day"),
            models.CheckConstraint(condition=models.Q(usd_per_unit__gt=0), name="rate_is_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.currency} {self.usd_per_unit} USD ({self.rates_of})"


class Notification(models.Model):
    """One message to one person about one review: the in-app inbox (the email is a copy)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    review = models.ForeignKey(
        Review, on_delete=models.CASCADE, related_name="notifications", null=True, blank=True
    )
    kind = models.CharField(max_length=30)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.subject}"


class SavedComparison(models.Model):
    """A comparison someone kept: a name, the reviews in the order they were given, who, when.

    Nothing of the result is stored: the page and the PDF rank the reviews' stored reports
    again, so a saved comparison always says what the reviews say. Who may open it follows its
    reviews: the internal roles, and only when every review is one they may see.
    """

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=200)
    reviews = models.ManyToManyField(
        Review, through="SavedComparisonReview", related_name="saved_comparisons"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="saved_comparisons"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class SavedComparisonReview(models.Model):
    """One review in a saved comparison, at its place (1 is the first column)."""

    comparison = models.ForeignKey(SavedComparison, on_delete=models.CASCADE, related_name="items")
    review = models.ForeignKey(Review, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["comparison", "review"], name="saved_comparison_review_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.comparison} #{self.position}"


class UploadStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    READING = "reading", "Reading the file"
    REVIEWING = "reviewing", "Reviewing"
    DONE = "done", "Reviewed"
    NEEDS_SHEET = "sheet", "Which sheet?"
    FAILED = "failed", "Could not be read"


class UploadJob(models.Model):
    """One uploaded quote on its way to a review, read by a background worker.

    The original is already in storage (``blob``) when the row is made; the worker reads it,
    reviews it and points ``review`` at the result, or records the problem (file, row, column)
    and, when the original was kept as a quote to enter by hand, that ``quote``.
    """

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    organisation = models.ForeignKey(
        "sites.Organisation", on_delete=models.CASCADE, related_name="upload_jobs"
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    filename = models.CharField(max_length=255)
    blob = models.CharField(max_length=255)
    delimiter = models.CharField(max_length=4, blank=True)
    sheet = models.CharField(max_length=200, blank=True)
    workload = models.JSONField()
    facility = models.JSONField()
    #: the upload form's load and room fields, for the hand-entry grid when the file is a scan
    inputs = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=10, choices=UploadStatus.choices, default=UploadStatus.QUEUED
    )
    review = models.ForeignKey(
        "review.Review", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    quote = models.ForeignKey(
        "quotes.Quote", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    error_message = models.TextField(blank=True)
    error_file = models.CharField(max_length=255, blank=True)
    error_row = models.PositiveIntegerField(null=True, blank=True)
    error_column = models.CharField(max_length=255, blank=True)
    #: two sheets look like quotes: each one's name, rows, header and first lines, to ask
    sheet_candidates = models.JSONField(default=list, blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"upload {self.filename} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status in {UploadStatus.QUEUED, UploadStatus.READING, UploadStatus.REVIEWING}
