"""The JSON API: post a quote file with a workload and a facility, get the review back — the same
ReviewReport JSON as the command line (CONTRACT.md), with an OpenAPI schema.

Authentication is the Django session (log in through /login/ first) with its CSRF token, so
the API adds no second way in; scoping is the pages' scoping: a customer sees only their own
organisation's reviews (404 for anyone else's) and may not post. Every refusal is JSON
{"error": "..."} naming the file, row and column when they are known.
"""

from __future__ import annotations

import json
import logging
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import File, Form, NinjaAPI, Schema, UploadedFile
from ninja.errors import AuthorizationError, HttpError, ValidationError
from ninja.openapi.docs import Swagger
from ninja.security import SessionAuth, django_auth
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from apps.catalog.services import catalog_snapshot
from apps.quotes.parsing import QuoteParseError
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.model_resolve import unknown_model_words
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
from apps.review.models import Review
from apps.review.publishing import review_for_viewer, reviews_for
from apps.review.services import review_upload
from apps.sites.access import role_of
from apps.sites.hygiene import RETRY_AFTER_SECONDS, database_down
from apps.sites.models import Organisation, Role, SavedFacility, SavedWorkload

SOURCES = ("body", "form", "file", "query", "path", "header", "cookie")
#: Bounds on what a client may send besides the file.
MAX_SPEC_CHARS = 64 * 1024
MAX_SLUG_CHARS = 100
POSTERS = frozenset({Role.ACCOUNT_TEAM, Role.ADMIN})
logger = logging.getLogger("rightsize.api")


class ErrorOut(Schema):
    error: str


class PosterAuth(SessionAuth):
    """The session, and a role that may post quotes: refused (403) before the form is read."""

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = super().authenticate(request, key)
        if user is not None and role_of(user) not in POSTERS:
            raise AuthorizationError(message="Only the account team and admins can post quotes.")
        return user


class NoncedSwagger(Swagger):
    """Swagger UI from our own static files, its scripts carrying the page's CSP nonce."""

    template = "api/docs.html"


api = NinjaAPI(
    title="Rightsize API",
    version="1",
    description=(
        "Post a quote with the workload and the facility; get the review (CONTRACT.md). "
        "Session authentication: log in at /login/ and send the CSRF token on POST."
    ),
    auth=django_auth,
    urls_namespace="api",
    docs=NoncedSwagger(),
    docs_decorator=login_required,
)


def _error(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return api.create_response(request, {"error": message}, status=status)


@api.exception_handler(ValidationError)
def _bad_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """ninja's 422 list becomes one 400 line: "file: Field required"."""
    problem = exc.errors[0] if exc.errors else {}
    loc = list(problem.get("loc", ()))
    where = [str(p) for p in loc[1:]] if loc and loc[0] in SOURCES else [str(p) for p in loc]
    return _error(request, f"{'.'.join(where) or 'request'}: {problem.get('msg', 'invalid')}", 400)


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    """Anything unexpected is still JSON, never Django's HTML 500 page (logged with its
    traceback); a database that is down is a 503 with a retry message."""
    if database_down(exc):
        response = _error(
            request,
            f"the database is not answering; try again in {RETRY_AFTER_SECONDS} seconds",
            503,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    logger.exception("API error on %s", request.path)
    return _error(request, "internal error; it has been logged", 500)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, "Not found.", 404)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return _error(request, str(exc), exc.status_code)


def _reviews_for(request: HttpRequest) -> QuerySet[Review]:
    """A customer reads only published reviews (and their published copy)."""
    return reviews_for(Review.objects.all(), request.user)


def _report_response(review: Review, status: int) -> HttpResponse:
    # The stored report is already contract JSON (model_dump(mode="json")): money as strings.
    response = HttpResponse(
        json.dumps(review.report), status=status, content_type="application/json"
    )
    response["Location"] = reverse("api:review_get", kwargs={"review_uuid": review.uuid})
    return response


def _spec[T: BaseModel](
    model: type[T], text: str, label: str, presets: dict[str, dict[str, Any]], saved: Any
) -> T:
    """A JSON object, or the name of a preset or of one of the organisation's saved ones.

    Never a path: a name is looked up, not opened.
    """
    text = text.strip()
    if not text.startswith("{"):
        row = saved.filter(name__iexact=text).first()
        data = row.spec if row is not None else presets.get(text.casefold())
        if data is None:
            names = ", ".join(presets)
            raise ReviewInputError(
                f"{label}: {text!r} is not JSON, a saved {label} or a preset ({names})"
            )
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReviewInputError(
                f"{label}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
        except RecursionError:
            raise ReviewInputError(f"{label}: the JSON nests too deeply") from None
    try:
        return model.model_validate(data)
    except PydanticValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        if not problem["loc"]:  # a rule across fields: "a rack feed needs both feed_volts …"
            reason = problem["msg"].removeprefix("Value error, ")
            raise ReviewInputError(f"{label}: {reason}") from None
        field = ".".join(str(p) for p in problem["loc"])
        raise ReviewInputError(f"{label}: field {field!r}: {problem['msg']}") from None


def _organisation_for(slug: str | None) -> Organisation:
    if not slug:
        raise ReviewInputError("organisation: required (the customer organisation's slug)")
    if len(slug) > MAX_SLUG_CHARS:
        raise ReviewInputError(f"organisation: at most {MAX_SLUG_CHARS} characters")
    organisation = Organisation.objects.filter(slug=slug.strip()).first()
    if organisation is None:
        raise ReviewInputError(f"organisation: no organisation {slug.strip()!r}")
    if organisation.is_internal:
        # The upload form offers only customers; the API must not accept the reseller either.
        raise ReviewInputError(
            f"organisation: {organisation.slug!r} is the reseller itself; "
            "name the customer organisation the quote is for"
        )
    return organisation


def _bounded(text: str, label: str) -> str:
    """A workload or facility argument: at most 64 KB of text."""
    if len(text) > MAX_SPEC_CHARS:
        raise ReviewInputError(
            f"{label}: {len(text):,} characters; at most {MAX_SPEC_CHARS:,} (a JSON object "
            "or a preset name)"
        )
    return text


@api.post(
    "/reviews",
    response={201: ReviewReport, 400: ErrorOut, 403: ErrorOut, 413: ErrorOut},
    url_name="review_create",
    summary="Review a quote",
    auth=PosterAuth(),
)
def review_post(
    request: HttpRequest,
    workload: Form[str],
    facility: Form[str],
    file: File[UploadedFile | None] = None,
    lines: Form[str | None] = None,
    organisation: Form[str | None] = None,
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
    Internal users name the customer `organisation` by slug. Answers 201 with the report and
    `Location: /api/reviews/<uuid>`."""
    limit = settings.QUOTE_MAX_UPLOAD_BYTES
    if file is None and not (lines or "").strip():
        return _error(request, "file: Field required (or paste the table as 'lines')", 400)
    if file is not None and file.size is not None and file.size > limit:
        return _error(request, f"{file.name}: {file.size:,} bytes; the limit is {limit:,}", 413)
    if file is not None:
        data, name = file.read(), file.name or "quote"
    else:
        data = (lines or "").encode("utf-8")
        name = "pasted.tsv" if "\t" in (lines or "").split("\n", 1)[0] else "pasted.csv"
        if len(data) > limit:
            return _error(request, f"lines: {len(data):,} bytes; the limit is {limit:,}", 413)
    try:
        org = _organisation_for(organisation)
        spec_workload = _spec(
            Workload,
            _bounded(workload, "workload"),
            "workload",
            WORKLOAD_PRESETS,
            SavedWorkload.objects.filter(organisation=org),
        )
        spec_facility = _spec(
            Facility,
            _bounded(facility, "facility"),
            "facility",
            FACILITY_PRESETS,
            SavedFacility.objects.filter(organisation=org),
        )
        catalog = catalog_snapshot()
        if isinstance(spec_workload.model, str) and (
            catalog.model_preset(spec_workload.model) is None
        ):
            raise ReviewInputError(
                f"workload: field 'model': {unknown_model_words(spec_workload.model, catalog)}"
            )
        review = review_upload(
            data=data,
            filename=name,
            organisation=org,
            uploaded_by=cast(User, request.user),  # PosterAuth let a signed-in user through
            workload=spec_workload,
            facility=spec_facility,
        )
    except (QuoteParseError, ReviewInputError) as exc:
        return _error(request, str(exc), 400)
    return _report_response(review, 201)


@api.get(
    "/reviews/{uuid:review_uuid}",
    response={200: ReviewReport, 404: ErrorOut},
    url_name="review_get",
    summary="Read a review",
)
def review_get(request: HttpRequest, review_uuid: str) -> HttpResponse:
    """The report of one review; another organisation's review answers 404."""
    review = get_object_or_404(_reviews_for(request), uuid=review_uuid)
    return _report_response(review_for_viewer(review, request.user), 200)
