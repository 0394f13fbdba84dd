from django.urls import path

from apps.web.views import downloads as views_download
from apps.web.views import quotes as views

app_name = "quotes"
urlpatterns = [
    path("upload/", views.quote_upload_view, name="upload"),
    path("lines/<int:pk>/confirm/", views.line_confirm, name="line_confirm"),
    path("<uuid:quote_uuid>/original/", views_download.quote_original, name="original"),
]
