"""Organisations, who works for them in which role, and their saved workloads and facilities."""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import FileExtensionValidator
from django.db import models
from django.db.models.fields.files import FieldFile
from simple_history.models import HistoricalRecords

#: A logo is a picture and nothing else: PNG or JPEG, checked by its first bytes, at most 1 MiB.
LOGO_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")
LOGO_MAX_BYTES = 1024 * 1024


def logo_validate(value: FieldFile) -> None:
    """A PNG or JPEG under 1 MiB; an SVG (which could fetch) or a renamed file is refused."""
    if value.size is not None and value.size > LOGO_MAX_BYTES:
        raise ValidationError("The logo is larger than 1 MiB.")
    value.open("rb")
    head = value.read(8)
    value.seek(0)
    if not head.startswith(LOGO_SIGNATURES):
        raise ValidationError("The logo must be a PNG or JPEG picture.")


class Role(models.TextChoices):
    """What a person does in Rightsize. Colour and label live here, not in templates."""

    ACCOUNT_TEAM = "account_team", "Account team"
    FINANCE = "finance", "Finance reviewer"
    CUSTOMER = "customer", "Customer"
    ADMIN = "admin", "Admin"


class Organisation(models.Model):
    """A reseller (internal) or a customer organisation whose quotes are reviewed."""

    name = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    is_internal = models.BooleanField(
        default=False, help_text="The reseller's own organisation (account team, finance)."
    )
    reseller_name = models.CharField(
        max_length=200,
        blank=True,
        help_text="The reseller named on this organisation's PDF reports; blank: the reseller's "
        "own organisation.",
    )
    reseller_logo = models.FileField(
        upload_to="logos/",
        blank=True,
        validators=[FileExtensionValidator(["png", "jpg", "jpeg"]), logo_validate],
        help_text="The reseller's logo on this organisation's PDF reports (PNG or JPEG, ≤ 1 MiB).",
    )
    currency = models.CharField(
        max_length=3,
        default="USD",
        help_text="ISO 4217 code the organisation budgets in; its Finance threshold is in it.",
    )
    finance_threshold = models.DecimalField(
        max_digits=16,
        decimal_places=2,
        default=Decimal("100000.00"),
        help_text="A quote whose total reaches this (in the organisation's currency, converted "
        "at the dated exchange rate) goes to Finance.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """One person's role. Customers belong to exactly one organisation."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    organisation = models.ForeignKey(
        Organisation, on_delete=models.PROTECT, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.organisation})"


class SavedWorkload(models.Model):
    """A customer's workload, stored as the CONTRACT.md workload JSON (validated on save)."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="workloads"
    )
    name = models.CharField(max_length=200)
    spec = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "name"], name="workload_name_per_org")
        ]

    def __str__(self) -> str:
        return self.name


class SavedFacility(models.Model):
    """A customer's room or desk, stored as the CONTRACT.md facility JSON."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="facilities"
    )
    name = models.CharField(max_length=200)
    spec = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "name"], name="facility_name_per_org")
        ]

    def __str__(self) -> str:
        return self.name


class ApiToken(models.Model):
    """A person's key to the JSON API, kept only as its SHA-256: the token itself is shown
    once, when it is made. It acts with its owner's organisation and role as they were when it
    was made; a changed membership, a deactivated user or a revocation ends it (401)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="api_tokens"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. 'CRM sync'.")
    prefix = models.CharField(max_length=12, help_text="The token's first characters, shown.")
    token_sha256 = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…, {self.user})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
