"""The PDF of one review version: queued, rendered by a background task, kept in storage.

One row per (review, review version): asking twice for the same version's PDF reuses the row and
the same storage name, so a re-run after a crashed worker overwrites, never duplicates.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class ReportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Rendering"
    DONE = "done", "Ready"
    FAILED = "failed", "Failed"

    @property
    def is_pending(self) -> bool:
        return self in {ReportStatus.QUEUED, ReportStatus.RUNNING}


class PageSize(models.TextChoices):
    A4 = "A4", "A4 (210 × 297 mm)"
    LETTER = "Letter", "US Letter (8.5 × 11 in)"


class ReportFile(models.Model):
    review = models.ForeignKey(
        "review.Review", on_delete=models.CASCADE, related_name="report_files"
    )
    review_version = models.PositiveIntegerField()
    page_size = models.CharField(max_length=6, choices=PageSize.choices, default=PageSize.A4)
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.QUEUED
    )
    storage_name = models.CharField(max_length=255, blank=True)
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["review", "review_version"], name="report_file_one_per_review_version"
            ),
            models.CheckConstraint(
                condition=~Q(status="done") | ~Q(storage_name=""),
                name="report_file_done_has_file",
            ),
        ]

    def __str__(self) -> str:
        return f"PDF for review {self.review_id} v{self.review_version} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return ReportStatus(self.status).is_pending

    @property
    def is_done(self) -> bool:
        return self.status == ReportStatus.DONE

    @property
    def download_name(self) -> str:
        """What the customer's browser saves it as: `rightsize-review-<uuid8>-v2.pdf`."""
        return f"rightsize-review-{str(self.review.uuid)[:8]}-v{self.review_version}.pdf"
