"""Login, the home dashboard (one per role) and the list of reviews a person may open."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth.views import LoginView
from django.core.paginator import Paginator
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from apps.reports.charts.vehicles import vehicle_svg
from apps.review.models import Review, ReviewStatus, Verdict
from apps.review.publishing import review_as_published, reviews_for
from apps.sites.access import ANY_ROLE, require_roles, role_of
from apps.sites.models import Role
from apps.sites.throttle import login_failure_count, login_hashing_slot, login_throttle
from apps.web.throttled_login import throttled_message, throttled_response
from apps.words import VEHICLES

RECENT = 8
PAGE_SIZE = 25


class RightsizeLoginView(LoginView):
    """Django's login, throttled per client address and per username before the password is
    hashed (apps/sites/throttle.py); axes still locks a username after 5 failures."""

    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = str(request.POST.get("username", ""))[:150]
        wait = login_throttle(request, username=username)
        if wait is not None:
            return self._throttled(request, wait)
        with login_hashing_slot() as busy:
            if busy is not None:
                return self._throttled(request, busy)
            response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form again: a failed login
            login_failure_count()
        return response

    def _throttled(self, request: HttpRequest, wait: int) -> HttpResponse:
        def draw() -> HttpResponse:
            context = {
                "form": self.get_form_class()(request),
                "throttled": throttled_message(wait),
            }
            return render(request, self.template_name, context, status=429)

        return throttled_response(request, wait, draw)


def review_rows(user: Any) -> QuerySet[Review]:
    """Reviews for a list: scoped to the person (a customer: the published ones), without the
    heavy report JSON."""
    return (
        reviews_for(Review.objects.all(), user)
        .select_related("quote", "organisation")
        .defer("report", "workload", "facility")
        .order_by("-updated_at", "-id")
    )


def _queue_counts(reviews: QuerySet[Review]) -> dict[str, int]:
    """How much is waiting for Finance, split by verdict: the finance dashboard's numbers."""
    return reviews.aggregate(
        pending=Count("id", filter=Q(status=ReviewStatus.PENDING)),
        pending_fail=Count("id", filter=Q(status=ReviewStatus.PENDING, verdict=Verdict.FAIL)),
        pending_warn=Count("id", filter=Q(status=ReviewStatus.PENDING, verdict=Verdict.WARN)),
        changes_requested=Count("id", filter=Q(status=ReviewStatus.CHANGES_REQUESTED)),
        approved=Count("id", filter=Q(status=ReviewStatus.APPROVED)),
        rejected=Count("id", filter=Q(status=ReviewStatus.REJECTED)),
    )


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Each person's starting point: the account team's recent reviews and the upload button,
    Finance's waiting queue, the customer's own organisation's reviews."""
    if not request.user.is_authenticated:
        return redirect("login")
    role = role_of(request.user)
    reviews = review_rows(request.user)
    context: dict[str, Any] = {"role": role, "Role": Role, "lot": lot_drawings()}
    if role in (Role.ACCOUNT_TEAM, Role.ADMIN, Role.FINANCE):
        context["counts"] = _queue_counts(reviews)
        context["recent"] = list(reviews[:RECENT])
        context["queue_url"] = reverse("review:queue") if role != Role.ACCOUNT_TEAM else None
    elif role == Role.CUSTOMER:
        context["organisation"] = request.user.membership.organisation
        context["recent"] = [review_as_published(r) for r in reviews[:RECENT]]
    return render(request, "sites/home.html", context)


@require_GET
@require_roles(*ANY_ROLE)
def review_list(request: HttpRequest) -> HttpResponse:
    """Every review this person may open, newest first; a customer sees only their own."""
    reviews = review_rows(request.user)
    verdict = request.GET.get("verdict", "")
    if verdict in Verdict.values:
        reviews = reviews.filter(verdict=verdict)
    page = Paginator(reviews, PAGE_SIZE).get_page(request.GET.get("page"))
    if role_of(request.user) == Role.CUSTOMER:
        page.object_list = [review_as_published(r) for r in page.object_list]
    context = {
        "role": role_of(request.user),
        "Role": Role,
        "page": page,
        "verdict": verdict,
        "verdicts": Verdict.choices,
    }
    return render(request, "sites/reviews.html", context)


@cache
def lot_drawings() -> tuple[str, ...]:
    """The lot from the moped to the freight train, drawn once per process."""
    return tuple(vehicle_svg(form_factor, label=name) for form_factor, name in VEHICLES.items())
