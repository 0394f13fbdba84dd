"""/api/v1/decisions: Finance's decisions (the audit log) and making one.

Decisions go through `review_decide`, so the API keeps the pages' rules: the right role for
the action, a comment on every decision, and `expected_version` — the review's `version` as
you read it — so of two deciders the second gets 409 "quote changed" instead of overwriting.
Customers see neither the decisions nor their comments (RELIABILITY 21).
"""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from ninja import Router

from apps.api.auth import INTERNAL, token_or_session
from apps.api.errors import ApiProblem, ErrorOut
from apps.api.v1.paging import DEFAULT_PAGE_SIZE, page_body, page_of
from apps.api.v1.reviews import review_meta, reviews_for
from apps.api.v1.schemas import DecisionIn, DecisionPage, DecisionResult
from apps.review.models import AuditEvent
from apps.review.workflow import ReasonRequired, ReviewChanged, review_decide

router = Router(tags=["decisions"], auth=token_or_session())
REFUSAL = "Finance decisions are for the reseller's own staff."


def decision_body(event: AuditEvent) -> dict[str, Any]:
    return {
        "review": str(event.review.uuid),
        "action": event.action,
        "from_status": event.from_status,
        "to_status": event.to_status,
        "reason": event.reason,
        "actor": event.actor.get_username(),
        "role": event.role,
        "quote_version": event.version,
        "created_at": event.created_at.isoformat(),
    }


@router.get(
    "/decisions",
    response={200: DecisionPage, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut},
    url_name="v1_decision_list",
    summary="List decisions",
    auth=token_or_session(INTERNAL, REFUSAL),
)
def decision_list(
    request: HttpRequest,
    review: UUID | None = None,
    action: str | None = None,
    page: int = 1,
    page_size: int = DEFAULT_PAGE_SIZE,
) -> HttpResponse:
    """Newest first: who decided what, from which status to which, and why."""
    rows = AuditEvent.objects.select_related("review", "actor").order_by("-created_at", "-id")
    rows = rows.filter(review__in=reviews_for(request))
    if review is not None:
        rows = rows.filter(review__uuid=review)
    if action:
        rows = rows.filter(action=action[:30])
    found = page_of(request, rows, page=page, page_size=page_size)
    return JsonResponse(page_body(found, [decision_body(e) for e in found.rows]))


@router.post(
    "/reviews/{uuid:review_uuid}/decisions",
    response={
        201: DecisionResult,
        400: ErrorOut,
        401: ErrorOut,
        403: ErrorOut,
        404: ErrorOut,
        409: ErrorOut,
    },
    url_name="v1_review_decide",
    summary="Decide a review",
    auth=token_or_session(INTERNAL, REFUSAL),
)
def review_decide_post(request: HttpRequest, review_uuid: str, body: DecisionIn) -> HttpResponse:
    """Approve, reject or request changes (Finance, admins), or resubmit (account team,
    admins). `expected_version` is the `review.version` you read; 409 when it moved."""
    review = get_object_or_404(reviews_for(request), uuid=review_uuid)
    try:
        decided = review_decide(
            review_id=review.pk,
            expected_version=body.expected_version,
            action=body.action,
            reason=body.reason,
            actor=cast(User, request.user),
        )
    except PermissionDenied as exc:
        raise ApiProblem(403, "forbidden", str(exc)) from exc
    except ReasonRequired as exc:
        raise ApiProblem(
            400, "reason_required", str(exc), [{"field": "reason", "message": str(exc)}]
        ) from exc
    except ReviewChanged as exc:
        raise ApiProblem(409, "quote_changed", str(exc)) from exc
    event = AuditEvent.objects.select_related("review", "actor").filter(review=decided).last()
    assert event is not None  # review_decide writes it in the same transaction
    decided = reviews_for(request).get(pk=decided.pk)
    body_out = {"review": review_meta(decided), "decision": decision_body(event)}
    return JsonResponse(body_out, status=201)
