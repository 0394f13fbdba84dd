from django.urls import path

from . import views, views_download

app_name = "quotes"
urlpatterns = [
    path("upload/", views.quote_upload_view, name="upload"),
    path("lines/<int:pk>/confirm/", views.line_confirm, name="line_confirm"),
    path("<uuid:quote_uuid>/original/", views_download.quote_original, name="original"),
]
