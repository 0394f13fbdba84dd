"""The JSON API: post a quote file with a workload and a facility, get the review back — the same
ReviewReport JSON as the command line (CONTRACT.md), with an OpenAPI schema at /api/docs.

Version 1 lives under /api/v1/ (apps/api/v1): reviews, PDFs, Finance decisions, the catalog,
authenticated by a per-user API token (`Authorization: Bearer rsk_…`, made on
/settings/tokens/) or the browser session (with its CSRF token). The first two endpoints stay
where they were, `POST /api/reviews` and `GET /api/reviews/<uuid>`, as aliases that answer as
they always did. Scoping is the pages' scoping: a customer sees only their own organisation's
reviews (404 for anyone else's) and may not post. Errors: on /api/v1/
`{"error": {"code", "message", "problems": [{"file", "row", "column", "field", "message"}]}}`;
on the old paths `{"error": "..."}` with the same message (apps/api/errors.py).
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import File, Form, NinjaAPI, UploadedFile
from ninja.errors import HttpError, ValidationError
from ninja.openapi.docs import Swagger

from apps.api import v1
from apps.api.auth import POSTER_REFUSAL, POSTERS, token_or_session
from apps.api.errors import SOURCES, ApiProblem, LegacyErrorOut, error_body
from apps.api.intake import review_posted
from apps.review.engine.schemas import ReviewReport
from apps.review.models import Review
from apps.review.publishing import review_for_viewer, reviews_for
from apps.sites.hygiene import RETRY_AFTER_SECONDS, database_down

logger = logging.getLogger("rightsize.api")


class NoncedSwagger(Swagger):
    """Swagger UI from our own static files, its scripts carrying the page's CSP nonce."""

    template = "api/docs.html"


api = NinjaAPI(
    title="Rightsize API",
    version="1",
    description=(
        "Post a quote with the workload and the facility; get the review (CONTRACT.md); list "
        "reviews, fetch the PDF, list and make Finance decisions, read the catalog. "
        "Authenticate with `Authorization: Bearer <token>` (make one at /settings/tokens/) or "
        "the browser session (send the CSRF token on POST). The unversioned /api/reviews "
        "paths are kept for existing clients."
    ),
    auth=token_or_session(),
    urls_namespace="api",
    docs=NoncedSwagger(),
    docs_decorator=login_required,
)
api.add_router("/v1", v1.router)


def _code(status: int) -> str:
    return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")


def _respond(request: HttpRequest, problem: ApiProblem) -> HttpResponse:
    return api.create_response(request, error_body(request, problem), status=problem.status)


@api.exception_handler(ApiProblem)
def _problem(request: HttpRequest, exc: ApiProblem) -> HttpResponse:
    return _respond(request, exc)


@api.exception_handler(ValidationError)
def _bad_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """ninja's 422 list becomes a 400: "file: Field required", each field a problem."""
    problems = []
    for error in exc.errors:
        loc = [str(p) for p in error.get("loc", ())]
        where = loc[1:] if loc and loc[0] in SOURCES else loc
        if loc[:1] == ["body"] and len(where) > 1:
            where = where[1:]  # ("body", <the schema parameter>, "action"): the JSON field
        problems.append({"field": ".".join(where) or "request", "message": error.get("msg", "")})
    first = problems[0] if problems else {"field": "request", "message": "invalid"}
    message = f"{first['field']}: {first['message'] or 'invalid'}"
    return _respond(request, ApiProblem(400, "invalid_request", message, problems))


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    """Anything unexpected is still JSON, never Django's HTML 500 page (logged with its
    traceback); a database that is down is a 503 with a retry message."""
    if database_down(exc):
        message = f"the database is not answering; try again in {RETRY_AFTER_SECONDS} seconds"
        response = _respond(request, ApiProblem(503, "database_down", message))
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    logger.exception("API error on %s", request.path)
    return _respond(
        request, ApiProblem(500, "internal_error", "internal error; it has been logged")
    )


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _respond(request, ApiProblem(404, "not_found", "Not found."))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return _respond(request, ApiProblem(exc.status_code, _code(exc.status_code), str(exc)))


def _report_response(review: Review, status: int) -> HttpResponse:
    # The stored report is already contract JSON (model_dump(mode="json")): money as strings.
    response = HttpResponse(
        json.dumps(review.report), status=status, content_type="application/json"
    )
    response["Location"] = reverse("api:review_get", kwargs={"review_uuid": review.uuid})
    return response


@api.post(
    "/reviews",
    response={
        201: ReviewReport,
        400: LegacyErrorOut,
        403: LegacyErrorOut,
        413: LegacyErrorOut,
    },
    url_name="review_create",
    summary="Review a quote (unversioned alias)",
    auth=token_or_session(POSTERS, POSTER_REFUSAL),
    deprecated=True,
)
def review_post(
    request: HttpRequest,
    workload: Form[str],
    facility: Form[str],
    file: File[UploadedFile | None] = None,
    lines: Form[str | None] = None,
    organisation: Form[str | None] = None,
    sheet: Form[str | None] = None,
) -> HttpResponse:
    """Upload a quote (CSV, TSV, XLSX or PDF) — or paste its table as `lines`
    (text/tab-separated-values or comma-separated, header row first) — with the workload and
    the facility, each as a CONTRACT.md JSON object or a preset name ("internal-assistant",
    "server-room").
    The facility may describe its rack feeds (`feed_volts`, `feed_phase`, `feed_amps`,
    `feeds_per_side`, `feed_redundant`), cooling plant (`air_kw_per_rack`, `rdhx_kw_per_rack`,
    `cdu_kw`, `facility_water_c`), floor (`floor_load_kg_per_m2`, `rack_footprint_m2`) and bill
    (`electricity_usd_per_kwh`, `grid_kg_co2_per_kwh`, `pue`); the workload its time
    (`duration_weeks` | `duration_months` | `duration_ongoing`, `busy_hours_per_day`,
    `rent_usd_per_gpu_hour`). README.md documents the shapes.
    Internal users name the customer `organisation` by slug. A workbook with two sheets that
    both look like quotes answers 400 with `sheets` (name, rows, header, first lines): post
    again with `sheet` naming one. Answers 201 with the report and
    `Location: /api/reviews/<uuid>`. Prefer `POST /api/v1/reviews`."""
    review = review_posted(
        user=cast(User, request.user),  # the auth let a signed-in poster through
        workload=workload,
        facility=facility,
        file=file,
        lines=lines,
        organisation=organisation,
        sheet=sheet,
    )
    return _report_response(review, 201)


@api.get(
    "/reviews/{uuid:review_uuid}",
    response={200: ReviewReport, 404: LegacyErrorOut},
    url_name="review_get",
    summary="Read a review (unversioned alias)",
    deprecated=True,
)
def review_get(request: HttpRequest, review_uuid: str) -> HttpResponse:
    """The report of one review; another organisation's review (or, for a customer, one not
    published yet) answers 404. Prefer `GET /api/v1/reviews/<uuid>` (the same report with the
    review's status and version)."""
    review = get_object_or_404(reviews_for(Review.objects.all(), request.user), uuid=review_uuid)
    return _report_response(review_for_viewer(review, request.user), 200)
