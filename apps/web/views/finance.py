"""The Finance queue and the decision endpoints (approve, reject, request changes, resubmit).

Thin views: authorise first (deny by default, another organisation's review is 404), then call
`review_decide`. A decision posted from a queue row answers with that row (htmx swaps it); a
second reviewer who was a moment late gets 409 "quote changed" and the page's flash says so.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from apps.review.models import Review
from apps.review.queue import (
    AGE_CHOICES,
    QUEUE_READS,
    STATUS_CHOICES,
    VERDICT_CHOICES,
    QueueFilters,
    queue_reviews,
    spend_choices,
)
from apps.review.workflow import Action, ReasonRequired, ReviewChanged, actions_for, review_decide
from apps.sites.access import require_roles, role_of, scope_for_user
from apps.sites.http import HtmxHttpRequest
from apps.sites.models import Role
from apps.web.fragments import queue_row_key

DECIDERS = (Role.FINANCE, Role.ADMIN)
PAGE_SIZE = 50


def _with_actions(review: Review, role: Role | None) -> Review:
    review.allowed_actions = actions_for(status=review.status, role=role)  # type: ignore[attr-defined]
    return review


def _queue_context(request: HtmxHttpRequest) -> dict[str, object]:
    filters = QueueFilters.from_query(request.GET.dict())
    page = Paginator(queue_reviews(filters=filters), PAGE_SIZE).get_page(request.GET.get("page"))
    role = role_of(request.user)
    for review in page.object_list:
        _with_actions(review, role)
        review.row_key = queue_row_key(review, role=role)  # type: ignore[attr-defined]
    return {
        "page": page,
        "filters": filters,
        "status_choices": STATUS_CHOICES,
        "verdict_choices": VERDICT_CHOICES,
        "spend_choices": spend_choices(),
        "age_choices": AGE_CHOICES,
    }


@require_GET
@require_roles(*DECIDERS)
def finance_queue(request: HtmxHttpRequest) -> HttpResponse:
    """Flagged quotes waiting for Finance, oldest first; the filters swap the table via htmx."""
    template = "review/queue.html#queue-table" if request.htmx else "review/queue.html"
    response = render(request, template, _queue_context(request))
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_POST
@require_roles(*DECIDERS)
def review_approve(request: HtmxHttpRequest, review_uuid: str) -> HttpResponse:
    return _decide(request, review_uuid, Action.APPROVE)


@require_POST
@require_roles(*DECIDERS)
def review_reject(request: HtmxHttpRequest, review_uuid: str) -> HttpResponse:
    return _decide(request, review_uuid, Action.REJECT)


@require_POST
@require_roles(*DECIDERS)
def review_request_changes(request: HtmxHttpRequest, review_uuid: str) -> HttpResponse:
    return _decide(request, review_uuid, Action.REQUEST_CHANGES)


@require_POST
@require_roles(Role.ACCOUNT_TEAM, Role.ADMIN)
def review_resubmit(request: HtmxHttpRequest, review_uuid: str) -> HttpResponse:
    """The account team sends a review back to Finance after the requested changes."""
    return _decide(request, review_uuid, Action.RESUBMIT)


def _decide(request: HtmxHttpRequest, review_uuid: str, action: Action) -> HttpResponse:
    # Its id and uuid are all this view reads (review_decide locks and reads the row itself).
    review = get_object_or_404(
        scope_for_user(Review.objects.only("id", "uuid"), request.user), uuid=review_uuid
    )
    try:
        expected_version = int(request.POST.get("version", ""))
    except ValueError:
        return HttpResponseBadRequest("The form is missing the review version: reload the page.")
    row_id = f"row-{review.uuid}"
    try:
        decided = review_decide(
            review_id=review.pk,
            expected_version=expected_version,
            action=action,
            reason=request.POST.get("reason", ""),
            actor=request.user,
        )
    except ReviewChanged as changed:
        if request.htmx:
            return HttpResponse(str(changed), status=409, content_type="text/plain")
        context = {**_queue_context(request), "error": str(changed)}
        return render(request, "review/queue.html", context, status=409)
    except ReasonRequired as missing:
        if request.htmx and request.htmx.target == row_id:
            review = _with_actions(_row(review.pk), role_of(request.user))
            context = {"review": review, "row_error": str(missing)}
            return render(request, "review/queue.html#queue-row", context)
        if request.htmx:
            return HttpResponse(str(missing), status=400, content_type="text/plain")
        context = {**_queue_context(request), "error": str(missing)}
        return render(request, "review/queue.html", context, status=400)

    if request.htmx and request.htmx.target == row_id:
        decided = _with_actions(_row(decided.pk), role_of(request.user))
        return render(request, "review/queue.html#queue-row", {"review": decided})
    if request.htmx:
        return HttpResponseClientRefresh()
    messages.success(request, f"{action.label}: {decided.quote}.")
    next_url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
        return redirect(next_url)
    if role_of(request.user) in DECIDERS:
        return redirect("review:queue")
    return redirect("home")


def _row(review_id: int) -> Review:
    """The queue row again after a decision, read as the queue reads it."""
    return (
        Review.objects.select_related("quote", "organisation").only(*QUEUE_READS).get(pk=review_id)
    )
