"""Money in its own currency, written in the reader's locale (babel's number formats).

An amount never loses its currency: "EUR 629,289.71" for an English reader, "EUR 629.289,71"
for a German one. The ISO code leads (never a bare "$" or "€"), so a euro quote can never be
read as dollars. A conversion names its rate and the date of the rates:
"EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28". Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from babel.core import Locale, UnknownLocaleError
from babel.numbers import format_currency, format_decimal

DEFAULT_LOCALE = "en_US"


def locale_name(language: str | None) -> str:
    """A Django language code ("de", "en-us", "pt-br") as a babel locale ("de", "en_US",
    "pt_BR"); unknown or empty -> en_US."""
    if not language:
        return DEFAULT_LOCALE
    name = language.replace("-", "_")
    lang, _, region = name.partition("_")
    candidate = f"{lang.lower()}_{region.upper()}" if region else lang.lower()
    try:
        Locale.parse(candidate)
    except (ValueError, UnknownLocaleError):
        return DEFAULT_LOCALE
    return candidate


def money(amount: Decimal | float | int | None, currency: str, locale: str = DEFAULT_LOCALE) -> str:
    """`Decimal("629289.71")`, "EUR" -> "EUR 629,289.71" (en_US) · "EUR 629.289,71" (de):
    to the cent, with the currency's ISO code first; unknown amount -> "—"."""
    if amount is None:
        return "—"
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if not currency:
        return format_decimal(value, format="#,##0.00", locale=locale)
    return format_currency(
        value, currency.upper(), format="¤¤\xa0#,##0.00", locale=locale, currency_digits=False
    ).replace("\xa0", " ")


def money_whole(
    amount: Decimal | float | int | None, currency: str, locale: str = DEFAULT_LOCALE
) -> str:
    """A threshold or a sum in a sentence, without cents: "USD 100,000"."""
    if amount is None:
        return "—"
    value = Decimal(str(amount)).quantize(Decimal("1"), rounding=ROUND_HALF_UP)
    return format_currency(
        value, currency.upper(), format="¤¤\xa0#,##0", locale=locale, currency_digits=False
    ).replace("\xa0", " ")


def money_approx(amount: Decimal, currency: str, locale: str = DEFAULT_LOCALE) -> str:
    """A converted sum, to three significant figures (a rate is not exact to the cent):
    731,045.86 -> "USD 731,000"; 8,412.30 -> "USD 8,410"; 612.4 -> "USD 612"."""
    value = Decimal(str(amount))
    if value == 0:
        return money_whole(0, currency, locale)
    digits = value.copy_abs().adjusted() + 1  # 731045.86 has 6 digits before the point
    step = Decimal(10) ** max(digits - 3, 0)
    rounded = (value / step).quantize(Decimal("1"), rounding=ROUND_HALF_UP) * step
    return money_whole(rounded, currency, locale)


def rate_text(rate: Decimal, locale: str = DEFAULT_LOCALE) -> str:
    """An exchange rate as the table gives it: 1.1617 (four decimals, trailing zeros kept)."""
    return format_decimal(Decimal(str(rate)), format="#,##0.0000##", locale=locale)


def money_converted(
    amount: Decimal,
    currency: str,
    *,
    converted: Decimal,
    to_currency: str,
    rate: Decimal,
    rates_of: dt.date,
    locale: str = DEFAULT_LOCALE,
) -> str:
    """ "EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28" (629,289.71 × 1.1617 =
    731,045.86, to three figures 731,000). The same currency needs no rate: "USD 600,000.00"."""
    original = money(amount, currency, locale)
    if currency.upper() == to_currency.upper():
        return original
    return (
        f"{original} ≈ {money_approx(converted, to_currency, locale)} at "
        f"{rate_text(rate, locale)}, rates of {rates_of.isoformat()}"
    )
