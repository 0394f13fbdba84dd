"""/api/v1/catalog and /api/v1/organisations: what a client needs to fill in a review."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Router

from apps.api.auth import INTERNAL, token_or_session
from apps.api.errors import ErrorOut
from apps.api.v1.schemas import CatalogOut, OrganisationOut
from apps.catalog.services import catalog_snapshot
from apps.sites.access import organisation_id_of, role_of
from apps.sites.models import Organisation

router = Router(tags=["catalog"], auth=token_or_session())


@router.get(
    "/catalog",
    response={200: CatalogOut, 401: ErrorOut},
    url_name="v1_catalog",
    summary="List the catalog",
)
def catalog_list(request: HttpRequest) -> HttpResponse:
    """Every GPU, system and model preset the checks know, each figure with its source and
    whether it is verified."""
    snapshot = catalog_snapshot()
    body = {
        "version": snapshot.version,
        "gpus": [g.model_dump(mode="json") for g in snapshot.gpus],
        "systems": [s.model_dump(mode="json") for s in snapshot.systems],
        "models": [m.model_dump(mode="json") for m in snapshot.models],
    }
    return JsonResponse(body)


@router.get(
    "/organisations",
    response={200: list[OrganisationOut], 401: ErrorOut},
    url_name="v1_organisations",
    summary="List customer organisations",
)
def organisation_list(request: HttpRequest) -> HttpResponse:
    """The customer organisations a quote can be posted for (their `slug`); a customer sees
    only their own."""
    rows = Organisation.objects.filter(is_internal=False).order_by("name")
    if role_of(request.user) not in INTERNAL:
        own = organisation_id_of(request.user)
        rows = rows.filter(pk=own) if own is not None else rows.none()
    return JsonResponse([{"slug": o.slug, "name": o.name} for o in rows], safe=False)
