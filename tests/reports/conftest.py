"""A stored review of organisation A (acme) with the four-semis report, for the PDF views; and
`no_network`, which fails any test that opens an outbound connection while rendering."""

from __future__ import annotations

import hashlib
import socket

import pytest

from tests.reports.page_reports import four_semis_report


def make_review(*, organisation, user, report=None):
    from apps.quotes.models import Quote, QuoteFile
    from apps.review.models import Review

    report = report or four_semis_report()
    digest = hashlib.sha256(f"{organisation.slug}-{Quote.objects.count()}".encode()).hexdigest()
    source = QuoteFile.objects.create(
        sha256=digest,
        blob=f"uploads/{digest}",
        size=10,
        detected_type="csv",
        content_type="text/csv",
    )
    quote = Quote.objects.create(
        organisation=organisation,
        source_file=source,
        display_name="quote.csv",
        uploaded_by=user,
        vendor=report.quote.vendor,
        quote_number=report.quote.quote_number,
        quote_date="2025-03-01",
        status="parsed",
    )
    return Review.objects.create(
        quote=quote,
        organisation=organisation,
        workload=report.workload.model_dump(mode="json") if report.workload else {},
        facility=report.facility.model_dump(mode="json") if report.facility else {},
        report=report.model_dump(mode="json"),
        verdict=report.verdict,
        finance_level=report.blood_pressure.finance.level,
        facilities_level=report.blood_pressure.facilities.level,
        status="pending",
        created_by=user,
    )


@pytest.fixture
def review_a(demo):
    """Acme's review (customer org A), published to Acme as it is; globex's customer is org B."""
    from django.contrib.auth.models import User

    from tests.review.factories import review_published_as_is

    made = make_review(organisation=demo["acme"], user=User.objects.get(username="account"))
    return review_published_as_is(made)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Any outbound connection fails the test (and is recorded)."""
    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise AssertionError(f"outbound connection to {address!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts
