"""Catalog reads for the pages."""

from django.db.models import QuerySet

from apps.catalog.models import System


def systems_filtered(
    *, form_factor: str = "", gpu: str = "", cooling: str = "", query: str = ""
) -> QuerySet[System]:
    systems = System.objects.select_related("vendor", "gpu").order_by("form_factor", "name")
    if form_factor:
        systems = systems.filter(form_factor=form_factor)
    if gpu:
        systems = systems.filter(gpu__key=gpu)
    if cooling:
        systems = systems.filter(cooling=cooling)
    if query:
        systems = systems.filter(name__icontains=query)
    return systems
