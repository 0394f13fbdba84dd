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
    # each B300 holds (288 GiB = 309.24 GB × 0.9 − 1.0 − 1.342 activations − 32.8) ÷ 2.147 GB
    # (16-bit KV) = 113.3 → 113 conversations, × 8 copies = 904 served at 15 tok/s;
    # 100 ÷ 904 = 11.1 % used, 88.9 % idle
    assert finding.metrics["utilization_pct"] == pytest.approx(11.1)
    assert finding.metrics["idle_pct"] == pytest.approx(88.9)
    # 88.94 % × $600,000 = $533,640 producing nothing
    assert finding.metrics["idle_usd"] == "533640"
    assert "$533,640" in finding.detail


@pytest.mark.parametrize(("users", "severity"), [(452, "warning"), (453, "ok")])
def test_half_idle_is_the_line(catalog: CatalogSnapshot, users: int, severity: str) -> None:
    # 452 ÷ 904 = 50 % idle → warning; 453 ÷ 904 = 49.9 % idle → ok
    finding = only(
        utilization.check(context(catalog, [quoted_system(catalog, "dgx-b300")], _qwen(users)))
    )
    assert finding.severity == severity


@pytest.mark.parametrize(("users", "severity"), [(92, "info"), (93, "ok")])
def test_a_right_sized_van_with_room_to_grow_is_not_waste(
    catalog: CatalogSnapshot, users: int, severity: str
) -> None:
    # the RTX PRO server serves 8 × 23 = 184 users at 15 tok/s (96 GB GDDR7 × 0.9 − 1.0 −
    # 1.342 − 32.8 = 51.26 GB ÷ 2.147 GB = 23.9 → 23 each); 92 ÷ 184 = 50 % idle → info
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
    assert only(utilization.check(ctx)).metrics["idle_usd"] == "533640"
