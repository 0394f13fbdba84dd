"""Money in its own currency: babel formats, the dated rate table, the Finance line converted
into the quote's currency, and the issue's EUR 629,289.71 quote judged in EUR."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command

from apps.review.engine.review import review
from apps.review.finance_rule import Spend, finance_preview, finance_reasons
from apps.review.models import ExchangeRate
from apps.review.money import (
    RateImportError,
    convert,
    finance_lines_for,
    rates_import,
    spend_of,
)
from apps.words.money import locale_name, money, money_approx, money_converted, money_whole
from tests.review.engine.engine_kit import ROW_RDHX, quoted_system, review_input

EUR_QUOTE = Decimal("629289.71")
RATES_OF = dt.date(2026, 11, 28)


def test_money_keeps_its_currency_in_the_readers_locale():
    assert money(EUR_QUOTE, "EUR") == "EUR 629,289.71"
    assert money(EUR_QUOTE, "EUR", locale_name("de")) == "EUR 629.289,71"
    assert money_whole(100_000, "usd") == "USD 100,000"
    assert money(None, "EUR") == "—"
    assert locale_name("en-gb") == "en_GB" and locale_name("xx-nope") == "en_US"


def test_a_conversion_names_its_rate_and_date():
    # 629,289.71 × 1.1617 = 731,045.86, to three significant figures 731,000.
    assert money_approx(Decimal("731045.86"), "USD") == "USD 731,000"
    assert (
        money_converted(
            EUR_QUOTE,
            "EUR",
            converted=Decimal("731045.86"),
            to_currency="USD",
            rate=Decimal("1.1617"),
            rates_of=RATES_OF,
        )
        == "EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28"
    )


@pytest.mark.django_db
def test_the_seeded_rate_converts_the_eur_quote():
    rate = ExchangeRate.objects.get(currency="EUR", rates_of=RATES_OF)
    assert rate.usd_per_unit == Decimal("1.1617") and "ecb.europa.eu" in rate.source
    conversion = convert(EUR_QUOTE, "EUR", "USD", dt.date(2026, 12, 1))
    assert conversion is not None
    # 629,289.71 × 1.1617 = 731,045.855… → 731,045.86
    assert (conversion.rate, conversion.rates_of, conversion.converted) == (
        Decimal("1.1617"),
        RATES_OF,
        Decimal("731045.86"),
    )
    assert convert(EUR_QUOTE, "EUR", "USD", dt.date(2026, 11, 1)) is None  # no rate that early
    assert convert(EUR_QUOTE, "CHF", "USD") is None


@pytest.mark.django_db
def test_the_eur_quote_is_judged_in_eur_against_a_converted_line(demo, catalog):
    """The issue: "$629,290 is over the $100,000 line" for a EUR quote. Now the engine writes
    the quote's euros against the line converted into euros: 100,000 ÷ 1.1617 = 86,080.74."""
    lines = finance_lines_for("EUR", dt.date(2026, 12, 1))
    assert lines is not None
    assert lines.currency == "EUR"
    assert [round(t, 2) for t in lines.thresholds] == [8608.07, 86080.74, 860807.44]
    assert lines.note == "USD 100,000 at 1.1617, rates of 2026-11-28"
    inp = review_input(
        [quoted_system(catalog, "dgx-b200")],
        {"kind": "training", "memory_gb": 100},
        ROW_RDHX,
        total=EUR_QUOTE,
        currency="EUR",
    )
    finance = review(
        inp,
        catalog,
        finance_thresholds=lines.thresholds,
        thresholds_currency=lines.currency,
        thresholds_note=lines.note,
    ).blood_pressure.finance
    # 629,289.71 is between EUR 86,081 and EUR 860,807: high.
    assert finance.level == "high"
    assert (
        "Finance clears their throat: EUR 629,290 is over the EUR 86,081 line "
        "(USD 100,000 at 1.1617, rates of 2026-11-28)." in finance.reasons
    )
    assert not any("$" in reason for reason in finance.reasons[:1])
    assert not any("not converted" in reason for reason in finance.reasons)

    spend = spend_of(
        total=EUR_QUOTE, currency="EUR", organisation=demo["acme"], on=dt.date(2026, 12, 1)
    )
    reasons = finance_reasons(findings=[], finance_level="raised", spend=spend)
    assert reasons == [
        "EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28 is over Acme Research's "
        "USD 100,000 line."
    ]
    assert finance_preview(reasons).startswith("This will go to Finance because EUR 629,289.71")


def test_the_rule_reasons_in_words():
    from tests.review.factories import MEMORY_OK, RACK_POWER_CRITICAL

    spend = Spend(
        total=Decimal("5000"), currency="USD", org_currency="USD", threshold=Decimal("100000")
    )
    assert finance_reasons(findings=[MEMORY_OK], finance_level="calm", spend=spend) == []
    assert finance_reasons(
        findings=[MEMORY_OK, RACK_POWER_CRITICAL], finance_level="high", spend=spend
    ) == ["Critical: Rack power.", "Finance blood pressure is High."]
    assert finance_preview([]).startswith("This will not need Finance")


@pytest.mark.django_db
def test_an_organisation_in_euros_judges_a_dollar_quote_in_euros(demo):
    acme = demo["acme"]
    acme.currency, acme.finance_threshold = "EUR", Decimal("500000")
    # USD 600,000 ÷ 1.1617 = EUR 516,484.46 > EUR 500,000.
    spend = spend_of(
        total=Decimal("600000"), currency="USD", organisation=acme, on=dt.date(2026, 12, 1)
    )
    assert spend.converted == Decimal("516484.46")
    assert finance_reasons(findings=[], finance_level="raised", spend=spend) == [
        "USD 600,000.00 ≈ EUR 516,000 at 0.860807, rates of 2026-11-28 is over "
        "Acme Research's EUR 500,000 line."
    ]


@pytest.mark.django_db
def test_rates_import_from_csv_names_the_bad_row(tmp_path):
    good = "currency,usd_per_unit,rates_of,source\nGBP,1.2650,2026-11-28,test source\n"
    assert rates_import(good) == 1
    assert ExchangeRate.objects.get(currency="GBP").usd_per_unit == Decimal("1.2650")
    with pytest.raises(RateImportError, match=r"rates.csv, row 2, column usd_per_unit: '-1'"):
        rates_import("currency,usd_per_unit,rates_of,source\nJPY,-1,2026-11-28,x\n")
    with pytest.raises(RateImportError, match="missing column"):
        rates_import("currency,rate\nJPY,1\n")
    path = tmp_path / "rates.csv"
    path.write_text("currency,usd_per_unit,rates_of,source\nCHF,1.1300,2026-11-27,test\n")
    call_command("rates_import", str(path))
    assert ExchangeRate.objects.filter(currency="CHF").exists()
