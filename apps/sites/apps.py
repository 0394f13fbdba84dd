from django.apps import AppConfig


class SitesConfig(AppConfig):
    name = "apps.sites"
    label = "sites"
