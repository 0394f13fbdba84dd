"""The review page's layout with the corpus's wide quotes: a yen quote's eight-figure prices and
long catalog keys fit the lines table in the review's column at 1280 px (before: 838 px of
table in a 769 px column, the Match column cut off), and on a phone the right fit's drawing
sits above its words instead of squeezing them into a column a word or two wide."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.review.engine.schemas import QuoteLineOut
from apps.sites.models import Organisation
from tests.reports.page_reports import school_bus_report

pytestmark = pytest.mark.browser

YEN = Decimal("137000000.00")


def _wide_report():
    report = school_bus_report()
    lines = [
        QuoteLineOut(
            line=n,
            part_number=f"G893-SD1-AAX5-{n:02d}",
            description="GIGABYTE G893-SD1-AAX5 8U HGX B200 server, 2x Xeon 6960P, 32x 96GB",
            quantity=2,
            unit_price=YEN / 2,
            extended_price=YEN,
            sku="gigabyte-g893-sd1-aax5-hgx-b200-8gpu",
            match="alias",
            role="system" if n == 1 else "gpu_board",
            source_row=n + 1,
        )
        for n in range(1, 4)
    ]
    quote = report.quote.model_copy(update={"currency": "JPY", "lines": lines, "total": 3 * YEN})
    return report.model_copy(update={"quote": quote})


@pytest.fixture
def wide_review(site):
    from django.contrib.auth.models import User

    from tests.web.test_review_views import review_for

    acme = Organisation.objects.get(slug="acme")
    return review_for(acme, User.objects.get(username="account"), _wide_report())


def test_the_lines_table_fits_at_1280_and_the_right_fit_stacks_on_a_phone(sessions, wide_review):
    session = sessions("account")
    page = session.page
    page.set_viewport_size({"width": 1280, "height": 900})
    session.goto(f"/reviews/{wide_review.uuid}/")
    scroll, client = page.evaluate(
        "() => { const s = document.querySelector('#quote-lines .table-scroll');"
        " return [s.scrollWidth, s.clientWidth]; }"
    )
    assert scroll <= client, f"the lines table is {scroll} px in a {client} px column"
    page.set_viewport_size({"width": 390, "height": 844})
    session.goto(f"/reviews/{wide_review.uuid}/")
    drawing, words = page.evaluate(
        "() => { const r = document.querySelector('#recommendation .rec');"
        " const [a, b] = [r.firstElementChild, r.lastElementChild];"
        " return [a.getBoundingClientRect().bottom, b.getBoundingClientRect().top]; }"
    )
    assert drawing <= words, "the right fit's words sit beside its drawing on a phone"
    session.shot("review-layout-390")
    assert not session.errors
