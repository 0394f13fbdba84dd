"""Correcting a line on the review page: the reading shown, the inline form (htmx fragment or
a plain form post), the numbers moving, undo, who may, and the vendor's remembered list.

The quote is the shared examples' Dell XE9680 configurator: 2 servers, 2 × 11.0 kW = 22 kW;
line 12 ("Dell ProDeploy Plus for PowerEdge XE9680", 2 × $7,950) reads as a service. The tests
say it is 2 more XE9680 (4 × 11.0 kW = 44 kW), and undo it.
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User

from apps.quotes.models import QuoteLineCorrection, VendorLineCorrection
from apps.quotes.services import quote_upload
from apps.review.engine.schemas import Facility, Workload
from apps.review.models import Review
from apps.review.services import review_create
from tests.conftest import EXAMPLES
from tests.review.factories import review_published_as_is

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
DELL = EXAMPLES / "dell-xe9680-configurator-per-system"


@pytest.fixture
def review(demo, catalog_db) -> Review:
    account = User.objects.get(username="account")
    quote = quote_upload(
        data=(DELL / "quote.csv").read_bytes(),
        filename="dell-quote.csv",
        organisation=demo["acme"],
        uploaded_by=account,
    )
    made = review_create(
        quote=quote,
        workload=Workload.model_validate(json.loads((DELL / "workload.json").read_text())),
        facility=Facility.model_validate(json.loads((DELL / "facility.json").read_text())),
        created_by=account,
    )
    return review_published_as_is(made)  # the customer tests read it too


def correct_url(review: Review, line: int) -> str:
    return f"/reviews/{review.uuid}/lines/{line}/correct/"


def undo_url(review: Review, line: int) -> str:
    return f"/reviews/{review.uuid}/lines/{line}/undo/"


def service(line: int = 12, **extra: object) -> dict[str, object]:
    """Line 12 (ProDeploy, qty 2, read as a service) said to be 2 more PowerEdge XE9680."""
    return {f"c{line}-role": "system", f"c{line}-system": "dell-xe9680", "version": 1, **extra}


def test_the_page_shows_the_reading_and_each_line_role(review, clients):
    body = clients["account_team"].get(f"/reviews/{review.uuid}/").content.decode()
    assert 'id="reading"' in body
    assert "XE9680" in body[body.index('id="reading"') :][:400]
    assert re.search(r'<tr class="[^"]*role-system[^"]*" id="line-1"', body)
    assert re.search(r'<tr class="[^"]*role-service[^"]*" id="line-12"', body)
    # Every line has a "Correct line N" link; the form itself opens for one line at a time.
    assert body.count('class="correct-open small"') == 13
    assert "correct-form" not in body


def test_correct_line_n_opens_that_line_form_in_place_or_on_the_page(review, clients):
    client = clients["account_team"]
    response = client.get(f"/reviews/{review.uuid}/?correct=12", headers=HX)
    body = response.content.decode()
    assert body.lstrip().startswith('<div class="correct" id="correct-12">')
    assert 'id="id_c12-role"' in body and "Remember for this vendor" in body
    assert "<html" not in body and body.count('class="correct-form"') == 1
    plain = client.get(f"/reviews/{review.uuid}/?correct=12").content.decode()
    assert plain.count('class="correct-form"') == 1 and "<html" in plain
    assert client.get(f"/reviews/{review.uuid}/?correct=99", headers=HX).status_code == 403
    customer = clients["customer"].get(f"/reviews/{review.uuid}/?correct=12", headers=HX)
    assert customer.status_code == 403
    assert (
        "correct-form"
        not in clients["customer"].get(f"/reviews/{review.uuid}/?correct=12").content.decode()
    )


def test_customers_see_the_reading_but_never_the_controls(review, clients):
    body = clients["customer"].get(f"/reviews/{review.uuid}/").content.decode()
    assert 'id="reading"' in body
    assert "correct-form" not in body and "/lines/" not in body
    assert "Corrected by" not in body


def test_correcting_a_line_with_htmx_swaps_the_results_with_the_numbers_moved(review, clients):
    """4 servers not 2: power 4 × 11.0 kW = 44 kW, was 22."""
    response = clients["account_team"].post(correct_url(review, 12), service(), headers=HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="results"')
    assert "<html" not in body
    power = re.search(r'id="sizing-power_kw">.*?</div>', body, re.S).group(0)
    assert '<span class="value">44</span>' in power and "was 22" in power
    assert re.search(r'<tr class="[^"]*role-system[^"]*corrected[^"]*" id="line-12"', body)
    assert "Corrected by account" in body
    assert "Undo the correction of line 12" in body
    review.refresh_from_db()
    assert review.version == 2
    assert QuoteLineCorrection.objects.get().created_by.username == "account"


def test_without_javascript_the_form_posts_and_redirects_to_the_page(review, clients):
    response = clients["account_team"].post(correct_url(review, 12), service())
    assert response.status_code == 302
    assert response["Location"] == f"/reviews/{review.uuid}/#quote-lines"


def test_undo_puts_the_numbers_back(review, clients):
    client = clients["account_team"]
    client.post(correct_url(review, 12), service(), headers=HX)
    response = client.post(undo_url(review, 12), {"version": 2}, headers=HX)
    assert response.status_code == 200
    power = re.search(r'id="sizing-power_kw">.*?</div>', response.content.decode(), re.S).group(0)
    assert '<span class="value">22</span>' in power and "was 44" in power
    review.refresh_from_db()
    assert review.version == 3
    assert client.post(undo_url(review, 12), {"version": 3}).status_code == 409  # nothing left


def test_remember_for_this_vendor_keeps_it_and_the_list_removes_it(review, clients):
    client = clients["account_team"]
    client.post(correct_url(review, 12), service(**{"c12-remember": "on"}), headers=HX)
    remembered = VendorLineCorrection.objects.get()
    page = client.get("/quotes/corrections/").content.decode()
    assert f'id="vendor-correction-{remembered.pk}"' in page and "802 3326" in page
    response = client.post(f"/quotes/corrections/{remembered.pk}/remove/", headers=HX)
    assert (response.status_code, response.content) == (200, b"")
    remembered.refresh_from_db()
    assert remembered.removed_by.username == "account"
    page = client.get("/quotes/corrections/").content.decode()
    assert "No correction is remembered for any vendor." in page and "Removed" in page
    again = client.post(f"/quotes/corrections/{remembered.pk}/remove/")
    assert again.status_code == 404


def test_an_empty_correction_comes_back_as_the_line_form_with_its_error(review, clients):
    response = clients["account_team"].post(correct_url(review, 12), {"version": 1}, headers=HX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#correct-12"
    assert response["HX-Reswap"] == "outerHTML"
    body = response.content.decode()
    assert body.lstrip().startswith('<div class="correct" id="correct-12">')
    assert 'class="correct-form"' in body
    assert "Say what line 12 is: pick at least one field." in body
    plain = clients["account_team"].post(correct_url(review, 12), {"version": 1})
    assert plain.status_code == 400 and b"Say what line 12 is" in plain.content
    assert QuoteLineCorrection.objects.count() == 0


def test_a_system_the_catalog_does_not_know_is_a_form_error(review, clients):
    unknown = {"c9-system": "dell-xe9999", "version": 1}
    response = clients["account_team"].post(correct_url(review, 9), unknown, headers=HX)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    review.refresh_from_db()
    assert (review.version, QuoteLineCorrection.objects.count()) == (1, 0)


def test_a_stale_page_gets_409_and_nothing_changes(review, clients):
    response = clients["account_team"].post(correct_url(review, 12), service(version=7))
    assert response.status_code == 409
    assert QuoteLineCorrection.objects.count() == 0


@pytest.mark.parametrize("role", ["customer", "finance", "other_customer"])
def test_only_editors_may_correct_or_undo(review, clients, role):
    client = clients[role]
    assert client.post(correct_url(review, 12), service(), headers=HX).status_code == 403
    assert client.post(undo_url(review, 12), {"version": 1}, headers=HX).status_code == 403
    assert client.get("/quotes/corrections/").status_code == 403
    assert QuoteLineCorrection.objects.count() == 0


def test_a_line_not_on_the_quote_is_404(review, clients):
    assert clients["account_team"].post(correct_url(review, 99), service(99)).status_code == 404


def test_a_line_read_as_the_vendor_remembers_points_at_the_vendor_list(review, clients):
    """A remembered correction applies to the vendor's next quote: its line is "corrected"
    with no correction of its own to undo, and the page says where to remove it."""
    client = clients["account_team"]
    client.post(correct_url(review, 12), service(**{"c12-remember": "on"}), headers=HX)
    account = User.objects.get(username="account")
    again = quote_upload(
        data=(DELL / "quote.csv").read_bytes(),
        filename="dell-quote-again.csv",
        organisation=review.organisation,
        uploaded_by=account,
    )
    later = review_create(
        quote=again,
        workload=Workload.model_validate(review.workload),
        facility=Facility.model_validate(review.facility),
        created_by=account,
    )
    body = client.get(f"/reviews/{later.uuid}/").content.decode()
    assert re.search(r'<tr class="[^"]*role-system[^"]*corrected[^"]*" id="line-12"', body)
    assert "Read as remembered for Dell" in body and "/quotes/corrections/" in body
    assert "Undo the correction of line 12" not in body


def test_the_trail_lists_every_correction_and_undo_with_before_and_after(review, clients):
    client = clients["account_team"]
    client.post(correct_url(review, 12), service(), headers=HX)
    client.post(undo_url(review, 12), {"version": 2}, headers=HX)
    body = client.get(f"/reviews/{review.uuid}/").content.decode()
    history = body[body.index('id="line-history"') :]
    assert history.count("<tr><td>") == 2
    assert "Corrected" in history and "Undone" in history
    assert "<td>as read → role system, system dell-xe9680</td>" in history
    assert "<td>role system, system dell-xe9680 → as read</td>" in history
    customer = clients["customer"].get(f"/reviews/{review.uuid}/").content.decode()
    assert "line-history" not in customer
