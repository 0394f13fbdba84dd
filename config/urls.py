from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from apps.api.api import api
from apps.web.views import health
from apps.web.views import home as site_views
from apps.web.views import inbox as inbox_views

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("", site_views.home, name="home"),
    path("login/", site_views.RightsizeLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("catalog/", include("apps.web.urls.catalog")),
    path("quotes/", include("apps.web.urls.quotes")),
    path("inbox/", inbox_views.inbox, name="inbox"),
    path("reviews/", site_views.review_list, name="review_list"),
    path("reviews/", include("apps.web.urls.review")),
    path("reports/", include("apps.web.urls.reports")),
    path("settings/", include("apps.web.urls.settings")),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]

handler500 = "apps.sites.hygiene.server_error"
