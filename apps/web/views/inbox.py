"""The in-app inbox: each person's notifications, newest first; opening the page marks them
read. Everyone signed in has one (a customer's stays empty: nothing internal is sent to it)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from apps.review.models import Notification
from apps.sites.access import ANY_ROLE, require_roles
from apps.sites.http import HtmxHttpRequest

PAGE_SIZE = 50


@require_GET
@require_roles(*ANY_ROLE)
def inbox(request: HtmxHttpRequest) -> HttpResponse:
    notes = Notification.objects.filter(user=request.user).select_related("review")
    page = Paginator(notes, PAGE_SIZE).get_page(request.GET.get("page"))
    unread = [n.pk for n in page.object_list if n.read_at is None]
    response = render(request, "review/inbox.html", {"page": page, "unread": set(unread)})
    Notification.objects.filter(pk__in=unread).update(read_at=timezone.now())
    return response
