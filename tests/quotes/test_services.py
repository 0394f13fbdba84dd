"""quote_upload as a staged import, and a confirmed match (RELIABILITY 1, 3, 4, 26, 27)."""

import hashlib
import os
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.tasks import default_task_backend

from apps.catalog.models import Part
from apps.quotes.models import Quote, QuoteFile, QuoteLine, QuoteStatus, VendorPartMapping
from apps.quotes.parsing import QuoteParseError
from apps.quotes.services import QuoteRevisionError, quote_mapping_confirm, quote_upload
from apps.quotes.storage import blobs_orphaned_sweep, display_name_clean
from tests.conftest import EXAMPLES

HEADER = "Part Number,Description,Qty,Unit Price,Extended Price\n"
PCIE_VANS = (EXAMPLES / "pcie-vans-for-one-finetune" / "quote.csv").read_bytes()

# Django's own list (tests/file_uploads/tests.py), plus a NUL-ish name and a 300-character one.
CANDIDATE_TRAVERSAL_FILE_NAMES = [
    "/tmp/hax0rd.txt",
    "C:\\Windows\\hax0rd.txt",
    "C:/Windows/hax0rd.txt",
    "\\tmp\\hax0rd.txt",
    "/tmp\\hax0rd.txt",
    "subdir/hax0rd.txt",
    "subdir\\hax0rd.txt",
    "sub/dir\\hax0rd.txt",
    "../../hax0rd.txt",
    "..\\..\\hax0rd.txt",
    "../..\\hax0rd.txt",
    "..&#x2F;hax0rd.txt",
    "..&sol;hax0rd.txt",
    "quote.csv%00.exe",
    "quote.csv\x00.exe",
    "a" * 296 + ".csv",
]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


@pytest.fixture
def people(demo, catalog_db):
    return {
        "org": demo["acme"],
        "other_org": demo["globex"],
        "account": User.objects.get(username="account"),
    }


def _stored(media: Path) -> list[str]:
    return sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.is_file())


def _upload(people, data, filename="quote.csv", **kwargs):
    return quote_upload(
        data=data,
        filename=filename,
        organisation=people["org"],
        uploaded_by=people["account"],
        **kwargs,
    )


def test_a_quote_is_stored_with_its_original_lines_and_matches(media, people):
    quote = _upload(people, PCIE_VANS)
    sha = hashlib.sha256(PCIE_VANS).hexdigest()
    assert quote.status == QuoteStatus.PARSED
    assert (quote.version, quote.previous, quote.display_name) == (1, None, "quote.csv")
    # 2 × 28,000 + 8 × 9,500 = 132,000.
    assert quote.total == Decimal("132000.00")
    assert (quote.source_file.sha256, quote.source_file.blob) == (sha, f"uploads/{sha}")
    assert quote.source_file.size == len(PCIE_VANS)
    assert (quote.source_file.detected_type, quote.source_file.content_type) == ("csv", "text/csv")
    assert (media / "uploads" / sha).read_bytes() == PCIE_VANS
    lines = list(quote.lines.order_by("line"))
    assert [(line.line, line.source_row, line.match, line.quantity) for line in lines] == [
        (1, 2, "exact", 2),
        (2, 3, "exact", 8),
    ]
    assert lines[0].raw_cells[0] == "SYS-521GE-TNRT"
    assert lines[1].part == Part.objects.get(part_number="900-2G133-0080-000")
    assert lines[1].unit_price == Decimal("9500.00")
    assert all(line.is_valid and line.errors == [] for line in lines)


def test_the_same_file_twice_is_stored_once(media, people):
    first = _upload(people, PCIE_VANS)
    second = _upload(people, PCIE_VANS, filename="again.csv")
    assert first.pk != second.pk
    assert first.source_file_id == second.source_file_id
    assert QuoteFile.objects.count() == 1
    assert len(_stored(media)) == 1


def test_a_revision_is_a_new_version_never_an_overwrite(media, people):
    v1 = _upload(people, PCIE_VANS)
    v2 = _upload(people, PCIE_VANS.replace(b",8,", b",6,").replace(b"76000", b"57000"), previous=v1)
    assert (v2.version, v2.previous_id) == (2, v1.pk)
    # Revising v1 again follows the chain: the newest is v2, so this is v3.
    v3 = _upload(people, PCIE_VANS, previous=v1)
    assert (v3.version, v3.previous_id) == (3, v2.pk)
    v1.refresh_from_db()
    assert v1.lines.get(line=2).quantity == 8  # v1 is untouched
    assert v2.lines.get(line=2).quantity == 6


def test_a_revision_of_another_organisations_quote_is_refused(media, people):
    theirs = quote_upload(
        data=PCIE_VANS,
        filename="quote.csv",
        organisation=people["other_org"],
        uploaded_by=people["account"],
    )
    with pytest.raises(QuoteRevisionError):
        _upload(people, PCIE_VANS, previous=theirs)
    assert Quote.objects.count() == 1


def test_an_empty_file_stores_nothing(media, people):
    # RELIABILITY 1.
    with pytest.raises(QuoteParseError, match="empty"):
        _upload(people, b"")
    assert (Quote.objects.count(), QuoteFile.objects.count()) == (0, 0)
    assert _stored(media) == []


@pytest.mark.parametrize(
    ("data", "filename"),
    [
        (b"<!DOCTYPE html><html><body>hi</body></html>", "quote.xlsx"),
        (b"MZ\x90\x00" + b"\x00" * 64, "quote.csv"),
        (b"%PDF-1.7\n", "quote.csv"),
    ],
)
def test_a_file_that_is_not_a_quote_stores_nothing(media, people, data, filename):
    # RELIABILITY 3: magic bytes that contradict the name are refused before anything is kept.
    with pytest.raises(QuoteParseError, match="not a valid"):
        _upload(people, data, filename=filename)
    assert (Quote.objects.count(), QuoteFile.objects.count()) == (0, 0)
    assert _stored(media) == []


def test_an_oversized_file_stores_nothing_and_the_limit_itself_is_accepted(media, people, settings):
    settings.QUOTE_MAX_UPLOAD_BYTES = len(PCIE_VANS)
    assert _upload(people, PCIE_VANS).status == QuoteStatus.PARSED
    with pytest.raises(QuoteParseError, match="limit"):
        _upload(people, PCIE_VANS + b"\n")
    assert Quote.objects.count() == 1
    assert len(_stored(media)) == 1


def test_a_bad_row_keeps_the_original_as_rejected(media, people):
    data = (EXAMPLES / "bad-negative-quantity" / "quote.csv").read_bytes()
    with pytest.raises(QuoteParseError) as caught:
        _upload(people, data)
    quote = caught.value.quote
    assert quote.status == QuoteStatus.REJECTED
    assert quote.parse_error == str(caught.value)
    assert "row 2" in quote.parse_error and "quantity" in quote.parse_error
    assert quote.lines.count() == 0
    sha = hashlib.sha256(data).hexdigest()
    assert _stored(media) == [f"uploads/{sha}"]


def test_a_pdf_the_sandbox_gave_up_on_needs_manual_entry(media, people):
    with (
        mock.patch(
            "apps.quotes.services.parse_upload",
            side_effect=QuoteParseError(
                "the PDF reader was stopped", file="q.pdf", needs_manual=True
            ),
        ),
        pytest.raises(QuoteParseError) as caught,
    ):
        _upload(people, PCIE_VANS)
    assert caught.value.quote.status == QuoteStatus.NEEDS_MANUAL


@pytest.mark.parametrize("filename", CANDIDATE_TRAVERSAL_FILE_NAMES)
def test_hostile_names_never_become_paths(media, people, filename):
    # RELIABILITY 4: the blob is uploads/<sha256>, whatever the name says.
    quote = _upload(people, PCIE_VANS, filename=filename)
    sha = hashlib.sha256(PCIE_VANS).hexdigest()
    assert _stored(media) == [f"uploads/{sha}"]
    assert quote.source_file.blob == f"uploads/{sha}"
    for stored in media.rglob("*"):
        assert os.path.realpath(stored).startswith(os.path.realpath(media))
    name = quote.display_name
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith(".")
    assert 0 < len(name) <= 120


def test_display_names_keep_the_extension():
    assert display_name_clean("../../secret/quote.csv") == "quote.csv"
    long = display_name_clean("a" * 296 + ".csv")
    assert (len(long), long[-4:]) == (120, ".csv")
    assert display_name_clean("..") == "quote"
    assert display_name_clean("quote.csv\x00.exe") == "quote.csv.exe"


def test_a_crash_before_commit_leaves_no_row_and_the_sweeper_takes_the_blob(media, people):
    # RELIABILITY 26: the blob is written, then the line insert fails inside the transaction.
    with (
        mock.patch.object(QuoteLine.objects, "bulk_create", side_effect=RuntimeError("killed")),
        pytest.raises(RuntimeError),
    ):
        _upload(people, PCIE_VANS)
    assert (Quote.objects.count(), QuoteFile.objects.count()) == (0, 0)
    sha = hashlib.sha256(PCIE_VANS).hexdigest()
    assert _stored(media) == [f"uploads/{sha}"]
    # Younger than a day: maybe still committing, so kept.
    assert blobs_orphaned_sweep() == []
    kept = _upload(people, b"Part Number,Qty\nDGX-SPARK-4TB,1\n", filename="kept.csv")
    later = media / "uploads" / sha
    assert blobs_orphaned_sweep(older_than=timedelta(0)) == [f"uploads/{sha}"]
    assert not later.exists()
    assert _stored(media) == [kept.source_file.blob]


def test_a_crash_while_matching_records_an_error_and_keeps_the_original(media, people):
    # RELIABILITY 26, second half: the row says ERROR and the blob still hashes the same.
    with (
        mock.patch("apps.quotes.services.quote_intake_parsed", side_effect=KeyError("boom")),
        pytest.raises(KeyError),
    ):
        _upload(people, PCIE_VANS)
    quote = Quote.objects.get()
    assert quote.status == QuoteStatus.ERROR
    assert "KeyError" in quote.parse_error
    blob = media / quote.source_file.blob
    assert hashlib.sha256(blob.read_bytes()).hexdigest() == quote.source_file.sha256


def test_a_rolled_back_upload_enqueues_nothing(media, people, settings):
    # RELIABILITY 27: with the dummy backend, nothing reaches the queue when the outer
    # transaction rolls back.
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        _upload(people, PCIE_VANS)
        raise Abort
    assert Quote.objects.count() == 0
    assert default_task_backend.results == []


def test_a_discount_line_is_kept_without_breaking_the_constraint(media, people):
    data = (
        HEADER + "DGX-SPARK-4TB,Spark,1,3999.00,3999.00\n,Discount,1,(500.00),(500.00)\n"
    ).encode()
    quote = _upload(people, data)
    discount = quote.lines.get(line=2)
    assert discount.unit_price is None
    assert discount.extended_price == Decimal("-500.00")
    assert discount.raw_cells[3] == "(500.00)"
    assert "discount" in discount.errors[0]
    # 3,999.00 − 500.00 = 3,499.00.
    assert quote.total == Decimal("3499.00")


def test_confirming_a_match_remembers_it_for_the_vendor(media, people):
    data = (
        "Vendor: Acme Resellers\n"
        + HEADER
        + "SYS-621GE-TNRT,Compute node,2,28000,56000\n"
        + "900-2G133-0080-000,L40S,8,9500,76000\n"
    ).encode()
    quote = _upload(people, data)
    line = quote.lines.get(line=1)
    assert (line.match, line.part) == ("ambiguous", None)
    chassis = Part.objects.get(part_number="SYS-521GE-TNRT")
    confirmed = quote_mapping_confirm(quote_line=line, part=chassis, user=people["account"])
    assert (confirmed.match, confirmed.match_score, confirmed.part) == ("alias", 100.0, chassis)
    mapping = VendorPartMapping.objects.get()
    assert (mapping.text, mapping.part, mapping.confirmed_by) == (
        "sys 621ge tnrt",
        chassis,
        people["account"],
    )
    assert (quote.vendor, mapping.vendor) == ("Acme Resellers", "acme resellers")
    # The next quote from the same vendor matches the line straight away.
    again = _upload(people, data.replace(b"56000", b"56000.00"))
    assert again.lines.get(line=1).match == "alias"
