from django.contrib import admin

from apps.catalog.models import Gpu, ModelPreset, Part, PartAlias, RentalRate, System, Vendor


@admin.register(Vendor)
class VendorAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Gpu)
class GpuAdmin(admin.ModelAdmin):
    list_display = ["name", "model", "memory_gb", "bandwidth_tbs", "fp64_tflops", "tdp_w_max"]
    list_filter = ["form_factor", "interconnect", "cooling"]
    search_fields = ["name", "model", "key"]


class PartInline(admin.TabularInline):
    model = Part
    extra = 0
    fields = ["vendor", "part_number", "kind"]


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ["name", "form_factor", "gpu", "gpu_count", "nvlink_domain_gpus", "power_max_kw"]
    list_filter = ["form_factor", "cooling", "cpu_arch", "vendor"]
    search_fields = ["name", "key", "parts__part_number", "parts__aliases__text"]
    inlines = [PartInline]


class AliasInline(admin.TabularInline):
    model = PartAlias
    extra = 1


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = ["part_number", "vendor", "kind", "system", "gpu", "bridge_gpus"]
    list_filter = ["kind", "vendor", "system__form_factor"]
    search_fields = ["part_number", "aliases__text", "description"]
    inlines = [AliasInline]


@admin.register(ModelPreset)
class ModelPresetAdmin(admin.ModelAdmin):
    list_display = ["name", "total_params_b", "active_params_b", "layers", "kv_heads", "head_dim"]
    search_fields = ["name", "hf_repo"]


@admin.register(RentalRate)
class RentalRateAdmin(admin.ModelAdmin):
    list_display = ["gpu", "provider", "term", "usd_per_gpu_hour", "region", "as_of", "verified"]
    list_filter = ["term", "verified", "gpu"]
    search_fields = ["provider", "offering", "gpu__model", "notes"]
