"""Exchange rates and the organisation's money: the dated rate table, conversion, the Finance
line in the quote's currency, and the CSV import.

Rates are stored as USD per unit (EUR 1.1617). From any currency to any other goes through
USD: EUR → GBP = usd_per(EUR) ÷ usd_per(GBP). The rate used is the newest on or before the
day asked for; both rates' dates are known, the older one is "the rates of". A currency with no
rate converts to nothing (None): the caller flags it, never treats it as dollars.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.review.finance_rule import Spend
from apps.review.models import ExchangeRate
from apps.review.pipeline import FinanceLines
from apps.sites.models import Organisation
from apps.words.money import money_whole, rate_text

RATES_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "exchange_rates.csv"
CSV_COLUMNS = ("currency", "usd_per_unit", "rates_of", "source", "verified")
CENT = Decimal("0.01")


class RateImportError(ValueError):
    """A bad row in a rates CSV, naming the file, row and column."""


@dataclass(frozen=True)
class Conversion:
    """amount (from_currency) × rate = converted (to_currency), rates of `rates_of`."""

    rate: Decimal
    rates_of: dt.date
    converted: Decimal


def _usd_per(currency: str, on: dt.date) -> tuple[Decimal, dt.date] | None:
    code = currency.upper()
    if code == "USD":
        return Decimal(1), on
    row = (
        ExchangeRate.objects.filter(currency=code, rates_of__lte=on)
        .order_by("-rates_of")
        .values_list("usd_per_unit", "rates_of")
        .first()
    )
    return (row[0], row[1]) if row else None


def rate_between(
    from_currency: str, to_currency: str, on: dt.date
) -> tuple[Decimal, dt.date] | None:
    """(rate, rates of) with amount × rate in `to_currency`; None when either has no rate.
    The same currency is 1 on the day asked."""
    if from_currency.upper() == to_currency.upper():
        return Decimal(1), on
    source, target = _usd_per(from_currency, on), _usd_per(to_currency, on)
    if source is None or target is None:
        return None
    dates = [
        d
        for code, (_, d) in ((from_currency, source), (to_currency, target))
        if code.upper() != "USD"
    ]
    return (source[0] / target[0]).quantize(Decimal("0.00000001")), min(dates)


def convert(
    amount: Decimal, from_currency: str, to_currency: str, on: dt.date | None = None
) -> Conversion | None:
    """629,289.71 EUR → USD at 1.1617: 629,289.71 × 1.1617 = 731,045.86."""
    found = rate_between(from_currency, to_currency, on or timezone.localdate())
    if found is None:
        return None
    rate, rates_of = found
    return Conversion(rate, rates_of, (amount * rate).quantize(CENT, rounding=ROUND_HALF_UP))


def spend_of(
    *, total: Decimal | None, currency: str, organisation: Organisation, on: dt.date | None = None
) -> Spend:
    """The quote's spend against the organisation's line, converted when it needs to be."""
    code = (currency or organisation.currency).upper()
    spend = Spend(
        total=total,
        currency=code,
        org_currency=organisation.currency.upper(),
        threshold=organisation.finance_threshold,
        organisation=organisation.name,
    )
    if total is None or spend.same_currency:
        return spend
    conversion = convert(total, code, organisation.currency, on)
    if conversion is None:
        return spend
    return Spend(
        total=total,
        currency=code,
        org_currency=spend.org_currency,
        threshold=spend.threshold,
        organisation=organisation.name,
        converted=conversion.converted,
        rate=conversion.rate,
        rates_of=conversion.rates_of,
    )


def finance_lines_for(currency: str, on: dt.date | None = None) -> FinanceLines | None:
    """The blood-pressure thresholds (settings, USD) in the quote's currency: USD 100,000 is
    EUR 86,081 at 1.1617 (100,000 ÷ 1.1617 = 86,080.74). None for USD or when no rate is known
    (the engine then says the quote was not converted)."""
    code = (currency or "USD").upper()
    if code == "USD":
        return None
    found = rate_between(code, "USD", on or timezone.localdate())
    if found is None:
        return None
    rate, rates_of = found  # USD per unit of the quote's currency: EUR 1.1617
    thresholds = tuple(float(Decimal(t) / rate) for t in settings.RIGHTSIZE_FINANCE_THRESHOLDS)
    note = (
        f"{money_whole(settings.RIGHTSIZE_FINANCE_THRESHOLDS[1], 'USD')} at "
        f"{rate_text(rate)}, rates of {rates_of.isoformat()}"
    )
    return FinanceLines(thresholds, code, note)


@dataclass(frozen=True)
class RateRow:
    currency: str
    usd_per_unit: Decimal
    rates_of: dt.date
    source: str
    verified: bool


def _rate_row(path: str, number: int, raw: dict[str, str | None]) -> RateRow:
    """One CSV row, each cell checked; a bad one names file, row and column."""
    column = ""

    def cell(name: str) -> str:
        nonlocal column
        column = name
        return (raw.get(name) or "").strip()

    try:
        code = cell("currency").upper()
        if len(code) != 3 or not code.isalpha():
            raise ValueError("not a three-letter ISO 4217 code")
        value = Decimal(cell("usd_per_unit"))
        if not value.is_finite() or value <= 0:
            raise ValueError("must be a positive number")
        rates_of = dt.date.fromisoformat(cell("rates_of"))
        source = cell("source")
        if not source:
            raise ValueError("every rate names its source")
        verified = cell("verified").lower() in {"1", "true", "yes"}
    except (ValueError, InvalidOperation) as exc:
        shown = raw.get(column) or ""
        raise RateImportError(f"{path}, row {number}, column {column}: {shown!r}: {exc}") from exc
    return RateRow(code, value, rates_of, source, verified)


def rates_import(text: str, *, path: str = "rates.csv") -> int:
    """Load rates from CSV (currency,usd_per_unit,rates_of,source,verified); a rate already
    there for that currency and day is replaced. All or nothing. Returns rows written."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in CSV_COLUMNS[:4] if c not in (reader.fieldnames or [])]
    if missing:
        raise RateImportError(f"{path}: missing column(s) {', '.join(missing)}")
    rows = [_rate_row(path, number, raw) for number, raw in enumerate(reader, start=2)]
    with transaction.atomic():
        for row in rows:
            ExchangeRate.objects.update_or_create(
                currency=row.currency,
                rates_of=row.rates_of,
                defaults={
                    "usd_per_unit": row.usd_per_unit,
                    "source": row.source,
                    "verified": row.verified,
                },
            )
    return len(rows)


def rates_seed() -> int:
    """The bundled, sourced rates (fixtures/exchange_rates.csv)."""
    return rates_import(RATES_FIXTURE.read_text(encoding="utf-8"), path=str(RATES_FIXTURE))
