"""The catalog in the admin: every row with its history (who changed which figure, when, old →
new; django-simple-history) and import / export as CSV or XLSX with a dry-run diff first
(django-import-export: the import shows each row as new, changed or unchanged, field by field,
and writes only after "Confirm import")."""

from django.contrib import admin
from import_export.admin import ImportExportMixin
from import_export.formats.base_formats import CSV, XLSX
from simple_history.admin import SimpleHistoryAdmin

from apps.catalog.models import (
    CatalogRevision,
    Gpu,
    ModelPreset,
    Part,
    PartAlias,
    RentalRate,
    System,
    Vendor,
)
from apps.catalog.resources import (
    GpuResource,
    ModelPresetResource,
    PartResource,
    RentalRateResource,
    SystemResource,
    VendorResource,
)


class CatalogAdmin(ImportExportMixin, SimpleHistoryAdmin):
    formats = [CSV, XLSX]


@admin.register(Vendor)
class VendorAdmin(CatalogAdmin):
    resource_classes = [VendorResource]
    search_fields = ["name"]


@admin.register(Gpu)
class GpuAdmin(CatalogAdmin):
    resource_classes = [GpuResource]
    list_display = ["name", "model", "memory_gb", "bandwidth_tbs", "fp64_tflops", "tdp_w_max"]
    list_filter = ["form_factor", "interconnect", "cooling"]
    search_fields = ["name", "model", "key"]


class PartInline(admin.TabularInline):
    model = Part
    extra = 0
    fields = ["vendor", "part_number", "kind"]


@admin.register(System)
class SystemAdmin(CatalogAdmin):
    resource_classes = [SystemResource]
    list_display = ["name", "form_factor", "gpu", "gpu_count", "nvlink_domain_gpus", "power_max_kw"]
    list_filter = ["form_factor", "cooling", "cpu_arch", "vendor"]
    search_fields = ["name", "key", "parts__part_number", "parts__aliases__text"]
    inlines = [PartInline]


class AliasInline(admin.TabularInline):
    model = PartAlias
    extra = 1


@admin.register(Part)
class PartAdmin(CatalogAdmin):
    resource_classes = [PartResource]
    list_display = ["part_number", "vendor", "kind", "system", "gpu", "bridge_gpus"]
    list_filter = ["kind", "vendor", "system__form_factor"]
    search_fields = ["part_number", "aliases__text", "description"]
    inlines = [AliasInline]


@admin.register(ModelPreset)
class ModelPresetAdmin(CatalogAdmin):
    resource_classes = [ModelPresetResource]
    list_display = ["name", "total_params_b", "active_params_b", "layers", "kv_heads", "head_dim"]
    search_fields = ["name", "hf_repo"]


@admin.register(RentalRate)
class RentalRateAdmin(CatalogAdmin):
    resource_classes = [RentalRateResource]
    list_display = ["gpu", "provider", "term", "usd_per_gpu_hour", "region", "as_of", "verified"]
    list_filter = ["term", "verified", "gpu"]
    search_fields = ["provider", "offering", "gpu__model", "notes"]


@admin.register(CatalogRevision)
class CatalogRevisionAdmin(admin.ModelAdmin):
    list_display = ["number", "changed_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
