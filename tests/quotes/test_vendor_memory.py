"""What is remembered for a vendor is kept under the normalised seller (``vendor_key``): a
mapping or correction confirmed on an "Exxact Corporation" quote is found on an "EXXACT
CORP." or "Exxact" quote; migration 0006 re-keys the rows saved before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Part
from apps.quotes.models import VendorLineCorrection, VendorPartMapping
from apps.quotes.parsing.seller import vendor_key
from apps.quotes.schemas import LineCorrection
from apps.quotes.selectors import quote_corrections, quote_intake_stored, vendor_names
from apps.quotes.services import quote_line_correct, quote_mapping_confirm, quote_upload

#: NVIDIA's part numbers of an L40S and an H100 PCIe card (fixtures/catalog.json).
L40S, H100_PCIE = "900-2G133-0080-000", "900-21010-0000-000"
HEADER = "Part Number,Description,Qty,Unit Price,Extended Price\n"
#: A part number no catalog knows, the line the user confirms, and a line they correct.
LINES = (
    "GPU-ACCEL-48,Accelerator 48GB PCIe,8,9500,76000\nSVC-ONSITE-3Y,Onsite care 3 years,1,900,900\n"
)
#: One seller, three letterheads: a seller label, a company line, an e-mail address.
LETTERHEADS = {
    "Exxact Corporation": "Vendor: Exxact Corporation\nQuote No: EX-1001\n",
    "EXXACT CORP.": "EXXACT CORP. - Quotation\nQuote No: EX-1002\nCustomer: Acme Bank\n",
    "Exxact": "Quote EX-1003\nContact: sales@exxact.com\n",
}


@pytest.fixture
def people(demo, catalog_db, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return {"org": demo["acme"], "account": User.objects.get(username="account")}


def _upload(people, letterhead: str):
    return quote_upload(
        data=(letterhead + HEADER + LINES).encode(),
        filename="quote.csv",
        organisation=people["org"],
        uploaded_by=people["account"],
    )


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        ("Exxact Corporation", "exxact"),
        ("EXXACT CORP.", "exxact"),
        ("  Exxact   Corporation ", "exxact"),
        ("Straits Compute Pte. Ltd.", "straits compute"),
        ("株式会社東京GPUシステムズ", "東京gpuシステムズ"),
        ("Exxon Systems", "exxon systems"),
    ],
)
def test_the_vendor_key_is_the_seller_normalised(spelling, key):
    assert vendor_key(spelling) == key


def test_the_vendor_key_fits_its_column():
    assert len(vendor_key("Atlas " * 100)) == 200


def test_a_mapping_confirmed_for_one_spelling_is_found_on_the_others(people):
    first = _upload(people, LETTERHEADS["Exxact Corporation"])
    assert first.vendor == "Exxact Corporation"
    line = first.lines.get(line=1)
    assert line.part is None  # nobody knows GPU-ACCEL-48 yet
    l40s = Part.objects.get(part_number=L40S)
    quote_mapping_confirm(quote_line=line, part=l40s, user=people["account"])
    assert VendorPartMapping.objects.get().vendor == "exxact"
    for spelling in ("EXXACT CORP.", "Exxact"):
        later = _upload(people, LETTERHEADS[spelling])
        assert later.vendor == spelling  # reported as the letterhead writes it
        found = later.lines.get(line=1)
        assert (found.match, found.part) == ("alias", l40s), spelling


def test_a_mapping_is_not_found_on_another_sellers_quote(people):
    first = _upload(people, LETTERHEADS["Exxact Corporation"])
    l40s = Part.objects.get(part_number=L40S)
    quote_mapping_confirm(quote_line=first.lines.get(line=1), part=l40s, user=people["account"])
    other = _upload(people, "Vendor: Exxon Systems\nQuote No: XS-1\n")
    assert other.lines.get(line=1).part is None


def test_a_correction_remembered_for_one_spelling_is_read_on_the_others(people):
    first = _upload(people, LETTERHEADS["EXXACT CORP."])
    correction = LineCorrection(role="accessory")
    quote_line_correct(
        quote_line=first.lines.get(line=2),
        correction=correction,
        user=people["account"],
        remember=True,
    )
    assert VendorLineCorrection.objects.get().vendor == "exxact"
    for spelling in ("Exxact Corporation", "Exxact"):
        later = _upload(people, LETTERHEADS[spelling])
        assert quote_corrections(quote=later) == {2: correction}, spelling
        line = quote_intake_stored(quote=later).summary.lines[1]
        assert (line.role, line.corrected) == ("accessory", True), spelling


# --- migration 0006 ---------------------------------------------------------------------

BEFORE = [("quotes", "0005_ops_history")]
AFTER = [("quotes", "0006_vendor_keys_normalised")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_apps(transactional_db, catalog_db):
    """The quotes app as it was before 0006; put back to the newest afterwards."""
    apps = _migrate(BEFORE)
    yield apps
    _migrate(_migrate_leaves())


def _migrate_leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_the_migration_merges_each_sellers_spellings(old_apps):
    Mapping = old_apps.get_model("quotes", "VendorPartMapping")
    Correction = old_apps.get_model("quotes", "VendorLineCorrection")
    OldPart = old_apps.get_model("catalog", "Part")
    OldUser = old_apps.get_model("auth", "User")
    alice = OldUser.objects.create(username="alice")
    bob = OldUser.objects.create(username="bob")
    l40s, h100 = (OldPart.objects.get(part_number=number) for number in (L40S, H100_PCIE))
    now = timezone.now()
    old = Mapping.objects.create(
        vendor="exxact corporation", text="gpu accel 48", part=l40s, confirmed_by=alice
    )
    new = Mapping.objects.create(
        vendor="exxact corp.", text="gpu accel 48", part=h100, confirmed_by=bob
    )
    alone = Mapping.objects.create(
        vendor="exxact", text="svc onsite 3y", part=l40s, confirmed_by=alice
    )
    other = Mapping.objects.create(
        vendor="exxon systems", text="gpu accel 48", part=h100, confirmed_by=alice
    )
    # auto_now_add is set on create; the dates are put in afterwards: "exxact corp." was
    # confirmed a day after "exxact corporation", so its part (the H100) wins the merge.
    Mapping.objects.filter(pk=old.pk).update(confirmed_at=now - timedelta(days=2))
    Mapping.objects.filter(pk=new.pk).update(confirmed_at=now - timedelta(days=1))
    c_old = Correction.objects.create(
        vendor="exxact corporation", text="x", role="service", created_by=alice
    )
    c_new = Correction.objects.create(vendor="EXXACT", text="x", role="accessory", created_by=bob)
    c_gone = Correction.objects.create(
        vendor="exxact inc", text="x", role="note", created_by=bob, removed_at=now, removed_by=bob
    )
    Correction.objects.filter(pk=c_old.pk).update(created_at=now - timedelta(days=2))
    Correction.objects.filter(pk=c_new.pk).update(created_at=now - timedelta(days=1))

    _migrate(AFTER)

    # 4 mappings in, 3 out: the two "gpu accel 48" of Exxact merged into the newer one.
    rows = {(m.vendor, m.text): (m.pk, m.part_id) for m in VendorPartMapping.objects.all()}
    assert rows == {
        ("exxact", "gpu accel 48"): (new.pk, h100.pk),
        ("exxact", "svc onsite 3y"): (alone.pk, l40s.pk),
        ("exxon systems", "gpu accel 48"): (other.pk, h100.pk),
    }
    History = VendorPartMapping.history.model
    merged = History.objects.get(id=old.pk, history_type="-")
    assert (merged.part_id, merged.confirmed_by_id, merged.vendor) == (
        l40s.pk,
        alice.pk,
        "exxact corporation",
    )
    assert f"merged into mapping {new.pk}" in merged.history_change_reason
    assert History.objects.filter(id=new.pk, history_type="~", vendor="exxact").exists()
    # 3 corrections in, 3 out: all re-keyed; the older standing one superseded by the newer.
    corrections = {c.pk: c for c in VendorLineCorrection.objects.all()}
    assert {c.vendor for c in corrections.values()} == {"exxact"}
    assert corrections[c_new.pk].removed_at is None
    assert corrections[c_old.pk].removed_at is not None
    assert corrections[c_old.pk].removed_by is None
    assert corrections[c_gone.pk].removed_by_id == bob.pk  # removed before: left as it was
    assert VendorLineCorrection.objects.filter(removed_at__isnull=True).count() == 1


def test_a_reconfirmed_mapping_counts_from_its_last_confirmation(old_apps):
    """A re-confirmation used to update the row without moving ``confirmed_at``: its history
    entry says when it happened, and that is the date the merge compares."""
    Mapping = old_apps.get_model("quotes", "VendorPartMapping")
    History = old_apps.get_model("quotes", "HistoricalVendorPartMapping")
    OldPart = old_apps.get_model("catalog", "Part")
    alice = old_apps.get_model("auth", "User").objects.create(username="alice")
    l40s, h100 = (OldPart.objects.get(part_number=number) for number in (L40S, H100_PCIE))
    now = timezone.now()
    first = Mapping.objects.create(vendor="exxact", text="k", part=l40s, confirmed_by=alice)
    second = Mapping.objects.create(
        vendor="exxact corporation", text="k", part=h100, confirmed_by=alice
    )
    # first: confirmed 3 days ago, re-confirmed (to the L40S) 1 hour ago;
    # second: confirmed 2 days ago, never again. 1 hour ago is the newest: first wins.
    Mapping.objects.filter(pk=first.pk).update(confirmed_at=now - timedelta(days=3))
    Mapping.objects.filter(pk=second.pk).update(confirmed_at=now - timedelta(days=2))
    History.objects.create(
        id=first.pk,
        vendor="exxact",
        text="k",
        part_id=l40s.pk,
        confirmed_by_id=alice.pk,
        confirmed_at=now - timedelta(days=3),
        history_date=now - timedelta(hours=1),
        history_type="~",
    )

    _migrate(AFTER)

    kept = VendorPartMapping.objects.get()
    assert (kept.pk, kept.vendor, kept.part_id) == (first.pk, "exxact", l40s.pk)


def test_the_migration_run_again_changes_nothing(old_apps):
    _migrate(AFTER)
    _migrate(BEFORE)  # the reverse is a no-op: the keys stay normalised
    alice = User.objects.create(username="alice")
    l40s = Part.objects.get(part_number=L40S)
    VendorPartMapping.objects.create(vendor="exxact", text="k", part=l40s, confirmed_by=alice)
    _migrate(AFTER)
    assert list(VendorPartMapping.objects.values_list("vendor", "text")) == [("exxact", "k")]


def test_the_corrections_page_names_the_seller_as_its_newest_quote_spells_it(people, clients):
    first = _upload(people, LETTERHEADS["EXXACT CORP."])
    quote_line_correct(
        quote_line=first.lines.get(line=2),
        correction=LineCorrection(role="accessory"),
        user=people["account"],
        remember=True,
    )
    _upload(people, LETTERHEADS["Exxact Corporation"])  # the newest spelling
    names = vendor_names(["exxact", "nobody"])
    assert names == {"exxact": "Exxact Corporation", "nobody": "nobody"}
    response = clients["account_team"].get(reverse("quotes:vendor_corrections"))
    assert response.status_code == 200
    body = response.content.decode()
    # kept under "exxact", shown as people read the seller's name
    assert "<td>Exxact Corporation</td>" in body
    assert "<td>exxact</td>" not in body
