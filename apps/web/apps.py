from django.apps import AppConfig


class WebConfig(AppConfig):
    """Every page: views, forms and URLs, thin over the services below."""

    name = "apps.web"
    label = "web"
