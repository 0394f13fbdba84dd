from django.contrib import admin

from apps.sites.models import Membership, Organisation, SavedFacility, SavedWorkload


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_internal", "currency", "finance_threshold"]
    list_editable = ["currency", "finance_threshold"]
    search_fields = ["name"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "role"]
    list_filter = ["role", "organisation"]


admin.site.register(SavedWorkload)
admin.site.register(SavedFacility)
