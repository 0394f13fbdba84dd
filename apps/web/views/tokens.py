"""The API tokens page: make one (shown once, never again), see yours, revoke one.

For the reseller's own staff; a token acts with its owner's organisation and role."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.sites.access import INTERNAL_ROLES, require_roles
from apps.sites.tokens import TokenRefused, api_token_create, api_token_revoke, api_tokens_of

TOKEN_HOLDERS = tuple(sorted(INTERNAL_ROLES))


def _page(request: HttpRequest, *, secret: str = "", status: int = 200) -> HttpResponse:
    context = {
        "tokens": api_tokens_of(user=cast(User, request.user)),
        "secret": secret,
    }
    response = render(request, "settings/tokens.html", context, status=status)
    response["Cache-Control"] = "no-store"  # the page that shows a new token is never cached
    return response


@require_GET
@require_roles(*TOKEN_HOLDERS)
def token_list(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
@require_roles(*TOKEN_HOLDERS)
def token_create(request: HttpRequest) -> HttpResponse:
    """The new token is in this one answer only; it is kept as its SHA-256."""
    try:
        made = api_token_create(user=cast(User, request.user), name=request.POST.get("name", ""))
    except TokenRefused as exc:
        messages.error(request, str(exc))
        return _page(request, status=400)
    return _page(request, secret=made.secret, status=201)


@require_POST
@require_roles(*TOKEN_HOLDERS)
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    if api_token_revoke(user=cast(User, request.user), token_id=pk):
        messages.success(request, "Token revoked: it no longer opens the API.")
    else:
        messages.error(request, "No such token of yours, or it was already revoked.")
    return redirect("settings:tokens")
