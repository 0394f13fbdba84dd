from django.urls import path

from apps.web.views import reports as views

app_name = "reports"
urlpatterns = [
    path("<uuid:review_uuid>/", views.report_status, name="status"),
    path("<uuid:review_uuid>/request/", views.report_request_view, name="request"),
    path("<uuid:review_uuid>/pdf/", views.report_download, name="download"),
]
