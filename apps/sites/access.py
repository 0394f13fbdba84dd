"""Who may see what. Deny by default; one queryset scope per role; another organisation's
objects answer 404, never 403, so their existence is not revealed."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect

from apps.sites.models import Membership, Role

INTERNAL_ROLES = frozenset({Role.ACCOUNT_TEAM, Role.FINANCE, Role.ADMIN})


def role_of(user: User | AnonymousUser) -> Role | None:
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.ADMIN
    membership: Membership | None = getattr(user, "membership", None)
    return Role(membership.role) if membership else None


def organisation_id_of(user: User | AnonymousUser) -> int | None:
    membership: Membership | None = getattr(user, "membership", None)
    return membership.organisation_id if membership else None


def scope_for_user[M: Model](queryset: QuerySet[M], user: User | AnonymousUser) -> QuerySet[M]:
    """Internal roles see every organisation's objects; a customer only their own; others none.

    `queryset` must have an `organisation` field (quotes, reviews, workloads, facilities).
    """
    role = role_of(user)
    if role in INTERNAL_ROLES:
        return queryset
    if role == Role.CUSTOMER:
        return queryset.filter(organisation_id=organisation_id_of(user))
    return queryset.none()


def require_roles[V: Callable[..., HttpResponseBase]](*roles: Role) -> Callable[[V], V]:
    """View decorator: anonymous users go to login; a wrong role gets 403."""

    def decorator(view: V) -> V:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect(f"/login/?next={request.path}")
            if role_of(request.user) not in roles:
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return cast(V, wrapped)

    return decorator


ANY_ROLE = tuple(Role)
