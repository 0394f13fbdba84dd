from django.urls import path

from apps.web.views import corrections as views_corrections
from apps.web.views import downloads as views_download
from apps.web.views import manual
from apps.web.views import quotes as views

app_name = "quotes"
urlpatterns = [
    path("upload/", views.quote_upload_view, name="upload"),
    path("uploads/<uuid:job_uuid>/", views.upload_status_view, name="upload_status"),
    path("upload/finance/", views.finance_preview_view, name="finance_preview"),
    path("lines/<int:pk>/confirm/", views.line_confirm, name="line_confirm"),
    path("corrections/", views_corrections.vendor_corrections_view, name="vendor_corrections"),
    path(
        "corrections/<int:pk>/remove/",
        views_corrections.vendor_correction_remove_view,
        name="vendor_correction_remove",
    ),
    path("<uuid:quote_uuid>/original/", views_download.quote_original, name="original"),
    # Lines typed or pasted by hand, when no file can be read.
    path("lines/new/", manual.manual_lines_new, name="lines_new"),
    path("<uuid:quote_uuid>/lines/", manual.manual_lines_for, name="lines_for"),
    path("lines/check/", manual.manual_lines_check, name="lines_check"),
    path("lines/", manual.manual_lines_submit, name="lines_submit"),
]
