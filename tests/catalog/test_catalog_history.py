"""The catalog with history: every change recorded (who, when, old → new), a revision number
that every report carries, running processes that see an edit without a restart, and the
CSV / XLSX import with its dry-run diff in the admin."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import F

from apps.catalog.models import CatalogRevision, Gpu, System
from apps.catalog.resources import GpuResource
from apps.catalog.revision import catalog_revision_current
from apps.catalog.services import catalog_load, catalog_snapshot
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db

TRUCK = EXAMPLES / "cement-truck-for-a-school-bus"  # one DGX B300, 14.0 kW


def review_json() -> dict:
    out = StringIO()
    call_command(
        "review_quote",
        str(TRUCK / "quote.csv"),
        "--workload",
        str(TRUCK / "workload.json"),
        "--facility",
        str(TRUCK / "facility.json"),
        "--format",
        "json",
        stdout=out,
    )
    return json.loads(out.getvalue())


def test_loading_the_same_catalog_twice_writes_no_history_and_keeps_the_revision(catalog_db):
    revision = catalog_revision_current()
    history = System.history.count()
    assert revision > 0 and history == System.objects.count()  # one "created" row per system

    catalog_load()

    assert catalog_revision_current() == revision
    assert System.history.count() == history


def test_a_catalog_edit_in_another_process_reaches_the_next_review_without_restart(
    catalog_db, settings
):
    settings.CATALOG_REVISION_CHECK_SECONDS = 0
    before = review_json()
    assert before["catalog_revision"] == catalog_revision_current()
    assert before["catalog_version"] == f"revision {before['catalog_revision']}"
    # 1 DGX B300 × 14.0 kW = 14.0 kW
    assert before["sizing"]["power_kw"] == 14.0

    # Another process (an admin on another web worker) edits the figure: no signal reaches us,
    # only the row and the revision change in the database.
    System.objects.filter(key="dgx-b300").update(power_max_kw=21.0)
    CatalogRevision.objects.filter(pk=1).update(number=F("number") + 1)

    after = review_json()
    # 1 DGX B300 × 21.0 kW = 21.0 kW, with the revision it was computed on
    assert after["sizing"]["power_kw"] == 21.0
    assert after["catalog_revision"] == before["catalog_revision"] + 1


def test_the_revision_is_checked_at_most_once_a_second(
    catalog_db, monkeypatch, settings, django_assert_num_queries
):
    settings.CATALOG_REVISION_CHECK_SECONDS = 1  # production's interval
    clock = [1000.0]
    monkeypatch.setattr("apps.catalog.services.time.monotonic", lambda: clock[0])
    first = catalog_snapshot()
    CatalogRevision.objects.filter(pk=1).update(number=F("number") + 1)

    clock[0] += 0.5
    with django_assert_num_queries(0):  # within the second: the held snapshot, no query
        assert catalog_snapshot() is first
    clock[0] += 0.6
    fresh = catalog_snapshot()  # past the second: one revision read, then the catalog again
    assert fresh.revision == first.revision + 1  # type: ignore[operator]
    clock[0] += 1.1
    with django_assert_num_queries(1):  # the revision has not moved: one read, same snapshot
        assert catalog_snapshot() is fresh


def test_an_edit_in_this_process_is_seen_at_once_and_recorded_old_to_new(catalog_db):
    held = catalog_snapshot()
    system = System.objects.get(key="dgx-b300")
    system.power_max_kw = 15.5
    system._change_reason = "vendor datasheet rev 2"  # type: ignore[attr-defined]
    system.save()

    fresh = catalog_snapshot()
    assert fresh is not held
    assert next(s for s in fresh.systems if s.key == "dgx-b300").power_max_kw == 15.5
    newest, previous = system.history.all()[:2]
    delta = newest.diff_against(previous)
    assert [(c.field, c.old, c.new) for c in delta.changes] == [("power_max_kw", 14.0, 15.5)]
    assert newest.history_change_reason == "vendor datasheet rev 2"


def test_saved_loads_rooms_and_vendor_corrections_keep_history(demo):
    from apps.quotes.models import VendorLineCorrection
    from apps.sites.models import SavedFacility, SavedWorkload

    workload = SavedWorkload.objects.filter(organisation=demo["acme"]).first()
    assert workload is not None
    workload.name = "Internal assistant, 200 users"
    workload.save()
    assert workload.history.first().name == "Internal assistant, 200 users"
    assert workload.history.count() == 2
    assert SavedFacility.history.exists()
    assert (
        VendorLineCorrection.history.model._meta.db_table == "quotes_historicalvendorlinecorrection"
    )


def test_the_export_writes_keys_and_names_not_database_ids(catalog_db):
    dataset = GpuResource().export()
    assert "id" not in dataset.headers
    row = dict(zip(dataset.headers, dataset[0], strict=True))
    gpu = Gpu.objects.get(key=row["key"])
    assert row["vendor"] == gpu.vendor.name  # "NVIDIA", not 1
    assert float(row["bandwidth_tbs"]) == gpu.bandwidth_tbs


def test_the_admin_import_shows_a_dry_run_diff_then_applies_it_as_the_admin(
    catalog_db, clients, demo
):
    admin = clients["admin"]
    assert admin.get("/admin/catalog/gpu/export/").status_code == 200
    dataset = GpuResource().export()
    key_col, bw_col = dataset.headers.index("key"), dataset.headers.index("bandwidth_tbs")
    gpu = Gpu.objects.get(key=dataset[0][key_col])
    old = gpu.bandwidth_tbs
    new = round(old + 0.5, 2)
    edited = list(dataset[0])
    edited[bw_col] = str(new)
    dataset[0] = tuple(edited)
    upload = SimpleUploadedFile("gpus.csv", dataset.csv.encode(), content_type="text/csv")
    revision = catalog_revision_current()

    preview = admin.post(
        "/admin/catalog/gpu/import/", {"import_file": upload, "format": "0", "resource": "0"}
    )
    body = preview.content.decode()
    assert preview.status_code == 200
    assert "Confirm import" in body and "Update" in body
    assert "<ins" in body or "<del" in body  # the changed figure, marked in the diff
    assert Gpu.objects.get(pk=gpu.pk).bandwidth_tbs == old  # a dry run: nothing written
    assert catalog_revision_current() == revision

    confirm_form = preview.context["confirm_form"]
    applied = admin.post("/admin/catalog/gpu/process_import/", confirm_form.initial)
    assert applied.status_code == 302
    assert Gpu.objects.get(pk=gpu.pk).bandwidth_tbs == new
    assert catalog_revision_current() == revision + 1  # one row changed, one revision
    newest = Gpu.objects.get(pk=gpu.pk).history.first()
    assert newest.history_user.username == "admin"
    assert Gpu.history.filter(history_date__gte=newest.history_date).count() == 1


def test_the_pdf_prints_the_catalog_revision_the_review_used():
    import datetime as dt

    from apps.reports.context import report_context_build
    from apps.reports.render import report_html_from_context
    from tests.reports.page_reports import school_bus_report

    report = school_bus_report().model_copy(
        update={"catalog_version": "revision 742", "catalog_revision": 742}
    )
    context = report_context_build(report=report, generated_on=dt.date(2026, 12, 1))
    assert context.catalog_revision == "742"
    assert "Catalog revision 742." in report_html_from_context(context)
