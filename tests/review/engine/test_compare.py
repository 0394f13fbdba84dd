"""Competing quotes side by side: fit first, money second (cost per served unit),
the building third; and `compare_quotes` exactly as the issue writes it."""

from __future__ import annotations

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.compare import (
    CompareError,
    comparison_text,
    cost_per_served_unit,
    incomparable_reason,
    quotes_compare,
    served_of,
)
from apps.review.engine.schemas import Facility, Finding, Workload
from tests.conftest import EXAMPLES
from tests.review.engine.engine_kit import ROW_RDHX, quoted_system, run
from tests.review.factories import MEMORY_OK, report_make

VANS = EXAMPLES / "pcie-vans-for-one-finetune"
SEMI = EXAMPLES / "semi-for-one-finetune"
FINE_TUNE = Workload(name="Full fine-tune", kind="fine_tuning", memory_gb=512)
SCHOOL_BUS = Workload(
    name="Qwen3-32B for 100 users",
    kind="inference",
    model="Qwen3-32B",
    precision="fp8",
    concurrent_users=100,
    tokens_per_sec_per_user=15,
)


def vans_report(catalog: CatalogSnapshot, facility: Facility = ROW_RDHX):
    vans = quoted_system(
        catalog, "supermicro-sys-521ge-tnrt", 2, gpu_key="l40s", gpus=4, domain=1, unit_price=66_000
    )
    return run(catalog, [vans], FINE_TUNE, facility, total=Decimal("132000"))


# --- the pure ranking -------------------------------------------------------------------------


def test_fit_first_the_vans_lose_though_cheaper(catalog: CatalogSnapshot) -> None:
    semi = run(catalog, [quoted_system(catalog, "dgx-b200")], FINE_TUNE, total=Decimal("515000"))
    comparison = quotes_compare(reviewed=[("vans.csv", vans_report(catalog)), ("semi.csv", semi)])
    assert comparison.best == 1
    vans_line, semi_line = comparison.quotes
    assert (vans_line.verdict, semi_line.verdict) == ("fail", "pass")
    assert (vans_line.rank, semi_line.rank) == (2, 1)
    # vans: biggest domain is one 48 GB L40S, so $132,000 ÷ 48 GB = $2,750.00 per GB;
    # semi: min(512 GB job, 1,440 GB domain) = 512 GB, $515,000 ÷ 512 = $1,005.86 per GB
    assert vans_line.cost_per_served_unit == Decimal("2750.00")
    assert semi_line.cost_per_served_unit == Decimal("1005.86")
    assert semi_line.unit == "USD per GB of one-domain memory"
    # $515,000 − $132,000 = $383,000
    assert "Quote 1 is USD 383,000 cheaper" in comparison.why
    assert "nothing was wasted on paper, everything was wasted in practice" in comparison.why


def test_money_second_when_both_fit(catalog: CatalogSnapshot) -> None:
    b200 = run(catalog, [quoted_system(catalog, "dgx-b200")], FINE_TUNE, total=Decimal("515000"))
    h200 = run(catalog, [quoted_system(catalog, "dgx-h200")], FINE_TUNE, total=Decimal("400000"))
    assert b200.verdict == h200.verdict
    comparison = quotes_compare(reviewed=[("b200.csv", b200), ("h200.csv", h200)])
    # 512 GB fits both domains (1,440 and 1,128 GB): $515,000 ÷ 512 = $1,005.86 per GB against
    # $400,000 ÷ 512 = $781.25 per GB
    assert comparison.best == 1
    assert comparison.quotes[1].cost_per_served_unit == Decimal("781.25")
    assert "money decides: USD 781 per GB of one-domain memory against USD 1,006" in (
        comparison.why
    )


def test_facilities_third_when_fit_and_money_tie() -> None:
    hot = report_make([MEMORY_OK], facilities="high")
    calm = report_make([MEMORY_OK], facilities="calm")
    comparison = quotes_compare(reviewed=[("hot.csv", hot), ("calm.csv", calm)])
    assert comparison.best == 1
    assert "easier on Facilities (calm against high)" in comparison.why


def test_idle_capacity_is_not_served(catalog: CatalogSnapshot) -> None:
    report = run(catalog, [quoted_system(catalog, "dgx-b300")], SCHOOL_BUS, total=Decimal("600000"))
    served = served_of(report)
    assert served is not None and served.basis == "users"
    assert report.sizing.max_concurrent_users is not None
    assert report.sizing.max_concurrent_users > 100
    # the B300 serves hundreds at 15 tokens/s, but 100 were asked for: $600,000 ÷ 100 = $6,000
    assert served.served == 100
    assert cost_per_served_unit(report.quote.total, served) == Decimal("6000.00")


def test_fp64_is_counted_per_tflops(catalog: CatalogSnapshot) -> None:
    cfd = Workload(name="CFD solver", kind="hpc", fp64_tflops=100)
    h200 = run(catalog, [quoted_system(catalog, "dgx-h200")], cfd, total=Decimal("400000"))
    b300 = run(catalog, [quoted_system(catalog, "dgx-b300")], cfd, total=Decimal("600000"))
    comparison = quotes_compare(reviewed=[("b300.csv", b300), ("h200.csv", h200)])
    assert comparison.best == 1
    b300_line, h200_line = comparison.quotes
    # H200: min(100 asked, 8 × 67 = 536) = 100 TFLOPS, $400,000 ÷ 100 = $4,000 per TFLOPS;
    # B300: 8 × 1.25 = 10 TFLOPS served, $600,000 ÷ 10 = $60,000 per TFLOPS, and it fails
    assert h200_line.cost_per_served_unit == Decimal("4000.00")
    assert b300_line.cost_per_served_unit == Decimal("60000.00")
    assert (b300_line.verdict, h200_line.unit) == ("fail", "USD per FP64 TFLOPS")


def test_different_currencies_are_not_compared_on_money(catalog: CatalogSnapshot) -> None:
    b200 = run(catalog, [quoted_system(catalog, "dgx-b200")], FINE_TUNE, total=Decimal("515000"))
    h200 = run(
        catalog,
        [quoted_system(catalog, "dgx-h200")],
        FINE_TUNE,
        total=Decimal("400000"),
        currency="EUR",
    )
    comparison = quotes_compare(reviewed=[("b200.csv", b200), ("h200.csv", h200)])
    assert comparison.quotes[1].unit == "EUR per GB of one-domain memory"
    assert "different currencies, so money was not compared" in comparison.why


def test_different_facilities_are_flagged(catalog: CatalogSnapshot) -> None:
    room = Facility(name="Server room", rack_power_kw=15, racks_available=4)
    semi = run(catalog, [quoted_system(catalog, "dgx-b200")], FINE_TUNE, total=Decimal("515000"))
    comparison = quotes_compare(reviewed=[("a", vans_report(catalog, room)), ("b", semi)])
    assert comparison.why.endswith("reviewed against different facilities.")


def test_what_cannot_be_compared() -> None:
    one = report_make([MEMORY_OK])
    with pytest.raises(CompareError, match="two quotes or more"):
        quotes_compare(reviewed=[("only.csv", one)])
    other = one.model_copy(update={"workload": Workload(kind="training", memory_gb=10)})
    with pytest.raises(CompareError, match="different loads"):
        quotes_compare(reviewed=[("a.csv", one), ("b.csv", other)])
    without = one.model_copy(update={"workload": None})
    assert incomparable_reason([one, without]) == (
        "different loads: review 2 has no load — re-run one with the other's load "
        "(edit the load on its review page and save), then compare again"
    )
    assert incomparable_reason([one, one]) is None


def test_why_two_loads_differ_and_what_to_change() -> None:
    one = report_make([MEMORY_OK])
    assert one.workload is not None
    more = one.model_copy(
        update={"workload": one.workload.model_copy(update={"concurrent_users": 200})}
    )
    with pytest.raises(CompareError) as raised:
        quotes_compare(reviewed=[("a.csv", one), ("b.csv", more)])
    users = one.workload.concurrent_users
    assert str(raised.value).startswith(
        f"different loads: {users} users vs 200 users — re-run one with the other's load"
    )


def test_every_difference_is_named_side_against_side() -> None:
    one = report_make([MEMORY_OK])
    assert one.workload is not None
    other = one.model_copy(
        update={
            "workload": one.workload.model_copy(
                update={"concurrent_users": 128, "model": "Llama-3.1-8B", "context_tokens": 4096}
            )
        }
    )
    reason = incomparable_reason([one, other]) or ""
    assert f"{one.workload.concurrent_users} users vs 128 users" in reason
    assert f"model {one.workload.model} vs model Llama-3.1-8B" in reason
    # numbers as every face writes them: 4096 -> "4,096"
    assert f"{one.workload.context_tokens:,}-token context vs 4,096-token context" in reason


def test_the_headline_is_the_worst_finding() -> None:
    bad = Finding(check="cooling", severity="critical", title="No rails", detail="Liquid only.")
    comparison = quotes_compare(
        reviewed=[("a.csv", report_make([MEMORY_OK, bad])), ("b.csv", report_make([MEMORY_OK]))]
    )
    assert comparison.quotes[0].headline == "No rails"
    assert comparison.quotes[1].headline == ""
    text = comparison_text(comparison)
    assert text.startswith("best  quote 2: b.csv")
    assert "No rails" in text


# --- the command line -------------------------------------------------------------------------


def compare(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("compare_quotes", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def room_args() -> list[str]:
    """The vans' workload and Server room (15 kW, air) for both quotes."""
    return ["--workload", str(VANS / "workload.json"), "--facility", str(VANS / "facility.json")]


@pytest.mark.usefixtures("catalog_db")
def test_compare_quotes_picks_the_dgx_b200() -> None:
    code, out, err = compare(
        str(VANS / "quote.csv"), str(SEMI / "quote.csv"), *room_args(), "--format", "json"
    )
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert set(result) == {"quotes", "best", "why"}
    assert result["best"] == 1
    vans, semi = result["quotes"]
    for line in (vans, semi):
        assert set(line) >= {
            "file",
            "verdict",
            "total",
            "currency",
            "finance_level",
            "facilities_level",
            "cost_per_served_unit",
            "unit",
        }
    assert (vans["verdict"], semi["verdict"]) == ("fail", "pass")
    # Σ lines: 2 × $28,000 + 8 × $9,500 = $132,000; one DGX B200 $515,000
    assert (vans["total"], semi["total"]) == ("132000.00", "515000.00")
    # $132,000 ÷ 48 GB (one L40S) = $2,750.00; $515,000 ÷ 512 GB = $1,005.86
    assert (vans["cost_per_served_unit"], semi["cost_per_served_unit"]) == ("2750.00", "1005.86")
    assert semi["file"].endswith("semi-for-one-finetune/quote.csv")
    assert "USD 383,000 cheaper" in result["why"]
    assert "nothing was wasted on paper, everything was wasted in practice" in result["why"]


@pytest.mark.usefixtures("catalog_db")
def test_compare_quotes_text() -> None:
    code, out, _ = compare(str(VANS / "quote.csv"), str(SEMI / "quote.csv"), *room_args())
    assert code == 0
    assert out.splitlines()[0].startswith("best  quote 2:")
    assert "1 × NVIDIA DGX B200 (8 × B200)" in out


@pytest.mark.usefixtures("catalog_db")
@pytest.mark.parametrize(
    ("quotes", "message"),
    [
        ([str(VANS / "quote.csv")], "error: quote.csv: compare needs two quotes or more"),
        ([str(VANS / "quote.csv"), "missing.csv"], "error: missing.csv: no such file"),
        (
            [str(VANS / "quote.csv"), str(EXAMPLES / "bad-negative-quantity" / "quote.csv")],
            "error: quote.csv, row 2, column 'Qty': quantity -2 is negative",
        ),
    ],
)
def test_bad_input_is_one_error_line(quotes: list[str], message: str) -> None:
    code, out, err = compare(*quotes, *room_args())
    assert (code, out) == (2, "")
    assert err.strip() == message
    assert "Traceback" not in err


@pytest.mark.usefixtures("catalog_db")
def test_bad_workload_names_the_file(tmp_path) -> None:
    workload = tmp_path / "workload.json"
    workload.write_text('{"kind": "fine_tuning", "gpu": "B200"}', encoding="utf-8")
    code, _, err = compare(
        str(VANS / "quote.csv"),
        str(SEMI / "quote.csv"),
        "--workload",
        str(workload),
        "--facility",
        "server-room",
    )
    assert code == 2
    assert err.strip() == "error: workload.json: unknown field 'gpu'"
