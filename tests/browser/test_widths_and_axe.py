"""Every page type as each role, at 1280 and 390 px: no sideways scrolling (the document is no
wider than the viewport) and axe-core finds no serious or critical violation.

axe-core comes from the npm registry (tests/browser/package.json, pinned by package-lock.json,
installed by `make browser-js`) and is evaluated in the page through Playwright, so the page's
CSP is untouched. The review page is screenshotted at both widths for a person to look at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.review.models import Review
from apps.web.demo import demo_reviews_seed

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (1280, 390)

# role -> the page types that role opens ({review} is a demo review published to the customer's
# own org)
PAGES: dict[str, list[str]] = {
    "account": [
        "/",
        "/reviews/",
        "/quotes/upload/",
        "/reviews/{review}/",
        "/reviews/compare/",
        "/catalog/",
        "/catalog/systems/dgx-b200/",
        "/api/docs",
    ],
    "finance": ["/", "/reviews/queue/", "/reviews/{review}/"],
    "customer": ["/", "/reviews/", "/reviews/{review}/", "/catalog/"],
    "admin": ["/", "/reviews/{review}/"],
}


# Swagger UI (the third-party widget on /api/docs) nests its copy button inside the operation's
# toggle button; that one rule is left out there, every other rule runs.
AXE_EXCLUDE = {"/api/docs": ".opblock-summary-control"}


def _axe_serious(page, url: str) -> list[dict[str, object]]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    excluded = AXE_EXCLUDE.get(url)
    context = (
        json.dumps({"include": [["html"]], "exclude": [[excluded]]}) if excluded else "document"
    )
    result = page.evaluate(
        f"async () => {{ const r = await axe.run({context}, {{resultTypes: ['violations']}});"
        " return r.violations.map(v => ({id: v.id, impact: v.impact,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }"
    )
    return [v for v in result if v["impact"] in {"serious", "critical"}]


@pytest.fixture
def review_uuid(site):
    demo_reviews_seed()
    # a review published to Acme, so that its customer may open it too
    review = (
        Review.objects.filter(organisation__slug="acme", published_version__isnull=False)
        .order_by("pk")
        .first()
    )
    assert review is not None
    return str(review.uuid)


@pytest.mark.parametrize("role", list(PAGES))
def test_every_page_fits_a_phone_and_passes_axe(sessions, review_uuid, role: str) -> None:
    session = sessions(role)
    page = session.page
    problems: list[str] = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for path in PAGES[role]:
            url = path.format(review=review_uuid)
            session.goto(url)
            page.wait_for_load_state("networkidle")
            document_width = page.evaluate("document.documentElement.scrollWidth")
            if document_width > width:
                problems.append(f"{role} {url} at {width} px: document {document_width} px wide")
            for violation in _axe_serious(page, url):
                problems.append(f"{role} {url} at {width} px: axe {json.dumps(violation)}")
            if url == f"/reviews/{review_uuid}/" and role in {"account", "customer"}:
                session.shot(f"review-{role}-{width}px")
    assert problems == [], "\n".join(problems)
