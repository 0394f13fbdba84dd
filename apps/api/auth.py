"""Who is calling: an API token (`Authorization: Bearer rsk_…`) or the browser session.

A token needs no CSRF token (a browser never sends it on its own); the session does, as
before. A Bearer header that names no live token is refused outright (401) even when a session
cookie rides along, so a revoked token never falls back to someone's browser login.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.http import HttpRequest
from ninja.errors import AuthenticationError, AuthorizationError
from ninja.security import HttpBearer, SessionAuth

from apps.sites.access import role_of
from apps.sites.models import Role
from apps.sites.tokens import api_token_user

POSTERS = frozenset({Role.ACCOUNT_TEAM, Role.ADMIN})
INTERNAL = frozenset({Role.ACCOUNT_TEAM, Role.FINANCE, Role.ADMIN})


def _check_role(user: Any, roles: Collection[Role] | None, refusal: str) -> None:
    if roles is not None and role_of(user) not in roles:
        raise AuthorizationError(message=refusal)


class ApiTokenAuth(HttpBearer):
    def __init__(self, roles: Collection[Role] | None = None, refusal: str = "") -> None:
        super().__init__()
        self.roles, self.refusal = roles, refusal

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = api_token_user(token.strip())
        if user is None:
            raise AuthenticationError(message="The API token is unknown, revoked or expired.")
        request.user = user
        _check_role(user, self.roles, self.refusal)
        return user


class RoleSessionAuth(SessionAuth):
    """The session, and (when `roles` is given) a role among them: refused (403) before the
    form is read."""

    def __init__(self, roles: Collection[Role] | None = None, refusal: str = "") -> None:
        super().__init__()
        self.roles, self.refusal = roles, refusal

    def _get_key(self, request: HttpRequest) -> str | None:
        """No signed-in session: nothing for a forged request to ride on, so no CSRF check,
        and the answer is 401 (not 403 "CSRF") for a client that sent no credentials."""
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = super().authenticate(request, key)
        if user is not None:
            _check_role(user, self.roles, self.refusal)
        return user


def token_or_session(roles: Collection[Role] | None = None, refusal: str = "") -> list[Any]:
    return [ApiTokenAuth(roles, refusal), RoleSessionAuth(roles, refusal)]


POSTER_REFUSAL = "Only the account team and admins can post quotes."
