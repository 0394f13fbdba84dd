"""With uploads in object storage (S3: no local path), the PDF sandbox still gets the reseller's
logo: the one file is copied into a temporary directory for the render."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import InMemoryStorage

from apps.reports.services import _logo_root_local
from apps.sites.models import Organisation

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


def test_a_logo_in_object_storage_is_copied_next_to_the_render(monkeypatch):
    # a storage with no local path, as S3 is (the field's storage is bound when models load)
    field = Organisation._meta.get_field("reseller_logo")
    monkeypatch.setattr(field, "storage", InMemoryStorage())
    customer = Organisation.objects.create(name="Acme", slug="acme-logo-test")
    customer.reseller_logo.save("northwind.png", ContentFile(PNG))

    with _logo_root_local(customer) as root:
        copied = root / Path(customer.reseller_logo.name).name
        assert copied.read_bytes() == PNG
    assert not root.exists()  # gone after the render
