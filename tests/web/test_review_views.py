"""The review page: what each role sees, the htmx partials, re-running with a changed load, a
revised quote, confirming a fuzzy match, and the query budget."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from apps.catalog.models import Part
from apps.quotes.models import MatchKind, QuoteLine
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.models import AuditEvent, Review, ReviewStatus
from tests.reports.page_reports import RACK_OK, school_bus_report
from tests.review.factories import quote_make, review_published_as_is

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
CSV = b"Part Number,Description,Qty,Unit Price,Extended Price\n"
CSV += b'DGXB300-G2304,"NVIDIA DGX B300 2304GB",1,600000.00,600000.00\n'


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


def review_for(
    org,
    user: User,
    report: ReviewReport | None = None,
    status: str = ReviewStatus.PENDING,
) -> Review:
    report = report or school_bus_report()
    quote = quote_make(organisation=org, user=user, content=CSV)
    review = Review.objects.create(
        quote=quote,
        organisation=org,
        workload=report.workload.model_dump(mode="json"),
        facility=report.facility.model_dump(mode="json"),
        report=report.model_dump(mode="json"),
        verdict=report.verdict,
        finance_level=report.blood_pressure.finance.level,
        facilities_level=report.blood_pressure.facilities.level,
        total_usd=report.quote.total,
        total=report.quote.total,
        currency=report.quote.currency,
        needs_finance=report.verdict != "pass",
        status=status,
        created_by=user,
    )
    for line in report.quote.lines:
        QuoteLine.objects.create(
            quote=quote,
            line=line.line,
            source_row=line.source_row or line.line,
            part_number=line.part_number,
            description=line.description,
            quantity=line.quantity,
            match=line.match,
            errors=["qty × unit ≠ extended: 1 × 0 ≠ 5"] if line.line == 2 else [],
        )
    return review


@pytest.fixture
def review(demo, people) -> Review:
    return review_for(demo["acme"], people["account"])


def url(review: Review, suffix: str = "") -> str:
    return f"/reviews/{review.uuid}/{suffix}"


def rerun_data(review: Review, **changes: object) -> dict[str, object]:
    """The edit form as the page posts it (prefixes w- and f-), with some fields changed."""
    workload = Workload.model_validate(review.workload).model_dump(mode="json")
    facility = Facility.model_validate(review.facility).model_dump(mode="json")
    data: dict[str, object] = {f"w-{k}": v for k, v in workload.items() if v is not None}
    data |= {f"f-{k}": v for k, v in facility.items() if v is not None}
    data["version"] = review.version
    data.update(changes)
    return data


# --- who sees what -------------------------------------------------------------------------------


def test_anonymous_goes_to_login(client, review):
    response = client.get(url(review))
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_account_team_sees_the_whole_review(clients, review):
    response = clients["account_team"].get(url(review))
    body = response.content.decode()
    assert response.status_code == 200
    # The verdict in one sentence, from the one warning.
    assert "Look again before anyone signs: needed a school bus, bought a cement truck." in body
    # Both gauges, drawn, with their reasons.
    assert body.count('class="chart chart-gauge"') == 2
    assert "Finance: High" in body and "Facilities: Raised" in body
    assert "keeps 6% of it busy" in body
    # Findings grouped by check, in reading order, with the workings behind a <details>.
    assert body.index('id="check-memory_fit"') < body.index('id="check-utilization"')
    assert body.index('id="check-utilization"') < body.index('id="check-rack_power"')
    assert "<details" in body and "utilization = 100 users × 15 tokens/s" in body
    assert "Unverified figures" in body
    # The quoted vehicle drawn as a semi with one 8-GPU NVLink domain.
    assert 'data-vehicle="semi"' in body
    assert "All 8 GPUs in one NVLink domain." in body
    assert body.count('class="gpu"') == 8 and body.count('class="domain"') == 1
    # Sizing: 100 users ÷ 1,666 served = 6.0 % utilization; 2,304 GB in the domain.
    assert re.search(r'id="sizing-utilization_pct">.*?<span class="value">6</span>', body)
    assert re.search(r'id="sizing-nvlink_domain_memory_gb">.*?>2,304<', body)
    # Charts: memory, users, rack power.
    for chart in ("chart-memory", "chart-users", "chart-rack"):
        assert f'id="{chart}"' in body
    # The recommendation, drawn as a work van.
    assert 'data-vehicle="work van"' in body and "USD 140,000" in body
    # The lines with their match kinds, the row's error, escaped quote text.
    assert "Fuzzy: confirm" in body and "Row 3: qty × unit ≠ extended" in body
    assert "&lt;b&gt;gold&lt;/b&gt;" in body and "<b>gold</b>" not in body
    # Internal: the edit form, the revise form and the Finance trail.
    assert 'id="edit-form"' in body and 'id="revise"' in body and 'id="trail"' in body


def test_customer_sees_their_review_without_internal_parts(clients, review, people):
    AuditEvent.objects.create(
        review=review,
        actor=people["finance"],
        role="finance",
        action="request_changes",
        reason="Margin too thin, ask Northwind for 5% more",
        from_status="pending",
        to_status="changes_requested",
        version=1,
        file_sha256=review.quote.source_file.sha256,
    )
    assert clients["customer"].get(url(review)).status_code == 404  # not published yet
    review_published_as_is(review)
    response = clients["customer"].get(url(review))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Needed a school bus, bought a cement truck" in body
    assert "In review" in body and "Waiting for Finance" not in body
    for internal in ("Margin too thin", 'id="trail"', 'id="edit-form"', 'id="revise"'):
        assert internal not in body
    assert "Confirm match" not in body and 'id="decision"' not in body


def test_another_organisations_customer_gets_404(clients, review):
    assert clients["other_customer"].get(url(review)).status_code == 404
    assert clients["other_customer"].get(url(review), headers=HX).status_code == 404


def test_htmx_get_returns_only_the_results_region(clients, review):
    response = clients["finance"].get(url(review), headers=HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="results"') and "<html" not in body
    assert "HX-Request" in response["Vary"]


def test_finance_gets_the_decision_form_on_a_pending_review(clients, review):
    body = clients["finance"].get(url(review)).content.decode()
    assert 'id="decision"' in body
    assert f'formaction="/reviews/{review.uuid}/approve/"' in body
    assert f'name="next" value="/reviews/{review.uuid}/"' in body
    # The account team can't decide, and nobody decides a clear review.
    assert 'id="decision"' not in clients["account_team"].get(url(review)).content.decode()


def test_finance_approves_from_the_review_page(clients, review):
    response = clients["finance"].post(
        f"/reviews/{review.uuid}/approve/",
        {"version": review.version, "reason": "Fine for a pilot", "next": url(review)},
    )
    assert response.status_code == 302 and response["Location"] == url(review)
    review.refresh_from_db()
    assert review.status == ReviewStatus.APPROVED


def test_the_review_page_has_a_bounded_number_of_queries(
    clients, review, django_assert_max_num_queries
):
    client = clients["account_team"]
    client.get(url(review))  # warm the per-process catalog snapshot
    # session + user + membership, review, lines, previous, parts (fuzzy line), events.
    with django_assert_max_num_queries(12):
        assert client.get(url(review)).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(url(review), headers=HX).status_code == 200


# --- re-running with a changed load --------------------------------------------------------------


@pytest.fixture
def engine(monkeypatch):
    """The engine stands in as "the report for this many users": 1,666 users served, so 200
    users use 12% of it (200 ÷ 1,666 = 0.12) and the warning stays."""

    def fake_run(*, intake, workload, facility, catalog):
        return school_bus_report(users=workload.concurrent_users).model_copy(
            update={"facility": facility}
        )

    monkeypatch.setattr("apps.review.services.review_report", fake_run)


def test_rerun_swaps_the_results_and_the_numbers_move(clients, review, engine):
    response = clients["account_team"].post(
        url(review, "rerun/"), rerun_data(review, **{"w-concurrent_users": 200}), headers=HX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="results"')
    # Utilization 100 ÷ 1,666 = 6.0 % before, 200 ÷ 1,666 = 12.0 % now.
    assert re.search(r'sizing-utilization_pct">.*?"value">12</span>.*?was 6<', body, re.S)
    assert "200 users at 15 tokens/s" in body
    assert "every finding kept its severity" in body
    assert "HX-Push-Url" not in response  # the same review, the same address
    review.refresh_from_db()
    assert review.version == 2 and review.workload["concurrent_users"] == 200


def test_rerun_shows_which_findings_moved(clients, review, monkeypatch):
    def fake_run(*, intake, workload, facility, catalog):
        return school_bus_report(findings=[RACK_OK], facilities="calm")

    monkeypatch.setattr("apps.review.services.review_report", fake_run)
    body = (
        clients["account_team"]
        .post(url(review, "rerun/"), rerun_data(review), headers=HX)
        .content.decode()
    )
    assert "What that change moved" in body
    assert "Needed a school bus, bought a cement truck" in body  # the removed check's title
    assert 'class="change removed"' in body
    assert "Facilities <span" in body and "was raised" in body


def test_invalid_rerun_returns_the_form_with_errors(clients, review, engine):
    response = clients["account_team"].post(
        url(review, "rerun/"), rerun_data(review, **{"w-concurrent_users": 0}), headers=HX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#edit-form" and response["HX-Reswap"] == "outerHTML"
    assert body.lstrip().startswith('<form id="edit-form"')
    assert "Ensure this value is greater than or equal to 1." in body
    review.refresh_from_db()
    assert review.version == 1


def test_rerun_of_a_stale_page_is_409(clients, review, engine):
    data = rerun_data(review, version=review.version + 5)
    response = clients["account_team"].post(url(review, "rerun/"), data, headers=HX)
    assert response.status_code == 409 and "Quote changed" in response.content.decode()


@pytest.mark.parametrize(("who", "status"), [("customer", 403), ("finance", 403)])
def test_only_the_account_team_reruns(clients, review, engine, who, status):
    response = clients[who].post(url(review, "rerun/"), rerun_data(review), headers=HX)
    assert response.status_code == status


def test_rerun_without_htmx_redirects_to_the_page(clients, review, engine):
    response = clients["account_team"].post(url(review, "rerun/"), rerun_data(review))
    assert response.status_code == 302 and response["Location"] == url(review)


# --- a revised quote -----------------------------------------------------------------------------


def test_revised_quote_goes_to_a_new_review_that_lists_changes(
    clients, review, catalog_db, monkeypatch
):
    def fake_run(*, intake, workload, facility, catalog):
        return school_bus_report(findings=[RACK_OK])

    monkeypatch.setattr("apps.review.services.review_report", fake_run)
    revised_csv = CSV.replace(b"600000.00", b"550000.00")
    upload = _file("quote-v2.csv", revised_csv)
    response = clients["account_team"].post(url(review, "revise/"), {"file": upload}, headers=HX)
    assert response.status_code == 200
    new = Review.objects.exclude(pk=review.pk).get()
    assert response["HX-Redirect"] == url(new)
    assert new.quote.previous_id == review.quote_id and new.quote.version == 2
    body = clients["account_team"].get(url(new)).content.decode()
    assert "Changed since quote version 1" in body
    assert "Needed a school bus, bought a cement truck" in body and "removed" in body


def test_revised_quote_that_cannot_be_read_shows_the_problem(clients, review, catalog_db):
    upload = _file("quote-v2.csv", b"Part Number,Description,Qty\nX,Y,-2\n")
    response = clients["account_team"].post(url(review, "revise/"), {"file": upload}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Retarget"] == "#revise"
    assert "quote-v2.csv" in body and "We could not read" in body
    assert Review.objects.count() == 1


def _file(name: str, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="text/csv")


# --- confirming a fuzzy match --------------------------------------------------------------------


def test_confirming_a_fuzzy_line_remembers_it_and_reruns(clients, review, catalog_db, engine):
    line = QuoteLine.objects.get(quote=review.quote, line=2)
    part = Part.objects.get(part_number="DGXB300-G2304")
    body = clients["account_team"].get(url(review)).content.decode()
    assert f'action="/quotes/lines/{line.pk}/confirm/"' in body
    response = clients["account_team"].post(
        f"/quotes/lines/{line.pk}/confirm/",
        {"part": part.pk, "review": str(review.uuid)},
        headers=HX,
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="results"')
    line.refresh_from_db()
    assert line.part_id == part.pk and line.match == MatchKind.ALIAS
    review.refresh_from_db()
    assert review.version == 2


def test_another_organisations_line_is_404(clients, demo, people, catalog_db, engine):
    other = review_for(demo["globex"], people["account"])
    line = QuoteLine.objects.get(quote=other.quote, line=2)
    part = Part.objects.first()
    response = clients["customer"].post(
        f"/quotes/lines/{line.pk}/confirm/", {"part": part.pk, "review": str(other.uuid)}
    )
    assert response.status_code == 403  # customers never confirm matches


def test_an_old_version_points_to_the_revision_and_takes_no_decision(clients, demo, people):
    old = review_for(demo["acme"], people["account"])
    new = review_for(demo["acme"], people["account"])
    new.quote.previous = old.quote
    new.quote.version = 2
    new.quote.save()
    body = clients["finance"].get(url(old)).content.decode()
    assert f'href="/reviews/{new.uuid}/"' in body and "see the review of version 2" in body
    assert 'id="decision"' not in body
    body = clients["account_team"].get(url(old)).content.decode()
    assert 'id="edit-form"' not in body and 'id="revise"' not in body
    # The new version lists what changed (nothing: the same hand-made report).
    body = clients["finance"].get(url(new)).content.decode()
    assert "Changed since quote version 1" in body and "No finding changed" in body
    assert 'id="decision"' in body


def test_rerunning_a_replaced_version_is_409(clients, demo, people, engine):
    old = review_for(demo["acme"], people["account"])
    new = review_for(demo["acme"], people["account"])
    new.quote.previous, new.quote.version = old.quote, 2
    new.quote.save()
    response = clients["account_team"].post(url(old, "rerun/"), rerun_data(old), headers=HX)
    assert response.status_code == 409 and "revision replaced" in response.content.decode()


def test_a_page_seen_before_the_revision_points_to_it_after(clients, demo, people):
    """Whether a revision replaced the review is read with the review on every request: the
    page Finance saw (its sections now in the fragment cache) says so on the next view."""
    old = review_for(demo["acme"], people["account"])
    before = clients["finance"].get(url(old)).content.decode()
    assert 'id="superseded"' not in before and 'id="decision"' in before
    new = review_for(demo["acme"], people["account"])
    new.quote.previous = old.quote
    new.quote.version = 2
    new.quote.save()
    after = clients["finance"].get(url(old)).content.decode()
    assert 'id="superseded"' in after and f'href="/reviews/{new.uuid}/"' in after
    assert 'id="decision"' not in after
    partial = clients["finance"].get(url(old), headers=HX).content.decode()
    assert 'id="superseded"' in partial
