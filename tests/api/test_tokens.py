"""API tokens: made on the settings page and shown once, kept hashed, refused once revoked
or once the owner's role changes; a token needs no CSRF token, a session still does."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from apps.sites.models import ApiToken, Membership, Role
from apps.sites.tokens import api_token_create, api_token_user
from tests.api.conftest import TokenClient

pytestmark = pytest.mark.django_db


def test_the_settings_page_shows_a_new_token_once_and_keeps_its_hash(clients):
    response = clients["finance"].post(reverse("settings:token_create"), {"name": "CRM sync"})
    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    body = response.content.decode()
    secret = body.split('<code class="token-secret">')[1].split("</code>")[0]
    assert secret.startswith("rsk_") and len(secret) == 4 + 43  # 32 random bytes → 43 chars
    token = ApiToken.objects.get()
    assert token.token_sha256 == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {token.prefix, token.name, token.token_sha256}
    assert token.prefix == secret[:12]
    assert (token.role, token.organisation.slug) == (Role.FINANCE, "reseller")
    again = clients["finance"].get(reverse("settings:tokens")).content.decode()
    assert secret not in again  # shown once
    assert f"{token.prefix}…" in again and "CRM sync" in again


def test_customers_have_no_token_page(clients):
    assert clients["customer"].get(reverse("settings:tokens")).status_code == 403


def test_a_token_opens_the_api_without_csrf_and_a_revoked_one_is_refused(clients, tokens):
    client = tokens["account_team"]
    assert client.get("/api/v1/reviews").status_code == 200
    token = ApiToken.objects.get(user__username="account")
    assert token.last_used_at is not None
    response = clients["account_team"].post(reverse("settings:token_revoke", args=[token.pk]))
    assert response.status_code == 302
    refused = client.get("/api/v1/reviews")
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "unauthorized"
    assert "revoked" in refused.json()["error"]["message"]
    assert client.get("/api/reviews/00000000-0000-0000-0000-000000000000").status_code == 401


def test_a_revoked_token_does_not_fall_back_to_the_session(clients, tokens):
    secret = tokens["finance"].secret
    ApiToken.objects.filter(user__username="finance").update(revoked_at="2026-01-01T00:00Z")
    session = clients["finance"]  # logged in, and also sending the dead token
    response = session.get("/api/v1/reviews", headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 401
    assert session.get("/api/v1/reviews").status_code == 200  # the session alone still works


def test_someone_elses_token_cannot_be_revoked(clients, tokens):
    token = ApiToken.objects.get(user__username="finance")
    clients["account_team"].post(reverse("settings:token_revoke", args=[token.pk]))
    token.refresh_from_db()
    assert token.revoked_at is None
    assert tokens["finance"].get("/api/v1/reviews").status_code == 200


def test_a_changed_role_ends_the_token(demo):
    user = User.objects.get(username="account")
    secret = api_token_create(user=user, name="x").secret
    assert api_token_user(secret) == user
    Membership.objects.filter(user=user).update(role=Role.FINANCE)
    user = User.objects.get(pk=user.pk)
    assert api_token_user(secret) is None  # made as account team; not promoted with its owner
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert api_token_user(secret) is None


@pytest.mark.parametrize("header", ["Bearer rsk_nope", "Bearer ", "Bearer " + "rsk_" + "a" * 500])
def test_unknown_tokens_are_401(demo, header):
    response = Client().get("/api/v1/reviews", headers={"Authorization": header})
    assert response.status_code == 401


def test_the_session_still_needs_its_csrf_token_on_post(demo):
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get(username="finance"))
    response = client.post("/api/v1/reviews/00000000-0000-0000-0000-000000000000/pdf")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    token = TokenClient(
        api_token_create(user=User.objects.get(username="finance"), name="t").secret
    )
    assert token.post("/api/v1/reviews/00000000-0000-0000-0000-000000000000/pdf").status_code == 404
