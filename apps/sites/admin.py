from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from apps.sites.models import Membership, Organisation, SavedFacility, SavedWorkload


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_internal"]
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
