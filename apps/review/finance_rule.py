"""What needs Finance: one rule, in one place, for the upload preview, the review's status and
the queue's "why".

A quote goes to Finance when any of these holds:
- a critical or warning finding;
- the Finance blood pressure is High or Crisis;
- the spend is over the organisation's threshold (in the organisation's currency, converted
  at the dated exchange rate);
- the spend is in a currency with no rate: it cannot be judged, so it is never waved through
  as if it were the organisation's money.

Pure: findings, a level and a `Spend` in; reasons in words and money out. No reasons, no
Finance.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.review.engine.schemas import Finding
from apps.words import LEVEL_LABELS, check_label
from apps.words.money import DEFAULT_LOCALE, money, money_converted, money_whole

HIGH_LEVELS = frozenset({"high", "crisis"})


@dataclass(frozen=True)
class Spend:
    """The quote's total in its own currency and, when a rate is known, in the
    organisation's; `threshold` is the organisation's line in its currency."""

    total: Decimal | None
    currency: str
    org_currency: str
    threshold: Decimal
    organisation: str = "the organisation"
    converted: Decimal | None = None
    rate: Decimal | None = None
    rates_of: dt.date | None = None

    @property
    def same_currency(self) -> bool:
        return (self.currency or self.org_currency).upper() == self.org_currency.upper()

    @property
    def in_org_currency(self) -> Decimal | None:
        """The total in the organisation's currency; None when unknown or no rate."""
        if self.total is None:
            return None
        return self.total if self.same_currency else self.converted

    def shown(self, locale: str = DEFAULT_LOCALE) -> str:
        """ "EUR 629,289.71 ≈ USD 731,000 at 1.1617, rates of 2026-11-28" or "USD 600,000.00"."""
        if self.total is None:
            return "no total"
        if self.same_currency:
            return money(self.total, self.currency or self.org_currency, locale)
        if self.converted is None or self.rate is None or self.rates_of is None:
            return f"{money(self.total, self.currency, locale)} (no exchange rate)"
        return money_converted(
            self.total,
            self.currency,
            converted=self.converted,
            to_currency=self.org_currency,
            rate=self.rate,
            rates_of=self.rates_of,
            locale=locale,
        )


def _checks(findings: Sequence[Finding], severity: str) -> list[str]:
    return list(dict.fromkeys(check_label(f.check) for f in findings if f.severity == severity))


def finance_reasons(
    *,
    findings: Sequence[Finding],
    finance_level: str,
    spend: Spend,
    locale: str = DEFAULT_LOCALE,
) -> list[str]:
    """Why Finance must decide, one sentence per reason; [] when it need not.

    Example: a EUR 629,289.71 quote for an organisation with a USD 100,000 line, at 1.1617:
    629,289.71 × 1.1617 = 731,045.86 > 100,000, so "EUR 629,289.71 ≈ USD 731,000 at 1.1617,
    rates of 2026-11-28 is over Acme's USD 100,000 line."
    """
    reasons: list[str] = []
    for severity, word in (("critical", "Critical"), ("warning", "Warning")):
        checks = _checks(findings, severity)
        if checks:
            reasons.append(f"{word}: {', '.join(checks)}.")
    if finance_level in HIGH_LEVELS:
        reasons.append(f"Finance blood pressure is {LEVEL_LABELS[finance_level]}.")
    line = money_whole(spend.threshold, spend.org_currency, locale)
    if spend.total is not None:
        converted = spend.in_org_currency
        if converted is None:
            reasons.append(
                f"No exchange rate from {spend.currency} to {spend.org_currency}: "
                f"{money(spend.total, spend.currency, locale)} cannot be judged against "
                f"{spend.organisation}'s {line} line."
            )
        elif converted > spend.threshold:
            reasons.append(f"{spend.shown(locale)} is over {spend.organisation}'s {line} line.")
    return reasons


def finance_preview(reasons: Sequence[str]) -> str:
    """The upload page's sentence before submit."""
    if not reasons:
        return "This will not need Finance: no warning, no high Finance pressure, under the line."
    return "This will go to Finance because " + " ".join(reasons)
