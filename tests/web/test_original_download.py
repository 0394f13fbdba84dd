"""The original upload comes back byte for byte, as an attachment, to internal roles only."""

import hashlib

import pytest
from django.contrib.auth.models import User

from apps.quotes.services import quote_upload

pytestmark = pytest.mark.django_db

CSV = (
    b"Part Number,Description,Qty,Unit Price,Extended Price\nDGX-SPARK-4TB,DGX Spark,1,3999,3999\n"
)


@pytest.fixture
def quote(demo, catalog_db):
    return quote_upload(
        data=CSV,
        filename="spark quote.csv",
        organisation=demo["acme"],
        uploaded_by=User.objects.get(username="account"),
    )


def test_finance_downloads_the_original_unchanged(quote, clients):
    response = clients["finance"].get(f"/quotes/{quote.uuid}/original/")
    body = b"".join(response.streaming_content)
    response.close()
    assert response.status_code == 200
    assert hashlib.sha256(body).hexdigest() == quote.source_file.sha256
    assert body == CSV
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Type"] == quote.source_file.content_type


def test_customers_cannot_download_originals(quote, clients):
    assert clients["customer"].get(f"/quotes/{quote.uuid}/original/").status_code == 403


def test_media_url_serves_no_uploads(quote, client):
    assert client.get(f"/media/uploads/{quote.source_file.sha256}").status_code == 404
