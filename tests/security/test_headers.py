"""Security headers on every HTML page (RELIABILITY 19): a CSP with a per-request nonce and no
'unsafe-inline'/'unsafe-eval' for scripts, X-Frame-Options DENY, nosniff, a Referrer-Policy;
every script carries the nonce; no inline handlers or inline styles; the admin works under it.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.review.factories import review_make, review_published_as_is

pytestmark = pytest.mark.django_db

JSON_TYPES = {"application/json", "application/ld+json"}


class Scripts(HTMLParser):
    """Collects <script> tags, inline event handlers, style attributes and <style> blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.handlers: list[str] = []
        self.style_attrs: list[str] = []
        self.style_blocks = 0
        self.javascript_urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "script":
            self.scripts.append(attributes)
        if tag == "style":
            self.style_blocks += 1
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"<{tag} {name}>")
            if name == "style":
                self.style_attrs.append(f"<{tag} style={value!r}>")
            if name in {"href", "src", "action"} and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.javascript_urls.append(f"<{tag} {name}={value!r}>")


def _csp(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    directives = [d.strip().split() for d in policy.split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def _nonce(response) -> str:
    (nonce,) = [s for s in _csp(response)["script-src"] if s.startswith("'nonce-")]
    return nonce.removeprefix("'nonce-").removesuffix("'")


@pytest.fixture
def pages(demo, catalog_db) -> list[tuple[str, str]]:
    """(role, url) for every kind of HTML page we serve."""
    account = User.objects.get(username="account")
    flagged = review_published_as_is(review_make(organisation=demo["acme"], user=account))
    return [
        ("anonymous", reverse("login")),
        ("customer", reverse("home")),
        ("customer", reverse("catalog:index")),
        ("customer", reverse("catalog:system", kwargs={"key": "dgx-b200"})),
        ("customer", reverse("review_list")),
        ("customer", reverse("review:detail", kwargs={"uuid": flagged.uuid})),
        ("account_team", reverse("quotes:upload")),
        ("finance", reverse("review:queue")),
        ("finance", reverse("review:detail", kwargs={"uuid": flagged.uuid})),
        ("customer", reverse("api:openapi-view")),
    ]


def test_every_page_has_the_headers_and_nonced_scripts(pages, clients):
    for role, url in pages:
        response = clients[role].get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/html"), url
        csp = _csp(response)
        script_src = csp["script-src"]
        assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, url
        assert "'unsafe-inline'" not in csp["style-src"], url
        assert csp["default-src"] == ["'self'"], url
        assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"], url
        assert response["X-Frame-Options"] == "DENY", url
        assert response["X-Content-Type-Options"] == "nosniff", url
        assert response["Referrer-Policy"] == "same-origin", url

        nonce = _nonce(response)
        parsed = Scripts()
        parsed.feed(response.content.decode())
        executable = [s for s in parsed.scripts if s.get("type") not in JSON_TYPES]
        assert executable, url
        assert all(s.get("nonce") == nonce for s in executable), (url, executable)
        assert all(s.get("src") for s in executable), f"inline script on {url}"
        assert parsed.handlers == [], (url, parsed.handlers)
        assert parsed.javascript_urls == [], (url, parsed.javascript_urls)
        if "openapi" not in url and "docs" not in url:
            assert parsed.style_attrs == [] and parsed.style_blocks == 0, (url, parsed.style_attrs)


def test_htmx_script_carries_the_nonce(clients):
    response = clients["customer"].get(reverse("home"))
    parsed = Scripts()
    parsed.feed(response.content.decode())
    (htmx,) = [s for s in parsed.scripts if "htmx" in (s.get("src") or "")]
    assert htmx["src"].endswith("htmx-2.min.js")
    assert htmx["nonce"] == _nonce(response)


def test_nonce_changes_with_every_request(clients):
    nonces = {_nonce(clients["customer"].get(reverse("home"))) for _ in range(3)}
    assert len(nonces) == 3
    assert all(len(n) >= 16 for n in nonces)


def test_htmx_fragments_carry_the_headers_too(clients):
    response = clients["finance"].get(reverse("review:queue"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "script-src" in response["Content-Security-Policy"]


def test_json_answers_are_nosniff(clients):
    response = clients["finance"].get("/api/openapi.json")
    assert response["Content-Type"].startswith("application/json")
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "url",
    [
        "/admin/",
        "/admin/review/auditevent/",
        "/admin/sites/organisation/add/",
        "/admin/auth/user/",
    ],
)
def test_admin_works_under_the_policy(clients, url):
    """Django 6's admin has no inline scripts: it runs under our CSP as it is."""
    response = clients["admin"].get(url)
    assert response.status_code == 200
    nonce = _nonce(response)
    parsed = Scripts()
    parsed.feed(response.content.decode())
    inline = [s for s in parsed.scripts if not s.get("src") and s.get("type") not in JSON_TYPES]
    assert [s for s in inline if s.get("nonce") != nonce] == []
    assert parsed.handlers == []
    assert response["X-Frame-Options"] == "DENY"
