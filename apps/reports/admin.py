"""Admin: the PDF rows are visible for support ("why did Acme's PDF fail?"), never edited here;
a new PDF is asked for from the review's PDF page."""

from django.contrib import admin
from django.http import HttpRequest

from apps.reports.models import ReportFile


@admin.register(ReportFile)
class ReportFileAdmin(admin.ModelAdmin):
    list_display = ["review", "review_version", "page_size", "status", "size_bytes", "updated_at"]
    list_filter = ["status", "page_size"]
    list_select_related = ["review"]
    search_fields = ["review__uuid", "storage_name", "error"]
    readonly_fields = [f.name for f in ReportFile._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
