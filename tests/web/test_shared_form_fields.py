"""The review page's load and room forms share fields prepared once (no deep copy of ~25
fields on every what-if); a form with saved workloads or facilities still gets its own."""

from __future__ import annotations

import pytest

from apps.catalog.services import catalog_snapshot_clear
from apps.review.engine.schemas import ModelShape, Workload
from apps.sites.models import SavedFacility, SavedWorkload
from apps.web.forms.review import CUSTOM_MODEL, FacilityForm, WorkloadForm

pytestmark = pytest.mark.django_db

SHAPE = ModelShape(name="Mystery-20B", params_b=20)


def _workload(**changes: object) -> Workload:
    data = {"name": "Assistant", "kind": "inference", "model": "Llama-3.3-70B", **changes}
    return Workload.model_validate(data)


def test_two_page_forms_share_their_fields_and_keep_their_own_errors():
    one = WorkloadForm({"w-concurrent_users": "0"}, prefix="w", current=_workload())
    two = WorkloadForm({"w-concurrent_users": "12"}, prefix="w", current=_workload())
    assert one.fields["concurrent_users"] is two.fields["concurrent_users"]
    assert "saved" not in one.fields and "saved" not in two.fields
    assert not one.is_valid() and "concurrent_users" in one.errors
    assert "concurrent_users" not in two.errors
    rooms = FacilityForm(prefix="f"), FacilityForm(prefix="f")
    assert rooms[0].fields["site"] is rooms[1].fields["site"] and "saved" not in rooms[0].fields


def test_a_custom_model_shape_gets_its_own_choices():
    plain = WorkloadForm(prefix="w", current=_workload())
    custom = WorkloadForm(prefix="w", current=_workload(model=SHAPE))
    labels = dict(custom.fields["model"].choices)  # type: ignore[attr-defined]
    assert labels[CUSTOM_MODEL] == "Mystery-20B (custom shape, kept)"
    assert CUSTOM_MODEL not in dict(plain.fields["model"].choices)  # type: ignore[attr-defined]
    assert 'value="__custom__"' in str(custom["model"]) and "__custom__" not in str(plain["model"])


def test_forms_with_saved_ones_get_fields_of_their_own():
    page = WorkloadForm(prefix="w", current=_workload())
    upload = WorkloadForm(prefix="w", saved_workloads=SavedWorkload.objects.none())
    assert "saved" in upload.fields and upload.fields["model"] is not page.fields["model"]
    room = FacilityForm(prefix="f", saved_facilities=SavedFacility.objects.none())
    assert "saved" in room.fields


def test_a_reloaded_catalog_prepares_the_fields_again():
    before = WorkloadForm(prefix="w", current=_workload())
    catalog_snapshot_clear()
    after = WorkloadForm(prefix="w", current=_workload())
    assert after.fields["model"] is not before.fields["model"]
    assert after.fields["model"].choices == before.fields["model"].choices  # type: ignore[attr-defined]
