"""Tokens for the demo users, and a client that sends one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from apps.sites.tokens import api_token_create

USERNAMES = {
    "customer": "customer",
    "other_customer": "globex",
    "account_team": "account",
    "finance": "finance",
    "admin": "admin",
}


class TokenClient(Client):
    """A client without a session that sends `Authorization: Bearer <token>` and enforces
    CSRF, as a program would meet the API."""

    def __init__(self, secret: str) -> None:
        super().__init__(enforce_csrf_checks=True, headers={"Authorization": f"Bearer {secret}"})
        self.secret = secret


@pytest.fixture
def tokens(demo) -> dict[str, TokenClient]:
    """{role: TokenClient}, one fresh token per demo user."""
    return {
        role: TokenClient(api_token_create(user=User.objects.get(username=name), name=role).secret)
        for role, name in USERNAMES.items()
    }
