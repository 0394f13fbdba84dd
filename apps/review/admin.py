"""Admin: reviews and audit events are visible, never edited here.

A status changed in the admin would skip the transition table and the audit row, so both
models are view-only; AuditEvent also refuses save/delete in the model itself.
"""

from django.contrib import admin
from django.http import HttpRequest

from apps.review.models import AuditEvent, ExchangeRate, Notification, Review


class ViewOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(ViewOnlyAdmin):
    list_display = ["created_at", "review", "actor", "role", "action", "from_status", "to_status"]
    list_filter = ["action", "role"]
    list_select_related = ["review", "actor"]
    search_fields = ["review__uuid", "file_sha256", "actor__username"]


@admin.register(Review)
class ReviewAdmin(ViewOnlyAdmin):
    list_display = ["uuid", "organisation", "verdict", "status", "version", "total_usd"]
    list_filter = ["status", "verdict", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["uuid"]


@admin.register(ExchangeRate)
class ExchangeRateAdmin(admin.ModelAdmin):
    """Rates are edited here (or imported: `manage.py rates_import rates.csv`)."""

    list_display = ["currency", "usd_per_unit", "rates_of", "verified", "source"]
    list_filter = ["currency", "verified"]
    search_fields = ["currency", "source"]


@admin.register(Notification)
class NotificationAdmin(ViewOnlyAdmin):
    list_display = ["created_at", "user", "kind", "subject", "read_at"]
    list_filter = ["kind"]
    list_select_related = ["user"]
