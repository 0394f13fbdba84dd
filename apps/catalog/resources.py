"""The catalog as CSV / XLSX rows (django-import-export): what the admin's export writes and its
import reads, row by row, with a dry-run diff before anything is saved.

Rows are matched by their natural key (a GPU's or system's `key`, a part's vendor and part
number), so a spreadsheet edited and imported back changes the figures in place; foreign keys
are written as the other row's key or name ("NVIDIA", "b200-sxm"), never a database id.
"""

from __future__ import annotations

from import_export import fields, resources, widgets

from apps.catalog.models import Gpu, ModelPreset, Part, RentalRate, System, Vendor


def _vendor() -> fields.Field:
    return fields.Field(
        attribute="vendor", column_name="vendor", widget=widgets.ForeignKeyWidget(Vendor, "name")
    )


def _gpu(nullable: bool) -> fields.Field:
    return fields.Field(
        attribute="gpu",
        column_name="gpu",
        widget=widgets.ForeignKeyWidget(Gpu, "key"),
        saves_null_values=nullable,
    )


class VendorResource(resources.ModelResource):
    class Meta:
        model = Vendor
        import_id_fields = ["name"]
        fields = ["name"]
        skip_unchanged = True
        report_skipped = False


class GpuResource(resources.ModelResource):
    vendor = _vendor()

    class Meta:
        model = Gpu
        import_id_fields = ["key"]
        exclude = ["id"]
        skip_unchanged = True
        report_skipped = False


class SystemResource(resources.ModelResource):
    vendor = _vendor()
    gpu = _gpu(nullable=True)

    class Meta:
        model = System
        import_id_fields = ["key"]
        exclude = ["id"]
        skip_unchanged = True
        report_skipped = False


class PartResource(resources.ModelResource):
    vendor = _vendor()
    system = fields.Field(
        attribute="system", column_name="system", widget=widgets.ForeignKeyWidget(System, "key")
    )
    gpu = _gpu(nullable=True)

    class Meta:
        model = Part
        import_id_fields = ["vendor", "part_number"]
        exclude = ["id"]
        skip_unchanged = True
        report_skipped = False


class ModelPresetResource(resources.ModelResource):
    class Meta:
        model = ModelPreset
        import_id_fields = ["name"]
        exclude = ["id"]
        skip_unchanged = True
        report_skipped = False


class RentalRateResource(resources.ModelResource):
    gpu = _gpu(nullable=False)

    class Meta:
        model = RentalRate
        import_id_fields = ["gpu", "provider", "offering", "term"]
        exclude = ["id"]
        skip_unchanged = True
        report_skipped = False
