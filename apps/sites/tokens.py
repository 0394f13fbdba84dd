"""API tokens: made on the settings page, shown once, kept as a SHA-256, refused once revoked.

A token reads `rsk_` and 43 URL-safe characters (32 random bytes). Only its first 12
characters (`rsk_` + 8) are kept in clear, so a list can say which one is which. A token acts
as its owner, narrowed to the organisation and role the owner had when it was made: promote or
move the person and their old tokens stop working rather than gaining the new role.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from apps.sites.access import organisation_id_of, role_of
from apps.sites.models import ApiToken, Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import User

TOKEN_PREFIX = "rsk_"
PREFIX_CHARS = len(TOKEN_PREFIX) + 8
#: `last_used_at` is written at most once a minute per token, not on every request.
LAST_USED_EVERY_S = 60
MAX_TOKEN_CHARS = 200


class TokenRefused(ValueError):
    """The person cannot hold a token (no membership)."""


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # shown once; never stored


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def api_token_create(*, user: User, name: str) -> NewToken:
    """A new token for `user`, scoped to their organisation and role today."""
    membership: Membership | None = getattr(user, "membership", None)
    role = role_of(user)
    if membership is None or role is None:
        raise TokenRefused("Only members of an organisation can make API tokens.")
    name = (name or "").strip()[:100] or "API token"
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        organisation=membership.organisation,
        role=role.value,
        name=name,
        prefix=secret[:PREFIX_CHARS],
        token_sha256=token_digest(secret),
    )
    return NewToken(token=token, secret=secret)


def api_token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke one of the user's own tokens; False when there is no such active token."""
    revoked = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    return revoked == 1


def api_tokens_of(*, user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user).order_by("-created_at"))


def api_token_user(secret: str) -> User | None:
    """The user a presented token acts as, or None: unknown, revoked, owner deactivated, or
    the owner's organisation or role no longer the token's."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > MAX_TOKEN_CHARS:
        return None
    token = (
        ApiToken.objects.select_related("user__membership")
        .filter(token_sha256=token_digest(secret), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    user = token.user
    role = role_of(user)
    if (
        role is None
        or role.value != token.role
        or organisation_id_of(user) != token.organisation_id
    ):
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > LAST_USED_EVERY_S:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return user
