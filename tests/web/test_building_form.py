"""The web form speaks Facilities' language too: feeds, cooling plant, floor, the bill, and the
load's time for buy or rent."""

from __future__ import annotations

import pytest

from apps.review.engine.schemas import Facility, Workload
from apps.web.forms.review import FacilityForm, WorkloadForm, workload_initial

pytestmark = pytest.mark.django_db

LOAD = {
    "kind": "fine_tuning",
    "precision": "bf16",
    "context_tokens": 8192,
    "concurrent_users": 1,
    "tokens_per_sec_per_user": 10,
    "memory_gb": 512,
}


def test_a_colocation_cage_from_the_form():
    form = FacilityForm(
        {
            "name": "Cage 12",
            "site": "datacenter",
            "cooling": "air",
            "feed_volts": "208",
            "feed_phase": "three",
            "feed_amps": "30",
            "feed_redundant": "on",
            "racks_available": "4",
            "floor_load_kg_per_m2": "1221",
            "units": "si",
        }
    )
    assert form.is_valid(), form.errors
    facility = form.facility
    assert (facility.feed_volts, facility.feed_phase, facility.feed_amps) == (208, "three", 30)
    assert facility.feed_redundant is True
    assert facility.floor_load_kg_per_m2 == 1221 and facility.units == "si"
    assert facility.continuous_share == 0.8  # left blank: the NEC 80 % rule


def test_a_230_v_office_circuit():
    form = FacilityForm(
        {"site": "office", "cooling": "air", "circuit_volts": "230", "circuit_amps": "16"}
    )
    assert form.is_valid(), form.errors
    assert (form.facility.circuit_volts, form.facility.circuit_amps) == (230, 16)


def test_a_feed_without_amps_is_a_form_error():
    form = FacilityForm({"site": "datacenter", "cooling": "air", "feed_volts": "208"})
    assert not form.is_valid()
    assert "feed_amps missing" in str(form.non_field_errors())


def test_a_facility_round_trips_through_the_edit_form():
    facility = Facility(
        name="Hall", cooling="liquid", rack_power_kw=150, cdu_kw=500, facility_water_c=32
    )
    form = FacilityForm(current=facility)
    assert form.initial["cdu_kw"] == 500 and form.initial["facility_water_c"] == 32


@pytest.mark.parametrize(
    ("duration", "unit", "expected"),
    [
        ("6", "weeks", {"duration_weeks": 6.0}),
        ("18", "months", {"duration_months": 18.0}),
        ("", "ongoing", {"duration_ongoing": True}),
    ],
)
def test_the_loads_time(catalog_db, duration, unit, expected):
    data = LOAD | {"duration": duration, "duration_unit": unit, "busy_hours_per_day": "10"}
    form = WorkloadForm(data)
    assert form.is_valid(), form.errors
    workload = form.workload
    for field, value in expected.items():
        assert getattr(workload, field) == value
    assert workload.busy_hours_per_day == 10
    again = workload_initial(workload)
    assert again["duration_unit"] == unit


def test_no_time_given_is_todays_workload(catalog_db):
    form = WorkloadForm(LOAD)
    assert form.is_valid(), form.errors
    assert not form.workload.states_time
    assert form.workload == Workload.model_validate(LOAD)


def test_the_upload_page_shows_the_building_fields(clients):
    body = clients["account_team"].get("/quotes/upload/").content.decode()
    for name in ("f-feed_volts", "f-feed_redundant", "f-cdu_kw", "f-pue", "w-duration_unit"):
        assert f'name="{name}"' in body
    assert "Default $0.0895 (EIA 2023, Virginia commercial)." in body


def test_the_review_page_draws_the_racks_and_buy_or_rent(clients, demo, catalog_db):
    """The real engine end to end: four DGX B200 in a 2 kW room, for a six-week fine-tune."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from apps.review.models import Review
    from tests.conftest import EXAMPLES

    data = (EXAMPLES / "four-semis-in-a-2kw-room" / "quote.csv").read_bytes()
    form = {
        "organisation": demo["acme"].pk,
        "file": SimpleUploadedFile("quote.csv", data, content_type="text/csv"),
        **{f"w-{k}": v for k, v in LOAD.items()},
        "w-duration": 6,
        "w-duration_unit": "weeks",
        "f-name": "Legacy room",
        "f-site": "datacenter",
        "f-rack_power_kw": 2,
        "f-racks_available": 1,
        "f-cooling": "air",
    }
    response = clients["account_team"].post("/quotes/upload/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    review = Review.objects.get()
    assert review.workload["duration_weeks"] == 6
    body = clients["account_team"].get(f"/reviews/{review.uuid}/").content.decode()
    assert 'id="chart-rack-row"' in body and 'id="chart-buy-rent"' in body
    assert "none: no rack here can take one NVIDIA DGX B200" in body
    assert "rack-unusable" in body
    # the edit form keeps the time: 6 weeks
    assert 'name="w-duration_unit"' in body and '<option value="weeks" selected>' in body
