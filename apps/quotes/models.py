"""Quotes as a staged import: the original file kept by content hash, every row with its raw
cells, parsed values, errors and catalog match. A revised quote is a new version, never an
overwrite."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords


class QuoteStatus(models.TextChoices):
    PARSED = "parsed", "Parsed"
    REJECTED = "rejected", "Rejected (unreadable)"
    NEEDS_MANUAL = "needs_manual", "Needs manual entry"
    ERROR = "error", "Error during validation"


class MatchKind(models.TextChoices):
    EXACT = "exact", "Exact part number"
    ALIAS = "alias", "Known alias"
    FUZZY = "fuzzy", "Fuzzy match"
    AMBIGUOUS = "ambiguous", "Ambiguous"
    NONE = "none", "No match"


class QuoteFile(models.Model):
    """An uploaded original, stored once under uploads/<sha256>, never changed."""

    sha256 = models.CharField(max_length=64, unique=True)
    blob = models.CharField(max_length=200, help_text="Storage name: uploads/<sha256>")
    size = models.PositiveBigIntegerField()
    detected_type = models.CharField(max_length=20)
    content_type = models.CharField(max_length=100)
    uploaded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.blob


class Quote(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    organisation = models.ForeignKey(
        "sites.Organisation", on_delete=models.PROTECT, related_name="quotes"
    )
    source_file = models.ForeignKey(QuoteFile, on_delete=models.PROTECT, related_name="quotes")
    display_name = models.CharField(max_length=255)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="uploaded_quotes"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    vendor = models.CharField(max_length=200, blank=True)
    quote_number = models.CharField(max_length=120, blank=True)
    quote_date = models.CharField(max_length=40, blank=True)
    currency = models.CharField(max_length=3, default="USD")
    total = models.DecimalField(max_digits=16, decimal_places=2, null=True, blank=True)
    status = models.CharField(max_length=20, choices=QuoteStatus.choices)
    parse_error = models.TextField(blank=True)
    #: How the file was read, without its lines (`ParsedQuote` minus `lines`): header row,
    #: column map, stated totals, warnings. With the lines' `parsed` it rebuilds the reading
    #: exactly, so no review ever parses the original again.
    reading = models.JSONField(default=dict, blank=True)
    #: Who typed or pasted the lines, when no file could be read (a scanned PDF) or none was
    #: sent; the original, when there was one, stays the `source_file`.
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entered_quotes",
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    previous = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="revision"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="quote_version_positive"),
            models.CheckConstraint(
                condition=Q(total__isnull=True) | Q(total__gte=0), name="quote_total_non_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.vendor or 'Quote'} {self.quote_number or self.display_name} v{self.version}"


class QuoteLine(models.Model):
    quote = models.ForeignKey(Quote, on_delete=models.CASCADE, related_name="lines")
    line = models.PositiveIntegerField(help_text="1-based line number in the quote")
    source_row = models.PositiveIntegerField(help_text="Row number in the original file")
    part_number = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    quantity = models.PositiveIntegerField(null=True, blank=True)
    unit_price = models.DecimalField(max_digits=16, decimal_places=2, null=True, blank=True)
    extended_price = models.DecimalField(max_digits=16, decimal_places=2, null=True, blank=True)
    raw_cells = models.JSONField(default=list)
    #: The line exactly as the parser read it (`ParsedLine`), the source of every re-review.
    parsed = models.JSONField(default=dict, blank=True)
    errors = models.JSONField(default=list)
    is_valid = models.BooleanField(default=True)
    match = models.CharField(max_length=12, choices=MatchKind.choices, default=MatchKind.NONE)
    match_score = models.FloatField(null=True, blank=True)
    part = models.ForeignKey(
        "catalog.Part", on_delete=models.PROTECT, null=True, blank=True, related_name="quote_lines"
    )

    class Meta:
        ordering = ["quote", "line"]
        constraints = [
            models.UniqueConstraint(fields=["quote", "line"], name="quote_line_unique"),
            models.CheckConstraint(
                condition=Q(unit_price__isnull=True) | Q(unit_price__gte=0),
                name="quote_line_unit_price_non_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quote_id}:{self.line} {self.part_number}"


class VendorPartMapping(models.Model):
    """A match a user confirmed: this vendor's text means this catalog part, from now on."""

    vendor = models.CharField(max_length=200)
    text = models.CharField(max_length=300, help_text="Normalised part number or description")
    part = models.ForeignKey("catalog.Part", on_delete=models.PROTECT, related_name="mappings")
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["vendor", "text"], name="vendor_mapping_unique")
        ]

    def __str__(self) -> str:
        return f"{self.vendor}: {self.text} -> {self.part}"


class LineRoleChoice(models.TextChoices):
    """What a quote line is (apps.quotes.schemas.LineRole), with the words the pages use."""

    SYSTEM = "system", "System"
    GPU_BOARD = "gpu_board", "GPU board (HGX / baseboard)"
    GPU_CARD = "gpu_card", "GPU card"
    NVLINK_BRIDGE = "nvlink_bridge", "NVLink bridge"
    CHASSIS = "chassis", "Chassis / CTO base"
    COMPONENT = "component", "Component"
    SERVICE = "service", "Service"
    ACCESSORY = "accessory", "Accessory / kit"
    DISCOUNT = "discount", "Discount"
    SUBTOTAL = "subtotal", "Subtotal"
    TOTAL = "total", "Total"
    TAX = "tax", "Tax"
    FREIGHT = "freight", "Freight"
    NOTE = "note", "Note"
    UNKNOWN = "unknown", "Not read"


class CorrectionAction(models.TextChoices):
    CORRECT = "correct", "Corrected"
    UNDO = "undo", "Undone"


class VendorLineCorrection(models.Model):
    """A line correction a user asked to remember for this vendor: every later quote (and
    re-run) from the vendor reads a line with the same part number or text this way, until
    someone removes it. Removal is kept (who, when), not deleted."""

    vendor = models.CharField(max_length=200)
    text = models.CharField(max_length=300, help_text="Normalised part number or description")
    role = models.CharField(max_length=20, choices=LineRoleChoice.choices, blank=True)
    system = models.CharField(max_length=100, blank=True)
    gpu = models.CharField(max_length=100, blank=True)
    gpus_per_system = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["vendor", "text", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["vendor", "text"],
                condition=Q(removed_at__isnull=True),
                name="vendor_line_correction_active_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.vendor}: {self.text} -> {self.role or self.system or self.gpu}"


def _reading_words(fields: dict) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in fields.items()) or "as read"


class QuoteLineCorrection(models.Model):
    """Append-only history of one line's corrections: a "correct" row lays a reading over
    the line, an "undo" row takes the newest one still standing off again (so undo restores
    the reading before it). Each row keeps what the line read before and after (``before``,
    ``after``: {role, system, gpu, gpus_per_system}), who and when: the audit trail."""

    quote_line = models.ForeignKey(QuoteLine, on_delete=models.CASCADE, related_name="corrections")
    action = models.CharField(max_length=10, choices=CorrectionAction.choices)
    role = models.CharField(max_length=20, choices=LineRoleChoice.choices, blank=True)
    system = models.CharField(max_length=100, blank=True)
    gpu = models.CharField(max_length=100, blank=True)
    gpus_per_system = models.PositiveIntegerField(null=True, blank=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    remembered = models.ForeignKey(
        VendorLineCorrection,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="line_corrections",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["quote_line", "created_at", "id"]

    def __str__(self) -> str:
        return f"line {self.quote_line_id} {self.action}: {self.before_words} -> {self.after_words}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise PermissionError("Line corrections are append-only")
        super().save(*args, **kwargs)

    @property
    def before_words(self) -> str:
        """ "role service, gpus per system 4", or "as read"."""
        return _reading_words(self.before)

    @property
    def after_words(self) -> str:
        return _reading_words(self.after)
