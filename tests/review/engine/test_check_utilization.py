"""utilization: the school bus against the cement truck, with the idle money."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.checks import utilization
from tests.review.engine.engine_kit import OFFICE_15A, context, only, quoted_system


def _qwen(users: int, speed: float = 15, kind: str = "inference") -> dict:
    # a 16-bit KV cache asked for, so the capacity arithmetic stays the one these tests quote
    return {
        "kind": kind,
        "model": "Qwen3-32B",
        "precision": "fp8",
        "kv_precision": "bf16",
        "concurrent_users": users,
        "tokens_per_sec_per_user": speed,
    }


def test_needed_a_school_bus_bought_a_cement_truck(catalog: CatalogSnapshot) -> None:
    b300 = quoted_system(catalog, "dgx-b300", unit_price=600_000)
    finding = only(utilization.check(context(catalog, [b300], _qwen(100))))
    assert (finding.severity, finding.title) == (
        "warning",
        "Needed a school bus, bought a cement truck",
    )
    # 100 users ÷ 840 served at 15 tok/s = 11.9 % used, 88.1 % idle
    assert finding.metrics["utilization_pct"] == pytest.approx(11.9)
    assert finding.metrics["idle_pct"] == pytest.approx(88.1)
    # 88.10 % × $600,000 = $528,600 producing nothing
    assert finding.metrics["idle_usd"] == "528600"
    assert "$528,600" in finding.detail


@pytest.mark.parametrize(("users", "severity"), [(420, "warning"), (421, "ok")])
def test_half_idle_is_the_line(catalog: CatalogSnapshot, users: int, severity: str) -> None:
    # 420 ÷ 840 = 50 % idle → warning; 421 ÷ 840 = 49.9 % idle → ok
    finding = only(
        utilization.check(context(catalog, [quoted_system(catalog, "dgx-b300")], _qwen(users)))
    )
    assert finding.severity == severity


@pytest.mark.parametrize(("users", "severity"), [(96, "info"), (97, "ok")])
def test_a_right_sized_van_with_room_to_grow_is_not_waste(
    catalog: CatalogSnapshot, users: int, severity: str
) -> None:
    # the RTX PRO server serves 8 × 24 = 192 users at 15 tok/s; 96 ÷ 192 = 50 % idle → info
    van = quoted_system(catalog, "rtx-pro-server-8x")
    finding = only(utilization.check(context(catalog, [van], _qwen(users))))
    assert finding.severity == severity


def test_a_development_box_may_idle(catalog: CatalogSnapshot) -> None:
    ctx = context(
        catalog, [quoted_system(catalog, "dgx-spark")], _qwen(1, 4, "development"), OFFICE_15A
    )
    finding = only(utilization.check(ctx))
    assert (finding.severity, finding.title) == ("ok", "Sized for development")


def test_an_oversubscribed_quote_has_no_idle_capacity(catalog: CatalogSnapshot) -> None:
    ctx = context(catalog, [quoted_system(catalog, "dgx-spark")], _qwen(100, 10), OFFICE_15A)
    finding = only(utilization.check(ctx))
    assert (finding.severity, finding.metrics["utilization_pct"]) == ("ok", 100.0)


def test_idle_money_uses_the_quote_total_without_unit_prices(catalog: CatalogSnapshot) -> None:
    b300 = quoted_system(catalog, "dgx-b300", unit_price=None)
    b300 = b300.model_copy(update={"unit_price": None})
    ctx = context(catalog, [b300], _qwen(100), total=Decimal("600000"))
    # no unit price: the catalog's $600,000 stands in for the vehicle
    assert only(utilization.check(ctx)).metrics["idle_usd"] == "528600"
