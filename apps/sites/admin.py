from django.contrib import admin
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from apps.sites.models import ApiToken, Membership, Organisation, SavedFacility, SavedWorkload


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_internal", "currency", "finance_threshold"]
    list_editable = ["currency", "finance_threshold"]
    search_fields = ["name"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "role"]
    list_filter = ["role", "organisation"]


@admin.register(SavedWorkload)
class SavedWorkloadAdmin(SimpleHistoryAdmin):
    list_display = ["name", "organisation", "created_at"]
    list_filter = ["organisation"]


@admin.register(SavedFacility)
class SavedFacilityAdmin(SimpleHistoryAdmin):
    list_display = ["name", "organisation", "created_at"]
    list_filter = ["organisation"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made by their owners on /settings/tokens/; here they are seen and revoked."""

    list_display = ["name", "prefix", "user", "organisation", "role", "created_at", "revoked_at"]
    list_filter = ["role", "organisation"]
    readonly_fields = [
        "user",
        "organisation",
        "role",
        "prefix",
        "token_sha256",
        "created_at",
        "last_used_at",
    ]
    fields = [*readonly_fields[:5], "name", "created_at", "last_used_at", "revoked_at"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
