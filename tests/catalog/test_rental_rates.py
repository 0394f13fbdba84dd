"""Rental rates per GPU-hour: in the bundled catalog with their sources, loaded into the database,
read back identically, editable in the admin."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from apps.catalog.models import RentalRate
from apps.catalog.services import catalog_load, snapshot_from_db

REFERENCE = Path(__file__).resolve().parents[2] / "fixtures" / "reference"


def test_every_rate_for_a_catalog_gpu_is_bundled(catalog):
    with (REFERENCE / "gpu_rental.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    # 69 rates, 2 of them for the RTX 4090 (not on the lot): 67 bundled
    assert len(rows) == 69
    assert len(catalog.rental_rates) == 67
    gpus = {g.key for g in catalog.gpus}
    assert {r.gpu for r in catalog.rental_rates} <= gpus
    for rate in catalog.rental_rates:
        assert rate.source_url.startswith("http"), (rate.gpu, rate.provider)
        assert rate.usd_per_gpu_hour > 0


def test_market_figures_are_marked_unverified(catalog):
    # 7 rows are quoted from the provider's own page, one of them an RTX 4090 (not on the lot)
    assert sum(r.verified for r in catalog.rental_rates) == 6
    nebius = [r for r in catalog.rental_rates_for("h200-sxm") if r.provider == "Nebius"]
    assert [(r.usd_per_gpu_hour, r.verified, r.as_of) for r in nebius] == [
        (Decimal("3.5"), True, "2025-10-22")
    ]


def test_rates_come_cheapest_first_by_term(catalog):
    on_demand = catalog.rental_rates_for("h100-sxm")
    prices = [r.usd_per_gpu_hour for r in on_demand]
    assert prices == sorted(prices) and len(prices) == 14
    committed = catalog.rental_rates_for("h100-sxm", "committed_1y")
    # derived: AWS $6.88 × 0.60 = $4.128, GCP $10.9791 × 0.63 = $6.9168
    assert [r.usd_per_gpu_hour for r in committed] == [Decimal("4.128"), Decimal("6.9168")]


def test_the_nvl72_peak_is_an_estimate_with_its_source(catalog):
    # 1.4 × 120 kW steady = 168 kW, above the 142 kW maximum
    train = catalog.system("gb300-nvl72")
    assert train.power_peak_kw == 168
    figure = train.figure("power_peak_kw")
    assert figure.raw == "~168" and figure.verified is False
    assert "1.4x steady state" in figure.source


@pytest.mark.django_db
def test_rates_load_and_read_back_identically(catalog):
    counts = catalog_load()
    assert counts["rental_rates"] == 67
    assert catalog_load() == counts  # idempotent
    assert RentalRate.objects.count() == 67
    from_db = snapshot_from_db()
    key = lambda r: (r.gpu, r.provider, r.offering, r.term)  # noqa: E731
    assert sorted(from_db.rental_rates, key=key) == sorted(catalog.rental_rates, key=key)
    assert from_db.system("gb300-nvl72").power_peak_kw == 168


@pytest.mark.django_db
def test_an_admin_can_edit_a_rate(clients, catalog_db):
    rate = RentalRate.objects.filter(gpu__key="b200").first()
    page = clients["admin"].get(f"/admin/catalog/rentalrate/{rate.pk}/change/")
    assert page.status_code == 200
    listing = clients["admin"].get("/admin/catalog/rentalrate/?q=Lambda")
    assert listing.status_code == 200 and b"Lambda" in listing.content


def test_the_running_bill_defaults_are_the_sourced_ones():
    """The defaults the energy check states are rows of fixtures/reference/energy.csv."""
    from apps.review.engine.sizing.facility import (
        BTU_PER_HR_PER_KW,
        DEFAULT_KG_CO2_PER_KWH,
        DEFAULT_PUE,
        DEFAULT_USD_PER_KWH,
        KG_M2_PER_LB_SQFT,
    )

    with (REFERENCE / "energy.csv").open(encoding="utf-8") as file:
        rows = {(r["region"], r["kind"], r["year"]): r for r in csv.DictReader(file)}
    price = rows[("US-VA", "electricity_price_commercial", "2023")]
    # 8.95 US cents/kWh = $0.0895
    assert (float(price["value"]) / 100, price["verified"]) == (DEFAULT_USD_PER_KWH, "true")
    carbon = rows[("US", "grid_carbon_kg_per_kwh", "2023")]
    assert float(carbon["value"]) == DEFAULT_KG_CO2_PER_KWH
    pue = rows[("Global", "pue_average", "2025")]
    assert (float(pue["value"]), pue["verified"]) == (DEFAULT_PUE, "false")
    with (REFERENCE / "facility_rules.csv").open(encoding="utf-8") as file:
        rules = {r["rule"]: r for r in csv.DictReader(file)}
    assert float(rules["power_to_heat"]["value"]) == BTU_PER_HR_PER_KW
    assert float(rules["lb_per_sqft_to_kg_per_m2"]["value"]) == pytest.approx(KG_M2_PER_LB_SQFT)
    # the planning assumptions are flagged as such
    for rule in ("nvl72_liquid_share", "floor_250_lb_per_sqft", "office_230v_16a"):
        assert rules[rule]["verified"] == "false"
        assert "ASSUMPTION" in rules[rule]["source"]
