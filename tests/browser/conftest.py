"""Real-browser fixtures: Debian's Chromium driven by Playwright's sync API against
pytest-django's live server. Screenshots go to tests/artifacts/screenshots/ (git-ignored).

Every page a test opens is watched: a console error (a CSP violation from an inline style, a
404 for an asset, a failed htmx request) or an uncaught script error fails the test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between browser steps are ordinary synchronous calls.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
PASSWORD = "rightsize-demo"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def site(transactional_db, live_server):
    """The catalog and the demo people in the live server's database."""
    from apps.catalog.services import catalog_load, catalog_snapshot_clear
    from apps.web.demo import demo_seed

    catalog_load()
    demo_seed()
    catalog_snapshot_clear()
    yield live_server
    catalog_snapshot_clear()


class Session:
    """One person's browser: a fresh context (cookies) per login, watched for errors."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.base_url = base_url
        self.context = browser.new_context(viewport={"width": 1366, "height": 900})
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def login(self, username: str) -> Page:
        page = self.page
        page.goto(f"{self.base_url}/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/login/'] button[type=submit]")
        page.wait_for_url(f"{self.base_url}/")
        return page

    def goto(self, path: str) -> Page:
        self.page.goto(f"{self.base_url}{path}")
        return self.page

    def expect_errors(self, text: str) -> None:
        """The console errors a test provokes on purpose (a 409) are checked, then forgotten."""
        expected = [e for e in self.errors if text in e]
        assert expected, f"expected a console error with {text!r}, got {self.errors}"
        self.errors[:] = [e for e in self.errors if text not in e]

    def shot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def sessions(browser, site):
    """sessions("account") -> a logged-in Session; every session is checked for errors."""
    opened: list[Session] = []

    def open_as(username: str) -> Session:
        session = Session(browser, site.url)
        session.login(username)
        opened.append(session)
        return session

    yield open_as
    errors = [e for s in opened for e in s.errors]
    for session in opened:
        session.context.close()
    assert errors == [], f"browser console errors: {errors}"
