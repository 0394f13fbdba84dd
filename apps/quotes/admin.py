"""What users taught the reader, with its history (who, when, old → new)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from apps.quotes.models import VendorLineCorrection, VendorPartMapping


@admin.register(VendorPartMapping)
class VendorPartMappingAdmin(SimpleHistoryAdmin):
    list_display = ["vendor", "text", "part", "confirmed_by", "confirmed_at"]
    search_fields = ["vendor", "text"]


@admin.register(VendorLineCorrection)
class VendorLineCorrectionAdmin(SimpleHistoryAdmin):
    list_display = ["vendor", "text", "role", "system", "gpu", "created_by", "removed_at"]
    search_fields = ["vendor", "text"]
