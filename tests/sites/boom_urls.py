"""The project's URLs plus one view that fails, for the production 500-log test."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler500
from config.urls import urlpatterns as project_urls


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("boom for the log")


urlpatterns = [path("boom/", boom), *project_urls]
__all__ = ["handler500", "urlpatterns"]
