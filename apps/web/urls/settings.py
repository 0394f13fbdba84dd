from django.urls import path

from apps.web.views import tokens as views

app_name = "settings"
urlpatterns = [
    path("tokens/", views.token_list, name="tokens"),
    path("tokens/new/", views.token_create, name="token_create"),
    path("tokens/<int:pk>/revoke/", views.token_revoke, name="token_revoke"),
]
