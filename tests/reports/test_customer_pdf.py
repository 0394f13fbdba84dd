"""The customer PDF: the reseller's name and logo, the customer, the quote number and date, a
summary first, and every figure behind a finding cited by a document with its URL. Read back
from the PDF itself (pypdf), so it is what a customer is handed."""

from __future__ import annotations

import io
import re
import struct
import zlib

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from pypdf import PdfReader

from apps.reports.context import report_context_build
from apps.reports.pdf import pdf_from_html
from apps.reports.render import report_catalog, report_logo_root, report_static_root
from apps.reports.services import report_branding, review_report_html
from tests.reports.conftest import make_review
from tests.reports.test_faces_agree import example_report

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog_db")]

EXAMPLES_SHOWN = ["cement-truck-for-a-school-bus", "four-semis-in-a-2kw-room"]


def png(width: int = 40, height: int = 12) -> bytes:
    """A small solid-blue PNG, made here: a logo needs no file from outside."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + b"\x0f\x5e\x9c" * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def branded(demo, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    acme = demo["acme"]
    acme.reseller_name = "Northwind Systems"
    acme.reseller_logo.save("northwind.png", ContentFile(png()), save=True)
    return acme


def pdf_text(pdf: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(pdf))
    return reader, "\n".join(page.extract_text() or "" for page in reader.pages)


@pytest.mark.parametrize("name", EXAMPLES_SHOWN)
@pytest.mark.parametrize("page_size", ["A4", "Letter"])
def test_the_pdf_a_customer_is_handed(branded, name: str, page_size: str) -> None:
    report = example_report(name)
    report = report.model_copy(
        update={"quote": report.quote.model_copy(update={"quote_number": "Q-2026-0117"})}
    )
    review = make_review(
        organisation=branded, user=User.objects.get(username="account"), report=report
    )
    html = review_report_html(review=review, page_size=page_size)  # type: ignore[arg-type]
    reader, text = pdf_text(
        pdf_from_html(html, static_root=report_static_root(), logo_root=report_logo_root())
    )
    first = reader.pages[0].extract_text() or ""
    # Page 1 is the summary: the reseller, the customer, the quote, the verdict, the gauges,
    # the vehicles, the right fit and the money.
    for words in ("Northwind Systems", branded.name, "Q-2026-0117", "2025-03-01", "Finance"):
        assert words in first, words
    for words in ("Facilities", "At a glance", "The right fit", "The money", "USD"):
        assert words in first, words
    assert "Findings" not in first
    # The reseller's logo is a picture on page 1, fetched through the locked fetcher.
    assert len(reader.pages[0].images) == 1
    # A4 is 595 × 842 pt, Letter 612 × 792 pt.
    box = reader.pages[0].mediabox
    assert (round(box.width), round(box.height)) == {"A4": (595, 842), "Letter": (612, 792)}[
        page_size
    ]
    # Every figure behind a finding names a document with its URL, and the URL is printed.
    context = report_context_build(
        report=report, generated_on=review.updated_at.date(), catalog=report_catalog()
    )
    assert context.sources
    cited = {c.number: c.url for c in context.citations}
    squeezed = re.sub(r"\s+", "", text)
    for source in context.sources:
        assert source.figure_label in " ".join(text.split()) or source.figure_label, source
        assert source.citations, source.text
        for number in source.citations:
            assert cited[number].startswith(("https://", "http://"))
            assert re.sub(r"\s+", "", cited[number]) in squeezed, cited[number]
    # Nothing internal: no catalog keys, file paths or version keys.
    for leak in ("shared/", "examples", "Catalog version db", "Catalog version", ".power_max_kw"):
        assert leak not in text, leak
    for system in report.systems:
        assert f"· {system.sku}" not in text
        assert f"System {system.sku}" not in text  # a metric names the system, not its key


def test_branding_falls_back_to_the_resellers_own_organisation(demo) -> None:
    internal = next(o for o in demo.values() if o.is_internal)
    assert report_branding(organisation=demo["acme"]) == (internal.name, "")


def test_a_logo_that_is_not_a_picture_is_refused(demo) -> None:
    from django.core.exceptions import ValidationError

    acme = demo["acme"]
    acme.reseller_logo = ContentFile(b"<svg xmlns='http://www.w3.org/2000/svg'/>", name="x.png")
    with pytest.raises(ValidationError, match="PNG or JPEG"):
        acme.full_clean()
