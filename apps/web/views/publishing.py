"""Publishing a review to its customer: one POST from the review page, account team and admin
only, through `review_publish` (the same version check as a decision)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from apps.review.models import Review
from apps.review.publishing import PublishRefused, review_publish
from apps.review.services import ReviewChanged
from apps.sites.access import require_roles, scope_for_user
from apps.sites.http import HtmxHttpRequest
from apps.sites.models import Role


@require_POST
@require_roles(Role.ACCOUNT_TEAM, Role.ADMIN)
def review_publish_view(request: HtmxHttpRequest, review_uuid: str) -> HttpResponse:
    """Publish the version on the page; 409 when it moved or Finance has not approved it."""
    review = get_object_or_404(scope_for_user(Review.objects.all(), request.user), uuid=review_uuid)
    try:
        expected_version = int(request.POST.get("version", ""))
    except ValueError:
        return HttpResponseBadRequest("The form is missing the review version: reload the page.")
    try:
        published = review_publish(
            review_id=review.pk, expected_version=expected_version, user=request.user
        )
    except (ReviewChanged, PublishRefused) as refused:
        return HttpResponse(str(refused), status=409, content_type="text/plain; charset=utf-8")
    messages.success(
        request, f"Published version {published.published_version} to {published.organisation}."
    )
    return redirect("review:detail", uuid=published.uuid)
