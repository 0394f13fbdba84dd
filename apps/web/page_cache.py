"""The review page, whole or its `results` region, kept once rendered for an internal reader.

Finance opens the same review again and again, and the htmx partial follows every decision;
building the page's context and rendering it was most of the request's time. A GET with no
query string, from an internal role, with no flash message waiting, is looked up first by a
key read in one query (`page_key_queryset`): the review's version, save time, status and
publication, its organisation's name and money rule, the newest review of the next quote
version and the one of the version before (and that one's version), the newest audit event
and line correction, the catalog revision, and who reads it (the person, their role and
username, the language). Any write the page shows moves one of these, so a change gives a new
key by itself and nothing needs invalidating; FRAGMENT_TIMEOUT_S bounds what no key covers
(a username renamed in the history table).

What differs per response is never kept: the CSRF token (Django masks it anew for every
response) and the CSP nonce are cut out of the HTML before it is stored and the request's own
are put back in on the way out, through the same slots as the kept fragments
(apps.web.templatetags.fragments). Customers read the published copy and are not cached here.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid as uuid_module
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.db import connections
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from apps.catalog.models import CatalogRevision
from apps.catalog.revision import REVISION_PK
from apps.quotes.models import QuoteLineCorrection
from apps.review.models import AuditEvent, Review
from apps.review.publishing import reviews_for
from apps.sites.access import INTERNAL_ROLES, organisation_id_of, role_of
from apps.sites.http import HtmxHttpRequest
from apps.web.templatetags.fragments import CSRF_SLOT, FRAGMENT_TIMEOUT_S, NONCE_SLOT

#: Bump to drop every kept page when detail.html or base.html changes.
VERSION = "1"

#: What the page key reads of the review, its quote and organisation (see the module text).
_KEY_COLUMNS = (
    "version",
    "updated_at",
    "status",
    "published_version",
    "published_at",
    "published_status",
    "quote_id",
    "quote__version",
    "quote__previous_id",
    "quote__entered_by_id",
    "quote__entered_at",
    "organisation_id",
    "organisation__name",
    "organisation__currency",
    "organisation__finance_threshold",
    "key_event",
    "key_correction",
    "key_newer",
    "key_previous",
    "key_previous_version",
    "key_catalog",
)

#: The key query's SQL, compiled once per database and reader's scope (role, organisation:
#: all that scope_for_user and reviews_for read of the person); only the uuid changes.
_KEY_SQL: dict[tuple[Any, ...], tuple[str, list[Any], int]] = {}
_PROBE = uuid_module.UUID(int=0)

_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{32,64})"')
_CSRF_HEADER = re.compile(r'"X-CSRFToken": "([A-Za-z0-9]{32,64})"')
_NONCE = re.compile(r'nonce="([^"<>&\s]{16,})"')


def page_key_queryset(user: Any) -> QuerySet[Review]:
    """The reviews this person may open, annotated with what the page key is made of."""
    events = AuditEvent.objects.filter(review_id=OuterRef("pk")).order_by("-id").values("id")
    corrections = (
        QuoteLineCorrection.objects.filter(quote_line__quote_id=OuterRef("quote_id"))
        .order_by("-id")
        .values("id")
    )
    newer = (
        Review.objects.filter(quote__previous_id=OuterRef("quote_id"))
        .order_by("-created_at")
        .values("id")
    )
    previous = Review.objects.filter(quote_id=OuterRef("quote__previous_id")).order_by(
        "-created_at"
    )
    catalog = CatalogRevision.objects.filter(pk=REVISION_PK).values("number")
    return reviews_for(Review.objects.all(), user).annotate(
        key_event=Subquery(events[:1]),
        key_correction=Subquery(corrections[:1]),
        key_newer=Subquery(newer[:1]),
        key_previous=Subquery(previous.values("id")[:1]),
        key_previous_version=Subquery(previous.values("version")[:1]),
        key_catalog=Subquery(catalog[:1]),
    )


def page_key_row(user: Any, uuid: uuid_module.UUID) -> tuple[Any, ...]:
    """The key's columns (_KEY_COLUMNS) of the review this person may open; Http404 when
    they may not (or it does not exist). The SQL is compiled the first time for a scope, with
    a stand-in uuid, and the request's uuid is put in its place after."""
    connection = connections[Review.objects.db]
    field = Review._meta.get_field("uuid")
    scope = (connection.alias, connection.vendor, role_of(user), organisation_id_of(user))
    compiled = _KEY_SQL.get(scope)
    if compiled is None:
        queryset = page_key_queryset(user).filter(uuid=_PROBE).values_list(*_KEY_COLUMNS)
        probe_sql, probe_params = queryset.query.sql_with_params()
        probe = field.get_db_prep_value(_PROBE, connection)
        where = [i for i, param in enumerate(probe_params) if param == probe]
        if len(where) != 1:
            raise ValueError("the page key query must read the uuid once")
        compiled = _KEY_SQL.setdefault(scope, (probe_sql, list(probe_params), where[0]))
    sql, params, at = compiled
    bound = [*params[:at], field.get_db_prep_value(uuid, connection), *params[at + 1 :]]
    with connection.cursor() as cursor:
        cursor.execute(sql, bound)
        row = cursor.fetchone()
    if row is None:
        raise Http404("No review matches the given query.")
    return tuple(row)


def page_key(
    request: HttpRequest, uuid: uuid_module.UUID, row: tuple[Any, ...], *, partial: bool
) -> str:
    """The key of this reader's page of this review, from everything the page shows."""
    user = request.user
    parts = (
        VERSION,
        "results" if partial else "page",
        str(uuid),
        list(row),
        (user.pk, user.get_username(), user.is_superuser, str(role_of(user)), get_language()),
    )
    text = json.dumps(parts, default=str, separators=(",", ":"))
    return "review-page:" + hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def page_cached(
    request: HtmxHttpRequest, uuid: uuid_module.UUID | str
) -> tuple[str | None, HttpResponse | None]:
    """This reader's page of the review (its key, and the kept page when there is one); (None,
    None) when it is not for caching (no query then: a customer, a query string, a message)."""
    if role_of(request.user) not in INTERNAL_ROLES or request.GET or len(get_messages(request)):
        return None, None
    review_uuid = uuid if isinstance(uuid, uuid_module.UUID) else uuid_module.UUID(uuid)
    row = page_key_row(request.user, review_uuid)
    key = page_key(request, review_uuid, row, partial=bool(request.htmx))
    return key, page_kept(request, key)


def page_kept(request: HttpRequest, key: str) -> HttpResponse | None:
    """The kept page with this request's CSRF token and nonce in it, or None."""
    html = caches["default"].get(key)
    if html is None:
        return None
    if CSRF_SLOT in html:
        html = html.replace(CSRF_SLOT, get_token(request))
    if NONCE_SLOT in html:
        request_nonce = get_nonce(request)
        if request_nonce is None:  # no CSP on this request: render it afresh
            return None
        html = html.replace(NONCE_SLOT, str(request_nonce))
    return HttpResponse(html)


def page_keep(key: str, response: HttpResponse) -> None:
    """Keep a freshly rendered page, its CSRF token and nonce cut out (a 200 only)."""
    if response.status_code != 200 or response.streaming:
        return
    html = response.content.decode(response.charset)
    token = _CSRF_INPUT.search(html) or _CSRF_HEADER.search(html)
    if token:
        html = html.replace(token.group(1), CSRF_SLOT)
    if _CSRF_INPUT.search(html) or _CSRF_HEADER.search(html):
        return  # a token not cut out (two in one page?): never keep one
    nonce = _NONCE.search(html)
    if nonce:
        html = html.replace(nonce.group(1), NONCE_SLOT)
    caches["default"].set(key, html, FRAGMENT_TIMEOUT_S)
