from django.urls import path

from apps.web.views import catalog as views

app_name = "catalog"
urlpatterns = [
    path("", views.catalog_index, name="index"),
    path("systems/<slug:key>/", views.system_detail, name="system"),
]
